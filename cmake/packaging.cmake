# SPDX-License-Identifier: Apache-2.0
# A Debian package of the install (README.md, "Installation"): `cpack -G DEB` in the build
# directory. The CLI finds its plugins and vectors relative to itself, so the package installs
# under /usr like any other prefix.
set(CPACK_PACKAGE_NAME ninfer-conform)
set(CPACK_PACKAGE_VENDOR "ninfer-conform")
set(CPACK_PACKAGE_CONTACT "ninfer-conform maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Conformance suite and reference oracle for the numeric tensor formats of .ninfer artifacts")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
