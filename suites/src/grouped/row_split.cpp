// SPDX-License-Identifier: Apache-2.0
// Suite grouped.row_split: the row_split_k128_v1 layout (storage-layouts.md Sections 1, 3):
// geometry, plane order, nibble and high-bit order, the 2-bit reading, scale plane, canonical
// padding, zero gaps, size rule, row views, slices, gathers, unregistered pairs.
#include "builders.hpp"

#include <stdexcept>

namespace ninfer::suites::grouped {

namespace {

/// rows_select: a slice {first, count} or a gather of row indices; expected from the oracle.
Case select_case(const std::string &rule, const std::string &slug, Level level, const GroupedFormat &f, std::uint64_t n,
                 std::uint64_t k, const Bytes &payload, const std::vector<std::uint64_t> &rows, bool gather,
                 const std::vector<std::uint64_t> &slice = {}) {
    Case c = call_case(rule, slug, level, "boundary", NINFER_OP_rows_select, f, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    c.flags = gather ? NINFER_FLAG_GATHER : 0;
    c.input(NINFER_PLANE_ROWS) = le64(gather ? rows : slice);
    c.count = rows.size();
    try {
        c.expect.output(NINFER_PLANE_PAYLOAD) = row_split_select_rows(f, n, k, payload, rows);
    } catch (const std::invalid_argument &) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;  // a row past N or an empty selection
        c.count = gather ? rows.size() : (slice.size() == 2 ? slice[1] : 0);
    }
    return c;
}


void geometry_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::pair<std::uint64_t, std::uint64_t> shapes[] = {{1, 1}, {1, 128}, {2, 130}, {3, 129}, {1, 256}, {5, 64}, {2, 4096}, {7, 63}};
    for (const auto &[n, k] : shapes) {
        const auto m = seeded_matrix(f, n, k, kGoldenSeed ^ (f.id * 31 + n * 7 + k));
        out.push_back(layout_encode_case(rule::row_split_geometry, nm + "." + shape_slug(n, k), Level::quick, "boundary", f, m));
    }
    const auto m = seeded_matrix(f, 3, 200, kGoldenSeed ^ f.id);
    const auto p = row_split_encode(f, m);
    out.push_back(layout_encode_case(rule::row_split_plane_order, nm + ".3x200", Level::quick, "boundary", f, m));
    out.push_back(payload_case(rule::row_split_plane_order, nm + ".3x200.decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 3, 200, p));
    // Distinct scale words per physical group, little-endian, row-major.
    const auto sc = make_matrix(f, 3, 300, [](std::uint64_t, std::uint64_t) { return 1; },
                                [](std::uint64_t r, std::uint64_t g) { return static_cast<std::uint16_t>(0x1234 + 0x0101 * (r * 8 + g)); });
    out.push_back(layout_encode_case(rule::row_split_scale_plane, nm + ".3x300", Level::quick, "boundary", f, sc));
    // Size rule: payloads one byte short or long, empty, a shape whose size overflows uint64.
    for (const auto &[slug, delta] : std::vector<std::pair<std::string, long>>{{"short1", -1}, {"long1", 1}, {"long256", 256}}) {
        Bytes q = p;
        q.resize(static_cast<std::size_t>(static_cast<long>(q.size()) + delta), 0);
        out.push_back(payload_case(rule::row_split_size, nm + "." + slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 200, q));
        out.push_back(payload_case(rule::row_split_size, nm + "." + slug + ".decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 3, 200, q));
    }
    out.push_back(payload_case(rule::row_split_size, nm + ".empty.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 200, {}));
    out.push_back(payload_case(rule::row_split_size, nm + ".overflow.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f,
                               1ull << 62, 1ull << 20, Bytes(64, 0)));
    // Nibble order (even lane low) and high-bit stream order, both directions.
    if (f.packing == Packing::NIBBLE_HIGH) {
        const auto nib = make_matrix(
            f, 2, 128, [&](std::uint64_t r, std::uint64_t c) { return c % 2 ? (r ? f.qmin : 1) : (r ? 3 : f.qmax); },
            [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3C00; });
        out.push_back(layout_encode_case(rule::row_split_nibble_order, nm + ".alternating", Level::quick, "boundary", f, nib));
        out.push_back(payload_case(rule::row_split_nibble_order, nm + ".alternating.decode", Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 2, 128, row_split_encode(f, nib)));
    }
    if (f.high_bytes) {
        // Lanes whose high bits differ in pattern: bit 4 only, bit 5 only (q6), both.
        const auto hi = make_matrix(
            f, 2, 130,
            [&](std::uint64_t r, std::uint64_t c) {
                const int pattern6[] = {16, -32, -16, 0, 17, -31, 31, -1};
                const int pattern5[] = {-16, 0, 15, -1, 0, 0, -16, 1};
                return f.high_bits() == 2 ? pattern6[(c + r) % 8] : pattern5[(c + 3 * r) % 8];
            },
            [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3C00; });
        out.push_back(layout_encode_case(rule::row_split_high_bit_order, nm + ".patterns", Level::quick, "boundary", f, hi));
        out.push_back(payload_case(rule::row_split_high_bit_order, nm + ".patterns.decode", Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 2, 130, row_split_encode(f, hi)));
    }
    if (f.packing == Packing::BYTE) {
        const auto b = seeded_matrix(f, 2, 70, kGoldenSeed + 8);
        out.push_back(payload_case(rule::row_split_q8_bytes, nm + ".2x70.decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 2, 70,
                                   row_split_encode(f, b)));
    }
    if (f.packing == Packing::TWO_BIT_LSB) {
        const auto b = seeded_matrix(f, 2, 200, kGoldenSeed + 2);
        out.push_back(layout_encode_case(rule::row_split_two_bit_packing, nm + ".2x200", Level::quick, "suite reading", f, b));
        out.push_back(payload_case(rule::row_split_two_bit_packing, nm + ".2x200.decode", Level::quick, "suite reading",
                                   NINFER_OP_layout_decode, f, 2, 200, row_split_encode(f, b)));
        out.push_back(payload_case(rule::row_split_registry, nm + ".accepted", Level::quick, "suite reading", NINFER_OP_payload_validate,
                                   f, 2, 200, row_split_encode(f, b)));
    }
}

void padding_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    for (const std::uint64_t k : distinct({1, G + 1, 100, 129, G})) {
        const auto m = seeded_matrix(f, 2, k, kGoldenSeed ^ (f.id * 5 + k));
        out.push_back(layout_encode_case(rule::row_split_padding, nm + ".encode_" + shape_slug(2, k), Level::quick, "boundary", f, m));
    }
    // Corruptions of the canonical padding: a padding lane, a whole padding group's code and scale.
    const std::uint64_t k = G + 1;  // partial group 1 (lanes 1..G-1 padding), padding groups after it
    const auto m = seeded_matrix(f, 2, k, kGoldenSeed ^ (f.id * 3));
    const auto g = *row_split_geometry(f, 2, k);
    const Bytes p = row_split_encode(f, m);
    const std::uint32_t not_zero = grouped_code_word(f, f.qmax == 0 ? 1 : f.qmax);
    {
        Bytes q = p;
        corrupt_padding_lane(f, g, k, q, 1, 1, 1, not_zero);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_lane.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_lane.quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 2, k, q));
    }
    // Padding lanes and padding-group lanes holding a code whose base bits are zero (high plane only).
    for (const std::uint32_t w : high_only_words(f)) {
        Bytes q = p;
        corrupt_padding_lane(f, g, k, q, 1, 1, 1, w);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_lane_high_only_" + hex(w, 2) + ".validate", Level::quick,
                                   "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        if (g.groups_per_row > g.logical_groups) {
            Bytes r = p;
            corrupt_padding_lane(f, g, k, r, 0, g.groups_per_row - 1, 2, w);
            out.push_back(payload_case(rule::row_split_padding, nm + ".padding_group_high_only_" + hex(w, 2) + ".validate",
                                       Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, r));
        }
    }
    if (g.groups_per_row > g.logical_groups) {
        Bytes q = p;
        corrupt_padding_lane(f, g, k, q, 0, g.groups_per_row - 1, static_cast<std::uint64_t>(f.group - 1), not_zero);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_group_code.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        Bytes s = p;
        corrupt_scale_word(g, s, 1, g.groups_per_row - 1, 0x3C00);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_group_scale.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, s));
        Bytes z = p;
        corrupt_scale_word(g, z, 0, g.groups_per_row - 1, 0x8000);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_group_negative_zero.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, z));
    }
    if (f.encoding == CodeEncoding::OFFSET) {
        Bytes q = p;  // Q2 padding stores signed code 0 as word 1: the word 0 (code -1) is refused
        corrupt_padding_lane(f, g, k, q, 0, 1, 5, 0);
        out.push_back(payload_case(rule::row_split_padding, nm + ".padding_word0.validate", Level::quick, "suite reading", NINFER_OP_payload_validate, f, 2, k, q));
    }
    // Gaps: first and last byte of each gap (base->high, high->scale) set.
    const auto m2 = seeded_matrix(f, 1, 128, kGoldenSeed ^ (f.id * 11));
    const auto g2 = *row_split_geometry(f, 1, 128);
    const Bytes p2 = row_split_encode(f, m2);
    int gi = 0;
    for (const auto &gap : row_split_gaps(g2)) {
        ++gi;
        if (gap.begin >= gap.end) continue;
        for (const std::uint64_t at : {gap.begin, gap.end - 1}) {
            Bytes q = p2;
            corrupt_gap_byte(g2, q, at, 0x01);
            out.push_back(payload_case(rule::row_split_gaps, nm + ".gap" + std::to_string(gi) + "_byte" + std::to_string(at),
                                       Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, 128, q));
        }
    }
    out.push_back(payload_case(rule::row_split_gaps, nm + ".canonical.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, 128, p2));
}

void select_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::uint64_t n = 5, k = 130;
    const auto m = seeded_matrix(f, n, k, kGoldenSeed ^ (f.id * 13));
    const Bytes p = row_split_encode(f, m);
    for (std::uint64_t r = 0; r < n; ++r)
        out.push_back(select_case(rule::row_split_row_view, nm + ".row" + std::to_string(r), Level::quick, f, n, k, p, {r}, false, {r, 1}));
    out.push_back(select_case(rule::row_split_row_view, nm + ".all_rows", Level::quick, f, n, k, p, {0, 1, 2, 3, 4}, false, {0, n}));
    out.push_back(select_case(rule::row_split_slice, nm + ".rows_1_3", Level::quick, f, n, k, p, {1, 2}, false, {1, 2}));
    out.push_back(select_case(rule::row_split_slice, nm + ".rows_2_5", Level::quick, f, n, k, p, {2, 3, 4}, false, {2, 3}));
    out.push_back(select_case(rule::row_split_slice, nm + ".past_end", Level::quick, f, n, k, p, {4, 5, 6}, false, {4, 3}));
    out.push_back(select_case(rule::row_split_gather, nm + ".3_0_3_1", Level::quick, f, n, k, p, {3, 0, 3, 1}, true));
    out.push_back(select_case(rule::row_split_gather, nm + ".reversed", Level::quick, f, n, k, p, {4, 3, 2, 1, 0}, true));
    out.push_back(select_case(rule::row_split_gather, nm + ".one_row_many_times", Level::quick, f, n, k, p, std::vector<std::uint64_t>(9, 2), true));
    out.push_back(select_case(rule::row_split_gather, nm + ".index_past_end", Level::quick, f, n, k, p, {0, 5}, true));
    // Empty selections are refused: an empty gather, a slice of zero rows (also at the end).
    out.push_back(select_case(rule::row_split_gather, nm + ".empty", Level::quick, f, n, k, p, {}, true));
    out.push_back(select_case(rule::row_split_slice, nm + ".zero_rows", Level::quick, f, n, k, p, {}, false, {2, 0}));
    out.push_back(select_case(rule::row_split_slice, nm + ".zero_rows_at_end", Level::quick, f, n, k, p, {}, false, {n, 0}));
    // A gather from a matrix with padding groups and a high plane across the 256-byte alignment.
    const auto m2 = seeded_matrix(f, 9, 65, kGoldenSeed ^ (f.id * 17));
    out.push_back(select_case(rule::row_split_gather, nm + ".9x65_pick", Level::quick, f, 9, 65, row_split_encode(f, m2), {8, 1, 4}, true));
}

