// SPDX-License-Identifier: Apache-2.0
// A toy format family, plugged in from this folder alone (docs/ARCHITECTURE.md, "A new family"):
// its rules table, one suite with one case generator, its compare descriptor, and one line per
// descriptor array, run before main. Built into ninfer_toy_family_tests only.
#include "toy_family.hpp"

#include <string>

#include "ninfer/harness/compare.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::toy {

namespace {

std::vector<suites::Rule> toy_rules() {
    return {suites::make_rule(kRule, "toy", "toy family 1", "A toy payload is copied unchanged.", "")};
}

/// The one case: rows_select of a toy payload, every row kept, so the output is the input.
std::vector<suites::Case> toy_cases(suites::Level) {
    auto c = suites::base_case(kRule, "copy", suites::Level::quick, "toy");
    c.op = NINFER_OP_rows_select;
    c.format = kFormat;
    c.shape = {2, 2};
    c.input(NINFER_PLANE_PAYLOAD) = kPayload;
    c.input(NINFER_PLANE_ROWS) = {};
    c.expect.output(NINFER_PLANE_PAYLOAD) = kPayload;
    return {c};
}

std::vector<suites::Suite> toy_suites() {
    return {{kSuite, "the toy family's one suite", &toy_cases, [](std::uint64_t, suites::Level) { return std::vector<suites::Case>{}; }}};
}

bool owns_toy(const suites::Case &c) { return c.format == kFormat; }

std::string toy_locate(const suites::Case &, const harness::CasePlanes &, int, std::uint64_t offset) {
    return "toy cell " + std::to_string(offset);
}

std::string toy_blame(const suites::Case &, const harness::CasePlanes &, const harness::Reply &, int, std::uint64_t) {
    return kBlame;
}

// One line per descriptor array.
const bool registered = [] {
    suites::add_catalog_family({"toy", &toy_rules, &toy_suites});
    harness::add_compare_family({"toy", &owns_toy, nullptr, &toy_locate, &toy_blame, nullptr, nullptr});
    return true;
}();

}  // namespace

bool toy_registered() { return registered; }

}  // namespace ninfer::toy
