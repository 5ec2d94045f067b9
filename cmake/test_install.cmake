# SPDX-License-Identifier: Apache-2.0
# The install test (README.md, "Installation"): install the build into a scratch prefix, move
# the prefix elsewhere (so nothing can depend on the configure-time prefix), and check that
#  1. the installed CLI names the moved prefix's directories and nothing of the build or source tree;
#  2. an installed CLI without plugins or vectors beside it refuses, rather than use the build tree's;
#  3. a C and a C++ plugin build against the installed package with find_package, with every
#     dependency lookup but the compilers disabled (the abi component needs nothing else);
#  4. the installed CLI runs them (`run`) and the bundled reference, all from the prefix;
#  5. a library component (reports) links from the installed package.
# Arguments: BUILD_DIR, SOURCE_DIR, CMAKE_C_COMPILER, CMAKE_CXX_COMPILER.
# The scratch directory lies outside the build and source trees, so that any path of theirs in
# what the installed CLI prints is a leak.
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-install-test)


# 1. Install, move, and ask the CLI where it looks.
must("install into ${work}/staging" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/staging)
file(RENAME ${work}/staging ${work}/prefix)
set(prefix ${work}/prefix)
set(exe ${prefix}/bin/ninfer-conform)
file(GLOB plugin_dir LIST_DIRECTORIES true ${prefix}/lib*/ninfer-conform/plugins)
if(NOT EXISTS ${plugin_dir}/reference.so)
  message(FATAL_ERROR "no reference.so under ${prefix}/lib*/ninfer-conform/plugins")
endif()
must("--version of the installed CLI" COMMAND ${exe} --version)
set(version "${out}")
expect_contains("--version" "${version}" "(installed)")
expect_contains("--version" "${version}" "plugins:    ${plugin_dir}")
expect_contains("--version" "${version}" "vectors:    ${prefix}/share/ninfer-conform/vectors")
expect_lacks("--version" "${version}" "${BUILD_DIR}/")
expect_lacks("--version" "${version}" "${SOURCE_DIR}/")
must("plugins --json of the installed CLI" COMMAND ${exe} plugins --json)
expect_contains("plugins --json" "${out}" "\"dir\": \"${plugin_dir}\"")

# 2. The same binary in a prefix of its own, without plugins or vectors: it must not find the
#    build tree's, which still exist.
file(COPY ${exe} DESTINATION ${work}/bare/bin)
set(bare ${work}/bare/bin/ninfer-conform)
execute_process(COMMAND ${bare} plugins RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "an installed CLI without plugins listed some (exit ${rc}):\n${out}\n${err}")
endif()
expect_contains("bare CLI, plugins" "${err}" "${work}/bare/lib")
execute_process(COMMAND ${bare} run --plugin reference --vectors ${prefix}/share/ninfer-conform/vectors
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "an installed CLI without plugins ran `--plugin reference` (exit ${rc}):\n${out}\n${err}")
endif()
expect_contains("bare CLI, --plugin reference" "${err}" "no plugin 'reference' in ${work}/bare/lib/ninfer-conform/plugins; there are none")
execute_process(COMMAND ${bare} run --plugin ${plugin_dir}/reference.so
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "an installed CLI without vectors ran (exit ${rc}):\n${out}\n${err}")
endif()
expect_contains("bare CLI, vectors" "${err}" "${work}/bare/share/ninfer-conform/vectors")

# 3. Plugins built against the installed package, with no dependency to be found but compilers.
set(no_deps)
foreach(p Boost fmt nlohmann_json OpenSSL Threads PkgConfig CLI11 Catch2)
  list(APPEND no_deps -DCMAKE_DISABLE_FIND_PACKAGE_${p}=ON)
endforeach()
must("configuring the consumer against ${prefix}" COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/cmake/consumer
  -B ${work}/consumer -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
  -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} ${no_deps})
must("building the consumer plugins" COMMAND ${CMAKE_COMMAND} --build ${work}/consumer)

# 4. The installed CLI runs them, and the bundled reference, on its own vectors.
foreach(plugin ${work}/consumer/c_plugin.so ${work}/consumer/cxx_plugin.so reference)
  get_filename_component(name ${plugin} NAME_WE)
  must("run --plugin ${plugin}" COMMAND ${exe} run --plugin ${plugin} --suite scalar.decode --level quick
    --report ${work}/${name}.json)
  file(READ ${work}/${name}.json report)
  string(JSON vectors GET "${report}" vectors dir)
  string(JSON path GET "${report}" subject path)
  string(JSON pass GET "${report}" totals pass)
  string(JSON passed GET "${report}" passed)
  if(NOT vectors STREQUAL "${prefix}/share/ninfer-conform/vectors" OR NOT passed OR pass EQUAL 0)
    message(FATAL_ERROR "run --plugin ${plugin}: vectors ${vectors}, passed ${passed}, ${pass} cases passed")
  endif()
  expect_lacks("run --plugin ${plugin}: subject path" "${path}" "${BUILD_DIR}/plugins")
endforeach()

# 5. A library component.
must("configuring the consumer with libraries" COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/cmake/consumer
  -B ${work}/consumer-libs -DCMAKE_PREFIX_PATH=${prefix} -DWITH_LIBRARIES=ON
  -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
must("building the consumer with libraries" COMMAND ${CMAKE_COMMAND} --build ${work}/consumer-libs)
must("running the consumer program" COMMAND ${work}/consumer-libs/escape)
expect_contains("escape" "${out}" "&lt;a &amp; b&gt;")
message(STATUS "installed package at ${prefix}: CLI, C and C++ plugins, library component all fine")
file(REMOVE_RECURSE ${work})
