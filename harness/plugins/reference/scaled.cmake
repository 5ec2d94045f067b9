# SPDX-License-Identifier: Apache-2.0
# The reference plugin's scaled floating-point codecs (nvfp4, the FP8 row formats) and their
# cross-check against the oracle (included by harness/plugins/reference/CMakeLists.txt).
target_sources(ninfer_reference PRIVATE ${CMAKE_CURRENT_LIST_DIR}/scaled_codec.cpp ${CMAKE_CURRENT_LIST_DIR}/scaled_ops.cpp)
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_reference_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_scaled_codec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_scaled_ops.cpp)
endif()
if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_scaled_reference ${CMAKE_CURRENT_LIST_DIR}/bench_scaled_reference.cpp)
  target_link_libraries(bench_scaled_reference PRIVATE ninfer::reference ninfer::oracle)
endif()