/// Unregistered pairs for the grouped ops (layout_encode/decode pairs are in layout.registry).
void pair_cases(std::vector<Case> &out) {
    const std::uint32_t ops[] = {NINFER_OP_payload_validate, NINFER_OP_quant_decode, NINFER_OP_rows_select, NINFER_OP_quant_encode};
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (format, layout)
    for (const auto &f : kGroupedFormats)
        for (const auto &l : kLayouts)
            if (!layout_accepts(l.id, f.id)) pairs.emplace_back(f.id, l.id);
    for (const auto &fv : kAllFormats)  // word formats, then other formats (the grouped ones are above)
        if (fv.family != abi::Family::grouped && !layout_accepts(kRowSplit, fv.id)) pairs.emplace_back(fv.id, kRowSplit);
    for (const auto &[format, layout] : pairs)
        for (const auto op : ops) {
            Case c = base_case(rule::layout_registry_unregistered_pair,
                               "grouped_" + std::string(op_name(op)) + "." + std::string(format_name(format)) + "_in_" +
                                   std::string(layout_name(layout)),
                               Level::quick, "registry");
            c.op = op;
            c.format = format;
            c.layout = layout;
            c.shape = {1, 128};
            c.input(op_planes(op, format, layout).inputs[0]) = Bytes(op == NINFER_OP_quant_encode ? 512 : 256, 0);
            if (op == NINFER_OP_quant_encode) {
                c.format_in = NINFER_FORMAT_fp32;
                c.method = NINFER_ENCODER_grouped_absmax;
            }
            if (op == NINFER_OP_rows_select) c.input(NINFER_PLANE_ROWS) = le64({0, 1});
            c.expect.status = NINFER_E_LAYOUT;
            out.push_back(std::move(c));
        }
}

