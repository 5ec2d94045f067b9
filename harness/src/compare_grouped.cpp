// SPDX-License-Identifier: Apache-2.0
// The grouped family in a comparison (storage-layouts.md Section 3, tensor-formats.txt Sections
// 6 and 7): where a byte of a row_split_k128_v1 payload or a quant_decode plane lies, the rule a
// mismatching byte points at (reports/README.md "Attribution") and the Section 7.2 trace of a
// grouped_absmax group.
#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "compare_families.hpp"

namespace ninfer::harness {

namespace {

const oracle::GroupedFormat *grouped_of(const suites::Case &c) { return oracle::find_id(oracle::kGroupedFormats, c.format); }

/// Rows of a row_split payload produced by a call: the shape's N, or the rows rows_select keeps.
std::uint64_t payload_rows(const suites::Case &c) {
    if (c.op != NINFER_OP_rows_select) return c.shape.empty() ? 0 : c.shape[0];
    const std::uint64_t words = c.input(NINFER_PLANE_ROWS).size() / 8;
    if (c.flags & NINFER_FLAG_GATHER) return words;
    return words >= 2 ? suites::get_word(c.input(NINFER_PLANE_ROWS), 1, 8) : 0;
}

/// storage-layouts.md Section 3: plane, row, group and first lane of a payload byte (the
/// oracle's row_split_locate, in words).
Located row_split_location(const oracle::GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t off) {
    const auto loc = oracle::row_split_locate(f, n, k, off);
    if (loc.plane == "base" || loc.plane == "high") {
        const std::uint64_t column = loc.group * static_cast<std::uint64_t>(f.group) + loc.lane;
        return {fmt::format("{} plane row {} group {} lane {} (column {}, byte {})", loc.plane, loc.row, loc.group, loc.lane, column, off),
                {.plane = std::string(loc.plane), .row = loc.row, .group = loc.group, .lane = loc.lane, .column = column}};
    }
    if (loc.plane == "scale")
        return {fmt::format("scale plane row {} group {} (byte {})", loc.row, loc.group, off), {.plane = "scale", .row = loc.row, .group = loc.group}};
    const auto g = oracle::row_split_geometry(f, n, k);
    if (loc.plane == "gap") return {fmt::format("gap after the {} plane (byte {})", off < g->high_offset ? "base" : "high", off), {.plane = "gap"}};
    return {fmt::format("byte {} past the payload of {} bytes", off, g ? g->payload_bytes : 0), {}};
}

/// A payload byte of a row_split encode or rows_select, or a plane of a quant_decode.
Located grouped_locate(const suites::Case &c, const CasePlanes &, int buffer, std::uint64_t offset) {
    const auto *g = grouped_of(c);
    const bool payload_out = c.op == NINFER_OP_layout_encode || c.op == NINFER_OP_quant_encode ||
                             c.op == NINFER_OP_rows_select;
    if (g && c.shape.size() == 2 && c.layout == NINFER_LAYOUT_row_split_k128_v1 && buffer == 0 && payload_out)
        return row_split_location(*g, payload_rows(c), c.shape[1], offset);
    if (g && c.shape.size() == 2 && c.op == NINFER_OP_quant_decode) {
        const std::uint64_t k = c.shape[1] == 0 ? 1 : c.shape[1];
        if (buffer == 2)
            return {fmt::format("value row {} column {}", offset / 4 / k, offset / 4 % k), {.row = offset / 4 / k, .column = offset / 4 % k}};
        if (buffer == 1) {
            const std::uint64_t gpr = (k + static_cast<std::uint64_t>(g->group) - 1) / static_cast<std::uint64_t>(g->group);
            return {fmt::format("scale row {} group {}", offset / 2 / gpr, offset / 2 % gpr), {.row = offset / 2 / gpr, .group = offset / 2 % gpr}};
        }
        // Codes may take less than a byte: the row and column are a guess, so no fields.
        return {fmt::format("code byte {} (row {} column {} if one byte per code)", offset, offset / k, offset % k), {}};
    }
    return {};
}

/// A reply's payload over the geometry's bytes: the reply itself when its size is the
/// geometry's, else a copy cut or padded with zeros to it (a short reply reads as zeros past its end).
struct FittedPayload {
    std::span<const std::uint8_t> reply;
    std::vector<std::uint8_t> padded;  ///< only when the reply's size differs from the geometry's
    std::span<const std::uint8_t> bytes() const { return padded.empty() ? reply : std::span<const std::uint8_t>(padded); }
};
FittedPayload fit_payload(const oracle::RowSplitGeometry &g, const std::vector<std::uint8_t> &p) {
    FittedPayload fp{p, {}};
    if (p.size() == g.payload_bytes) return fp;
    fp.padded.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(p.size(), g.payload_bytes)));
    fp.padded.resize(g.payload_bytes, 0);
    return fp;
}

