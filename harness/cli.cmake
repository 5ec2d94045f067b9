# SPDX-License-Identifier: Apache-2.0
# The command line `ninfer-conform` (docs/cli.md): one file per command under src/cli/.
# The format families' CLI descriptors (src/cli/families.hpp), the oracle I/O they share and the `oracle` command: a
# library, so that the executable, the fuzz harness and the tests link the same descriptors.
add_library(ninfer_cli_families STATIC
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/families.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/family_word.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/oracle_grouped.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/oracle_scaled.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/oracle_gguf.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/oracle_io.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_oracle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/oracle_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/files.cpp)
ninfer_precompile(ninfer_cli_families)
target_include_directories(ninfer_cli_families PUBLIC ${CMAKE_CURRENT_LIST_DIR}/src/cli)
target_link_libraries(ninfer_cli_families PUBLIC ninfer::harness ninfer::suites ninfer::vectors ninfer::oracle
  ninfer::reports CLI11::CLI11 fmt::fmt nlohmann_json::nlohmann_json)

add_executable(ninfer-conform
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/help.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_merge.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_coverage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_generate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_plugins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/dirs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_fingerprint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/cmd_worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cli/subject_options.cpp
  ${NINFER_OWN_MANIFEST_CPP})
ninfer_precompile(ninfer-conform)
target_link_libraries(ninfer-conform PRIVATE ninfer_cli_families ninfer::harness ninfer::suites ninfer::vectors ninfer::oracle
  ninfer::reports CLI11::CLI11 fmt::fmt nlohmann_json::nlohmann_json ${CMAKE_DL_LIBS})
# Directories (src/cli/dirs.cpp): the build tree's for the executable in this build directory;
# otherwise relative to the executable, so that an install works from any prefix.
file(RELATIVE_PATH ninfer_plugins_from_bin ${CMAKE_INSTALL_FULL_BINDIR}
  ${CMAKE_INSTALL_PREFIX}/${NINFER_PLUGIN_INSTALL_DIR})
file(RELATIVE_PATH ninfer_vectors_from_bin ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_DATADIR}/ninfer-conform/vectors)
target_compile_definitions(ninfer-conform PRIVATE
  NINFER_CLI_BUILD_DIR="${CMAKE_CURRENT_BINARY_DIR}"
  NINFER_PLUGIN_BUILD_DIR="${NINFER_PLUGIN_BUILD_DIR}"
  NINFER_VECTORS_BUILD_DIR="${PROJECT_SOURCE_DIR}/vectors/data"
  NINFER_PLUGIN_DIR_FROM_BIN="${ninfer_plugins_from_bin}"
  NINFER_VECTORS_DIR_FROM_BIN="${ninfer_vectors_from_bin}")
