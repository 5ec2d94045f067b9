// SPDX-License-Identifier: Apache-2.0
// The grouped family in the CLI (families.hpp; tensor-formats.txt Sections 5-7, storage-layouts.md
// Section 3; oracle/GROUPED.md): its `list` columns, and `ninfer-conform oracle geometry / pack /
// unpack / encode / decode`: the row_split_k128_v1 geometry, logical codes and scales to the
// canonical payload and back, raw little-endian source words to the canonical payload, and a
// payload to codes, scales and values.
// Exit status: 0 ok, 1 refused by a rule (one line naming rule and location), 2 usage or input.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "families.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli::tensor {

namespace {

namespace orc = ninfer::oracle;

/// The rule id (suites/src/rules_grouped.cpp) of an encoder refusal.
const char *encode_rule(std::int32_t status) {
    switch (status) {
    case NINFER_E_NONFINITE: return suites::rule::grouped_absmax_nonfinite;
    case NINFER_E_SCALE_OVERFLOW: return suites::rule::grouped_absmax_scale_overflow;
    case NINFER_E_METHOD: return suites::rule::grouped_absmax_refuses_q2_t2;
    default: return suites::rule::grouped_search_importance;
    }
}

/// The rule id of a payload refusal.
const char *decode_rule(const orc::GroupedFormat &f, std::uint32_t detail) {
    switch (detail) {
    case NINFER_DETAIL_ILLEGAL_CODE:
        return suites::rule::illegal_word(f);
    case NINFER_DETAIL_INVALID_SCALE:
        return f.encoding == orc::CodeEncoding::OFFSET ? suites::rule::grouped_scale_q2 : suites::rule::grouped_scale_validity;
    case NINFER_DETAIL_ZERO_SCALE_CODES: return suites::rule::grouped_scale_zero_group_codes;
    case NINFER_DETAIL_NONZERO_PADDING: return suites::rule::row_split_padding;
    case NINFER_DETAIL_NONZERO_GAP: return suites::rule::row_split_gaps;
    default: return suites::rule::row_split_size;
    }
}

/// The row_split_k128_v1 geometry of [N, K]; exit 2 naming the rule otherwise.
orc::RowSplitGeometry geometry_of(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    const auto g = orc::row_split_geometry(f, n, k);
    if (!g)
        fail(kUsage, "error: " + std::string(f.name) + " [" + std::to_string(n) + "," + std::to_string(k) +
                         "] has no row_split_k128_v1 geometry (rule " + std::string(suites::rule::row_split_geometry.c_str()) +
                         ": N and K positive, every size within uint64)");
    return *g;
}

json plane(const char *name, std::uint64_t offset, std::uint64_t bytes, const char *content) {
    return {{"plane", name}, {"offset", offset}, {"bytes", bytes}, {"content", content}};
}

std::vector<std::uint8_t> scale_bytes(const std::vector<std::uint16_t> &scales) {
    std::vector<std::uint8_t> out;
    out.reserve(2 * scales.size());
    for (const auto w : scales) abi::append_le(out, w, 2);
    return out;
}

json grouped_geometry(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    const auto g = geometry_of(f, n, k);
    json j = {{"op", "geometry"}, {"format", f.name}, {"family", "grouped"}, {"layout", "row_split_k128_v1"}, {"shape", {n, k}}};
    j["planes"] = json::array();
    j["planes"].push_back(plane("base", g.base_offset, g.base_bytes, "per row and group, the group's base bytes (low bits of each stored word)"));
    if (g.high_bytes > 0)
        j["planes"].push_back(plane("high", g.high_offset, g.high_bytes, "per row and group, the high bits of each stored word"));
    j["planes"].push_back(plane("scales", g.scale_offset, g.scale_bytes, "per row and group, one binary16 scale, little-endian"));
    j["gaps"] = json::array();
    for (const auto &gap : orc::row_split_gaps(g))
        if (gap.end > gap.begin) j["gaps"].push_back({{"begin", gap.begin}, {"end", gap.end}, {"content", "zero bytes"}});
    j["payload_bytes"] = g.payload_bytes;
    j["group"] = f.group;
    j["code_bits"] = f.code_bits;
    j["k_pad"] = g.k_pad;
    j["groups_per_row"] = g.groups_per_row;
    j["logical_groups_per_row"] = g.logical_groups;
    j["padding_columns_per_row"] = g.k_pad - k;
    j["padding_groups_per_row"] = g.groups_per_row - g.logical_groups;
    j["base_row_bytes"] = g.base_row_bytes;
    j["high_row_bytes"] = g.high_row_bytes;
    j["scale_row_bytes"] = g.scale_row_bytes;
    return j;
}

std::vector<std::uint8_t> grouped_pack(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k, const LayoutOpts &o) {
    const std::string name(f.name);
    if (!o.words.empty() || !o.divisors.empty()) fail(kUsage, "error: " + name + " takes --codes and --scales only");
    if (o.codes.empty() || o.scales.empty()) fail(kUsage, "error: oracle pack --format " + name + " needs --codes and --scales");
    const auto g = geometry_of(f, n, k);
    const auto codes = read_plane(o.codes, "--codes");
    const auto scales = read_plane(o.scales, "--scales");
    require_bytes(codes.size(), n * k, "--codes", name + " [" + std::to_string(n) + "," + std::to_string(k) + "] signed codes (one byte each)");
    require_bytes(scales.size(), 2 * n * g.logical_groups, "--scales",
                  std::to_string(n * g.logical_groups) + " binary16 scales (N * ceil(K/" + std::to_string(f.group) + "), 2 bytes each)");
    orc::GroupedMatrix m{n, k, {}, {}};
    for (std::uint64_t i = 0; i < codes.size(); ++i) {
        const auto q = static_cast<std::int8_t>(codes[i]);
        if (q < f.qmin || q > f.qmax)
            refuse(NINFER_E_INVALID_ARGUMENT, 0,
                   "rule " + suites::rule::grouped_code(f) + ": code " + std::to_string(q) + " at row " + std::to_string(i / k) +
                       ", column " + std::to_string(i % k) + " is outside [" + std::to_string(f.qmin) + "," +
                       std::to_string(f.qmax) + "]");
        m.codes.push_back(q);
    }
    for (const auto w : le_words(scales, 2)) m.scales.push_back(static_cast<std::uint16_t>(w));
    auto p = orc::row_split_encode(f, m);
    const auto d = orc::row_split_decode(f, n, k, p);
    if (d.status != NINFER_OK)
        refuse(NINFER_E_INVALID_ARGUMENT, 0,
               "no valid payload holds these words (" + std::string(abi::detail_name(d.detail)) + "): " + d.message);
    return p;
}

json grouped_unpack(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload) {
    geometry_of(f, n, k);
    const auto d = orc::row_split_decode(f, n, k, payload);
    if (d.status != NINFER_OK) refuse(d.status, d.detail, "rule " + std::string(decode_rule(f, d.detail)) + ": " + d.message);
    std::vector<std::uint8_t> codes(d.m.codes.begin(), d.m.codes.end());
    return {{"op", "unpack"},
            {"format", f.name},
            {"layout", "row_split_k128_v1"},
            {"shape", {n, k}},
            {"codes", hex_bytes(codes)},
            {"scales", hex_bytes(scale_bytes(d.m.scales))}};
}

/// grouped_search's K importance weights (binary32) of --importance; none when not given.
std::vector<std::uint32_t> read_importance(const EncodeOpts &o, std::uint64_t k) {
    std::vector<std::uint32_t> importance;
    if (o.importance.empty()) return importance;
    const auto raw = read_file(o.importance, "importance");
    if (raw.size() != 4 * k)
        fail(kUsage, "error: importance '" + o.importance + "' holds " + std::to_string(raw.size()) +
                         " bytes; K = " + std::to_string(k) + " binary32 words need " + std::to_string(4 * k));
    for (const auto w : le_words(raw, 4)) importance.push_back(static_cast<std::uint32_t>(w));
    return importance;
}

void grouped_encode(const orc::GroupedFormat &f, const EncodeOpts &o) {
    if (o.method != "grouped_absmax" && o.method != "grouped_search")
        fail(kUsage, "error: method '" + o.method + "' does not encode " + std::string(f.name) +
                         "; grouped methods: grouped_absmax, grouped_search");
    const auto [n, k] = rank2(parse_shape(o.shape), f.name);
    const std::uint32_t src = o.source_type == "fp32" ? NINFER_FORMAT_fp32
                              : o.source_type == "bf16" ? NINFER_FORMAT_bf16
                                                        : NINFER_FORMAT_fp16;
    const bool search = o.method == "grouped_search";
    if (!search && (!o.importance.empty() || o.negative_scales))
        fail(kUsage, "error: --importance and --negative-scales belong to --method grouped_search");
    geometry_of(f, n, k);
    const std::uint64_t width = src == NINFER_FORMAT_fp32 ? 4 : 2;
    const auto words = read_file(o.input, "input");
    if (words.size() / width / k < n || words.size() != n * k * width)
        fail(kUsage, "error: input '" + o.input + "' holds " + std::to_string(words.size()) + " bytes; [" +
                         std::to_string(n) + "," + std::to_string(k) + "] " + o.source_type + " words need " +
                         std::to_string(n * k * width));
    const auto importance = read_importance(o, k);
    const auto r = search ? orc::grouped_search(f, src, n, k, words, importance, o.negative_scales)
                          : orc::grouped_absmax(f, src, n, k, words);
    if (r.status == NINFER_E_INVALID_ARGUMENT) fail(kUsage, "error: " + r.message);
    if (r.status != NINFER_OK) refuse(r.status, 0, "rule " + std::string(encode_rule(r.status)) + ": " + r.message);
    const auto payload = orc::row_split_encode(f, r.m);
    write_atomically(o.output, payload.data(), payload.size());
    std::size_t reading = 0;
    for (const bool b : r.suite_reading_groups) reading += b;
    std::printf("%s %s [%llu,%llu] -> %s: %zu bytes row_split_k128_v1", std::string(f.name).c_str(), o.method.c_str(),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), o.output.c_str(), payload.size());
    if (search) std::printf(", %zu group(s) resting on the suite reading (oracle/GROUPED.md R3)", reading);
    std::printf("\n");
}

