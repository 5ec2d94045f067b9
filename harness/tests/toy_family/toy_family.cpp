// SPDX-License-Identifier: Apache-2.0
// A toy format family, plugged in from this folder alone (docs/ARCHITECTURE.md, "A new family"):
// its registry row (the test-only row `toy` of NINFER_FAMILIES), its rules table, one suite with
// one case generator, its compare descriptor, its CLI descriptor (`list` columns, `oracle` geometry
// and pack), its reference plugin descriptor (it serves the toy's rows_select), and one line per
// side, run before main. Built into ninfer_toy_family_tests only.
#include "toy_family.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "families.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/suites/suites.hpp"
#include "reference_family.hpp"

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

bool claims_toy(const ninfer_call_v2 *call) { return call->format == kFormat; }

/// The reference's toy rows_select: every row kept, so the payload is copied unchanged.
std::int32_t serve_toy(const ninfer_call_v2 *call, ninfer_result_v2 *) {
    const ninfer_input_plane *in = nullptr;
    for (std::uint32_t i = 0; i < call->input_count; ++i)
        if (call->inputs[i].name == NINFER_PLANE_PAYLOAD) in = &call->inputs[i];
    for (std::uint32_t i = 0; i < call->output_count; ++i) {
        auto &out = call->outputs[i];
        if (out.name != NINFER_PLANE_PAYLOAD || !in) continue;
        if (out.capacity < in->bytes) return NINFER_E_SIZE;
        if (in->bytes) std::memcpy(out.data, in->data, in->bytes);
        out.written = in->bytes;
        return NINFER_OK;
    }
    return NINFER_E_INVALID_ARGUMENT;
}

constexpr ninfer_capability_v2 kToyCapabilities[] = {{NINFER_OP_rows_select, kFormat, 0, 0, 0, 0}};
std::span<const ninfer_capability_v2> toy_capabilities() { return kToyCapabilities; }

}  // namespace

const suites::CatalogFamily kCatalog = {.family = kFamily, .rules = &toy_rules, .suites = &toy_suites};

const harness::CompareFamily kCompare = {.family = kFamily, .owns = &owns_toy, .locate = &toy_locate, .blame = &toy_blame};

const harness::cli::CliFamily kCli = {.family = kFamily,
                                      .heading = "toy formats:\n",
                                      .format_json = toy_json,
                                      .format_line = toy_line,
                                      .geometry = toy_geometry,
                                      .pack = toy_pack,
                                      .unpack = toy_unpack,
                                      .encode = toy_encode,
                                      .decode = toy_decode};

const reference::ReferenceFamily kReference = {
    .family = kFamily, .claims = &claims_toy, .serve = &serve_toy, .capabilities = &toy_capabilities};

namespace {

// One line per side.
const bool registered = suites::add_catalog_family(kCatalog) && harness::add_compare_family(kCompare) &&
                        harness::cli::add_cli_family(kCli) && reference::add_reference_family(kReference);

}  // namespace

bool toy_registered() { return registered; }

}  // namespace ninfer::toy