add_dependencies(ninfer-conform ninfer_own_manifest)
install(TARGETS ninfer-conform EXPORT ninfer-cli-targets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

if(NINFER_BUILD_TESTS)
  # The families' CLI descriptors, in process (no CLI binary, no plugin).
  add_executable(ninfer_cli_family_tests ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_families.cpp)
  target_link_libraries(ninfer_cli_family_tests PRIVATE ninfer_catch_main ninfer_cli_families)
  catch_discover_tests(ninfer_cli_family_tests TEST_PREFIX "cli." PROPERTIES LABELS harness)

  # Tests that need the CLI binary (the worker of plugin subjects) and the bundled plugins.
  add_executable(ninfer_cli_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_runner.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_mutants_killed.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_hostile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_paths.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_typos.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_progress.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_report.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_oracle.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_oracle_encode_extremes.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_sweep.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_merge.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_operators.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_case_cache.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_output_files.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_cli_ci_gates.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_jobs_stress.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_signals.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_one_verdict.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_fingerprint_subjects.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_sr_statistics.cpp)
  ninfer_precompile(ninfer_cli_tests CATCH)
  target_link_libraries(ninfer_cli_tests PRIVATE ninfer_catch_main ninfer::harness ninfer::suites ninfer::vectors
    ninfer::oracle ninfer::reports fmt::fmt nlohmann_json::nlohmann_json ${CMAKE_DL_LIBS})
  get_property(ninfer_mutant_targets DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/plugins/mutants PROPERTY BUILDSYSTEM_TARGETS)
  add_dependencies(ninfer_cli_tests ninfer-conform reference ${ninfer_mutant_targets} ${ninfer_hostile_plugins}
    fixture_v1_minimal_0_1_0 fixture_crash fixture_hang fixture_overrun fixture_escape escape_tree)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  target_compile_definitions(ninfer_cli_tests PRIVATE
    NINFER_CONFORM_EXE="$<TARGET_FILE:ninfer-conform>"
    NINFER_PLUGIN_DIR="${NINFER_PLUGIN_BUILD_DIR}"
    NINFER_HOSTILE_PLUGIN_DIR="${NINFER_HOSTILE_PLUGIN_DIR}"
    NINFER_TEST_PLUGIN_DIR="${NINFER_TEST_PLUGIN_DIR}"
    NINFER_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    NINFER_CLI_TEST_TMP_ROOT="${CMAKE_CURRENT_BINARY_DIR}/cli-test-tmp"
    NINFER_PYTHON="${Python3_EXECUTABLE}"
    NINFER_ESCAPE_TREE="$<TARGET_FILE:escape_tree>"
    NINFER_REPORT_SCHEMA="${PROJECT_SOURCE_DIR}/reports/schema/report-v3.schema.json"
    NINFER_REPORT_VALIDATOR="${PROJECT_SOURCE_DIR}/reports/tests/validate_report.py")
  # Long (issue 32, item 4): `run` leaves out the suites whose golden cases its subject does not
  # declare, which needs every suite's random calls among its golden ones.
  add_test(NAME "harness: the golden cases of every suite cover the calls of its random ones"
    COMMAND ninfer_cli_tests "[.golden-covers-random]")
  set_tests_properties("harness: the golden cases of every suite cover the calls of its random ones"
    PROPERTIES LABELS "harness;long" TIMEOUT 1800)
  # The HTML report in headless Chromium (skipped when there is none); sweeps a bundled mutant.
  add_test(NAME "reports: the HTML report renders in headless Chromium"
    COMMAND bash ${PROJECT_SOURCE_DIR}/reports/tests/html_in_browser.sh $<TARGET_FILE:ninfer-conform>
            ${CMAKE_CURRENT_BINARY_DIR}/html-browser-test ${PROJECT_SOURCE_DIR})
  set_tests_properties("reports: the HTML report renders in headless Chromium"
    PROPERTIES LABELS reports SKIP_RETURN_CODE 77 TIMEOUT 300)
  # Issue 32, item 9: every marked console block of the docs is what its commands print now
  # (scripts/refresh_docs.py; scripts/refresh_docs.sh rewrites them). Runs the GUIDE's numpy,
  # minimal-plugin and mutant examples: label long.
  add_test(NAME "docs: every shown output is what its command prints"
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/refresh_docs.py --check $<TARGET_FILE:ninfer-conform>
            ${PROJECT_SOURCE_DIR})
  set_tests_properties("docs: every shown output is what its command prints" PROPERTIES LABELS "docs;long" TIMEOUT 900)
  # The same, quick: the blocks not marked `long` (error lines, listings, the oracle, the GUIDE's
  # C plugin and mutant runs), one test per document, and no block showing output unmarked.
  foreach(doc README.md docs/GUIDE.md docs/cli.md)
    add_test(NAME "docs: the quick shown outputs of ${doc} are what their commands print"
      COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/refresh_docs.py --check --quick --doc ${doc}
              $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR})
    set_tests_properties("docs: the quick shown outputs of ${doc} are what their commands print"
      PROPERTIES LABELS docs TIMEOUT 120)
  endforeach()
  add_test(NAME "docs: a stale shown output and an unmarked one are named"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/refresh_docs_stale_test.sh ${Python3_EXECUTABLE}
            $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/refresh-docs-stale-test)
  set_tests_properties("docs: a stale shown output and an unmarked one are named" PROPERTIES LABELS docs TIMEOUT 120)
  # The ecosystem subjects (docs/ECOSYSTEM.md; skipped before scripts/ecosystem/install.sh): real
  # libraries judged at level full, and the matrix of docs/ECOSYSTEM.md regenerated from their runs.
  add_test(NAME "ecosystem: real libraries pass what they document at level full"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/ecosystem_test.sh $<TARGET_FILE:ninfer-conform> ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/ecosystem-test)
  add_test(NAME "ecosystem: docs/ECOSYSTEM.md's matrix is what the runs give, but the 2^32 sweeps"
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/ecosystem/matrix.py --check --quick
            $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR})
  add_test(NAME "ecosystem: docs/ECOSYSTEM.md's matrix is what the runs give, its 2^32 sweeps too"
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/ecosystem/matrix.py --check
            $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR})
  set_tests_properties("ecosystem: real libraries pass what they document at level full"
                       "ecosystem: docs/ECOSYSTEM.md's matrix is what the runs give, but the 2^32 sweeps"
    PROPERTIES LABELS ecosystem SKIP_RETURN_CODE 77 TIMEOUT 900
               ENVIRONMENT "NINFER_ECOSYSTEM_DIR=${NINFER_ECOSYSTEM_DIR}")
  set_tests_properties("ecosystem: docs/ECOSYSTEM.md's matrix is what the runs give, its 2^32 sweeps too"
    PROPERTIES LABELS "ecosystem;long" SKIP_RETURN_CODE 77 TIMEOUT 1800
               ENVIRONMENT "NINFER_ECOSYSTEM_DIR=${NINFER_ECOSYSTEM_DIR}")
  # The numpy example in binary frames and JSON lines (skipped without numpy).
  add_test(NAME "harness: the numpy example gives the same report in binary frames and JSON lines"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/numpy_codec_test.sh $<TARGET_FILE:ninfer-conform> ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/numpy-codec-test)
  set_tests_properties("harness: the numpy example gives the same report in binary frames and JSON lines"
    PROPERTIES LABELS harness SKIP_RETURN_CODE 77 TIMEOUT 300)
  # The fingerprint of numpy's fp32 -> fp16 through the exec protocol (skipped without numpy).
  add_test(NAME "harness: fingerprint names numpy's fp32 -> fp16 (signalling NaNs kept)"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/fingerprint_numpy_test.sh $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR})
  set_tests_properties("harness: fingerprint names numpy's fp32 -> fp16 (signalling NaNs kept)"
    PROPERTIES LABELS harness SKIP_RETURN_CODE 77 TIMEOUT 300)
  # The Python SDK (python/, issue 25 item 6): unit tests, an op that raises, the offline pip install.
  add_test(NAME "python: the SDK's framing, hello, call ids and errors (unittest)"
    COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROJECT_SOURCE_DIR}/python PYTHONDONTWRITEBYTECODE=1
            ${Python3_EXECUTABLE} -m unittest discover -s ${PROJECT_SOURCE_DIR}/python/tests -v)
  add_test(NAME "python: an exception in an SDK op is that case's failure, not a dead subject"
    COMMAND bash ${PROJECT_SOURCE_DIR}/python/tests/e2e_test.sh $<TARGET_FILE:ninfer-conform> ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/python-sdk-e2e)
  add_test(NAME "python: pip install ./python works offline and runs the numpy example"
    COMMAND bash ${PROJECT_SOURCE_DIR}/python/tests/install_test.sh $<TARGET_FILE:ninfer-conform> ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/python-sdk-install)
  set_tests_properties("python: the SDK's framing, hello, call ids and errors (unittest)"
    "python: an exception in an SDK op is that case's failure, not a dead subject"
    "python: pip install ./python works offline and runs the numpy example"
    PROPERTIES LABELS "harness;python" SKIP_RETURN_CODE 77 TIMEOUT 300)
  # scripts/action.sh, the script of action.yml, with a fake GitHub runner (issue 25, item 2).
  add_test(NAME "harness: the GitHub action's script passes the reference and fails a mutant"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/action_test.sh $<TARGET_FILE:ninfer-conform> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/action-test)
  set_tests_properties("harness: the GitHub action's script passes the reference and fails a mutant"
    PROPERTIES LABELS harness TIMEOUT 120)
  # Verdicts under load at level full (issue 32, item 6): minutes on 2 cores, so label long.
  add_test(NAME "harness: the heaviest linear cases under 4 busy processes per core and --jobs 64 keep the --jobs 1 report"
    COMMAND ninfer_cli_tests "[long]")
  set_tests_properties("harness: the heaviest linear cases under 4 busy processes per core and --jobs 64 keep the --jobs 1 report"
    PROPERTIES LABELS "harness;long" TIMEOUT 3600)
  # The README's workflow on a fake runner: the action built from source, then from its cache
  # (issue 32, item 2; a whole Release build of the suite: label long).
  add_test(NAME "harness: the README's workflow runs the action from source, then from its cache"
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/action_workflow_test.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/action-workflow-test ${Python3_EXECUTABLE})
  set_tests_properties("harness: the README's workflow runs the action from source, then from its cache"
    PROPERTIES LABELS "harness;long" TIMEOUT 7200)
  # each test case runs in a process of its own with its own scratch directory (cli_support.hpp): in parallel
  catch_discover_tests(ninfer_cli_tests TEST_PREFIX "cli." PROPERTIES LABELS harness)
  # The mutant kill test, the longest (minutes): hidden from discovery and registered here with a high COST, so
  # that CTest starts it first, also from a clean build with no timing data, and the rest runs beside it.
  add_test(NAME "cli.mutants: every bundled mutant is killed by the rule it breaks" COMMAND ninfer_cli_tests "[kill]")
  set_tests_properties("cli.mutants: every bundled mutant is killed by the rule it breaks"
    PROPERTIES LABELS harness COST 100000 TIMEOUT 1800)
endif()
