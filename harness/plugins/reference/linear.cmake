# SPDX-License-Identifier: Apache-2.0
# The reference plugin's `linear` operator (issue 13, suites/LINEAR.md): the call checks and the
# weight rows (linear_ops.cpp), its own arithmetic (linear_arithmetic.cpp: superaccumulator, binary32
# sequential sums, ggml's q8_1 activation quantizer), their tests against the oracle and the GEMV
# benchmark (included by harness/plugins/reference/CMakeLists.txt).
set(NINFER_LINEAR_SOURCES ${CMAKE_CURRENT_LIST_DIR}/linear_ops.cpp ${CMAKE_CURRENT_LIST_DIR}/linear_arithmetic.cpp)
target_sources(ninfer_reference PRIVATE ${NINFER_LINEAR_SOURCES})
# The f32_sequential evaluation: no product may be fused into an addition.
set_source_files_properties(${NINFER_LINEAR_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")

if(NINFER_BUILD_TESTS AND TARGET ninfer_reference_tests)
  target_sources(ninfer_reference_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_linear_ops.cpp)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_linear_reference ${CMAKE_CURRENT_LIST_DIR}/bench_linear_reference.cpp)
  target_link_libraries(bench_linear_reference PRIVATE ninfer::reference)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/bench_linear_reference.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
endif()
# tests/test_linear_ops.cpp runs the linear mutants (beside reference.so) on the suites' quick cases.
if(NINFER_BUILD_TESTS AND TARGET ninfer_reference_tests)
  add_dependencies(ninfer_reference_tests ninfer_mutants)
endif()
