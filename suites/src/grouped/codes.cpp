// SPDX-License-Identifier: Apache-2.0
// Suite grouped.codes: grouped code words and scales (tensor-formats.txt Sections 3.2, 5, 6,
// 6.2): every legal code of every width, interval endpoints, the illegal Q8 0x80 and T2 0b10
// words, every binary16 scale class, zero-scale groups, the Section 6.2 reconstruction
// (quant_decode, layout_decode, payload_validate).
#include "builders.hpp"

#include <algorithm>

namespace ninfer::suites::grouped {

namespace {

/// The packing rule that a format's base plane follows (storage-layouts.md Section 3).
std::string packing_rule(const GroupedFormat &f) {
    if (f.packing == Packing::BYTE) return rule::row_split_q8_bytes;
    if (f.packing == Packing::TWO_BIT_LSB) return rule::row_split_two_bit_packing;
    return rule::row_split_nibble_order;
}

GroupedMatrix uniform_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, int code, std::uint16_t scale) {
    return make_matrix(f, n, k, [code](std::uint64_t, std::uint64_t) { return code; },
                       [scale](std::uint64_t, std::uint64_t) { return scale; });
}

void code_domain_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string rule = rule::grouped_code(f);
    const auto count = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
    const auto G = static_cast<std::uint64_t>(f.group);
    // Every legal code, ascending in row 0 and descending in row 1, under positive and negative scales.
    const auto all = make_matrix(
        f, 2, count,
        [&](std::uint64_t r, std::uint64_t c) { return r == 0 ? f.qmin + static_cast<int>(c) : f.qmax - static_cast<int>(c); },
        [](std::uint64_t r, std::uint64_t g) -> std::uint16_t { return r == 0 ? 0x3C00 : (g % 2 ? 0xC000 : 0x3555); });
    const auto payload = row_split_encode(f, all);
    out.push_back(payload_case(rule, "all_codes.quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, f, 2, count, payload));
    out.push_back(payload_case(rule, "all_codes.layout_decode", Level::quick, "domain", NINFER_OP_layout_decode, f, 2, count, payload));
    out.push_back(payload_case(rule, "all_codes.validate", Level::quick, "domain", NINFER_OP_payload_validate, f, 2, count, payload));
    out.push_back(layout_encode_case(packing_rule(f), name_of(f) + ".all_codes", Level::quick, "domain", f, all));
    if (f.high_bytes) out.push_back(layout_encode_case(rule::row_split_high_bit_order, name_of(f) + ".all_codes", Level::quick, "domain", f, all));
    if (f.encoding == CodeEncoding::OFFSET)
        out.push_back(payload_case(rule::grouped_code_q2_offset, "all_words.quant_decode", Level::quick, "domain",
                                   NINFER_OP_quant_decode, f, 2, count, payload));
    // Interval endpoints qmin, qmax next to 0 and +-1 in one full group.
    const auto ends = make_matrix(
        f, 1, G,
        [&](std::uint64_t, std::uint64_t c) {
            const int pattern[] = {f.qmin, f.qmax, 0, f.qmax, f.qmin, std::max(f.qmin, -1), std::min(f.qmax, 1)};
            return pattern[c % 7];
        },
        [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3E00; });
    out.push_back(payload_case(rule, "endpoints.quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 1, G,
                               row_split_encode(f, ends)));
    // Every stored word of the width at lane 3: legal words decode, the illegal word is refused.
    const auto g = *row_split_geometry(f, 1, G);
    for (std::uint32_t w = 0; w < (1u << f.code_bits); ++w) {
        const bool legal = grouped_code_value(f, w).has_value();
        if (legal && (1u << f.code_bits) > 64 && w % 17 != 0 && w != 0x7F && w != 0x81) continue;  // q8: a sample of legal words
        Bytes p = row_split_encode(f, uniform_matrix(f, 1, G, 0, 0x3C00));
        corrupt_code_word(f, g, p, 0, 0, 3, w);
        const std::string slug = "word_" + hex(w, (f.code_bits + 3) / 4);
        if (legal)
            out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, f, 1, G, p));
        else
            out.push_back(payload_case(rule::illegal_word(f),
                                       slug + ".lane3", Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, G, p));
    }
}

