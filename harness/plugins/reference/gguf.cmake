# SPDX-License-Identifier: Apache-2.0
# The reference plugin's GGUF half (ggml_blocks_v1): its own decoders and reference
# quantizers, the ops of the family contract, their cross-check against the oracle and the
# decode benchmark (included by harness/plugins/reference/CMakeLists.txt).
set(NINFER_GGUF_NATIVE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/gguf_blocks.cpp ${CMAKE_CURRENT_LIST_DIR}/gguf_quantize.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gguf_quantize_kquants.cpp ${CMAKE_CURRENT_LIST_DIR}/gguf_quantize_iq4.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gguf_quantize_small.cpp)
target_sources(ninfer_reference PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gguf_ops.cpp ${NINFER_GGUF_NATIVE_SOURCES})
# ggml's binary32 evaluation order: no product may be fused into an addition.
set_source_files_properties(${NINFER_GGUF_NATIVE_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# ggml's grids, sign tables and code books: data generated from oracle/data/ggml-tables.json
# (oracle/gguf.cmake), shared on purpose; the reference links no oracle code. Public in the build
# tree for the GGUF mutants, which re-decode one type with the same tables.
target_include_directories(ninfer_reference PUBLIC $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/oracle/generated>)

if(NINFER_BUILD_TESTS AND TARGET ninfer_reference_tests)
  target_sources(ninfer_reference_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf_blocks.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf_quantize_iq4.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf_quantize_small.cpp)
  target_link_libraries(ninfer_reference_tests PRIVATE ninfer::oracle)
endif()

if(NINFER_BUILD_BENCHMARKS)
  add_executable(bench_gguf_reference ${CMAKE_CURRENT_LIST_DIR}/bench_gguf_reference.cpp)
  target_link_libraries(bench_gguf_reference PRIVATE ninfer::reference ninfer::oracle)
endif()
