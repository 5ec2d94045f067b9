# SPDX-License-Identifier: Apache-2.0
# The proof of ninfer::native against the MPFR oracle (included by oracle/CMakeLists.txt after
# ninfer_native): prove_native (every binary32 input of every FP32-source conversion; README,
# "Exhaustive proofs"), bench_native (the native batch loops beside a copy loop), and the
# Catch2 test that runs the proof on small ranges.
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_native_proof.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bench/native_proof.cpp)
  target_link_libraries(ninfer_oracle_tests PRIVATE ninfer::native)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(prove_native ${CMAKE_CURRENT_LIST_DIR}/bench/prove_native.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bench/native_proof.cpp)
  target_link_libraries(prove_native PRIVATE ninfer::oracle ninfer::native)
  add_executable(bench_native ${CMAKE_CURRENT_LIST_DIR}/bench/bench_native.cpp)
  target_link_libraries(bench_native PRIVATE ninfer::native ninfer::oracle)
endif()
