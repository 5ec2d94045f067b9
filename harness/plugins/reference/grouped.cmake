# SPDX-License-Identifier: Apache-2.0
# The grouped half of the reference plugin: own row_split_k128_v1 codecs and encoders, their
# cross-check against the oracle, and the grouped_absmax benchmark.
target_sources(ninfer_reference PRIVATE ${CMAKE_CURRENT_LIST_DIR}/grouped_codec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/grouped_search.cpp)

if(NINFER_BUILD_TESTS AND TARGET ninfer_reference_tests)
  target_sources(ninfer_reference_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_grouped_codec.cpp)
  target_link_libraries(ninfer_reference_tests PRIVATE ninfer::oracle ninfer::suites)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_grouped_reference ${CMAKE_CURRENT_LIST_DIR}/bench_grouped_reference.cpp)
  target_link_libraries(bench_grouped_reference PRIVATE ninfer::reference)
endif()
