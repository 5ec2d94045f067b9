# SPDX-License-Identifier: Apache-2.0
# The grouped family's tests: rules and suites (included by suites/CMakeLists.txt).
if(NINFER_BUILD_TESTS)
  target_sources(ninfer_suites_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tests/test_grouped_suites.cpp)
endif()
