// SPDX-License-Identifier: Apache-2.0
// Suite grouped.absmax: grouped_absmax bit for bit (tensor-formats.txt Section 7.2): ties,
// reciprocal multiply, binary16 scale rounding, the 0x0001 rescue, clamp after rounding, qmax
// denominator, zero groups, overflow and non-finite failures, BF16/FP16 sources, shapes.
#include "builders.hpp"

#include <array>
#include <stdexcept>

namespace ninfer::suites::grouped {

namespace {

/// Round-to-integral ties to even of j + 1/2 (an exact integer computation, for input search only).
int tie_even(int j) { return (j % 2 == 0) ? j : j + 1; }

/// A one-group source whose lane 0 is qmax * s (so scale16 = s exactly) and whose other lanes
/// are (j + 1/2) * s for j cycling over [-qmax, qmax - 1]: every normalized value is a tie.
U32 half_step_group(const GroupedFormat &f, std::uint16_t s, std::uint64_t len) {
    const auto [ms, es] = f16_parts(s);
    U32 x{f32w(f.qmax * ms, es)};
    const int span = 2 * f.qmax;
    for (std::uint64_t i = 1; i < len; ++i) {
        const int j = -f.qmax + static_cast<int>((i - 1) % static_cast<std::uint64_t>(span));
        x.push_back(f32w((2 * j + 1) * ms, es - 1));
    }
    return x;
}

void tie_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // The spec's examples at scale 1: +-0.5 -> 0, +-1.5 -> +-2, +-2.5 -> +-2 (lane 0 fixes the scale).
    U32 ex{f32w(f.qmax, 0), f32w(1, -1), f32w(-1, -1), f32w(3, -1), f32w(-3, -1), f32w(5, -1), f32w(-5, -1)};
    while (ex.size() < G) ex.push_back(0);
    out.push_back(encode32(rule::grouped_absmax_ties_to_even, nm + ".spec_examples", Level::quick, "tensor-formats 7.2 examples", f, 1, G, ex));
    // Every half-integer tie of the interval at scale 1 and 2^-1, from fp32, bf16 and fp16 sources.
    for (const std::uint16_t s : {std::uint16_t{0x3C00}, std::uint16_t{0x3800}}) {
        const std::uint64_t k = 2 * G;
        U32 x = half_step_group(f, s, G);
        const U32 second = half_step_group(f, s, G);
        x.insert(x.end(), second.rbegin(), second.rend());
        out.push_back(encode32(rule::grouped_absmax_ties_to_even, nm + ".all_ties_scale_" + hex(s, 4), Level::quick, "boundary", f, 1, k, x));
        U16 b16, h16;
        for (auto w : x) b16.push_back(static_cast<std::uint16_t>(w >> 16));
        for (auto w : x) {
            const auto e = static_cast<int>((w >> 23) & 0xFF);
            const std::int64_t m = (w & 0x7FFFFF) | 0x800000;
            h16.push_back(w == 0 ? 0 : f16w((w >> 31) ? -m : m, e - 150));
        }
        out.push_back(encode_case(rule::grouped_absmax_ties_to_even, nm + ".all_ties_bf16_scale_" + hex(s, 4), Level::quick,
                                  "boundary", f, NINFER_FORMAT_bf16, 1, k, le16(b16)));
        out.push_back(encode_case(rule::grouped_absmax_ties_to_even, nm + ".all_ties_fp16_scale_" + hex(s, 4), Level::quick,
                                  "boundary", f, NINFER_FORMAT_fp16, 1, k, le16(h16)));
    }
}

/// Scale words s where round_f32(x * round_f32(1/s)) and the exact quotient x / s = j + 1/2
/// round to different integers: division instead of the reciprocal multiply picks another code.
void reciprocal_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    int found = 0;
    for (std::uint32_t s = 0x3C01; s < 0x4000 && found < 4; ++s) {
        const U32 x = half_step_group(f, static_cast<std::uint16_t>(s), G);
        const auto t = grouped_absmax_group(f, x);
        if (t.status != NINFER_OK || t.scale16 != s) continue;
        bool differs = false;
        for (std::uint64_t i = 1; i < G; ++i) {
            const int j = -f.qmax + static_cast<int>((i - 1) % static_cast<std::uint64_t>(2 * f.qmax));
            differs = differs || t.codes[i] != tie_even(j);
        }
        if (!differs) continue;
        ++found;
        out.push_back(encode32(rule::grouped_absmax_reciprocal_multiply, nm + ".scale_" + hex(s, 4), Level::quick,
                               "boundary (searched: reciprocal multiply and division disagree)", f, 1, G, x));
    }
    if (found == 0) throw std::logic_error("no reciprocal-multiply boundary found for " + nm);
}

