# SPDX-License-Identifier: Apache-2.0
# Issue 32, item 1: the README's CMake recipe ("Gate a kernel in CI"), copied verbatim. The
# block's text is read from README.md now (never a copy), written as the CMakeLists.txt of a
# project beside a my_plugin.c, configured against an install moved after installing, built, and
# its ctest run: with harness/examples/minimal_plugin.c as my_plugin.c the gate passes; with the
# same file widening bf16 by 15 bits instead of 16 it fails, naming the rule.
# Arguments: BUILD_DIR, SOURCE_DIR, GENERATOR, CMAKE_C_COMPILER.
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-readme-gate-test)

file(READ ${SOURCE_DIR}/README.md readme)
string(FIND "${readme}" "## Gate a kernel in CI" at)
string(SUBSTRING "${readme}" ${at} -1 section)
if(at EQUAL -1 OR NOT section MATCHES "```cmake\n([^`]*)```")
  message(FATAL_ERROR "README.md: no ```cmake block under \"## Gate a kernel in CI\"")
endif()
set(block "${CMAKE_MATCH_1}")

must("install into ${work}/staging" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/staging)
file(RENAME ${work}/staging ${work}/prefix)

file(READ ${SOURCE_DIR}/harness/examples/minimal_plugin.c good)
string(REPLACE "<< 16, 4)" "<< 15, 4)" bad "${good}")
if(bad STREQUAL good)
  message(FATAL_ERROR "minimal_plugin.c: no `<< 16, 4)` to break (the bf16 widening changed?)")
endif()
foreach(variant good bad)
  set(project ${work}/${variant})
  file(WRITE ${project}/CMakeLists.txt "${block}")
  file(WRITE ${project}/my_plugin.c "${${variant}}")
  must("configuring the README's CMake block (${variant} plugin)" COMMAND ${CMAKE_COMMAND} -S ${project}
    -B ${project}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${work}/prefix -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER})
  must("building it (${variant} plugin)" COMMAND ${CMAKE_COMMAND} --build ${project}/build)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${project}/build --output-on-failure
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(ctest_${variant} "${rc}")
  set(out_${variant} "${out}${err}")
endforeach()
if(NOT ctest_good EQUAL 0)
  message(FATAL_ERROR "the README's gate of a correct plugin failed (${ctest_good}):\n${out_good}")
endif()
expect_contains("ctest of the correct plugin" "${out_good}" "100% tests passed, 0 tests failed out of 1")
if(ctest_bad EQUAL 0)
  message(FATAL_ERROR "the README's gate of a broken plugin passed:\n${out_bad}")
endif()
expect_contains("ctest of the broken plugin" "${out_bad}" "0% tests passed, 1 tests failed out of 1")
expect_contains("the broken plugin's failing rule" "${out_bad}" "  convert.bf16_to_fp32")
expect_contains("the broken plugin's verdict" "${out_bad}" "result: FAIL")
message(STATUS "README.md's CMake gate: green on a correct plugin, red on a broken one (prefix moved)")
file(REMOVE_RECURSE ${work})
