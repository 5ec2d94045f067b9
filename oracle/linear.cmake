# SPDX-License-Identifier: Apache-2.0
# The `linear` operator oracle (included by oracle/CMakeLists.txt; suites/LINEAR.md): exact
# products and sums, the profiles' criteria and acceptance.
target_sources(ninfer_oracle PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/linear.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/linear_words.cpp)
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_linear.cpp)
endif()
if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_linear ${CMAKE_CURRENT_LIST_DIR}/bench/bench_linear.cpp)
  target_link_libraries(bench_linear PRIVATE ninfer::oracle)
endif()
