# SPDX-License-Identifier: Apache-2.0
# Issues 25 (item 1) and 32 (items 1, 3): a consumer project (cmake/consumer_gate/) gates plugins
# with find_package and ninfer_conform_add_test against an install in a scratch prefix, moved.
#  MODE configure: configure it only, and check the test commands it registers (the installed
#    CLI, the plugin target's file, every option: limits, pins, case cache, exec subject, previous
#    report, stale-waiver gate, summary file, sweep; memory limit 0 for a plugin on the CUDA
#    runtime), that testing is on without enable_testing() in the project, that the oracle
#    component asks for C++20, and that unknown names and a top level without testing are
#    refused at configure time with one line (the CLI's suggestions);
#  MODE full: also build it, run its ctest and check what each gate wrote and decided.
# Arguments: BUILD_DIR, SOURCE_DIR, GENERATOR, CMAKE_C_COMPILER, CMAKE_CXX_COMPILER, MODE.
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-add-test-test)

must("install into ${work}/staging" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/staging)
file(RENAME ${work}/staging ${work}/prefix)  # a moved prefix: nothing may name the first one
set(prefix ${work}/prefix)
set(exe "\"${prefix}/bin/ninfer-conform\"")
set(gate ${work}/gate)
set(src ${SOURCE_DIR}/cmake/consumer_gate)
must("configuring the consumer against ${prefix}" COMMAND ${CMAKE_COMMAND} -S ${src}
  -B ${gate} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
  -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)

# The registered commands, as CTest will run them: each argument quoted, in this order.
file(READ ${gate}/CTestTestfile.cmake tests)  # there at all: testing was enabled by the function
set(g ${gate}/gate)
expect_contains("the gate's test command" "${tests}" "add_test([=[minimal plugin gate]=] ${exe} \"run\" \
\"--plugin\" \"${gate}/minimal_plugin.so\" \"--memory-limit-mib\" \"2048\" \"--level\" \"full\" \"--suite\" \"scalar.decode\" \
\"--suite\" \"scalar.convert\" \"--pin\" \"fp8_row_maxabs.rescue=refuse\" \"--case-cache-key\" \"${gate}/cache.key\" \
\"--seed\" \"7\" \"--jobs\" \"1\" \"--timeout-ms\" \"20000\" \"--case-cache\" \"${gate}/cases\" \
\"--report\" \"${g}/minimal_plugin_gate.json\" \"--junit\" \"${g}/minimal_plugin_gate.xml\" \"--summary-md\" \"${g}/summary.md\")")
expect_contains("the gate's labels" "${tests}" "LABELS \"ninfer-conform\"")
expect_contains("the gate's sweep" "${tests}" "add_test([=[minimal plugin gate.sweep.bf16_to_fp32]=] ${exe} \"sweep\" \
\"--plugin\" \"${gate}/minimal_plugin.so\" \"--memory-limit-mib\" \"2048\" \"--jobs\" \"1\" \"--timeout-ms\" \"20000\" \
\"--conversion\" \"bf16_to_fp32\" \"--report\" \"${g}/minimal_plugin_gate.sweep.bf16_to_fp32.json\" \
\"--junit\" \"${g}/minimal_plugin_gate.sweep.bf16_to_fp32.xml\")")
set(d ${gate}/ninfer-conform)
expect_contains("the mutant's gate" "${tests}" "add_test([=[mutant_gate]=] ${exe} \"run\" \
\"--plugin\" \"mutant_bf16_truncation\" \"--suite\" \"scalar.convert\" \"--report\" \"${d}/mutant_gate.json\" \
\"--junit\" \"${d}/mutant_gate.xml\" \"--summary-md\" \"${d}/mutant_gate.md\")")
expect_contains("the exec gate" "${tests}" "add_test([=[exec_gate]=] ${exe} \"run\" \
\"--exec\" \"python3 ${src}/../../harness/examples/python_plugin.py\" \"--suite\" \"scalar.decode\"")
expect_contains("the previous-report gate" "${tests}" "\"--suite\" \"scalar.decode\" \
\"--previous\" \"${d}/reference_gate.json\" \"--report\" \"${d}/previous_gate.json\"")
expect_contains("the stale-waiver gate" "${tests}" "\"--suite\" \"scalar.decode\" \
\"--baseline\" \"${src}/stale-waiver.json\" \"--fail-on-stale-waivers\" \"--report\" \"${d}/stale_gate.json\"")
expect_contains("the device plugin's gate" "${tests}" "add_test([=[device_gate]=] ${exe} \"run\" \
\"--plugin\" \"${gate}/device_plugin.so\" \"--memory-limit-mib\" \"0\" \"--suite\" \"scalar.decode\"")
# The oracle component carries C++20 although the consumer sets no standard.
file(READ ${gate}/compile_commands.json commands)
if(NOT commands MATCHES "-std=(c|gnu)\\+\\+20 [^\n]*oracle_user\\.cpp")
  message(FATAL_ERROR "oracle_user.cpp is not compiled as C++20:\n${commands}")
