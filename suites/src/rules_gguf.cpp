// SPDX-License-Identifier: Apache-2.0
// The gguf family's rules (placeholder of the family contract; the rows land with its suites).
#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

std::vector<Rule> gguf_rules() { return {}; }

}  // namespace ninfer::suites
