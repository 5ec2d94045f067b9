# SPDX-License-Identifier: Apache-2.0
# The alias package name's version check: that of ninfer_conform.
include("${CMAKE_CURRENT_LIST_DIR}/../ninfer_conform/ninfer_conform-config-version.cmake")