std::vector<Case> row_split_golden() {
    std::vector<Case> out;
    for (const auto &f : kGroupedFormats) {
        geometry_cases(f, out);
        padding_cases(f, out);
        select_cases(f, out);
    }
    pair_cases(out);
    return out;
}

std::vector<Case> row_split_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x2051u);
    const int per_format = level == Level::exhaustive ? 8 : 2;
    for (const auto &f : kGroupedFormats)
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % 12, k = 1 + rng() % 600;
            const auto m = seeded_matrix(f, n, k, rng());
            const std::string slug = name_of(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k);
            const std::string src = "random seed=" + std::to_string(seed);
            Case enc = layout_encode_case(rule::row_split_geometry, slug, level, src, f, m);
            std::vector<std::uint64_t> rows;
            for (std::uint64_t j = 0; j < 1 + rng() % 6; ++j) rows.push_back(rng() % n);
            out.push_back(select_case(rule::row_split_gather, slug, level, f, n, k, enc.expect.output(NINFER_PLANE_PAYLOAD), rows, true));
            out.back().source = src;
            out.push_back(std::move(enc));
        }
    return out;
}

}  // namespace

Suite row_split_suite() {
    return {"grouped.row_split",
            "row_split_k128_v1: geometry, plane order, nibble and high-bit order, the 2-bit reading, scale plane, "
            "canonical padding, zero gaps, size rule, row views, slices, gathers, unregistered pairs "
            "(layout_encode, layout_decode, payload_validate, rows_select)",
            cached_golden(row_split_golden), random_of(row_split_random)};
}

}  // namespace ninfer::suites::grouped
