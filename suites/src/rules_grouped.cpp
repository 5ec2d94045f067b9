// SPDX-License-Identifier: Apache-2.0
// Placeholder until this family's file is written.
#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {
std::vector<Rule> grouped_rules() { return {}; }
}  // namespace ninfer::suites