/// The stored word of one lane of a row_split payload (the oracle's row_split_lane_word).
std::uint32_t payload_lane_word(const oracle::GroupedFormat &f, const oracle::RowSplitGeometry &g, const FittedPayload &p,
                                std::uint64_t row, std::uint64_t group, std::uint64_t lane) {
    return oracle::row_split_lane_word(f, g, p.bytes(), row, group, lane);
}

/// The signed code a stored word reads as, legal or not (two's complement; Q2 offset).
int raw_code_of(const oracle::GroupedFormat &f, std::uint32_t w) {
    if (f.encoding == oracle::CodeEncoding::OFFSET) return static_cast<int>(w) - 1;
    return (w >> (f.code_bits - 1)) & 1u ? static_cast<int>(w) - (1 << f.code_bits) : static_cast<int>(w);
}

/// The lane words of one physical group of a payload.
std::vector<std::uint32_t> group_words(const oracle::GroupedFormat &f, const oracle::RowSplitGeometry &g,
                                       const std::vector<std::uint8_t> &payload, std::uint64_t row, std::uint64_t group) {
    const FittedPayload p = fit_payload(g, payload);
    std::vector<std::uint32_t> w;
    for (std::uint64_t lane = 0; lane < static_cast<std::uint64_t>(f.group); ++lane) w.push_back(payload_lane_word(f, g, p, row, group, lane));
    return w;
}

/// Which code-word field two lane-word lists of one group differ in (see blame_grouped_mismatch).
std::string blame_lanes(const oracle::GroupedFormat &f, const std::vector<std::uint32_t> &e, const std::vector<std::uint32_t> &a,
                        std::uint64_t first_padding_lane) {
    for (std::size_t i = first_padding_lane; i < e.size(); ++i)
        if (e[i] != a[i]) return suites::rule::row_split_padding;
    bool low_equal = true, swapped = f.packing == oracle::Packing::NIBBLE_HIGH;
    for (std::size_t i = 0; i < e.size(); ++i) {
        low_equal = low_equal && (e[i] & 0xFu) == (a[i] & 0xFu);
        swapped = swapped && a[i] == e[i ^ 1u];
    }
    if (swapped) return suites::rule::row_split_nibble_order;
    if (f.high_bytes && low_equal) return suites::rule::row_split_high_bit_order;
    if (f.packing == oracle::Packing::TWO_BIT_LSB) {
        bool permuted = true;  // the same words in each byte, in another order
        for (std::size_t b = 0; b + 4 <= e.size(); b += 4) {
            std::vector<std::uint32_t> x(e.begin() + static_cast<std::ptrdiff_t>(b), e.begin() + static_cast<std::ptrdiff_t>(b + 4));
            std::vector<std::uint32_t> y(a.begin() + static_cast<std::ptrdiff_t>(b), a.begin() + static_cast<std::ptrdiff_t>(b + 4));
            std::sort(x.begin(), x.end());
            std::sort(y.begin(), y.end());
            permuted = permuted && x == y;
        }
        if (permuted) return suites::rule::row_split_two_bit_packing;
    }
    if (f.illegal_word >= 0)
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] == static_cast<std::uint32_t>(f.illegal_word) && e[i] != a[i])
                // An encoder's format emitting its illegal word breaks "never emitted"; otherwise the word's own rule.
                return f.canonical_encoders ? suites::rule::grouped_code_q8_never_emitted : suites::rule::illegal_word(f);
    return "";
}

/// binary32 value of a binary16 word with the BF16 rounding of its binary32 expansion (the
/// no_bf16_scale hypothesis; classification only, never an expected value).
float bf16_rounded_scale(std::uint16_t s) {
    const auto u = static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), s));
    const auto b = static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp32_to_bf16_rne), u));
    return std::bit_cast<float>(b << 16);
}

