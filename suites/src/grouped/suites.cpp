// SPDX-License-Identifier: Apache-2.0
// The grouped family's suites, in catalog order: one file per suite in this folder.
#include "builders.hpp"

namespace ninfer::suites {

std::vector<Suite> grouped_suites() {
    using namespace grouped;
    return {codes_suite(), absmax_suite(), search_suite(), row_split_suite()};
}

}  // namespace ninfer::suites
