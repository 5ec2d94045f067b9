# SPDX-License-Identifier: Apache-2.0
# Shared by the CMake-script tests (test_install.cmake, test_deb.cmake): a scratch directory
# outside the build and source trees, and checks that stop the script with what went wrong.

# ninfer_scratch(VAR NAME): sets VAR to a fresh, not yet existing ${TMPDIR:-/tmp}/NAME-<random>.
function(ninfer_scratch var name)
  if(DEFINED ENV{TMPDIR} AND IS_DIRECTORY "$ENV{TMPDIR}")
    set(tmp "$ENV{TMPDIR}")
  else()
    set(tmp /tmp)
  endif()
  string(RANDOM LENGTH 8 suffix)
  set(dir ${tmp}/${name}-${suffix})
  file(REMOVE_RECURSE ${dir})
  set(${var} ${dir} PARENT_SCOPE)
endfunction()

# must(WHAT <execute_process arguments>): runs the command; a nonzero exit stops the test.
# Its stdout is left in `out`.
function(must what)
  execute_process(${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# expect_contains(WHAT TEXT NEEDLE): stops the test unless TEXT contains NEEDLE.
function(expect_contains what text needle)
  string(FIND "${text}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: expected \"${needle}\" in:\n${text}")
  endif()
endfunction()

# Fails naming `what` when `needle` occurs in `text`.
function(expect_lacks what text needle)
  string(FIND "${text}" "${needle}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${what}: \"${needle}\" must not appear in:\n${text}")
  endif()
endfunction()