/// The 7.2 step a grouped_absmax group departs at, from the oracle's trace: the scale steps
/// (rescue, qmax denominator, rounding to binary16), else the first differing code's step
/// (clamp after rounding, ties to even, reciprocal multiply, Q8's -128); "" when none explains it.
std::string absmax_group_blame(const suites::Case &c, const std::vector<std::uint8_t> &actual, const oracle::GroupedFormat &f,
                               const oracle::RowSplitGeometry &g, std::uint64_t row, std::uint64_t group) {
    const std::uint64_t n = c.shape[0], k = c.shape[1], G = static_cast<std::uint64_t>(f.group);
    const auto x = oracle::grouped_source_to_binary32(c.format_in, c.input(NINFER_PLANE_SOURCE), n * k);
    if (!x || group >= g.logical_groups) return "";
    const std::uint64_t c0 = group * G, len = std::min(k, c0 + G) - c0;
    const auto t = oracle::grouped_absmax_group(f, std::span<const std::uint32_t>(x->data() + row * k + c0, len));
    const std::uint64_t at = g.scale_offset + row * g.scale_row_bytes + 2 * group;
    if (at + 2 > actual.size() || t.status != NINFER_OK) return "";
    const auto scale = abi::load_le16(actual.data() + at);
    if (scale != t.scale16) {
        if (t.rescued && (scale & 0x7FFFu) == 0) return suites::rule::grouped_absmax_rescue;
        const float by_qmin = std::bit_cast<float>(t.amax32) / static_cast<float>(-f.qmin);  // classification only
        if (f.qmin != -f.qmax && oracle::grouped_scale16_from_f32(std::bit_cast<std::uint32_t>(by_qmin)) == scale)
            return suites::rule::grouped_absmax_denominator_qmax;
        return suites::rule::grouped_absmax_scale_rounding;
    }
    if (t.scale16 == 0) return suites::rule::grouped_absmax_zero_group;
    const float s32 = std::bit_cast<float>(static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), t.scale16)));
    const FittedPayload fitted = fit_payload(g, actual);
    for (std::uint64_t lane = 0; lane < len; ++lane) {
        const int a = raw_code_of(f, payload_lane_word(f, g, fitted, row, group, lane));
        if (a == t.codes[lane]) continue;
        // The code the illegal word reads as (Q8's 0x80 as -128): an encoder must never emit it.
        if (f.illegal_word >= 0 && a == raw_code_of(f, static_cast<std::uint32_t>(f.illegal_word)))
            return suites::rule::grouped_code_q8_never_emitted;
        const std::int64_t rounded = oracle::f32_round_integral_even(t.normalized32[lane]);
        if (rounded > f.qmax || rounded < f.qmin) return suites::rule::grouped_absmax_clamp_after_rounding;
        const float nv = std::bit_cast<float>(t.normalized32[lane]);
        if (std::fabs(nv - std::trunc(nv)) == 0.5f || a == static_cast<int>(std::trunc(nv))) return suites::rule::grouped_absmax_ties_to_even;
        const float q = std::bit_cast<float>((*x)[row * k + c0 + lane]) / s32;  // x / scale instead of x * inv32
        if (a == static_cast<int>(std::clamp(std::nearbyint(q), static_cast<float>(f.qmin), static_cast<float>(f.qmax))))
            return suites::rule::grouped_absmax_reciprocal_multiply;
        return "";
    }
    return "";
}