/// binary16 rounding of raw_scale32: ties at normal and subnormal midpoints, their binary32
/// neighbours, the subnormal/normal boundary, no flush to zero.
void scale_rounding_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    struct Mid {
        const char *slug;
        std::int64_t m;
        int e;
    };
    // Midpoints m * 2^e between two binary16 words (both parities), and plain subnormal scales.
    const Mid mids[] = {{"mid_1p2m11", 2049, -11},   {"mid_1p3m11", 2051, -11},      {"mid_sub_1p5", 3, -25},
                        {"mid_sub_2p5", 5, -25},      {"mid_sub_3p5", 7, -25},        {"mid_sub_normal", 2047, -25},
                        {"mid_large", 2 * 2047 + 1, 4}, {"sub_exact_2m20", 1, -20},   {"sub_exact_0x155", 0x155, -24}};
    for (const auto &mid : mids)
        for (int d : {-1, 0, 1}) {
            // amax = qmax * mid exactly (raw_scale32 = mid), then one binary32 step either side.
            const std::uint32_t base = f32w(f.qmax * mid.m, mid.e);
            const std::uint32_t amax = static_cast<std::uint32_t>(static_cast<std::int64_t>(base) + d);
            U32 x(G, 0);
            x[0] = amax;
            x[1] = amax | 0x80000000u;
            x[2] = f32w(f.qmax * mid.m, mid.e - 1);
            x[3] = f32w(-(f.qmax / 3 + 1) * mid.m, mid.e);
            const std::string slug = nm + "." + mid.slug + (d < 0 ? ".below" : d > 0 ? ".above" : ".exact");
            out.push_back(encode32(rule::grouped_absmax_scale_rounding, slug, Level::quick, "boundary", f, 1, G, x));
        }
    // A scale whose fraction has bits below BF16's seventh: rounding through BF16 picks another word.
    U32 x(G, 0);
    x[0] = f32w(f.qmax * 0x7FF, -10);
    x[5] = f32w(-(f.qmax * 0x7FF - 1), -10);
    out.push_back(encode32(rule::grouped_absmax_scale_rounding, nm + ".fraction_below_bf16", Level::quick, "boundary", f, 1, G, x));
}

/// The 0x0001 rescue, clamp after rounding (Q8 never -128), the qmax denominator.
void rescue_clamp_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // Rescue: raw_scale32 below half of 2^-24, exactly half (tie to zero), the smallest binary32.
    struct Tiny {
        const char *slug;
        std::int64_t m;
        int e;
    };
    const Tiny tiny[] = {{"amax_qmax_2m25", f.qmax, -25}, {"amax_qmax_2m26", f.qmax, -26}, {"amax_2m149", 1, -149},
                         {"amax_3_2m40", 3, -40}};
    for (const auto &t : tiny) {
        U32 x(G, 0);
        x[0] = f32w(t.m, t.e);
        x[G / 2] = f32w(-t.m, t.e);
        x[G - 1] = f32w(1, -149);
        out.push_back(encode32(rule::grouped_absmax_rescue, nm + "." + t.slug, Level::quick, "boundary", f, 1, G, x));
    }
    // Clamp after rounding under the rescued scale 2^-24: normalized values qmax + 1/2, -(qmax + 1/2),
    // qmin - 1/2 and 1.4 * qmax; rounding first, then the clamp to [qmin, qmax].
    U32 c(G, 0);
    c[0] = f32w(2 * f.qmax + 1, -25);
    c[1] = f32w(-(2 * f.qmax + 1), -25);
    c[2] = f32w(2 * f.qmin - 1, -25);
    c[3] = f32w(-(2 * f.qmax - 1), -25);
    out.push_back(encode32(rule::grouped_absmax_clamp_after_rounding, nm + ".half_past_qmax", Level::quick, "boundary", f, 1, G, c));
    U32 c2(G, 0);
    // amax = 2.375 * qmax * 2^-24: scale 0x0002 (2^-23), normalized values up to 1.1875 * qmax.
    c2[0] = f32w(19 * f.qmax, -27);
    c2[1] = f32w(-19 * f.qmax, -27);
    c2[2] = f32w(17 * f.qmax, -27);
    c2[3] = f32w(-17 * f.qmax, -27);
    out.push_back(encode32(rule::grouped_absmax_clamp_after_rounding, nm + ".coarse_subnormal_scale", Level::quick, "boundary", f, 1, G, c2));
    if (f.illegal_word >= 0) {  // the clamp keeps the illegal word out (Q8 never -128)
        out.push_back(encode32(rule::grouped_code_q8_never_emitted, "half_past_qmin", Level::quick, "boundary", f, 1, G, c));
        out.push_back(encode32(rule::grouped_code_q8_never_emitted, "coarse_subnormal_scale", Level::quick, "boundary", f, 1, G, c2));
    }
    // qmax, not |qmin|, divides amax: positive and negative extremes, several magnitudes.
    for (int e : {0, -7, 9}) {
        U32 x(G, 0);
        x[0] = f32w(-1, e);
        x[1] = f32w(1, e);
        x[2] = f32w(3, e - 2);
        x[3] = f32w(-5, e - 3);
        out.push_back(encode32(rule::grouped_absmax_denominator_qmax, nm + ".amax_2p" + std::to_string(e), Level::quick, "boundary", f, 1, G, x));
    }
}

