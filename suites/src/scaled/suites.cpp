// SPDX-License-Identifier: Apache-2.0
// The scaled family's suites, in catalog order: one file per suite in this folder (see suites/SCALED.md).
#include "builders.hpp"

namespace ninfer::suites {

std::vector<Suite> scaled_suites() {
    using namespace scaled;
    return {nvfp4_suite(), block_scale_suite(), fp8_rows_suite(), row_scale_suite(), row_interleaved_suite(), maxabs_suite(),
            lesson_suite()};
}

}  // namespace ninfer::suites
