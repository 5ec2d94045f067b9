# SPDX-License-Identifier: Apache-2.0
# Isolated subjects (harness/README.md, "Isolation"): the worker process and its framing, the
# exec protocol, the standalone worker, the example plugins and the misbehaving fixtures.
target_sources(ninfer_harness PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/wire.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/containment.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/interrupt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/child_subject.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/subject_plugin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/subject_exec.cpp)
target_link_libraries(ninfer_harness PRIVATE nlohmann_json::nlohmann_json)

add_executable(ninfer-conform-worker ${CMAKE_CURRENT_LIST_DIR}/src/worker_main.cpp)
target_link_libraries(ninfer-conform-worker PRIVATE ninfer::harness)

if(NINFER_BUILD_TESTS)
  # Test plugins live outside the bundled plugin directory, so `plugins` never lists them.
  set(NINFER_TEST_PLUGIN_DIR ${PROJECT_BINARY_DIR}/test-plugins)
  set(ninfer_test_plugins minimal_plugin)
  add_library(minimal_plugin MODULE ${CMAKE_CURRENT_LIST_DIR}/examples/minimal_plugin.c)
  # Descendants that try to escape containment (issue 33), started by fixture_escape or run as an
  # exec subject.
  add_executable(escape_tree ${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/escape_tree.c)
  foreach(fixture crash abort hang huge_alloc overrun liar wrong_abi no_entry null_entry bad_capability fork raise_signal
          escape)
    add_library(fixture_${fixture} MODULE ${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/${fixture}.c)
    list(APPEND ninfer_test_plugins fixture_${fixture})
  endforeach()
  target_compile_definitions(fixture_escape PRIVATE NINFER_ESCAPE_TREE="$<TARGET_FILE:escape_tree>")
  add_dependencies(fixture_escape escape_tree)
  # The 0.1.0 minimal plugin, verbatim: a v1 plugin built against today's headers.
  add_library(fixture_v1_minimal_0_1_0 MODULE ${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/v1_minimal_0_1_0.c)
  target_include_directories(fixture_v1_minimal_0_1_0 PRIVATE ${CMAKE_CURRENT_LIST_DIR}/include)  # ninfer/harness/plugin.h
  list(APPEND ninfer_test_plugins fixture_v1_minimal_0_1_0)
  foreach(plugin ${ninfer_test_plugins})
    target_link_libraries(${plugin} PRIVATE ninfer::abi)
    # The fixtures are ABI v1 sources (they exercise the harness's v1 adapter); the example is v2.
    if(NOT plugin STREQUAL "minimal_plugin")
      target_compile_definitions(${plugin} PRIVATE NINFER_PLUGIN_ABI=1)
    endif()
  endforeach()
  # ABI v2 fixtures (the header's default): named planes, a smaller table, a bad capability
  # stride, and a table of a future ABI.
  foreach(fixture v2_planes v2_small v2_capsize abi3)
    add_library(fixture_${fixture} MODULE ${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/${fixture}.c)
    target_link_libraries(fixture_${fixture} PRIVATE ninfer::abi)
    list(APPEND ninfer_test_plugins fixture_${fixture})
  endforeach()
  foreach(plugin ${ninfer_test_plugins})
    set_target_properties(${plugin} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${NINFER_TEST_PLUGIN_DIR}
      C_VISIBILITY_PRESET hidden)
  endforeach()
  # Plugins that would kill or hang a process that loads them (`plugins --dir` must survive
  # them), with one well-behaved plugin listed after them.
  set(NINFER_HOSTILE_PLUGIN_DIR ${NINFER_TEST_PLUGIN_DIR}/hostile)
  set(ninfer_hostile_plugins)
  foreach(fixture ctor_abort entry_segv entry_hang name_unterminated)
    add_library(hostile_${fixture} MODULE ${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/hostile/${fixture}.c)
    list(APPEND ninfer_hostile_plugins hostile_${fixture})
  endforeach()
  add_library(zz_minimal MODULE ${CMAKE_CURRENT_LIST_DIR}/examples/minimal_plugin.c)
  list(APPEND ninfer_hostile_plugins zz_minimal)
  foreach(plugin ${ninfer_hostile_plugins})
    target_link_libraries(${plugin} PRIVATE ninfer::abi)
    if(NOT plugin STREQUAL "zz_minimal")  # the hostile fixtures are ABI v1 sources
      target_compile_definitions(${plugin} PRIVATE NINFER_PLUGIN_ABI=1)
    endif()
    set_target_properties(${plugin} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${NINFER_HOSTILE_PLUGIN_DIR}
      C_VISIBILITY_PRESET hidden)
  endforeach()

  target_sources(ninfer_harness_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_subject_plugin.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_raised_signals.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_subject_exec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_subject_exec_binary.cpp)
  add_dependencies(ninfer_harness_tests ninfer-conform-worker ${ninfer_test_plugins})
  target_compile_definitions(ninfer_harness_tests PRIVATE
    NINFER_TEST_WORKER="$<TARGET_FILE:ninfer-conform-worker>"
    NINFER_TEST_PLUGIN_DIR="${NINFER_TEST_PLUGIN_DIR}"
    NINFER_TEST_PYTHON_PLUGIN="${CMAKE_CURRENT_LIST_DIR}/examples/python_plugin.py"
    NINFER_TEST_EXEC_FIXTURE="${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/bad_exec.py"
    NINFER_TEST_BINARY_FIXTURE="${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/bad_binary.py"
    NINFER_TEST_STALE_WORKER="${CMAKE_CURRENT_LIST_DIR}/tests/fixtures/stale_worker.py")
endif()

if(NINFER_BUILD_BENCHMARKS)
  # The exec protocol's own cost (scripts/bench_exec.sh): a C++ subject that computes nothing.
  add_executable(exec_null_subject ${CMAKE_CURRENT_LIST_DIR}/bench/exec_null_subject.cpp)
  target_link_libraries(exec_null_subject PRIVATE nlohmann_json::nlohmann_json)
  add_executable(bench_exec ${CMAKE_CURRENT_LIST_DIR}/bench/bench_exec.cpp)
  target_link_libraries(bench_exec PRIVATE ninfer::harness)
  add_dependencies(bench_exec exec_null_subject)
  target_compile_definitions(bench_exec PRIVATE NINFER_EXEC_NULL_SUBJECT="$<TARGET_FILE:exec_null_subject>")
endif()
