# SPDX-License-Identifier: Apache-2.0
# The scalar-word oracle and the contiguous_le_v1 layout oracle (included by oracle/CMakeLists.txt).
target_sources(ninfer_oracle PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/scalar_value.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/scalar_round.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/fingerprint_lattice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/scalar_stochastic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/contiguous.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/exhaustive.cpp)
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_oracle_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_lesson_examples.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_rounding.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_stochastic.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_scalar_values.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_contiguous.cpp)
endif()
