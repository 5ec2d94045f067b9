# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 1: gate a plugin in one line of CMake. Installed beside ninfer_conform-config.cmake,
# which includes it (docs/GUIDE.md, "Installation"):
#
#   ninfer_conform_add_test(NAME <name> PLUGIN <target-or-path> [LEVEL quick|full|exhaustive]
#     [SUITES <suite>...] [BASELINE <file>] [SEED <n>] [JOBS <n>] [OUTPUT_DIR <dir>])
#
# registers the CTest test <name>: `ninfer-conform run --plugin <plugin> ... --report <dir>/<name>.json
# --junit <dir>/<name>.xml` with the installed CLI (ninfer_conform::cli). PLUGIN is a MODULE library
# target (its file is found by generator expression), a bundled plugin's name or a path. OUTPUT_DIR
# defaults to ${CMAKE_CURRENT_BINARY_DIR}/ninfer-conform; a relative BASELINE or OUTPUT_DIR is taken
# from ${CMAKE_CURRENT_SOURCE_DIR} and ${CMAKE_CURRENT_BINARY_DIR} respectively. The test fails
# exactly when `run` exits nonzero (docs/cli.md, "Exit status").
include_guard(GLOBAL)

function(ninfer_conform_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;PLUGIN;LEVEL;BASELINE;SEED;JOBS;OUTPUT_DIR" "SUITES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ninfer_conform_add_test: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_PLUGIN)
    message(FATAL_ERROR "ninfer_conform_add_test: NAME and PLUGIN are required")
  endif()
  if(NOT TARGET ninfer_conform::cli)
    message(FATAL_ERROR "ninfer_conform_add_test: no ninfer_conform::cli; call find_package(ninfer_conform) first")
  endif()
  set(plugin "${arg_PLUGIN}")
  if(TARGET "${arg_PLUGIN}")
    set(plugin "$<TARGET_FILE:${arg_PLUGIN}>")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/ninfer-conform")
  if(arg_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" OUTPUT_VARIABLE out)
  endif()
  file(MAKE_DIRECTORY "${out}")  # the reports' directory exists before the first run
  set(options)
  if(arg_LEVEL)
    list(APPEND options --level "${arg_LEVEL}")
  endif()
  foreach(suite IN LISTS arg_SUITES)
    list(APPEND options --suite "${suite}")
  endforeach()
  if(arg_BASELINE)
    cmake_path(ABSOLUTE_PATH arg_BASELINE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE baseline)
    list(APPEND options --baseline "${baseline}")
  endif()
  if(NOT "${arg_SEED}" STREQUAL "")  # seed 0 is a seed
    list(APPEND options --seed "${arg_SEED}")
  endif()
  if(arg_JOBS)
    list(APPEND options --jobs "${arg_JOBS}")
  endif()
  string(MAKE_C_IDENTIFIER "${arg_NAME}" file)  # a test name may hold spaces; a file name should not
  add_test(NAME "${arg_NAME}"
    COMMAND "$<TARGET_FILE:ninfer_conform::cli>" run --plugin "${plugin}" ${options}
            --report "${out}/${file}.json" --junit "${out}/${file}.xml")
  set_tests_properties("${arg_NAME}" PROPERTIES LABELS ninfer-conform
    ATTACHED_FILES_ON_FAIL "${out}/${file}.json;${out}/${file}.xml")
endfunction()