/// All-zero groups (+0, -0, mixed; full and partial), next to nonzero groups; every source type.
void zero_group_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    const std::uint64_t k = 2 * G + 5;
    U32 x(2 * k, 0);
    for (std::uint64_t c = 0; c < G; ++c) x[c] = 0x80000000u;                      // row 0 group 0: -0
    for (std::uint64_t c = G; c < 2 * G; ++c) x[c] = f32w(static_cast<std::int64_t>(c % 5) - 2, -3);  // group 1: values
    for (std::uint64_t c = k; c < k + G; ++c) x[c] = c % 2 ? 0x80000000u : 0u;    // row 1 group 0: mixed zeros
    x[k + G + 1] = f32w(3, -9);
    out.push_back(encode32(rule::grouped_absmax_zero_group, nm + ".zeros_" + shape_slug(2, k), Level::quick, "boundary", f, 2, k, x));
    U16 neg(G, 0x8000);
    out.push_back(encode_case(rule::grouped_absmax_zero_group, nm + ".bf16_negative_zeros", Level::quick, "boundary", f,
                              NINFER_FORMAT_bf16, 1, G, le16(neg)));
    out.push_back(encode_case(rule::grouped_absmax_zero_group, nm + ".fp16_negative_zeros", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 1, G, le16(neg)));
}

/// Scale overflow at the binary16 boundary 65520 and beyond; non-finite sources of each type.
void failure_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // raw_scale32 = 65520 rounds to infinity; one binary32 step below stays 65504 (0x7BFF).
    const std::uint32_t edge = f32w(f.qmax * 65520, 0);
    for (int d : {-1, 0, 1}) {
        U32 x(2 * G, 0);
        x[G + 3] = static_cast<std::uint32_t>(static_cast<std::int64_t>(edge) + d) | 0x80000000u;
        x[1] = f32w(1, 0);
        out.push_back(encode32(rule::grouped_absmax_scale_overflow, nm + ".raw_65520" + (d < 0 ? "_below" : d > 0 ? "_above" : ""),
                               Level::quick, "boundary", f, 1, 2 * G, x));
    }
    {
        U32 x(2 * G, f32w(1, -4));
        x[2 * G - 1] = 0x7F7FFFFFu;  // largest finite binary32 in the second row
        out.push_back(encode32(rule::grouped_absmax_scale_overflow, nm + ".largest_binary32_row1", Level::quick, "boundary", f, 2, G, x));
        U16 b(G, 0x3F80);
        b[7] = 0x7F7F;
        out.push_back(encode_case(rule::grouped_absmax_scale_overflow, nm + ".bf16_largest", Level::quick, "boundary", f,
                                  NINFER_FORMAT_bf16, 1, G, le16(b)));
        U16 h(G, 0x7BFF);
        out.push_back(encode_case(rule::grouped_absmax_scale_rounding, nm + ".fp16_largest_no_overflow", Level::quick, "boundary",
                                  f, NINFER_FORMAT_fp16, 1, G, le16(h)));
    }
    // Non-finite source words, at the first and the last element, from each source type.
    const std::uint32_t bad32[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00001u};
    for (const auto w : bad32)
        for (const bool last : {false, true}) {
            U32 x(2 * G, f32w(1, -2));
            x[last ? x.size() - 1 : 0] = w;
            out.push_back(encode32(rule::grouped_absmax_nonfinite, nm + ".fp32_" + hex(w, 8) + (last ? ".last" : ".first"),
                                   Level::quick, "boundary", f, 2, G, x));
        }
    const std::pair<std::uint32_t, U16> bad16[] = {{NINFER_FORMAT_bf16, {0x7F80, 0xFF80, 0x7FC0, 0x7F81}},
                                                   {NINFER_FORMAT_fp16, {0x7C00, 0xFC00, 0x7E00, 0x7C01}}};
    for (const auto &[src, words] : bad16)
        for (const auto w : words) {
            U16 x(G + 3, 0x3C00);
            x[G + 1] = w;
            out.push_back(encode_case(rule::grouped_absmax_nonfinite,
                                      nm + (src == NINFER_FORMAT_bf16 ? ".bf16_" : ".fp16_") + hex(w, 4), Level::quick,
                                      "boundary", f, src, 1, G + 3, le16(x)));
        }
    // A non-finite value wins over an overflowing group earlier in the matrix (GROUPED.md R5).
    U32 both(2 * G, 0);
    both[0] = 0x7F7FFFFFu;
    both[2 * G - 1] = 0x7FC00000u;
    out.push_back(encode32(rule::grouped_absmax_nonfinite, nm + ".after_overflowing_group", Level::quick, "boundary", f, 1, 2 * G, both));
}

