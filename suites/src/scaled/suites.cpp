// SPDX-License-Identifier: Apache-2.0
// The scaled family's suites (placeholder of the family contract; the generators land next).
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

std::vector<Suite> scaled_suites() { return {}; }

}  // namespace ninfer::suites