/// The illegal word of Q8 / T2 at several lanes, rows and groups, the partial last group included.
void illegal_word_cases(const GroupedFormat &f, std::vector<Case> &out) {
    if (f.illegal_word < 0) return;
    const std::string rule = rule::illegal_word(f);
    const std::uint64_t n = 2, k = static_cast<std::uint64_t>(f.group) * 2 + 5;
    const auto m = seeded_matrix(f, n, k, kGoldenSeed + f.id);
    const auto g = *row_split_geometry(f, n, k);
    struct Spot {
        std::uint64_t row, group;
        int lane;
    };
    const Spot spots[] = {{0, 0, 0}, {0, 0, f.group - 1}, {1, 1, 17}, {1, 2, 4}};
    for (const auto &s : spots) {
        Bytes p = row_split_encode(f, m);
        corrupt_code_word(f, g, p, s.row, s.group, s.lane, static_cast<std::uint32_t>(f.illegal_word));
        const std::string slug = "row" + std::to_string(s.row) + ".group" + std::to_string(s.group) + ".lane" + std::to_string(s.lane);
        out.push_back(payload_case(rule, slug, Level::quick, "boundary", NINFER_OP_payload_validate, f, n, k, p));
        out.push_back(payload_case(rule, slug + ".layout_decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, n, k, p));
        // quant_decode refuses what payload_validate refuses (harness/README.md, the decode contract).
        out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, n, k, p));
    }
}

/// Codes outside [qmin, qmax] offered to layout_encode: refused, never masked into the word
/// (q8 -128 would store 0x80, t2 -2 the word 0b10, q4 8 the word of -8).
void out_of_range_code_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const auto G = static_cast<std::uint64_t>(f.group);
    std::vector<int> bad;
    for (const int q : {f.qmin - 1, f.qmax + 1, f.qmin - (1 << f.code_bits), f.qmax + (1 << f.code_bits) - 1, -128, 127})
        if (q >= -128 && q <= 127 && (q < f.qmin || q > f.qmax) && std::find(bad.begin(), bad.end(), q) == bad.end())
            bad.push_back(q);
    for (const int q : bad) {
        auto m = uniform_matrix(f, 1, G, 0, 0x3C00);
        m.codes[5] = static_cast<std::int8_t>(q);
        const bool illegal_word = f.illegal_word >= 0 && ((q & ((1 << f.code_bits) - 1)) == f.illegal_word) && q == f.qmin - 1;
        const std::string rule = illegal_word ? std::string(rule::illegal_word(f)) : rule::grouped_code(f);
        Case c = call_case(rule, "code_" + std::string(q < 0 ? "m" : "") + std::to_string(q < 0 ? -q : q) + ".layout_encode",
                           Level::quick, "boundary", NINFER_OP_layout_encode, f, 1, G);
        c.format_in = f.id;
        c.count = G;
        c.input(NINFER_PLANE_CODES) = codes_bytes(m.codes);
        c.input(NINFER_PLANE_SCALES) = le16(m.scales);
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        out.push_back(std::move(c));
    }
}

/// The rule a valid scale word of a decode case exercises.
std::string scale_rule(const GroupedFormat &f, std::uint16_t s) {
    if (f.encoding == CodeEncoding::OFFSET) return rule::grouped_scale_q2;
    if ((s & 0x7C00u) == 0 && (s & 0x3FFu) != 0) return rule::grouped_scale_subnormal;
    if (s & 0x8000u) return rule::grouped_scale_signed_multiply;
    return rule::grouped_scale_validity;
}