/// BF16 and binary16 sources widen exactly (subnormals included) before group processing.
void source_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    std::mt19937_64 rng(kGoldenSeed + 31 * f.id);
    U16 b, h;
    const U16 special_b = {0x0001, 0x8001, 0x007F, 0x0080, 0x3F80, 0xBF81, 0x7F7F >> 4, 0x4000};
    const U16 special_h = {0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC01, 0x7BFF, 0xFBFF};
    for (std::uint64_t i = 0; i < 2 * G; ++i) {
        b.push_back(i < special_b.size() ? special_b[i] : static_cast<std::uint16_t>((rng() & 0x80FF) | 0x3C00));
        h.push_back(i < special_h.size() ? special_h[i] : static_cast<std::uint16_t>(rng() & 0xBBFF));
    }
    out.push_back(encode_case(rule::grouped_absmax_source_conversion, nm + ".bf16_mixed", Level::quick, "boundary", f,
                              NINFER_FORMAT_bf16, 2, G, le16(b)));
    out.push_back(encode_case(rule::grouped_absmax_source_conversion, nm + ".fp16_mixed", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 2, G, le16(h)));
    // binary16 subnormal sources only: the scale is a binary16 subnormal computed from them.
    U16 sub(G, 0);
    for (std::uint64_t i = 0; i < G; ++i) sub[i] = static_cast<std::uint16_t>((i % 2 ? 0x8000 : 0) | (1 + 13 * i) % 0x400);
    out.push_back(encode_case(rule::grouped_absmax_source_conversion, nm + ".fp16_subnormals", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 1, G, le16(sub)));
    // fp32 words that are not BF16 or binary16 values are used unchanged.
    U32 x(G);
    for (std::uint64_t i = 0; i < G; ++i) x[i] = (0x3F800001u + static_cast<std::uint32_t>(i * 0x1235)) | (i % 3 ? 0u : 0x80000000u);
    out.push_back(encode32(rule::grouped_absmax_source_conversion, nm + ".fp32_unchanged", Level::quick, "boundary", f, 1, G, x));
}

