# SPDX-License-Identifier: Apache-2.0
# The runner: cases on a subject, comparison and mismatch classes, baselines, sweeps
# (docs/cli.md). Included from harness/CMakeLists.txt.
target_sources(ninfer_harness PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/compare.cpp ${CMAKE_CURRENT_LIST_DIR}/src/compare_families.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/compare_linear.cpp ${CMAKE_CURRENT_LIST_DIR}/src/compare_grouped.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/baseline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/case_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/runner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/suggest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/fingerprint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/fingerprint_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sr_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sr_fingerprint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/recipe_fingerprint.cpp)
target_link_libraries(ninfer_harness
  PUBLIC ninfer::reports ninfer::vectors ninfer::oracle
  PRIVATE ninfer::native nlohmann_json::nlohmann_json fmt::fmt OpenSSL::Crypto)
target_compile_definitions(ninfer_harness PRIVATE NINFER_PROJECT_VERSION="${PROJECT_VERSION}")

if(NINFER_BUILD_TESTS)
  target_sources(ninfer_harness_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_compare.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_classify_native.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_compare_linear.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_readings.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_baseline.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_nan_verdicts.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_fingerprint.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_suggest.cpp)
  target_link_libraries(ninfer_harness_tests PRIVATE fmt::fmt nlohmann_json::nlohmann_json ninfer::native)
  target_compile_definitions(ninfer_harness_tests PRIVATE NINFER_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # A family plugged in from its own folder (tests/toy_family/), in its own executable so that no
  # other test's catalog holds it; with every side's descriptors held to NINFER_FAMILIES.
  add_executable(ninfer_toy_family_tests ${CMAKE_CURRENT_LIST_DIR}/tests/test_toy_family.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_family_descriptors.cpp ${CMAKE_CURRENT_LIST_DIR}/tests/toy_family/toy_family.cpp)
  target_link_libraries(ninfer_toy_family_tests PRIVATE ninfer_catch_main ninfer::harness ninfer_cli_families
    ninfer::reference)
  catch_discover_tests(ninfer_toy_family_tests TEST_PREFIX "harness." PROPERTIES LABELS harness)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_sweep ${CMAKE_CURRENT_LIST_DIR}/bench/bench_sweep.cpp)
  target_link_libraries(bench_sweep PRIVATE ninfer::harness ninfer::reference ninfer::native fmt::fmt Threads::Threads)
  add_dependencies(bench_sweep reference mutant_bf16_truncation ninfer-conform)
  target_compile_definitions(bench_sweep PRIVATE
    NINFER_CONFORM_EXE="$<TARGET_FILE:ninfer-conform>"
    NINFER_PLUGIN_DIR="${NINFER_PLUGIN_BUILD_DIR}")
endif()
