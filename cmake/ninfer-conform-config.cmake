# SPDX-License-Identifier: Apache-2.0
# The alias package name: find_package(ninfer-conform) is find_package(ninfer_conform).
include("${CMAKE_CURRENT_LIST_DIR}/../ninfer_conform/ninfer_conform-config.cmake")
