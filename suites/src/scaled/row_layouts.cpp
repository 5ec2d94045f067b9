// SPDX-License-Identifier: Apache-2.0
// Suites layout.row_scale_v1 and layout.row_interleaved_v1 (storage-layouts.md Sections 1, 5, 6):
// plane round trips across the 256-byte alignment, the zero gap (row_scale_v1), the registry
// pairs of each layout, row slices and gathers (layout_encode, layout_decode, payload_validate,
// rows_select, and the pairs on every op).
#include "builders.hpp"

#include <algorithm>

namespace ninfer::suites::scaled {

namespace {

RuleId layout_rule(const Fp8RowFormat &f) {
    return f.layout == NINFER_LAYOUT_row_scale_v1 ? rule::row_scale_layout : rule::row_interleaved_layout;
}

/// A call of an unregistered pair: shape {2, 128}, 256 zero bytes in the op's first input plane.
Case pair_case(RuleId r, const std::string &slug, std::uint32_t op, std::uint32_t format, std::uint32_t layout) {
    Case c = base_case(std::string(r), slug, Level::quick, "registry");
    c.op = op;
    c.format = format;
    c.layout = layout;
    c.shape = {2, 128};
    c.count = 256;
    c.input(op_planes(op, format, layout).inputs[0]) = Bytes(256, 0);
    if (op == NINFER_OP_quant_encode) {
        c.format_in = NINFER_FORMAT_fp32;
        c.method = NINFER_ENCODER_fp8_row_maxabs;
    }
    if (op == NINFER_OP_rows_select) {
        c.flags = NINFER_FLAG_GATHER;
        c.input(NINFER_PLANE_ROWS) = le64({0});
    }
    c.expect.status = NINFER_E_LAYOUT;
    return c;
}

void pair_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const RuleId r = layout_rule(f);
    const std::uint32_t ops[] = {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode,
                                 NINFER_OP_payload_validate, NINFER_OP_rows_select, NINFER_OP_quant_encode};
    const std::string fname(format_name(f.format)), lname(layout_name(f.layout));
    for (const auto &l : kLayouts)
        if (!layout_accepts(l.id, f.format))
            for (const auto op : ops)
                out.push_back(pair_case(r, fname + "_in_" + std::string(l.name) + "." + std::string(op_name(op)), op, f.format, l.id));
    // Every other scaled format, and the first format of each other family, with the layout.
    std::vector<std::uint32_t> others;
    std::vector<abi::Family> seen;
    for (const auto &fv : kAllFormats) {
        if (layout_accepts(f.layout, fv.id)) continue;
        if (fv.family == abi::Family::scaled) others.push_back(fv.id);
        else if (std::find(seen.begin(), seen.end(), fv.family) == seen.end()) {
            seen.push_back(fv.family);
            others.push_back(fv.id);
        }
    }
    for (const auto format : others)
        for (const auto op : ops)
            out.push_back(pair_case(r, std::string(format_name(format)) + "_in_" + lname + "." + std::string(op_name(op)), op, format, f.layout));
}

void layout_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const RuleId r = layout_rule(f);
    // N*K below, at and above 256 (row_scale_v1: gap of 255 bytes, none, a partial one).
    const std::pair<std::uint64_t, std::uint64_t> shapes[] = {{1, 1}, {3, 5}, {2, 128}, {1, 256}, {3, 100}, {17, 33}, {1, 257}};
    for (const auto &[n, k] : shapes) {
        const auto m = f8_seeded(f, n, k, kGoldenSeed ^ (f.format * 29 + n * 1000 + k));
        out.push_back(f8_encode_case(std::string(r), shape_slug(n, k) + ".layout_encode", Level::quick, "boundary", f, m));
        out.push_back(f8_payload_case(std::string(r), shape_slug(n, k) + ".layout_decode", Level::quick, "boundary",
                                      NINFER_OP_layout_decode, f, n, k, fp8_row_encode(f, m)));
    }
    // Distinct multipliers per row, distinct codes per column: any misplaced word shows.
    const auto d = f8_matrix(4, 7, [](std::uint64_t n, std::uint64_t c) { return static_cast<std::uint8_t>(n * 16 + c + 1); },
                             [&](std::uint64_t n) { return static_cast<std::uint16_t>(0x3C00 + 0x0111 * n); });
    out.push_back(f8_encode_case(std::string(r), "distinct_words_4x7.layout_encode", Level::quick, "boundary", f, d));
    pair_cases(f, out);
}