/// decode's JSON of a grouped matrix: its codes, scales and scale values row by row, then its values.
json decoded_json(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k, const orc::GroupedMatrix &m,
                  std::span<const std::uint32_t> values) {
    const std::uint64_t gpr = orc::grouped_groups_per_row(f, k);
    const auto &f16 = orc::word_format(NINFER_FORMAT_fp16);
    json j = {{"format", f.name},
              {"layout", "row_split_k128_v1"},
              {"shape", {n, k}},
              {"group", f.group},
              {"reconstruction", "binary32(s32 * binary32(q)), tensor-formats Section 6.2"}};
    json codes = json::array(), scales = json::array(), scale_values = json::array();
    for (std::uint64_t r = 0; r < n; ++r) {
        json cr = json::array(), sr = json::array(), svr = json::array();
        for (std::uint64_t c = 0; c < k; ++c) cr.push_back(static_cast<int>(m.codes[r * k + c]));
        for (std::uint64_t g = 0; g < gpr; ++g) {
            sr.push_back(orc::word_hex(f16, m.scales[r * gpr + g]));
            svr.push_back(orc::word_value_text(f16, m.scales[r * gpr + g]));
        }
        codes.push_back(std::move(cr));
        scales.push_back(std::move(sr));
        scale_values.push_back(std::move(svr));
    }
    j["codes"] = std::move(codes);
    j["scales"] = std::move(scales);
    j["scale_values"] = std::move(scale_values);
    put_values(j, values, n, k);
    return j;
}