/// Shapes K = 1, 63, 64, 65, 127, 128, 129, 130, 4096 and N up to several hundred (seeded values).
void shape_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::uint64_t ks[] = {1, 63, 64, 65, 127, 128, 129, 130, 4096};
    const bool big = f.high_bytes == 0;  // the widest sweeps for the formats without a high plane (q4, q8)
    for (const std::uint64_t k : ks) {
        std::vector<std::pair<std::uint64_t, Level>> ns = {{1, Level::quick}, {3, Level::quick}};
        if (k <= 130) {
            ns.push_back({17, Level::full});
            if (big) ns.push_back({k <= 65 ? 300 : 64, k <= 65 ? Level::full : Level::exhaustive});
        } else if (big) {
            ns.push_back({8, Level::exhaustive});
        }
        for (const auto &[n, level] : ns) {
            const U32 x = seeded_source(n, k, kGoldenSeed ^ (static_cast<std::uint64_t>(f.id) << 32) ^ (n << 16) ^ k);
            const std::string rule = k % static_cast<std::uint64_t>(f.group) ? rule::grouped_group_partial
                                     : n > 1                                  ? rule::grouped_group_last_axis
                                                                              : rule::grouped_absmax_bit_exact;
            out.push_back(encode32(rule, nm + ".seeded_" + shape_slug(n, k), level, "random seed=" + std::to_string(kGoldenSeed), f, n, k, x));
            if (level == Level::quick && n == 3)
                out.push_back(encode32(rule::grouped_absmax_bit_exact, nm + ".seeded_" + shape_slug(n, k), level,
                                       "random seed=" + std::to_string(kGoldenSeed), f, n, k, x));
        }
    }
    // Partial group computed from its own values: a large full group, then a small partial one.
    const auto G = static_cast<std::uint64_t>(f.group);
    U32 x(G + 3);
    for (std::uint64_t i = 0; i < G; ++i) x[i] = f32w(static_cast<std::int64_t>(i) - 30, 4);
    x[G] = f32w(1, -10);
    x[G + 1] = f32w(-3, -12);
    x[G + 2] = 0;
    out.push_back(encode32(rule::grouped_group_partial, nm + ".own_values", Level::quick, "boundary", f, 1, G + 3, x));
    out.push_back(encode32(rule::row_split_padding, nm + ".encode_partial", Level::quick, "boundary", f, 1, G + 3, x));
    // Rows of very different magnitudes: no group crosses a row.
    U32 rows(3 * G);
    for (std::uint64_t r = 0; r < 3; ++r)
        for (std::uint64_t i = 0; i < G; ++i) rows[r * G + i] = f32w(static_cast<std::int64_t>(i % 9) - 4, -20 + 12 * static_cast<int>(r));
    out.push_back(encode32(rule::grouped_group_last_axis, nm + ".row_magnitudes", Level::quick, "boundary", f, 3, G, rows));
}

std::vector<Case> absmax_golden() {
    std::vector<Case> out;
    for (const auto *fp : canonical_formats()) {
        const auto &f = *fp;
        tie_cases(f, out);
        reciprocal_cases(f, out);
        scale_rounding_cases(f, out);
        rescue_clamp_cases(f, out);
        zero_group_cases(f, out);
        failure_cases(f, out);
        source_cases(f, out);
        shape_cases(f, out);
    }
    // Refusal of the targets the canonical encoders do not serve; shapes that are not [N>0,K>0].
    for (const auto &f : kGroupedFormats) {
        const U32 x(static_cast<std::uint64_t>(f.group), f32w(1, -3));
        if (!f.canonical_encoders) {
            for (const auto &e : kEncoders)
                if (e.family == abi::Family::grouped)
                    out.push_back(encode_case(rule::grouped_absmax_refuses_q2_t2, name_of(f) + "." + std::string(e.name), Level::quick,
                                          "tensor-formats 2", f, NINFER_FORMAT_fp32, 1, x.size(), le32(x), e.id));
            continue;
        }
        out.push_back(encode32(rule::grouped_absmax_rank2, name_of(f) + ".zero_rows", Level::quick, "boundary", f, 0, 64, {}));
        out.push_back(encode32(rule::grouped_absmax_rank2, name_of(f) + ".zero_cols", Level::quick, "boundary", f, 3, 0, {}));
    }
    return out;
}

std::vector<Case> absmax_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0xab5u);
    const int per_format = level == Level::exhaustive ? 12 : 3;
    for (const auto *fp : canonical_formats())
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % (level == Level::exhaustive ? 128 : 16), k = 1 + rng() % 520;
            const std::uint32_t src = std::array<std::uint32_t, 3>{NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}[i % 3];
            U32 x = seeded_source(n, k, rng());
            Bytes bytes;
            if (src == NINFER_FORMAT_fp32) {
                bytes = le32(x);
            } else {
                U16 h;
                for (auto w : x) h.push_back(src == NINFER_FORMAT_bf16 ? static_cast<std::uint16_t>(w >> 16)
                                                                       : static_cast<std::uint16_t>((w >> 16 & 0x8000) | (w >> 13 & 0x3FF) | 0x2000));
                bytes = le16(h);
            }
            out.push_back(encode_case(rule::grouped_absmax_bit_exact, name_of(*fp) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                      level, "random seed=" + std::to_string(seed), *fp, src, n, k, bytes));
        }
    return out;
}

}  // namespace

Suite absmax_suite() {
    return {"grouped.absmax",
            "grouped_absmax bit for bit (Section 7.2): ties, reciprocal multiply, binary16 scale rounding, the 0x0001 "
            "rescue, clamp after rounding, qmax denominator, zero groups, overflow and non-finite failures, BF16/FP16 "
            "sources, shapes K = 1..4096 (quant_encode)",
            cached_golden(absmax_golden), random_of(absmax_random)};
}

}  // namespace ninfer::suites::grouped
