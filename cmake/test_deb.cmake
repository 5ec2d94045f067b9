# SPDX-License-Identifier: Apache-2.0
# The Debian package (cmake/packaging.cmake): `cpack -G DEB` builds it, `dpkg-deb -c` lists the
# CLI, the bundled plugins, the vectors and the package config under /usr, apt finds every
# dependency it declares on this system (`apt-get -s install`, a simulation), dpkg installs it
# into a scratch root (`dpkg --root`, dependencies are those of the host), and the installed CLI
# runs from there.
# Arguments: BUILD_DIR.
include(${CMAKE_CURRENT_LIST_DIR}/test_script_support.cmake)
ninfer_scratch(work ninfer-deb-test)


must("cpack -G DEB" COMMAND ${CMAKE_CPACK_COMMAND} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${work})
file(GLOB deb ${work}/ninfer-conform_*.deb)
list(LENGTH deb n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one ninfer-conform_*.deb in ${work}, found: ${deb}")
endif()
must("dpkg-deb -c" COMMAND dpkg-deb -c ${deb})
set(listing "${out}")
foreach(path ./usr/bin/ninfer-conform ./usr/lib/ninfer-conform/plugins/reference.so
        ./usr/share/ninfer-conform/vectors/MANIFEST.sha256 ./usr/include/ninfer/abi/plugin.h
        ./usr/include/ninfer/abi/registry.hpp ./usr/include/ninfer/harness/plugin.h
        ./usr/lib/cmake/ninfer_conform/ninfer_conform-config.cmake
        ./usr/lib/cmake/ninfer-conform/ninfer-conform-config.cmake)
  expect_contains("dpkg-deb -c" "${listing}" "${path}")
endforeach()
must("dpkg-deb -f" COMMAND dpkg-deb -f ${deb} Package Version Depends)
expect_contains("dpkg-deb -f" "${out}" "Package: ninfer-conform")

find_program(apt_get apt-get)
if(apt_get)
  must("apt-get -s install" COMMAND ${apt_get} -s install ${deb})
  expect_contains("apt-get -s install" "${out}" "1 newly installed, 0 to remove")
endif()
file(MAKE_DIRECTORY ${work}/root/var/lib/dpkg/info ${work}/root/var/lib/dpkg/updates)
file(TOUCH ${work}/root/var/lib/dpkg/status)
must("dpkg --root -i" COMMAND dpkg --root=${work}/root --force-depends --force-not-root --log=/dev/null -i ${deb})
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
message(STATUS "${deb}: lists, installs and runs")
file(REMOVE_RECURSE ${work})