std::string grouped_blame(const suites::Case &c, const CasePlanes &p, const Reply &r, int buffer, std::uint64_t offset) {
    const auto *f = oracle::find_id(oracle::kGroupedFormats, c.format);
    if (!f || c.layout != NINFER_LAYOUT_row_split_k128_v1 || c.shape.size() != 2) return "";
    const std::uint64_t k = c.shape[1];
    const bool payload_out = c.op == NINFER_OP_layout_encode || c.op == NINFER_OP_quant_encode || c.op == NINFER_OP_rows_select;
    if (payload_out && buffer == 0) {
        const std::uint64_t n = payload_rows(c);
        const auto g = oracle::row_split_geometry(*f, n, k);
        if (!g) return "";
        const auto loc = oracle::row_split_locate(*f, n, k, offset);
        if (loc.plane == "gap") return suites::rule::row_split_gaps;
        if (loc.plane == "scale") {
            if (loc.group >= g->logical_groups) return suites::rule::row_split_padding;
            if (c.op == NINFER_OP_layout_encode) return suites::rule::row_split_scale_plane;
            if (c.op != NINFER_OP_quant_encode || c.method != NINFER_ENCODER_grouped_absmax) return "";
            return absmax_group_blame(c, p.actual(r, 0), *f, *g, loc.row, loc.group);
        }
        if (loc.plane != "base" && loc.plane != "high") return "";
        if (loc.group >= g->logical_groups) return suites::rule::row_split_padding;
        const std::uint64_t G = static_cast<std::uint64_t>(f->group);
        const std::uint64_t logical_lanes = std::min(G, k - loc.group * G);
        const bool absmax = c.op == NINFER_OP_quant_encode && c.method == NINFER_ENCODER_grouped_absmax;
        if (absmax) {
            // Codes under another scale word follow from that scale: the scale step is to blame.
            const std::uint64_t at = g->scale_offset + loc.row * g->scale_row_bytes + 2 * loc.group;
            if (at + 2 <= p.actual(r, 0).size() && at + 2 <= p.expected(0).size() &&
                (p.actual(r, 0)[at] != p.expected(0)[at] || p.actual(r, 0)[at + 1] != p.expected(0)[at + 1]))
                return absmax_group_blame(c, p.actual(r, 0), *f, *g, loc.row, loc.group);
        }
        const std::string field = blame_lanes(*f, group_words(*f, *g, p.expected(0), loc.row, loc.group),
                                              group_words(*f, *g, p.actual(r, 0), loc.row, loc.group), logical_lanes);
        if (!field.empty() || !absmax) return field;
        return absmax_group_blame(c, p.actual(r, 0), *f, *g, loc.row, loc.group);
    }
    const bool decodes = c.op == NINFER_OP_layout_decode || c.op == NINFER_OP_quant_decode;
    if (!decodes) return "";
    const auto &exp = p.expected(buffer);
    const auto &act = p.actual(r, buffer);
    if (buffer == 0) {
        // Codes, one int8 per element: lanes swapped in pairs, or only the high bits differ.
        const std::uint64_t i = offset, j = i ^ 1u;
        if (i >= exp.size() || i >= act.size()) return "";
        const auto mask = static_cast<std::uint32_t>((1u << f->code_bits) - 1);
        const std::uint32_t e = exp[i] & mask, a = act[i] & mask;
        if (f->packing == oracle::Packing::NIBBLE_HIGH && j < exp.size() && j < act.size() && i / k == j / k &&
            act[i] == exp[j] && act[j] == exp[i])
            return suites::rule::row_split_nibble_order;
        if (f->high_bytes && (e & 0xFu) == (a & 0xFu)) return suites::rule::row_split_high_bit_order;
        return "";
    }
    if (buffer == 1) return suites::rule::row_split_scale_plane;
    // Values: the codes and scales agree, the Section 6.2 product does not.
    if (p.actual(r, 0) != p.expected(0) || p.actual(r, 1) != p.expected(1) || offset + 4 > act.size() || offset + 4 > exp.size()) return "";
    const std::uint64_t e = offset / 4, gpr = (k + static_cast<std::uint64_t>(f->group) - 1) / static_cast<std::uint64_t>(f->group);
    const auto s = static_cast<std::uint16_t>(suites::get_word(p.expected(1), (e / k) * gpr + e % k / static_cast<std::uint64_t>(f->group), 2));
    const int q = static_cast<std::int8_t>(p.expected(0)[e]);
    const auto a = static_cast<std::uint32_t>(suites::get_word(act, e, 4));
    if ((s & 0x8000u) && a == oracle::grouped_reconstruct(static_cast<std::uint16_t>(s & 0x7FFFu), q)) return suites::rule::grouped_scale_signed_multiply;
    const float s32 = std::bit_cast<float>(static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), s)));
    const float av = std::bit_cast<float>(a);
    if (s32 != 0.0f && std::isfinite(av)) {
        const double t = static_cast<double>(av) / static_cast<double>(s32);
        if (t == std::nearbyint(t) && t != q && std::fabs(t) <= 512) return suites::rule::grouped_reconstruct_zero_point_free;
    }
    if (std::bit_cast<std::uint32_t>(bf16_rounded_scale(s) * static_cast<float>(q)) == a) return suites::rule::grouped_reconstruct_no_bf16_scale;
    return "";
}

}  // namespace

