# SPDX-License-Identifier: Apache-2.0
# The scalar family's tests: rule catalog and scalar suites (included by suites/CMakeLists.txt).
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_suites_tests PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_scalar_suites.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/test_rules.cpp)
endif()