void gap_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    if (f.layout != NINFER_LAYOUT_row_scale_v1) return;
    // 3x100: code plane 300 bytes, gap 300..511; its first and last byte, and a canonical payload.
    const auto m = f8_seeded(f, 3, 100, kGoldenSeed ^ 0x6170u);
    const Bytes p = fp8_row_encode(f, m);
    for (const std::uint64_t at : {300u, 400u, 511u}) {
        Bytes q = p;
        q[at] = 0x01;
        const std::string slug = "byte" + std::to_string(at);
        if (at == 300) f8_payload_triple(out, rule::row_scale_gap, slug, Level::quick, "boundary", f, 3, 100, q);
        else out.push_back(f8_payload_case(rule::row_scale_gap, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 100, q));
    }
    out.push_back(f8_payload_case(rule::row_scale_gap, "canonical.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 100, p));
}

void select_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    const std::uint64_t n = 5, k = 70;  // 350 code bytes: the alignment changes with the row count
    const auto m = f8_seeded(f, n, k, kGoldenSeed ^ (f.format * 31));
    const Bytes p = fp8_row_encode(f, m);
    auto slice = [&](const std::string &slug, std::uint64_t first, std::uint64_t count) {
        U64 rows;
        for (std::uint64_t i = 0; i < count; ++i) rows.push_back(first + i);
        out.push_back(f8_select_case(rule::fp8_row_slice, nm + "." + slug, Level::quick, f, n, k, p, rows, false, {first, count}));
    };
    slice("row0", 0, 1);
    slice("rows_1_3", 1, 2);
    slice("rows_1_5", 1, 4);
    slice("all", 0, 5);
    slice("last", 4, 1);
    slice("past_end", 3, 3);
    slice("zero_rows", 2, 0);
    auto gather = [&](const std::string &slug, const U64 &rows) {
        out.push_back(f8_select_case(rule::fp8_row_gather, nm + "." + slug, Level::quick, f, n, k, p, rows, true));
    };
    gather("3_0_3_1", {3, 0, 3, 1});
    gather("reversed", {4, 3, 2, 1, 0});
    gather("row2_nine_times", U64(9, 2));
    gather("index_past_end", {0, 5});
    gather("empty", {});
    // A parent of the wrong size is refused before the selection.
    Bytes bad = p;
    bad.push_back(0);
    out.push_back(f8_select_case(rule::fp8_row_gather, nm + ".parent_long1", Level::quick, f, n, k, bad, {0}, true));
}

std::vector<Case> row_golden(std::uint32_t layout) {
    std::vector<Case> out;
    for (const auto &f : fp8_row_formats()) {
        if (f.layout != layout) continue;
        layout_cases(f, out);
        gap_cases(f, out);
        select_cases(f, out);
    }
    return out;
}

std::vector<Case> row_scale_golden() { return row_golden(NINFER_LAYOUT_row_scale_v1); }
std::vector<Case> row_interleaved_golden() { return row_golden(NINFER_LAYOUT_row_interleaved_v1); }

std::vector<Case> row_random(std::uint32_t layout, std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ layout);
    const int count = level == Level::exhaustive ? 8 : 2;
    const std::string src = "random seed=" + std::to_string(seed);
    for (const auto &f : fp8_row_formats()) {
        if (f.layout != layout) continue;
        for (int i = 0; i < count; ++i) {
            const std::uint64_t n = 1 + rng() % 12, k = 1 + rng() % 400;
            const auto m = f8_seeded(f, n, k, rng());
            const std::string slug = fp8_name(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k);
            Case enc = f8_encode_case(std::string(layout_rule(f)), slug, level, src, f, m);
            U64 rows;
            for (std::uint64_t j = 0; j < 1 + rng() % 6; ++j) rows.push_back(rng() % n);
            out.push_back(f8_select_case(rule::fp8_row_gather, slug, level, f, n, k, enc.expect.output(NINFER_PLANE_PAYLOAD), rows, true));
            out.back().source = src;
            out.push_back(std::move(enc));
        }
    }
    return out;
}

std::vector<Case> row_scale_random(std::uint64_t seed, Level level) { return row_random(NINFER_LAYOUT_row_scale_v1, seed, level); }
std::vector<Case> row_interleaved_random(std::uint64_t seed, Level level) {
    return row_random(NINFER_LAYOUT_row_interleaved_v1, seed, level);
}

}  // namespace

Suite row_scale_suite() {
    return {"layout.row_scale_v1",
            "row_scale_v1 (storage-layouts.md 1, 5): code and multiplier planes across the 256-byte alignment, the zero "
            "gap, registry pairs, row slices and gathers (layout_encode, layout_decode, payload_validate, rows_select)",
            cached_golden(row_scale_golden), random_of(row_scale_random)};
}

Suite row_interleaved_suite() {
    return {"layout.row_interleaved_v1",
            "row_interleaved_v1 (storage-layouts.md 1, 6): rows of codes and their multiplier, registry pairs, row "
            "slices and gathers (layout_encode, layout_decode, rows_select)",
            cached_golden(row_interleaved_golden), random_of(row_interleaved_random)};
}

}  // namespace ninfer::suites::scaled
