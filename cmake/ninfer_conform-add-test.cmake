# SPDX-License-Identifier: Apache-2.0
# Issues 25 (item 1) and 32 (items 1, 3): gate a plugin in one line of CMake. Installed beside
# ninfer_conform-config.cmake, which includes it (docs/GUIDE.md, "Gating a plugin in CMake"):
#
#   ninfer_conform_add_test(NAME <name> (PLUGIN <target-or-path> | EXEC <command-or-target>)
#     [LEVEL quick|full|exhaustive] [SUITES <suite>...] [SEED <n>] [JOBS <n>] [OUTPUT_DIR <dir>]
#     [BASELINE <file>] [FAIL_ON_STALE_WAIVERS] [PREVIOUS <report>] [PINS <rule>=<choice>...]
#     [TIMEOUT_MS <n>] [MEMORY_LIMIT_MIB <n>] [CASE_CACHE <dir> [CASE_CACHE_KEY <file>]]
#     [SUMMARY_MD <file>] [SWEEPS <conversion>...])
#
# registers the CTest test <name>: `ninfer-conform run --plugin <plugin> ... --report <dir>/<name>.json
# --junit <dir>/<name>.xml --summary-md <dir>/<name>.md` with the installed CLI (ninfer_conform::cli),
# and one test `<name>.sweep.<conversion>` per SWEEPS entry (`ninfer-conform sweep`). It enables
# testing in the calling directory (ctest would otherwise find nothing and exit 0) and refuses, at
# configure time, an unknown level, suite, pin or conversion with the CLI's own line and its
# suggestions. The tests fail exactly when `run` (`sweep`) exits nonzero (docs/cli.md, "Exit status").
include_guard(GLOBAL)

# Testing on in the caller's directory, or one line saying why it cannot be. A function's
# enable_testing() sets CMAKE_TESTING_ENABLED in its own scope only: the caller sets it in its.
function(_ninfer_conform_require_testing name)
  if(CMAKE_TESTING_ENABLED)
    return()
  endif()
  get_directory_property(top DIRECTORY "${CMAKE_SOURCE_DIR}" DEFINITION CMAKE_TESTING_ENABLED)
  if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR AND NOT top)
    message(FATAL_ERROR "ninfer_conform_add_test(${name}): testing is not enabled in the top-level directory "
      "(ctest there would find no test and exit 0): call enable_testing() or include(CTest) in "
      "${CMAKE_SOURCE_DIR}/CMakeLists.txt before add_subdirectory()")
  endif()
endfunction()

# The installed CLI's path, to ask it at configure time; empty when it cannot run here.
function(_ninfer_conform_cli_path out)
  set(exe "")
  if(NOT CMAKE_CROSSCOMPILING)
    get_target_property(exe ninfer_conform::cli LOCATION)
  endif()
  set(${out} "${exe}" PARENT_SCOPE)
endfunction()

