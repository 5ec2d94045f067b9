# SPDX-License-Identifier: Apache-2.0
# The scaled floating-point weight formats: nvfp4 in block_scale_k16_m128x4_v1 and the FP8 row
# formats in row_scale_v1 / row_interleaved_v1 (included by oracle/CMakeLists.txt).
target_sources(ninfer_oracle PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/nvfp4.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/fp8_rows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/fp4_recipes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/block_recipes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/block_recipes_nvfp4.cpp)
target_link_libraries(ninfer_oracle PRIVATE fmt::fmt)

if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_scaled.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_block_recipes.cpp)
endif()

