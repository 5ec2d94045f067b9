# SPDX-License-Identifier: Apache-2.0
# The GGUF block formats (oracle/GGUF.md; included by oracle/CMakeLists.txt): decoders, reference
# quantizers, ggml_blocks_v1; ggml's tables generated from oracle/data/ggml-tables.json (data read
# from ggml's src/ggml-common.h by scripts/ggml_tables.py, its ggml commit in "provenance").
set(NINFER_GGML_TABLES_JSON "${CMAKE_CURRENT_LIST_DIR}/data/ggml-tables.json" CACHE FILEPATH
  "ggml's lookup tables as JSON (default: oracle/data/ggml-tables.json; scripts/ggml_tables.py writes one)")
include(${PROJECT_SOURCE_DIR}/cmake/ggml_tables.cmake)
ninfer_generate_ggml_tables("${NINFER_GGML_TABLES_JSON}"
  "${CMAKE_CURRENT_BINARY_DIR}/generated/ninfer/oracle/ggml_tables.hpp")
target_sources(ninfer_oracle PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src/gguf.cpp ${CMAKE_CURRENT_LIST_DIR}/src/gguf_binary32.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gguf_quantize.cpp ${CMAKE_CURRENT_LIST_DIR}/src/gguf_kquants.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/gguf_quantize_iq4.cpp ${CMAKE_CURRENT_LIST_DIR}/src/gguf_quantize_small.cpp)
target_include_directories(ninfer_oracle PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf.cpp ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf_iq4.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_gguf_quantize_small.cpp)
  target_link_libraries(ninfer_oracle_tests PRIVATE fmt::fmt)
  target_include_directories(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
  target_compile_definitions(ninfer_oracle_tests PRIVATE NINFER_GGML_TABLES_JSON="${NINFER_GGML_TABLES_JSON}")
  # The tables' provenance, tested (oracle/GGUF.md, "ggml's tables"): the generator's parser on a
  # synthetic ggml-common.h (always), the committed file against a ggml tree ($NINFER_GGML_SOURCE)
  # and against ../shared/data/ggml-tables.json beside the source tree (each skipped when absent).
  set(tables_test ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/tests/test_ggml_tables.py)
  set(tables_json ${CMAKE_CURRENT_LIST_DIR}/data/ggml-tables.json)
  add_test(NAME "oracle: scripts/ggml_tables.py reads the tables and constants of a synthetic ggml-common.h"
    COMMAND ${tables_test} fixture)
  add_test(NAME "oracle: scripts/ggml_tables.py reproduces oracle/data/ggml-tables.json from \$NINFER_GGML_SOURCE"
    COMMAND ${tables_test} source ${tables_json})
  add_test(NAME "oracle: oracle/data/ggml-tables.json has the tables of ../shared/data/ggml-tables.json"
    COMMAND ${tables_test} shared ${tables_json} ${PROJECT_SOURCE_DIR})
  set_tests_properties(
    "oracle: scripts/ggml_tables.py reads the tables and constants of a synthetic ggml-common.h"
    "oracle: scripts/ggml_tables.py reproduces oracle/data/ggml-tables.json from \$NINFER_GGML_SOURCE"
    "oracle: oracle/data/ggml-tables.json has the tables of ../shared/data/ggml-tables.json"
    PROPERTIES LABELS oracle SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