# Level, suites and pins checked by the CLI itself: `run` checks every name before it reads the
# vectors, so an empty vector directory stops a run whose names are all known, before any work.
function(_ninfer_conform_check_run_names name exe)
  if(NOT ARGN)
    return()
  endif()
  set(empty "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ninfer-conform-names")
  file(REMOVE_RECURSE "${empty}")
  file(MAKE_DIRECTORY "${empty}")
  execute_process(COMMAND "${exe}" run --exec true --custom-vectors "${empty}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  string(STRIP "${err}" err)
  string(FIND "${err}" "ninfer-conform-names/" at)  # the directory's name: the run got that far
  if(at EQUAL -1)
    string(REGEX REPLACE "^ninfer-conform: " "" err "${err}")
    message(FATAL_ERROR "ninfer_conform_add_test(${name}): ${err}")
  endif()
endfunction()

# Conversions checked against `list --json`; an unknown one is worded by `sweep` (suggestions).
function(_ninfer_conform_check_conversions name exe)
  get_property(known GLOBAL PROPERTY _ninfer_conform_conversions)
  if(ARGN AND NOT known)
    execute_process(COMMAND "${exe}" list --json RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "ninfer_conform_add_test(${name}): `${exe} list --json` failed (${rc}): ${err}")
    endif()
    string(JSON n LENGTH "${json}" conversions)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON c GET "${json}" conversions ${i} name)
      list(APPEND known "${c}")
    endforeach()
    set_property(GLOBAL PROPERTY _ninfer_conform_conversions "${known}")
  endif()
  foreach(conversion IN LISTS ARGN)
    if(NOT conversion IN_LIST known)
      execute_process(COMMAND "${exe}" sweep --exec true --conversion "${conversion}"
        OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
      string(STRIP "${err}" err)
      string(REGEX REPLACE "^ninfer-conform: " "" err "${err}")
      message(FATAL_ERROR "ninfer_conform_add_test(${name}): SWEEPS: ${err}")
    endif()
  endforeach()
endfunction()

# A plugin target that runs on a CUDA device: CUDA sources or the CUDA runtime linked. The CUDA
# runtime reserves address ranges far past any RLIMIT_AS, so such a plugin runs without one.
function(_ninfer_conform_is_device target out)
  get_target_property(sources ${target} SOURCES)
  get_target_property(libs ${target} LINK_LIBRARIES)
  set(device OFF)
  if(sources MATCHES "\\.cu(;|$)" OR libs MATCHES "(^|;)(CUDA::[^;]*|cudart[^;]*|cuda)(;|$)")
    set(device ON)
  endif()
  set(${out} ${device} PARENT_SCOPE)
endfunction()

# The subject's options: --plugin (a target's file) or --exec (a target's file or a command line),
# and the memory limit (0 by default for a device plugin target).
function(_ninfer_conform_subject out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;PLUGIN;EXEC;MEMORY_LIMIT_MIB" "")
  if(arg_PLUGIN AND arg_EXEC OR NOT arg_PLUGIN AND NOT arg_EXEC)
    message(FATAL_ERROR "ninfer_conform_add_test(${arg_NAME}): give exactly one of PLUGIN and EXEC")
  endif()
  set(limit "${arg_MEMORY_LIMIT_MIB}")
  if(arg_PLUGIN AND TARGET "${arg_PLUGIN}")
    set(subject --plugin "$<TARGET_FILE:${arg_PLUGIN}>")
    _ninfer_conform_is_device(${arg_PLUGIN} device)
    if(device AND "${limit}" STREQUAL "")
      set(limit 0)
    endif()
  elseif(arg_PLUGIN)
    set(subject --plugin "${arg_PLUGIN}")
  elseif(TARGET "${arg_EXEC}")
    set(subject --exec "$<TARGET_FILE:${arg_EXEC}>")
  else()
    set(subject --exec "${arg_EXEC}")
  endif()
  if(NOT "${limit}" STREQUAL "")  # 0 is a limit: none
    list(APPEND subject --memory-limit-mib "${limit}")
  endif()
  set(${out} "${subject}" PARENT_SCOPE)
endfunction()

function(ninfer_conform_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "FAIL_ON_STALE_WAIVERS"
    "NAME;PLUGIN;EXEC;LEVEL;BASELINE;SEED;JOBS;OUTPUT_DIR;TIMEOUT_MS;MEMORY_LIMIT_MIB;CASE_CACHE;CASE_CACHE_KEY;PREVIOUS;SUMMARY_MD"
    "SUITES;PINS;SWEEPS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ninfer_conform_add_test(${arg_NAME}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    message(FATAL_ERROR "ninfer_conform_add_test: NAME is required")
  endif()
  if(NOT TARGET ninfer_conform::cli)
    message(FATAL_ERROR "ninfer_conform_add_test(${arg_NAME}): no ninfer_conform::cli; call find_package(ninfer_conform) first")
  endif()
  if(DEFINED BUILD_TESTING AND NOT BUILD_TESTING)
    return()  # include(CTest) with -DBUILD_TESTING=OFF: the project asked for no tests
  endif()
  _ninfer_conform_require_testing("${arg_NAME}")
  enable_testing()
  set(CMAKE_TESTING_ENABLED 1 PARENT_SCOPE)
  _ninfer_conform_subject(subject NAME "${arg_NAME}" PLUGIN "${arg_PLUGIN}" EXEC "${arg_EXEC}"
    MEMORY_LIMIT_MIB "${arg_MEMORY_LIMIT_MIB}")
  if(arg_FAIL_ON_STALE_WAIVERS AND NOT arg_BASELINE)
    message(FATAL_ERROR "ninfer_conform_add_test(${arg_NAME}): FAIL_ON_STALE_WAIVERS needs a BASELINE whose waivers to check")
  endif()
  if(arg_CASE_CACHE_KEY AND NOT arg_CASE_CACHE)
    message(FATAL_ERROR "ninfer_conform_add_test(${arg_NAME}): CASE_CACHE_KEY needs CASE_CACHE")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/ninfer-conform")
  if(arg_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" OUTPUT_VARIABLE out)
  endif()
  file(MAKE_DIRECTORY "${out}")  # the reports' directory exists before the first run
  set(names)  # the options whose names the CLI checks now
  if(arg_LEVEL)
    list(APPEND names --level "${arg_LEVEL}")
  endif()
  foreach(suite IN LISTS arg_SUITES)
    list(APPEND names --suite "${suite}")
  endforeach()
  foreach(pin IN LISTS arg_PINS)
    list(APPEND names --pin "${pin}")
  endforeach()
  _ninfer_conform_cli_path(exe)
  if(exe)
    _ninfer_conform_check_run_names("${arg_NAME}" "${exe}" ${names})
    _ninfer_conform_check_conversions("${arg_NAME}" "${exe}" ${arg_SWEEPS})
  endif()
  set(options ${names})
  # Paths: inputs from the source directory, outputs into the binary directory, when relative.
  foreach(input BASELINE PREVIOUS CASE_CACHE_KEY)
    if(arg_${input})
      cmake_path(ABSOLUTE_PATH arg_${input} BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE path)
      string(TOLOWER "${input}" option)
      string(REPLACE "_" "-" option "${option}")
      list(APPEND options --${option} "${path}")
    endif()
  endforeach()
  if(arg_FAIL_ON_STALE_WAIVERS)
    list(APPEND options --fail-on-stale-waivers)
  endif()
  if(NOT "${arg_SEED}" STREQUAL "")  # seed 0 is a seed
    list(APPEND options --seed "${arg_SEED}")
  endif()
  set(limits)  # what `sweep` takes too
  foreach(number JOBS TIMEOUT_MS)
    if(arg_${number})
      string(TOLOWER "${number}" option)
      string(REPLACE "_" "-" option "${option}")
      list(APPEND limits --${option} "${arg_${number}}")
    endif()
  endforeach()
  list(APPEND options ${limits})
  if(arg_CASE_CACHE)
    cmake_path(ABSOLUTE_PATH arg_CASE_CACHE BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" OUTPUT_VARIABLE cache)
    list(APPEND options --case-cache "${cache}")
  endif()
  string(MAKE_C_IDENTIFIER "${arg_NAME}" file)  # a test name may hold spaces; a file name should not
  set(summary "${out}/${file}.md")
  if(arg_SUMMARY_MD)
    cmake_path(ABSOLUTE_PATH arg_SUMMARY_MD BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" OUTPUT_VARIABLE summary)
  endif()
  add_test(NAME "${arg_NAME}"
    COMMAND "$<TARGET_FILE:ninfer_conform::cli>" run ${subject} ${options}
            --report "${out}/${file}.json" --junit "${out}/${file}.xml" --summary-md "${summary}")
  set_tests_properties("${arg_NAME}" PROPERTIES LABELS ninfer-conform
    ATTACHED_FILES_ON_FAIL "${out}/${file}.json;${out}/${file}.xml;${summary}")
  _ninfer_conform_add_sweeps("${arg_NAME}" "${file}" "${out}" "${subject};${limits}" ${arg_SWEEPS})
endfunction()

# One `sweep` test per conversion: every source word (2^32 for fp32) through the subject.
function(_ninfer_conform_add_sweeps name file out options)
  foreach(conversion IN LISTS ARGN)
    set(stem "${out}/${file}.sweep.${conversion}")
    add_test(NAME "${name}.sweep.${conversion}"
      COMMAND "$<TARGET_FILE:ninfer_conform::cli>" sweep ${options} --conversion "${conversion}"
              --report "${stem}.json" --junit "${stem}.xml")
    set_tests_properties("${name}.sweep.${conversion}" PROPERTIES LABELS ninfer-conform
      ATTACHED_FILES_ON_FAIL "${stem}.json;${stem}.xml")
  endforeach()
endfunction()