void grouped_decode(const orc::GroupedFormat &f, const DecodeOpts &o) {
    const auto [n, k] = rank2(parse_shape(o.shape), f.name);
    geometry_of(f, n, k);
    const auto payload = read_file(o.input, "payload");
    const auto d = orc::row_split_decode(f, n, k, payload);
    if (d.status != NINFER_OK) refuse(d.status, d.detail, "rule " + std::string(decode_rule(f, d.detail)) + ": " + d.message);
    const std::uint64_t gpr = orc::grouped_groups_per_row(f, k);
    std::vector<std::uint32_t> values(n * k);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < k; ++c)
            values[r * k + c] = orc::grouped_reconstruct(d.m.scales[r * gpr + c / f.group], d.m.codes[r * k + c]);
    json j;
    if (!o.json_out.empty() || o.values_out.empty()) j = decoded_json(f, n, k, d.m, values);
    emit_decoded(o, values, j);
}

const char *packing_name(orc::Packing p) {
    switch (p) {
    case orc::Packing::BYTE: return "byte";
    case orc::Packing::NIBBLE_HIGH: return "nibble_high";
    case orc::Packing::TWO_BIT_LSB: return "two_bit_lsb";
    }
    return "?";
}

const orc::GroupedFormat &grouped_format(const abi::FormatView &v) { return *orc::find_id(orc::kGroupedFormats, v.id); }