std::string explain_encoder_group(const suites::Case &c, const std::vector<std::uint8_t> &actual, std::uint64_t offset) {
    const auto *f = oracle::find_id(oracle::kGroupedFormats, c.format);
    if (!f || c.op != NINFER_OP_quant_encode || c.method != NINFER_ENCODER_grouped_absmax || c.shape.size() != 2) return "";
    const std::uint64_t n = c.shape[0], k = c.shape[1], G = static_cast<std::uint64_t>(f->group);
    const auto g = oracle::row_split_geometry(*f, n, k);
    const auto x = oracle::grouped_source_to_binary32(c.format_in, c.input(NINFER_PLANE_SOURCE), n * k);
    if (!g || !x) return "";
    const auto loc = oracle::row_split_locate(*f, n, k, offset);
    if (loc.plane == "gap" || loc.plane == "outside" || loc.group >= g->logical_groups) return "";
    const std::uint64_t c0 = loc.group * G, len = std::min(k, c0 + G) - c0;
    const auto t = oracle::grouped_absmax_group(*f, std::span<const std::uint32_t>(x->data() + loc.row * k + c0, len));
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    const auto &f16 = oracle::word_format(NINFER_FORMAT_fp16);
    auto word = [&](const oracle::WordFormat &wf, std::uint64_t w) {
        return fmt::format("{} ({})", oracle::word_hex(wf, w), value_text(wf, w));
    };
    std::string s = fmt::format("row {} group {}: amax32 {}, raw_scale32 {}, scale16 {}{}", loc.row, loc.group, word(f32, t.amax32),
                                word(f32, t.raw_scale32), word(f16, t.scale16), t.rescued ? " (0x0001 rescue)" : "");
    if (t.status != NINFER_OK || t.scale16 == 0) return s;
    s += fmt::format(", inv32 {}", word(f32, t.inv32));
    const std::uint64_t sat = g->scale_offset + loc.row * g->scale_row_bytes + 2 * loc.group;
    if (sat + 2 <= actual.size()) {
        const auto a = static_cast<std::uint16_t>(suites::get_word(actual, sat / 2, 2));
        if (a != t.scale16) return s + fmt::format("; actual scale16 {}", word(f16, a));
    }
    const FittedPayload fitted = fit_payload(*g, actual);
    for (std::uint64_t lane = 0; lane < len; ++lane) {
        const int a = raw_code_of(*f, payload_lane_word(*f, *g, fitted, loc.row, loc.group, lane));
        const int e = t.codes[lane];
        if (a == e) continue;
        const std::uint32_t nw = t.normalized32[lane];
        const std::int64_t rounded = oracle::f32_round_integral_even(nw);
        const float nv = std::bit_cast<float>(nw);  // classification of the step only
        std::string why;
        if (rounded > f->qmax || rounded < f->qmin) why = fmt::format("rounds to {}, clamped after rounding to {}", rounded, e);
        else if (std::fabs(nv - std::trunc(nv)) == 0.5f) why = fmt::format("a tie, ties to even gives {}", e);
        else why = fmt::format("rounds to nearest {}", e);
        return s + fmt::format("; first differing code: lane {} (column {}) x32 {} * inv32 = normalized32 {}: {}; actual code {}", lane,
                               c0 + lane, word(f32, (*x)[loc.row * k + c0 + lane]), word(f32, nw), why, a);
    }
    return s;
}

namespace {

bool owns_grouped(const suites::Case &c) { return grouped_of(c) != nullptr; }

}  // namespace

std::string blame_grouped_mismatch(const suites::Case &c, const Reply &r, int buffer, std::uint64_t offset) {
    return grouped_blame(c, case_planes(c), r, buffer, offset);
}

const CompareFamily kGroupedCompare = {.family = abi::Family::grouped,
                                       .owns = &owns_grouped,
                                       .unit = &binary32_values,
                                       .locate = &grouped_locate,
                                       .blame = &grouped_blame,
                                       .trace = &explain_encoder_group};

}  // namespace ninfer::harness
