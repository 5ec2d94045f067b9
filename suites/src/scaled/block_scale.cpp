// SPDX-License-Identifier: Apache-2.0
// Suite layout.block_scale_k16_m128x4_v1 (storage-layouts.md Sections 1, 4, 8): the registry
// pairs, geometry and shape refusals, the size rule, the code plane's nibble order, the scale
// swizzle, the divisor plane, row slices and gathers (oracle/SCALED.md R3), and the decode
// boundary (layout_encode, layout_decode, quant_decode, payload_validate, rows_select).
#include "builders.hpp"

#include <algorithm>

namespace ninfer::suites::scaled {

namespace {

constexpr std::uint32_t kOne = 0x3F800000u;

/// Scale words that differ between neighbours in n, in g, across tiles and across the 32-row
/// quarters of a tile (sign-zero finite words 0x01..0x7E cycle).
std::uint8_t distinct_scale(std::uint64_t n, std::uint64_t g) {
    return static_cast<std::uint8_t>(1 + (n * 5 + g * 29 + (n / 32) * 11 + (n / 128) * 17 + (g / 4) * 3) % 126);
}

Nvfp4Matrix swizzle_matrix(std::uint64_t n, std::uint64_t k, const U32 &divisors) {
    return nv_matrix(n, k, [](std::uint64_t r, std::uint64_t c) { return static_cast<std::uint8_t>((r * 7 + c) % 16); }, distinct_scale,
                     divisors);
}

/// A call of an unregistered pair: shape {128, 64}, 256 zero bytes in the op's first input plane.
Case pair_case(const std::string &slug, std::uint32_t op, std::uint32_t format, std::uint32_t layout) {
    Case c = base_case(rule::block_scale_registry, slug, Level::quick, "registry");
    c.op = op;
    c.format = format;
    c.layout = layout;
    c.shape = {128, 64};
    c.count = 128 * 64;
    c.input(op_planes(op, format, layout).inputs[0]) = Bytes(256, 0);
    if (op == NINFER_OP_quant_encode) {
        c.format_in = NINFER_FORMAT_fp32;
        c.method = NINFER_ENCODER_nvfp4_two_level;
    }
    if (op == NINFER_OP_rows_select) {
        c.flags = NINFER_FLAG_GATHER;
        c.input(NINFER_PLANE_ROWS) = le64({0});
    }
    c.expect.status = NINFER_E_LAYOUT;
    return c;
}

void registry_cases(std::vector<Case> &out) {
    const std::uint32_t ops[] = {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode,
                                 NINFER_OP_payload_validate, NINFER_OP_rows_select, NINFER_OP_quant_encode};
    // nvfp4 with every other layout.
    for (const auto &l : kLayouts)
        if (!layout_accepts(l.id, kNvfp4))
            for (const auto op : ops)
                out.push_back(pair_case("nvfp4_in_" + std::string(l.name) + "." + std::string(op_name(op)), op, kNvfp4, l.id));
    // Every other scaled format, and the first format of each other family, with the layout.
    std::vector<std::uint32_t> others;
    std::vector<abi::Family> seen;
    for (const auto &f : kAllFormats) {
        if (layout_accepts(kBlockScale, f.id)) continue;
        if (f.family == abi::Family::scaled) others.push_back(f.id);
        else if (std::find(seen.begin(), seen.end(), f.family) == seen.end()) {
            seen.push_back(f.family);
            others.push_back(f.id);
        }
    }
    for (const auto format : others)
        for (const auto op : ops)
            out.push_back(pair_case(std::string(format_name(format)) + "_in_block_scale." + std::string(op_name(op)), op, format, kBlockScale));
}

void geometry_cases(std::vector<Case> &out) {
    // Shapes the layout has: layout_encode places every plane (offsets follow from N and K).
    for (const auto &[n, k] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{128, 64}})
        out.push_back(nv_encode_case(rule::block_scale_geometry, shape_slug(n, k) + ".layout_encode", Level::quick, "boundary",
                                     nv_seeded(n, k, {kOne}, kGoldenSeed ^ (n * 3 + k))));
    // Shapes it has not: N % 128, K % 64, N = 0, K = 0 (E_SIZE); each with payload ops, rows_select
    // and layout_encode (planes sized for the shape, so that only the shape is wrong).
    const std::pair<std::uint64_t, std::uint64_t> bad[] = {{64, 64}, {129, 64}, {200, 64}, {128, 32}, {128, 80}, {128, 16}, {0, 64}, {128, 0}};
    for (const auto &[n, k] : bad) {
        const std::string slug = shape_slug(n, k);
        // The shape is refused before the payload is read: 64 bytes stand for any payload.
        const Bytes p(64, 0);
        out.push_back(nv_payload_case(rule::block_scale_geometry, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, n, k, p));
        out.push_back(nv_payload_case(rule::block_scale_geometry, slug + ".layout_decode", Level::quick, "boundary", NINFER_OP_layout_decode, n, k, p));
        out.push_back(nv_payload_case(rule::block_scale_geometry, slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, n, k, p));
        out.push_back(nv_select_case(rule::block_scale_geometry, slug + ".rows_select", Level::quick, n, k, p, {0}, true));
        Nvfp4Matrix m = nv_matrix(n, k, [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 1; },
                                  [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 0x38; }, {kOne});
        if (n * k <= 128 * 32) out.push_back(nv_encode_case(rule::block_scale_geometry, slug + ".layout_encode", Level::quick, "boundary", m));
    }
    // A number of divisors that does not divide N: 3 over N = 128 (payload 8 bytes longer; encode with 3 words).
    {
        const auto m = nv_seeded(128, 64, {kOne, kOne, kOne}, kGoldenSeed ^ 21);
        Bytes p = block_scale_encode(nv_seeded(128, 64, {kOne}, kGoldenSeed ^ 21));
        for (int i = 0; i < 2; ++i) put_word(p, kOne, 4);
        out.push_back(nv_payload_case(rule::block_scale_geometry, "128x64_d3.validate", Level::quick, "boundary", NINFER_OP_payload_validate, 128, 64, p));
        out.push_back(nv_payload_case(rule::block_scale_geometry, "128x64_d3.layout_decode", Level::quick, "boundary", NINFER_OP_layout_decode, 128, 64, p));
        out.push_back(nv_payload_case(rule::block_scale_geometry, "128x64_d3.quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, 128, 64, p));
        out.push_back(nv_select_case(rule::block_scale_geometry, "128x64_d3.rows_select", Level::quick, 128, 64, p, {0, 128}, false));
        Case e = nv_encode_case(rule::block_scale_geometry, "128x64_d3.layout_encode", Level::quick, "boundary", m);
        out.push_back(std::move(e));
    }
    // Rank other than 2: NINFER_E_INVALID_ARGUMENT.
    const Bytes good(64, 0);  // the rank is refused before the payload is read
    for (const auto &shape : std::vector<std::vector<std::uint64_t>>{{128 * 64}, {1, 128, 64}}) {
        std::string slug = "rank" + std::to_string(shape.size());
        for (const auto op : {NINFER_OP_payload_validate, NINFER_OP_layout_decode, NINFER_OP_quant_decode}) {
            Case c = nv_call(rule::block_scale_geometry, slug + "." + std::string(op_name(op)), Level::quick, "boundary", op, 128, 64);
            c.shape = shape;
            c.input(NINFER_PLANE_PAYLOAD) = good;
            c.expect.status = NINFER_E_INVALID_ARGUMENT;
            out.push_back(std::move(c));
        }
        Case s = nv_select_case(rule::block_scale_geometry, slug + ".rows_select", Level::quick, 128, 64, good, {0, 128}, false);
        s.shape = shape;
        s.expect = {};
        s.expect.status = NINFER_E_INVALID_ARGUMENT;
        out.push_back(std::move(s));
        Case e = nv_encode_case(rule::block_scale_geometry, slug + ".layout_encode", Level::quick, "boundary", nv_seeded(128, 64, {kOne}, kGoldenSeed ^ 22));
        for (auto &pl : e.inputs) pl.bytes.resize(std::min<std::size_t>(pl.bytes.size(), 64));
        e.shape = shape;
        e.expect = {};
        e.expect.status = NINFER_E_INVALID_ARGUMENT;
        out.push_back(std::move(e));
    }
}

void size_cases(std::vector<Case> &out) {
    const auto m = nv_seeded(128, 64, {kOne}, kGoldenSeed ^ 30);
    const Bytes p = block_scale_encode(m);
    // One byte short or long, 3 bytes long (no whole divisor), the divisor missing (4 short),
    // the code plane only, empty.
    for (const auto &[slug, size] : std::vector<std::pair<std::string, std::size_t>>{
             {"short1", p.size() - 1}, {"long1", p.size() + 1}, {"long3", p.size() + 3}, {"no_divisor", p.size() - 4},
             {"code_plane_only", 128 * 64 / 2}, {"empty", 0}}) {
        Bytes q = p;
        q.resize(size, 0);
        out.push_back(nv_payload_case(rule::block_scale_size, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, 128, 64, q));
        if (slug == "short1" || slug == "long1")
            out.push_back(nv_payload_case(rule::block_scale_size, slug + ".layout_decode", Level::quick, "boundary", NINFER_OP_layout_decode, 128, 64, q));
        if (slug == "long3")
            out.push_back(nv_select_case(rule::block_scale_size, slug + ".rows_select", Level::quick, 128, 64, q, {0, 128}, false));
    }
    // layout_encode planes of the wrong size: codes one short, scales one long, divisor bytes not a
    // multiple of 4, no divisor.
    auto bad = m;
    bad.codes.pop_back();
    out.push_back(nv_encode_case(rule::block_scale_size, "codes_short1.layout_encode", Level::quick, "boundary", bad));
    bad = m;
    bad.scales.push_back(0x38);
    out.push_back(nv_encode_case(rule::block_scale_size, "scales_long1.layout_encode", Level::quick, "boundary", bad));
    {
        Case c = nv_encode_case(rule::block_scale_size, "divisors_5_bytes.layout_encode", Level::quick, "boundary", m);
        c.input(NINFER_PLANE_DIVISORS).push_back(0x00);
        c.expect = {};
        c.expect.status = NINFER_E_SIZE;
        out.push_back(std::move(c));
        Case z = nv_encode_case(rule::block_scale_size, "divisors_0_bytes.layout_encode", Level::quick, "boundary", m);
        z.input(NINFER_PLANE_DIVISORS).clear();
        z.expect = {};
        z.expect.status = NINFER_E_SIZE;
        out.push_back(std::move(z));
    }
}

void plane_cases(std::vector<Case> &out) {
    // Codes that tell the low nibble from the high one: 1 at even k, 2 at odd k.
    const auto m = nv_matrix(128, 64, [](std::uint64_t, std::uint64_t c) -> std::uint8_t { return c % 2 ? 2 : 1; },
                             [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 0x38; }, {kOne});
    out.push_back(nv_encode_case(rule::block_scale_code_plane, "even1_odd2.layout_encode", Level::quick, "boundary", m));
    out.push_back(nv_payload_case(rule::block_scale_code_plane, "even1_odd2.layout_decode", Level::quick, "boundary",
                                  NINFER_OP_layout_decode, 128, 64, block_scale_encode(m)));

    // The swizzle: distinct neighbouring scale words; shapes with several row tiles (N = 256),
    // several group tiles (K = 128, 256) and all four 32-row quarters of a tile.
    for (const auto &[n, k] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{128, 64}, {256, 128}}) {
        const auto s = swizzle_matrix(n, k, {kOne});
        out.push_back(nv_encode_case(rule::block_scale_swizzle, shape_slug(n, k) + ".layout_encode", Level::quick, "boundary", s));
        if (n == 128) out.push_back(nv_payload_case(rule::block_scale_swizzle, shape_slug(n, k) + ".layout_decode", Level::quick, "boundary",
                                      NINFER_OP_layout_decode, n, k, block_scale_encode(s)));
    }

    // The divisor plane: D consecutive words after the scale plane, in source order.
    for (const auto &[n, divs] : std::vector<std::pair<std::uint64_t, U32>>{
             {128, {kOne, 0x40000000u}}, {128, {0x40400000u, kOne, 0x3F000000u, 0x40E00000u}}}) {
        const auto d = swizzle_matrix(n, 64, divs);
        const std::string slug = shape_slug(n, 64) + "_d" + std::to_string(divs.size());
        out.push_back(nv_encode_case(rule::block_scale_divisor_plane, slug + ".layout_encode", Level::quick, "boundary", d));
        if (divs.size() == 4) out.push_back(nv_payload_case(rule::block_scale_divisor_plane, slug + ".layout_decode", Level::quick, "boundary",
                                      NINFER_OP_layout_decode, n, 64, block_scale_encode(d)));
    }
}

void select_cases(std::vector<Case> &out) {
    auto range = [](std::uint64_t first, std::uint64_t count) {
        U64 r;
        for (std::uint64_t i = 0; i < count; ++i) r.push_back(first + i);
        return r;
    };
    // Slices of N = 256 in four sources of 64 rows (K = 64).
    const Bytes p = block_scale_encode(swizzle_matrix(256, 64, {kOne, 0x40000000u, 0x40400000u, 0x40800000u}));
    auto slice = [&](const std::string &slug, std::uint64_t first, std::uint64_t count) {
        const U64 rows = first + count <= 256 ? range(first, count) : U64{first, 256};  // past N: refused
        out.push_back(nv_select_case(rule::block_scale_slice, slug, Level::quick, 256, 64, p, rows, false, {first, count}));
    };
    slice("sources1_2", 64, 128);           // two runs of 64: two divisors
    slice("sources2_3", 128, 128);
    slice("unequal_runs", 32, 128);         // runs of 32, 64, 32: refused
    slice("no_geometry_64_rows", 0, 64);    // 64 rows: refused
    slice("empty", 0, 0);                   // refused
    slice("past_end", 192, 128);            // refused
    // Gathers of 128 rows from N = 128 in four sources of 32 rows.
    const Bytes q = block_scale_encode(swizzle_matrix(128, 64, {kOne, 0x40000000u, 0x40400000u, 0x40800000u}));
    auto gather = [&](const std::string &slug, const U64 &rows) {
        out.push_back(nv_select_case(rule::block_scale_gather, slug, Level::quick, 128, 64, q, rows, true));
    };
    U64 rev;  // sources in reverse order, rows reversed within each: four runs of 32
    for (std::uint64_t i = 0; i < 128; ++i) rev.push_back(127 - i);
    gather("reversed", rev);
    U64 twice = range(32, 32);  // source 1 four times over: one run of 128, one divisor
    for (int t = 0; t < 3; ++t)
        for (auto r : range(32, 32)) twice.push_back(r);
    gather("source1_four_times", twice);
    U64 alternating;  // rows alternating between sources 0 and 2: 128 runs of one row
    for (std::uint64_t i = 0; i < 64; ++i) {
        alternating.push_back(i % 32);
        alternating.push_back(64 + i % 32);
    }
    gather("alternating_sources", alternating);
    U64 past = range(0, 128);
    past[77] = 128;
    gather("index_past_end", past);
    gather("empty", {});
    U64 unequal = range(0, 100);  // runs of 32, 32, 32, 4 (source 3) and 28 (source 0 again)
    for (auto r : range(0, 28)) unequal.push_back(r);
    gather("unequal_runs", unequal);
}

void boundary_cases(std::vector<Case> &out) {
    // One payload per detail, each refused by all three payload ops alike.
    const auto m = nv_seeded(128, 64, {kOne}, kGoldenSeed ^ 40);
    Bytes size = block_scale_encode(m);
    size.pop_back();
    nv_payload_triple(out, rule::block_scale_decode_boundary, "size", Level::quick, "boundary", 128, 64, size);
    Bytes scale = block_scale_encode(m);
    scale[128 * 64 / 2 + 300] = 0x80;
    nv_payload_triple(out, rule::block_scale_decode_boundary, "invalid_scale", Level::quick, "boundary", 128, 64, scale);
    auto dm = m;
    dm.divisors = {0xBF800000u};
    nv_payload_triple(out, rule::block_scale_decode_boundary, "invalid_divisor", Level::quick, "boundary", 128, 64, block_scale_encode(dm));
}

std::vector<Case> block_scale_golden() {
    std::vector<Case> out;
    registry_cases(out);
    geometry_cases(out);
    size_cases(out);
    plane_cases(out);
    select_cases(out);
    boundary_cases(out);
    return out;
}

std::vector<Case> block_scale_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x4253u);
    const std::string src = "random seed=" + std::to_string(seed);
    // Bigger swizzle shapes (N = 384, K up to 256) with seeded words.
    const int count = level == Level::exhaustive ? 4 : 2;
    for (int i = 0; i < count; ++i) {
        const std::uint64_t n = 128 * (1 + rng() % 3), k = 64 * (1 + rng() % 4);
        auto m = nv_seeded(n, k, {kOne}, rng());
        Case c = nv_encode_case(rule::block_scale_swizzle, "random_" + std::to_string(i) + "_" + shape_slug(n, k), level, src, m);
        const Bytes p = c.expect.output(NINFER_PLANE_PAYLOAD);
        out.push_back(std::move(c));
        // A gather of 128 seeded rows (one source: any rows).
        U64 rows;
        for (int j = 0; j < 128; ++j) rows.push_back(rng() % n);
        out.push_back(nv_select_case(rule::block_scale_gather, "random_" + std::to_string(i) + "_" + shape_slug(n, k), level, n, k, p, rows, true));
        out.back().source = src;
    }
    // Two or more swizzle tiles both ways (256x128: 2 x 2 tiles), distinct neighbouring scales:
    // layout_decode and a gather that reads rows of both row tiles (a tile order along K first
    // decodes or moves other rows' scales).
    const auto tiles = swizzle_matrix(256, 128, {kOne});
    const Bytes tp = block_scale_encode(tiles);
    out.push_back(nv_payload_case(rule::block_scale_swizzle, "tiles_2x2_" + shape_slug(256, 128) + ".layout_decode", level, "boundary",
                                  NINFER_OP_layout_decode, 256, 128, tp));
    U64 both_tiles;  // rows 255, 253, ..., 1: odd rows of both tiles, reversed
    for (std::uint64_t j = 0; j < 128; ++j) both_tiles.push_back(255 - 2 * j);
    out.push_back(nv_select_case(rule::block_scale_gather, "tiles_2x2_" + shape_slug(256, 128), level, 256, 128, tp, both_tiles, true));
    // The nibble order over 2 x 2 tiles (the rule's third case; its golden two stay at 128x64).
    const auto nibbles = nv_matrix(256, 128, [](std::uint64_t, std::uint64_t c) -> std::uint8_t { return c % 2 ? 2 : 1; },
                                   [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 0x38; }, {kOne});
    out.push_back(nv_payload_case(rule::block_scale_code_plane, "even1_odd2_" + shape_slug(256, 128) + ".layout_decode", level, "boundary",
                                  NINFER_OP_layout_decode, 256, 128, block_scale_encode(nibbles)));
    return out;
}

}  // namespace

Suite block_scale_suite() {
    return {"layout.block_scale_k16_m128x4_v1",
            "block_scale_k16_m128x4_v1 (storage-layouts.md 1, 4, 8): registry pairs, geometry and shape refusals, "
            "size rule, code nibble order, scale swizzle, divisor plane, row slices and gathers, decode boundary "
            "(layout_encode, layout_decode, quant_decode, payload_validate, rows_select)",
            cached_golden(block_scale_golden), random_of(block_scale_random)};
}

}  // namespace ninfer::suites::scaled