/// Every scale class: +0, -0, 2^-24, subnormals, normals, largest finite, negatives, Inf, NaN.
void scale_class_cases(const GroupedFormat &f, std::vector<Case> &out) {
    static constexpr std::uint16_t kScales[] = {0x0000, 0x8000, 0x0001, 0x0002, 0x0155, 0x0200, 0x03FF, 0x0400,
                                                0x2E66, 0x3C00, 0x3C01, 0x57FF, 0x7BFF, 0xBC00, 0x8001, 0x83FF,
                                                0xC001, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0xFFFF};
    const auto G = static_cast<std::uint64_t>(f.group);
    for (const std::uint16_t s : kScales) {
        const bool zero = (s & 0x7FFFu) == 0;
        // Codes of every sign under the scale; a +0 scale (not Q2) needs zero codes to be valid.
        const auto m = make_matrix(
            f, 1, G,
            [&](std::uint64_t, std::uint64_t c) {
                if (zero && f.encoding != CodeEncoding::OFFSET) return 0;
                return f.qmin + static_cast<int>(c % static_cast<std::uint64_t>(f.qmax - f.qmin + 1));
            },
            [s](std::uint64_t, std::uint64_t) { return s; });
        const Bytes p = row_split_encode(f, m);
        const std::string slug = name_of(f) + ".scale_" + hex(s, 4);
        if (grouped_scale_verdict(f, s) == NINFER_VERDICT_VALID) {
            out.push_back(payload_case(scale_rule(f, s), slug + ".quant_decode", Level::quick, "scale class",
                                       NINFER_OP_quant_decode, f, 1, G, p));
            out.push_back(payload_case(f.encoding == CodeEncoding::OFFSET ? rule::grouped_scale_q2 : rule::grouped_scale_validity,
                                       slug + ".validate", Level::quick, "scale class", NINFER_OP_payload_validate, f, 1, G, p));
        } else {
            const std::string rule = f.encoding == CodeEncoding::OFFSET ? rule::grouped_scale_q2 : rule::grouped_scale_validity;
            out.push_back(payload_case(rule, slug + ".validate", Level::quick, "scale class", NINFER_OP_payload_validate, f, 1, G, p));
            // An invalid scale never reaches the values (an Inf scale would give infinite ones).
            out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "scale class", NINFER_OP_quant_decode, f, 1, G, p));
        }
    }
    // Zero-scale groups: a nonzero code refuses the payload (Q2: any code stays valid).
    const std::uint64_t k = 2 * G + 3;
    const auto g = *row_split_geometry(f, 2, k);
    const std::uint64_t last = logical_groups(f, k) - 1;
    struct Spot {
        std::uint64_t row, group;
        int lane;
    };
    const Spot spots[] = {{0, 0, 0}, {0, 0, f.group - 1}, {1, 1, 9}, {1, last, 2}};
    for (const auto &spot : spots) {
        auto m = seeded_matrix(f, 2, k, kGoldenSeed + 7 * f.id + spot.group);
        for (std::uint64_t c = spot.group * G; c < std::min(k, (spot.group + 1) * G); ++c) m.codes[spot.row * k + c] = 0;
        m.scales[spot.row * logical_groups(f, k) + spot.group] = 0x0000;
        Bytes p = row_split_encode(f, m);
        corrupt_code_word(f, g, p, spot.row, spot.group, spot.lane, grouped_code_word(f, f.qmax));
        const std::string slug = name_of(f) + ".row" + std::to_string(spot.row) + ".group" + std::to_string(spot.group) +
                                 ".lane" + std::to_string(spot.lane);
        const std::string rule = f.encoding == CodeEncoding::OFFSET ? rule::grouped_scale_q2 : rule::grouped_scale_zero_group_codes;
        out.push_back(payload_case(rule, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, p));
        if (spot.lane == 0) out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 2, k, p));
        // Codes whose base bits are all zero and whose high bits are not (q5 -16; q6 -32, -16, 16).
        for (const std::uint32_t w : high_only_words(f)) {
            Bytes h = row_split_encode(f, m);
            corrupt_code_word(f, g, h, spot.row, spot.group, spot.lane, w);
            out.push_back(payload_case(rule, slug + ".high_only_" + hex(w, 2) + ".validate", Level::quick, "boundary",
                                       NINFER_OP_payload_validate, f, 2, k, h));
        }
        // The converse: a nonzero scale over all-zero codes is valid and decodes to zeros.
        auto conv = m;
        for (std::uint64_t c = spot.group * G; c < std::min(k, (spot.group + 1) * G); ++c) conv.codes[spot.row * k + c] = 0;
        conv.scales[spot.row * logical_groups(f, k) + spot.group] = 0xB800;
        if (f.encoding != CodeEncoding::OFFSET)
            out.push_back(payload_case(rule::grouped_scale_zero_converse, slug + ".quant_decode", Level::quick, "boundary",
                                       NINFER_OP_quant_decode, f, 2, k, row_split_encode(f, conv)));
    }
}

