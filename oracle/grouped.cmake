# SPDX-License-Identifier: Apache-2.0
# The grouped signed-integer formats, their canonical encoders and the row_split_k128_v1 layout
# oracle (included by oracle/CMakeLists.txt); oracle/GROUPED.md describes them.
target_sources(ninfer_oracle PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/grouped_codes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/grouped_absmax.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/grouped_search.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/row_split.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/row_split_bytes.cpp)

if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_grouped_codes.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_grouped_absmax.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_row_split.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_grouped_search.cpp)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_grouped ${CMAKE_CURRENT_LIST_DIR}/bench/bench_grouped.cpp)
  target_link_libraries(bench_grouped PRIVATE ninfer::oracle)
endif()
