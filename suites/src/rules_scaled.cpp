// SPDX-License-Identifier: Apache-2.0
// The scaled family's rules (placeholder of the family contract; the rows land with its suites).
#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

std::vector<Rule> scaled_rules() { return {}; }

}  // namespace ninfer::suites
