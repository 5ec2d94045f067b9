# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 1: a consumer project (cmake/consumer_gate/) gates a plugin with find_package and
# one ninfer_conform_add_test call against an install in a scratch prefix.
#  MODE configure: configure it only, and check the test command it registers (the installed CLI,
#    the plugin target's file, every option) and that the oracle component asks for C++20;
#  MODE full: also build it, run its ctest (the gate, a bundled mutant's gate that must fail, and a
#    program of the oracle component), and check the reports (passed, the plugin's path; the
#    mutant's failed) and the JUnit file.
# Arguments: BUILD_DIR, SOURCE_DIR, GENERATOR, CMAKE_C_COMPILER, CMAKE_CXX_COMPILER, MODE.
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-add-test-test)

must("install into ${work}/prefix" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/prefix)
set(prefix ${work}/prefix)
set(gate ${work}/gate)
must("configuring the consumer against ${prefix}" COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/cmake/consumer_gate
  -B ${gate} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
  -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)

# The registered command, as CTest will run it: each argument quoted, in this order.
file(READ ${gate}/CTestTestfile.cmake tests)
set(command "\"${prefix}/bin/ninfer-conform\" \"run\" \"--plugin\" \"${gate}/minimal_plugin.so\" \"--level\" \"quick\" \
\"--suite\" \"scalar.decode\" \"--suite\" \"scalar.convert\" \"--seed\" \"7\" \"--jobs\" \"1\" \
\"--report\" \"${gate}/gate/minimal_plugin_gate.json\" \"--junit\" \"${gate}/gate/minimal_plugin_gate.xml\"")
expect_contains("the gate's test command" "${tests}" "add_test([=[minimal plugin gate]=] ${command})")
expect_contains("the gate's labels" "${tests}" "LABELS \"ninfer-conform\"")
expect_contains("the mutant's gate" "${tests}" "add_test([=[mutant_gate]=] \"${prefix}/bin/ninfer-conform\" \"run\" \
\"--plugin\" \"mutant_bf16_truncation\" \"--suite\" \"scalar.convert\" \"--report\" \"${gate}/ninfer-conform/mutant_gate.json\"")
# The oracle component carries C++20 although the consumer sets no standard.
file(READ ${gate}/compile_commands.json commands)
if(NOT commands MATCHES "-std=(c|gnu)\\+\\+20 [^\n]*oracle_user\\.cpp")
  message(FATAL_ERROR "oracle_user.cpp is not compiled as C++20:\n${commands}")
endif()

if(MODE STREQUAL "full")
  must("building the consumer" COMMAND ${CMAKE_COMMAND} --build ${gate})
  must("ctest of the consumer" COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${gate} --output-on-failure)
  expect_contains("ctest of the consumer" "${out}" "100% tests passed, 0 tests failed out of 3")
  file(READ ${gate}/ninfer-conform/mutant_gate.json report)
  string(JSON passed GET "${report}" passed)
  if(passed)
    message(FATAL_ERROR "the mutant's report says it passed")
  endif()
  file(READ ${gate}/gate/minimal_plugin_gate.json report)
  string(JSON passed GET "${report}" passed)
  string(JSON pass GET "${report}" totals pass)
  string(JSON path GET "${report}" subject path)
  if(NOT passed OR pass EQUAL 0 OR NOT path STREQUAL "${gate}/minimal_plugin.so")
    message(FATAL_ERROR "the gate's report: passed ${passed}, ${pass} cases passed, subject ${path}")
  endif()
  file(READ ${gate}/gate/minimal_plugin_gate.xml junit)
  expect_contains("the gate's JUnit" "${junit}" "<testsuites")
endif()
message(STATUS "consumer of ${prefix}: ninfer_conform_add_test registers the gate (${MODE})")
file(REMOVE_RECURSE ${work})
