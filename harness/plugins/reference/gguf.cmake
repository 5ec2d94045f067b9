# SPDX-License-Identifier: Apache-2.0
# The reference plugin's GGUF half (ggml_blocks_v1) and its tests (included by
# harness/plugins/reference/CMakeLists.txt).
target_sources(ninfer_reference PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gguf_ops.cpp)