/// Section 6.2 reconstruction: signed multiply, no zero point, no BF16 detour, group ownership.
void reconstruction_cases(const GroupedFormat &f, std::vector<Case> &out, Level level) {
    const auto G = static_cast<std::uint64_t>(f.group);
    const std::string nm = name_of(f);
    // Scale 1 and 2^-3: values are the codes, visibly; a zero point or recentring moves them.
    for (const std::uint16_t s : {std::uint16_t{0x3C00}, std::uint16_t{0x3000}, std::uint16_t{0xC400}}) {
        const auto m = make_matrix(
            f, 2, G + 7,
            [&](std::uint64_t r, std::uint64_t c) {
                const auto span = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
                return f.qmin + static_cast<int>((c * (r + 3)) % span);
            },
            [s](std::uint64_t, std::uint64_t) { return s; });
        out.push_back(payload_case(rule::grouped_reconstruct_zero_point_free, nm + ".scale_" + hex(s, 4), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 2, G + 7, row_split_encode(f, m)));
    }
    // Scale words with fraction bits below BF16's seventh: a BF16 detour changes every value.
    for (const std::uint16_t s : {std::uint16_t{0x3C01}, std::uint16_t{0x3FFF}, std::uint16_t{0x0401}, std::uint16_t{0x03FF},
                                  std::uint16_t{0x7BFF}, std::uint16_t{0xAE67}}) {
        const auto m = make_matrix(
            f, 1, G, [&](std::uint64_t, std::uint64_t c) { return c % 2 ? f.qmax : f.qmin; },
            [s](std::uint64_t, std::uint64_t) { return s; });
        out.push_back(payload_case(rule::grouped_reconstruct_no_bf16_scale, nm + ".scale_" + hex(s, 4), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 1, G, row_split_encode(f, m)));
    }
    // Negative scales with codes of both signs: a signed multiply, never |scale|.
    {
        const auto m = make_matrix(
            f, 2, 2 * G, [&](std::uint64_t r, std::uint64_t c) { return (c + r) % 2 ? f.qmax : f.qmin; },
            [](std::uint64_t r, std::uint64_t g) -> std::uint16_t { return (r + g) % 2 ? 0xBC00 : 0x8001; });
        out.push_back(payload_case(rule::grouped_scale_signed_multiply, nm + ".negative_scales", Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 2, 2 * G, row_split_encode(f, m)));
    }
    // Group ownership along the last axis: a distinct scale per (row, group), partial last group.
    for (const std::uint64_t k : distinct({G + 1, 2 * G + 2, 130})) {
        const auto m = make_matrix(
            f, 3, k, [&](std::uint64_t, std::uint64_t c) { return std::min(f.qmax, 1 + static_cast<int>(c % 3)); },
            [](std::uint64_t r, std::uint64_t g) { return static_cast<std::uint16_t>(0x3C00 + 0x100 * r + 0x10 * g); });
        out.push_back(payload_case(rule::grouped_group_last_axis, nm + ".owner_" + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 3, k, row_split_encode(f, m)));
        out.push_back(payload_case(rule::grouped_group_partial, nm + ".decode_" + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 3, k, row_split_encode(f, m)));
        out.push_back(payload_case(rule::row_split_decode_boundary, nm + "." + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 3, k, row_split_encode(f, m)));
    }
    // Seeded codes and scales (level full and above).
    if (level >= Level::full)
        for (const std::uint64_t k : {std::uint64_t{63}, std::uint64_t{129}, std::uint64_t{300}}) {
            const auto m = seeded_matrix(f, 5, k, kGoldenSeed ^ (f.id * 1000 + k));
            out.push_back(payload_case(rule::grouped_reconstruct, nm + ".seeded_" + shape_slug(5, k), Level::full,
                                       "random seed=" + std::to_string(kGoldenSeed), NINFER_OP_quant_decode, f, 5, k,
                                       row_split_encode(f, m)));
        }
    out.push_back(payload_case(rule::grouped_reconstruct, nm + ".all_codes_scale_3555", Level::quick, "domain",
                               NINFER_OP_quant_decode, f, 1, static_cast<std::uint64_t>(f.qmax - f.qmin + 1),
                               row_split_encode(f, make_matrix(f, 1, static_cast<std::uint64_t>(f.qmax - f.qmin + 1),
                                                               [&](std::uint64_t, std::uint64_t c) { return f.qmin + static_cast<int>(c); },
                                                               [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3555; }))));
}

std::vector<Case> codes_golden() {
    std::vector<Case> out;
    for (const auto &f : kGroupedFormats) {
        code_domain_cases(f, out);
        illegal_word_cases(f, out);
        out_of_range_code_cases(f, out);
        scale_class_cases(f, out);
        reconstruction_cases(f, out, Level::exhaustive);
    }
    return out;
}

std::vector<Case> codes_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0xc0de5u);
    const int per_format = level == Level::exhaustive ? 8 : 2;
    for (const auto &f : kGroupedFormats)
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % (level == Level::exhaustive ? 64 : 8), k = 1 + rng() % 700;
            const auto m = seeded_matrix(f, n, k, rng());
            out.push_back(payload_case(rule::grouped_reconstruct, name_of(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                       level, "random seed=" + std::to_string(seed), NINFER_OP_quant_decode, f, n, k,
                                       row_split_encode(f, m)));
        }
    return out;
}

}  // namespace

Suite codes_suite() {
    return {"grouped.codes",
            "Grouped code words and scales: every legal code of every width, interval endpoints, the illegal Q8 0x80 "
            "and T2 0b10 words, every binary16 scale class, zero-scale groups, the Section 6.2 reconstruction "
            "(quant_decode, layout_decode, payload_validate)",
            cached_golden(codes_golden), random_of(codes_random)};
}

}  // namespace ninfer::suites::grouped
