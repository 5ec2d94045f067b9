// SPDX-License-Identifier: Apache-2.0
// The `linear` operator's suites, in catalog order: one file per family in this folder (see suites/LINEAR.md).
#include "builders.hpp"

namespace ninfer::suites {

std::vector<Suite> linear_suites() {
    using namespace linear;
    return {direct_suite(), grouped_suite(), scaled_suite(), gguf_suite(), checks_suite()};
}

}  // namespace ninfer::suites
