// SPDX-License-Identifier: Apache-2.0
// Placeholder until this family's file is written.
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {
std::vector<Suite> scalar_suites() { return {}; }
}  // namespace ninfer::suites
