# SPDX-License-Identifier: Apache-2.0
# The Debian packages (cmake/packaging.cmake; issue 25, item 7): `cpack -G DEB` builds the runtime
# package ninfer-conform and the development package ninfer-conform-dev; `dpkg-deb -c` lists the
# CLI, the bundled plugins, the vectors, the manual page and the examples in the first, the
# headers, the static libraries (multiarch directory) and the CMake package in the second, each
# with its copyright file and changelog.Debian.gz; apt finds every dependency they declare on this
# system (`apt-get -s install`, a simulation); dpkg installs both into a scratch root (`dpkg
# --root`, dependencies are those of the host), and the installed CLI runs from there; lintian
# reports no error and no warning on either (with LINT ON: lintian takes over a minute).
# Arguments: BUILD_DIR, LIBDIR (CMAKE_INSTALL_LIBDIR), ARCH (CMAKE_LIBRARY_ARCHITECTURE), VERSION
# (the packages' version), LINT (ON: run lintian), LINTIAN (its path; NOTFOUND where not installed).
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-deb-test)
if(LINT AND NOT LINTIAN)
  message(STATUS "lintian is not installed (scripts/setup.sh installs it): skipped")
  return()
endif()

if(ARCH AND NOT LIBDIR STREQUAL "lib/${ARCH}")
  message(FATAL_ERROR "CMAKE_INSTALL_LIBDIR is ${LIBDIR}, not the multiarch lib/${ARCH}")
endif()
must("cpack -G DEB" COMMAND ${CMAKE_CPACK_COMMAND} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${work})
file(GLOB runtime ${work}/ninfer-conform_${VERSION}_*.deb)
file(GLOB dev ${work}/ninfer-conform-dev_${VERSION}_*.deb)
file(GLOB all ${work}/*.deb)
list(LENGTH runtime n_runtime)
list(LENGTH dev n_dev)
list(LENGTH all n_all)
if(NOT n_runtime EQUAL 1 OR NOT n_dev EQUAL 1 OR NOT n_all EQUAL 2)
  message(FATAL_ERROR "expected ninfer-conform_${VERSION}_*.deb and ninfer-conform-dev_${VERSION}_*.deb, found: ${all}")
endif()

# The runtime package: what running the suite needs, and no header or library.
must("dpkg-deb -c (runtime)" COMMAND dpkg-deb -c ${runtime})
set(listing "${out}")
foreach(path ./usr/bin/ninfer-conform ./usr/lib/ninfer-conform/plugins/reference.so
        ./usr/share/ninfer-conform/vectors/MANIFEST.sha256 ./usr/share/ninfer-conform/schema/report-v3.schema.json
        ./usr/share/man/man1/ninfer-conform.1.gz ./usr/share/doc/ninfer-conform/examples/minimal_plugin.c
        ./usr/share/doc/ninfer-conform/copyright ./usr/share/doc/ninfer-conform/changelog.Debian.gz)
  expect_contains("dpkg-deb -c (runtime)" "${listing}" "${path}")
endforeach()
expect_lacks("dpkg-deb -c (runtime)" "${listing}" "./usr/include/")
expect_lacks("dpkg-deb -c (runtime)" "${listing}" ".a\n")

# The -dev package: headers, static libraries and the CMake package under the multiarch directory.
must("dpkg-deb -c (dev)" COMMAND dpkg-deb -c ${dev})
set(listing "${out}")
set(cmake_dir ./usr/${LIBDIR}/cmake/ninfer_conform)
foreach(path ./usr/include/ninfer/abi/plugin.h ./usr/include/ninfer/abi/registry.hpp
        ./usr/include/ninfer/harness/plugin.h ./usr/${LIBDIR}/libninfer_oracle.a
        ${cmake_dir}/ninfer_conform-config.cmake ${cmake_dir}/ninfer_conform-cli-targets.cmake
        ${cmake_dir}/ninfer_conform-add-test.cmake ./usr/${LIBDIR}/cmake/ninfer-conform/ninfer-conform-config.cmake
        ./usr/share/doc/ninfer-conform-dev/copyright ./usr/share/doc/ninfer-conform-dev/changelog.Debian.gz)
  expect_contains("dpkg-deb -c (dev)" "${listing}" "${path}")
endforeach()
expect_lacks("dpkg-deb -c (dev)" "${listing}" "./usr/bin/")
expect_lacks("dpkg-deb -c (dev)" "${listing}" "./usr/lib/ninfer-conform/")

# Control fields: a contact with an address, a synopsis and an extended description, -dev on runtime.
foreach(deb ${runtime} ${dev})
  must("dpkg-deb -f ${deb}" COMMAND dpkg-deb -f ${deb} Maintainer Description)
  if(NOT out MATCHES "Maintainer: [^<\n]+ <[^@>\n]+@[^>\n]+>\n" OR NOT out MATCHES "Description: [^\n]+\n [^\n]+")
    message(FATAL_ERROR "${deb}: no contact with an address, or no extended description:\n${out}")
  endif()
endforeach()
must("dpkg-deb -f (dev)" COMMAND dpkg-deb -f ${dev} Depends)
expect_contains("dpkg-deb -f (dev)" "${out}" "ninfer-conform (= ${VERSION})")

find_program(apt_get apt-get)
if(apt_get)
  must("apt-get -s install" COMMAND ${apt_get} -s --no-install-recommends install ${runtime} ${dev})
  expect_contains("apt-get -s install" "${out}" "2 newly installed, 0 to remove")
endif()
file(MAKE_DIRECTORY ${work}/root/var/lib/dpkg/info ${work}/root/var/lib/dpkg/updates)
file(TOUCH ${work}/root/var/lib/dpkg/status)
must("dpkg --root -i" COMMAND dpkg --root=${work}/root --force-depends --force-not-root --log=/dev/null
  -i ${runtime} ${dev})
set(exe ${work}/root/usr/bin/ninfer-conform)
must("--version of the packaged CLI" COMMAND ${exe} --version)
expect_contains("--version" "${out}" "plugins:    ${work}/root/usr/lib/ninfer-conform/plugins")
must("run --plugin reference from the package" COMMAND ${exe} run --plugin reference --suite scalar.decode
  --level quick --report ${work}/reference.json)
file(READ ${work}/reference.json report)
string(JSON vectors GET "${report}" vectors dir)
if(NOT vectors STREQUAL "${work}/root/usr/share/ninfer-conform/vectors")
  message(FATAL_ERROR "the packaged CLI used the vectors at ${vectors}")
endif()

# With LINT: lintian reports no error and no warning (information and pedantic tags are not shown
# by default; cmake/debian/lintian-overrides names the one override and why).
if(LINT)
  execute_process(COMMAND ${LINTIAN} --fail-on none ${runtime} ${dev} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lintian failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "(^|\n)[EW]: [^\n]*" complaints "${out}")
  if(complaints)
    string(REPLACE ";" "" complaints "${complaints}")
    message(FATAL_ERROR "lintian complains:${complaints}")
  endif()
endif()
message(STATUS "${runtime} and ${dev}: list, install and run (lintian: ${LINT})")
file(REMOVE_RECURSE ${work})