endif()

# expect_refused(WHAT NEEDLE CMAKE-TEXT): a project of CMAKE-TEXT after find_package fails to
# configure, and its error names NEEDLE.
function(expect_refused what needle text)
  set(dir ${work}/refused)
  file(REMOVE_RECURSE ${dir})
  file(WRITE ${dir}/src/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)\nproject(refused C)\n\
find_package(ninfer_conform REQUIRED)\n${text}\n")
  file(WRITE ${dir}/src/sub/CMakeLists.txt "ninfer_conform_add_test(NAME sub PLUGIN reference)\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir}/src -B ${dir}/build -DCMAKE_PREFIX_PATH=${prefix}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${what}: configured, expected a refusal:\n${out}\n${err}")
  endif()
  string(REGEX REPLACE "[ \n]+" " " err "${err}")  # CMake wraps its messages
  expect_contains("${what}" "${err}" "${needle}")
endfunction()
set(call "ninfer_conform_add_test(NAME t PLUGIN reference")
expect_refused("a misspelt suite" "ninfer_conform_add_test(t): unknown suite 'scalar.decod'; did you mean scalar.decode?"
  "${call} SUITES scalar.convert scalar.decod)")
expect_refused("a misspelt level" "ninfer_conform_add_test(t): unknown level 'ful'; did you mean full?" "${call} LEVEL ful)")
expect_refused("a misspelt conversion" "ninfer_conform_add_test(t): SWEEPS: unknown conversion 'bf16_to_fp33'; did you mean bf16_to_fp32"
  "${call} SWEEPS bf16_to_fp33)")
expect_refused("a pin of a rule without an open reading" "ninfer_conform_add_test(t): --pin: 'decode.fp16' is not a rule with an open reading"
  "${call} PINS decode.fp16=x)")
expect_refused("both PLUGIN and EXEC" "ninfer_conform_add_test(t): give exactly one of PLUGIN and EXEC" "${call} EXEC true)")
expect_refused("FAIL_ON_STALE_WAIVERS without a baseline" "FAIL_ON_STALE_WAIVERS needs a BASELINE" "${call} FAIL_ON_STALE_WAIVERS)")
expect_refused("a subdirectory's gate under a top level without testing"
  "ninfer_conform_add_test(sub): testing is not enabled in the top-level directory" "add_subdirectory(sub)")

if(MODE STREQUAL "full")
  must("building the consumer" COMMAND ${CMAKE_COMMAND} --build ${gate})
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${gate} --output-on-failure
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  expect_contains("ctest of the consumer" "${out}" "100% tests passed, 0 tests failed out of 9")
  # report_field(VAR FILE JSON-PATH...): one field of a report.
  function(report_field var file)
    file(READ ${file} json)
    string(JSON value GET "${json}" ${ARGN})
    set(${var} "${value}" PARENT_SCOPE)
  endfunction()
  report_field(passed ${d}/mutant_gate.json passed)
  report_field(pins ${g}/minimal_plugin_gate.json options pins)
  report_field(cache ${g}/minimal_plugin_gate.json options case_cache dir)
  report_field(limit ${g}/minimal_plugin_gate.json options memory_limit_mib)
  report_field(timeout ${g}/minimal_plugin_gate.json options timeout_ms)
  report_field(sweep ${g}/minimal_plugin_gate.sweep.bf16_to_fp32.json passed)
  report_field(exec ${d}/exec_gate.json passed)
  report_field(device_limit ${d}/device_gate.json options memory_limit_mib)
  if(passed OR NOT sweep OR NOT exec OR NOT cache STREQUAL "${gate}/cases" OR NOT limit EQUAL 2048
     OR NOT timeout EQUAL 20000 OR NOT device_limit EQUAL 0 OR NOT pins MATCHES "rescue")
    message(FATAL_ERROR "the gates' reports: mutant passed ${passed}, sweep passed ${sweep}, exec passed ${exec}, "
      "case cache ${cache}, memory limit ${limit} (device ${device_limit}), timeout ${timeout}, pins ${pins}")
  endif()
  file(GLOB cached ${gate}/cases/*.jsonl)
  file(READ ${g}/summary.md summary)
  expect_contains("the gate's summary" "${summary}" "PASS")
  expect_contains("the cache" "${cached}" "scalar.decode.full.7.jsonl")
  file(READ ${d}/previous_gate.md summary)
  expect_contains("the previous-report gate" "${summary}" "capability no longer declared")
  file(READ ${d}/stale_gate.md summary)
  expect_contains("the stale-waiver gate" "${summary}" "--fail-on-stale-waivers")
  file(READ ${g}/minimal_plugin_gate.xml junit)
  expect_contains("the gate's JUnit" "${junit}" "<testsuites")
endif()
message(STATUS "consumer of ${prefix}: ninfer_conform_add_test registers the gates (${MODE})")
file(REMOVE_RECURSE ${work})
