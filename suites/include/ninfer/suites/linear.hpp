// SPDX-License-Identifier: Apache-2.0
// The `linear` operator family of the suites (suites/LINEAR.md): its rules table
// (src/rules_linear.cpp: rule::kLinear and one rule per criterion) and its suites (src/linear/).
// They join rule_catalog() / suite_catalog() (catalog.cpp) together with the vector file format
// that carries Case::profile, the planes' formats and Expect::accept.
#pragma once

#include <vector>

#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

std::vector<Rule> linear_rules();    ///< rules_linear.cpp: the `linear` operator
std::vector<Suite> linear_suites();  ///< src/linear/: linear.direct, .grouped, .scaled, .gguf, .checks

}  // namespace ninfer::suites
