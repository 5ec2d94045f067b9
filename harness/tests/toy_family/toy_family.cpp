// SPDX-License-Identifier: Apache-2.0
// A toy format family, plugged in from this folder alone (docs/ARCHITECTURE.md, "A new family"):
// its rules table, one suite with one case generator, its compare descriptor, its CLI descriptor
// (`list` columns, `oracle` geometry and pack), and one line per descriptor array, run before main.
// Built into ninfer_toy_family_tests only.
#include "toy_family.hpp"

#include <string>

#include "families.hpp"
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

harness::Located toy_locate(const suites::Case &, const harness::CasePlanes &, int, std::uint64_t offset) {
    return {"toy cell " + std::to_string(offset), {.plane = "toy", .element = offset}};
}

std::string toy_blame(const suites::Case &, const harness::CasePlanes &, const harness::Reply &, int, std::uint64_t) {
    return kBlame;
}

namespace cli = harness::cli;
cli::json toy_json(const abi::FormatView &v) { return {{"id", v.id}, {"name", v.name}, {"toy", true}}; }
std::string toy_line(const abi::FormatView &v) { return "  toy " + std::string(v.name) + "\n"; }
cli::json toy_geometry(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t) {
    return {{"format", v.name}, {"shape", shape}};
}
cli::Packed toy_pack(const abi::FormatView &, const std::vector<std::uint64_t> &shape, const cli::tensor::LayoutOpts &) {
    return {std::vector<std::uint8_t>(shape.size()), "toy_layout"};
}
cli::json toy_unpack(const abi::FormatView &v, const std::vector<std::uint64_t> &, const cli::tensor::LayoutOpts &) {
    return {{"format", v.name}};
}
void toy_encode(const abi::FormatView &, const cli::tensor::EncodeOpts &) {}
void toy_decode(const abi::FormatView &, const cli::tensor::DecodeOpts &) {}

}  // namespace

const harness::cli::FamilyCli kCli = {.family = kFamily,
                                      .name = "toy",
                                      .heading = "toy formats:\n",
                                      .format_json = toy_json,
                                      .format_line = toy_line,
                                      .geometry = toy_geometry,
                                      .pack = toy_pack,
                                      .unpack = toy_unpack,
                                      .encode = toy_encode,
                                      .decode = toy_decode};

namespace {

// One line per descriptor array.
const bool registered = [] {
    suites::add_catalog_family({"toy", &toy_rules, &toy_suites});
    harness::add_compare_family({.name = "toy", .owns = &owns_toy, .locate = &toy_locate, .blame = &toy_blame});
    harness::cli::add_family_cli(kCli);
    return true;
}();

}  // namespace

bool toy_registered() { return registered; }

}  // namespace ninfer::toy
