// SPDX-License-Identifier: Apache-2.0
// The word family's (folder scalar/) suites, in catalog order: one file per suite in this folder.
#include "builders.hpp"

namespace ninfer::suites {

std::vector<Suite> scalar_suites() {
    using namespace scalar;
    return {decode_suite(), classify_suite(), validate_suite(), convert_suite(), contiguous_suite(), registry_suite()};
}

}  // namespace ninfer::suites