json grouped_json(const abi::FormatView &v) {
    const auto &f = grouped_format(v);
    return {{"id", f.id}, {"name", f.name}, {"code_bits", f.code_bits}, {"group", f.group}, {"qmin", f.qmin},
            {"qmax", f.qmax}, {"encoding", f.encoding == orc::CodeEncoding::TWOS ? "twos" : "offset"},
            {"illegal_word", f.illegal_word}, {"scale_format", orc::format_name(f.scale_format)},
            {"canonical_encoders", f.canonical_encoders}, {"layout", orc::layout_name(f.layout)},
            {"base_bytes_per_group", f.base_bytes}, {"high_bytes_per_group", f.high_bytes},
            {"packing", packing_name(f.packing)}, {"scale_role", name_of(orc::kRoles, f.scale_role)}};
}

std::string grouped_line(const abi::FormatView &v) {
    const auto &f = grouped_format(v);
    return fmt::format("  {:>2} {:<13} {} bits, G={:<3} [{},{}] {}{}\n", f.id, f.name, f.code_bits, f.group, f.qmin,
                       f.qmax, orc::layout_name(f.layout), f.canonical_encoders ? "" : " (no canonical encoder)");
}

json geometry_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t) {
    const auto [n, k] = rank2(shape, v.name);
    return grouped_geometry(grouped_format(v), n, k);
}

Packed pack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto [n, k] = rank2(shape, v.name);
    return {grouped_pack(grouped_format(v), n, k, o), "row_split_k128_v1"};
}

json unpack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto [n, k] = rank2(shape, v.name);
    return grouped_unpack(grouped_format(v), n, k, read_plane(o.payload, "--payload"));
}

void encode_of_view(const abi::FormatView &v, const EncodeOpts &o) { grouped_encode(grouped_format(v), o); }
void decode_of_view(const abi::FormatView &v, const DecodeOpts &o) { grouped_decode(grouped_format(v), o); }

}  // namespace

}  // namespace ninfer::harness::cli::tensor

namespace ninfer::harness::cli {

const CliFamily kGroupedCli = {
    .family = abi::Family::grouped,
    .heading = "grouped formats (id name code bits, group, [qmin,qmax], layout):\n",
    .format_json = tensor::grouped_json,
    .format_line = tensor::grouped_line,
    .geometry = tensor::geometry_of_view,
    .pack = tensor::pack_of_view,
    .unpack = tensor::unpack_of_view,
    .encode = tensor::encode_of_view,
    .decode = tensor::decode_of_view,
};

}  // namespace ninfer::harness::cli
