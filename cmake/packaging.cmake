# SPDX-License-Identifier: Apache-2.0
# The Debian packages of the install (README.md, "Installation"; issue 25, item 7): `cpack -G DEB`
# in the build directory builds two, as Debian splits a library's users from its developers:
#  - ninfer-conform: the CLI, the bundled plugins, the vectors and schemas, the manual page, and
#    the plugin examples under /usr/share/doc/ninfer-conform/examples (install component runtime);
#  - ninfer-conform-dev: the headers, the static libraries and the CMake package (component dev).
# Each has the copyright file (DEP-5) and changelog.Debian.gz Debian wants, and one justified
# lintian override (cmake/debian/). The CLI
# finds its plugins and vectors relative to itself, so the packages install under /usr like any
# other prefix; cmake/test_deb.cmake installs them and runs lintian on both.
set(NINFER_DEB_CONTACT "ninfer-conform maintainers <ninfer-conform@users.noreply.github.com>")
set(NINFER_DEB_PACKAGE ninfer-conform)
set(NINFER_DEB_RELEASE 1)
set(NINFER_DEB_VERSION ${PROJECT_VERSION}-${NINFER_DEB_RELEASE})
set(NINFER_DEB_SUMMARY "conformance suite and exact oracle for .ninfer tensor number formats")
set(NINFER_DOC_DIR ${CMAKE_INSTALL_DATAROOTDIR}/doc)

# The manual page, from the CLI's help at build time (cmake/man_page.cmake).
set(NINFER_MAN_PAGE ${PROJECT_BINARY_DIR}/man/ninfer-conform.1)
add_custom_command(OUTPUT ${NINFER_MAN_PAGE} ${NINFER_MAN_PAGE}.gz
  COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:ninfer-conform> -DOUT=${NINFER_MAN_PAGE}
          -DVERSION=${PROJECT_VERSION} -DSUMMARY=${NINFER_DEB_SUMMARY} -P ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
  DEPENDS ninfer-conform ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
  COMMENT "Generating the manual page ninfer-conform.1 from --help" VERBATIM)
add_custom_target(ninfer_man_page ALL DEPENDS ${NINFER_MAN_PAGE} ${NINFER_MAN_PAGE}.gz)
install(FILES ${NINFER_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(DIRECTORY harness/examples/ DESTINATION ${NINFER_DOC_DIR}/ninfer-conform/examples COMPONENT runtime)

# changelog.Debian.gz: one entry for this version, dated by SOURCE_DATE_EPOCH when set; gzip -9n
# keeps name and time out of the gzip header.
string(TIMESTAMP NINFER_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(cmake/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog.Debian @ONLY)
execute_process(COMMAND gzip -9n -c ${PROJECT_BINARY_DIR}/debian/changelog.Debian
  OUTPUT_FILE ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz COMMAND_ERROR_IS_FATAL ANY)
foreach(component runtime dev)
  set(package ninfer-conform)
  if(component STREQUAL "dev")
    set(package ninfer-conform-dev)
  endif()
  install(FILES cmake/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz
    DESTINATION ${NINFER_DOC_DIR}/${package} COMPONENT ${component})
  install(FILES cmake/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
    RENAME ${package} COMPONENT ${component})
endforeach()

set(CPACK_PACKAGE_NAME ninfer-conform)
set(CPACK_PACKAGE_VENDOR "ninfer-conform")
set(CPACK_PACKAGE_CONTACT "${NINFER_DEB_CONTACT}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${NINFER_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ninfer-conform)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "${NINFER_DEB_SUMMARY}
ninfer-conform checks implementations of the numeric tensor formats of .ninfer
artifacts (IEEE binary16 and bfloat16, the OCP FP8 and MX formats and the
GGUF block formats) against an exact oracle computed with GMP and MPFR.
.
This package holds the ninfer-conform command, which runs the conformance
suites against a plugin library or an external command and writes JSON, JUnit
and HTML reports; the bundled reference and mutant plugins; the golden
vectors; and the plugin examples.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME ninfer-conform-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "ninfer-conform (= ${NINFER_DEB_VERSION})")
# What the library components' find_package looks for (cmake/ninfer_conform-config.cmake.in);
# the header-only abi component needs none of them.
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS
  "pkg-config, libmpfr-dev, libgmp-dev, libboost-dev, nlohmann-json3-dev, libfmt-dev, libssl-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION "conformance suite for .ninfer tensor formats - development files
ninfer-conform checks implementations of the numeric tensor formats of .ninfer
artifacts against an exact oracle computed with GMP and MPFR.
.
This package holds what a plugin project builds against: the header-only plugin
ABI, the headers and static libraries of the oracle, suites, vectors, reports
and harness, and the CMake package ninfer_conform, with the imported CLI target
ninfer_conform::cli and the function ninfer_conform_add_test that registers a
CTest test running the suite on a plugin.")
include(CPack)
