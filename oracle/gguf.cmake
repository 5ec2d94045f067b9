# SPDX-License-Identifier: Apache-2.0
# The GGUF block formats (oracle/GGUF.md; included by oracle/CMakeLists.txt): decoders, reference
# quantizers, ggml_blocks_v1; ggml's tables generated from ../shared/data/ggml-tables.json.
set(NINFER_SHARED_DIR "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH "The shared spec and data directory (../shared)")
include(${PROJECT_SOURCE_DIR}/cmake/ggml_tables.cmake)
ninfer_generate_ggml_tables("${NINFER_SHARED_DIR}/data/ggml-tables.json"
  "${CMAKE_CURRENT_BINARY_DIR}/generated/ninfer/oracle/ggml_tables.hpp")
target_sources(ninfer_oracle PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src/gguf.cpp ${CMAKE_CURRENT_LIST_DIR}/src/gguf_binary32.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gguf_quantize.cpp ${CMAKE_CURRENT_LIST_DIR}/src/gguf_kquants.cpp)
target_include_directories(ninfer_oracle PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf.cpp)
  target_link_libraries(ninfer_oracle_tests PRIVATE fmt::fmt)
  target_include_directories(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
  target_compile_definitions(ninfer_oracle_tests PRIVATE
    NINFER_GGML_TABLES_JSON="${NINFER_SHARED_DIR}/data/ggml-tables.json")
endif()
