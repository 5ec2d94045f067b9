# SPDX-License-Identifier: Apache-2.0
# The tree stands alone (README.md, "The spec, and a clone alone"; scripts/clone_alone.sh): a copy of it
# with no ../shared beside it configures with the ci preset and its build files name no shared/
# outside the copy (label clone, seconds); the same copy builds the CLI and the reference plugin
# and conforms at `run --level quick` (label long, minutes: the ci test preset leaves it out;
# `ctest --preset long` runs it).
set(clone_args "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}")
foreach(launcher CMAKE_C_COMPILER_LAUNCHER CMAKE_CXX_COMPILER_LAUNCHER)
  if(${launcher})
    string(APPEND clone_args " -D${launcher}=${${launcher}}")
  endif()
endforeach()
set(clone_configures "clone: a copy of the tree with no ../shared beside it configures and names no shared/ outside itself")
set(clone_runs "clone: a copy of the tree with no ../shared beside it builds and conforms at run --level quick")
add_test(NAME "${clone_configures}" COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/clone_alone.sh --configure-only)
add_test(NAME "${clone_runs}" COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/clone_alone.sh)
set_tests_properties("${clone_configures}" PROPERTIES LABELS clone TIMEOUT 600
  ENVIRONMENT "NINFER_CLONE_CMAKE_ARGS=${clone_args}")
set_tests_properties("${clone_runs}" PROPERTIES LABELS "clone;long" TIMEOUT 7200
  ENVIRONMENT "NINFER_CLONE_CMAKE_ARGS=${clone_args}")
