// SPDX-License-Identifier: Apache-2.0
// The rule catalog: every normative rule of the spec that the suite enforces, with its id, the
// sentence it enforces and where that sentence stands. Cases name the rule they test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ninfer::suites {

struct Rule {
    std::string id;        ///< "<family>.<subject>[.<aspect>]", e.g. "convert.fp32_to_bf16_rne"
    std::string family;    ///< "decode", "classify", "validity", "convert", "layout", "grouped", ...
    std::string section;   ///< "tensor-formats.txt 3.1", "storage-layouts.md 2", "lesson Example 5"
    std::string sentence;  ///< the spec's sentence (verbatim where the spec has one)
    bool suite_reading = false;  ///< the rule rests on a documented suite reading
};

/// Every rule, scalar and grouped, in catalog order; ids unique.
const std::vector<Rule> &rule_catalog();
/// The rule with this id, or nullptr.
const Rule *find_rule(std::string_view id);

/// The rules of each family file (rules_scalar.cpp, rules_grouped.cpp).
std::vector<Rule> scalar_rules();
std::vector<Rule> grouped_rules();

}  // namespace ninfer::suites
