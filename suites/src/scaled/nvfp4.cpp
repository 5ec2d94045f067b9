// SPDX-License-Identifier: Apache-2.0
// Suite scaled.nvfp4: the nvfp4 words and reconstruction (tensor-formats.txt Section 3.3): all 16
// E2M1 codes, block-scale validity and +0 blocks, divisor validity and ownership, and the
// binary32 rounding of e2m1 * e4m3 / d_w (payload_validate, layout_decode, quant_decode,
// layout_encode).
#include "builders.hpp"

namespace ninfer::suites::scaled {

namespace {

constexpr std::uint32_t kOne = 0x3F800000u;  // binary32 1.0

/// A 128x64 matrix (one swizzle tile row, one group tile) of seeded words and one divisor.
Nvfp4Matrix base(std::uint64_t seed, std::uint32_t divisor = kOne) { return nv_seeded(128, 64, {divisor}, kGoldenSeed ^ seed); }

/// The payload of a matrix with the scale word (n, g) replaced by `w` in the scale plane.
Bytes with_scale(const Nvfp4Matrix &m, std::uint64_t n, std::uint64_t g, std::uint8_t w) {
    Bytes p = block_scale_encode(m);
    const auto geo = *block_scale_geometry(m.rows, m.cols, m.divisors.size());
    p[geo.scale_plane_offset + block_scale_swizzle(m.cols, n, g)] = w;
    return p;
}

void code_cases(std::vector<Case> &out) {
    // Every row holds all 16 code words (each group a rotation), scale 1.0 (0x38), divisor 1:
    // VALUES are the E2M1 values themselves, -0 (0x8) distinct from +0 (0x0).
    const auto m = nv_matrix(128, 64, [](std::uint64_t r, std::uint64_t c) { return static_cast<std::uint8_t>((r + c) % 16); },
                             [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 0x38; }, {kOne});
    const Bytes p = block_scale_encode(m);
    out.push_back(nv_payload_case(rule::nvfp4_code_e2m1, "all16.quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, 128, 64, p));
    out.push_back(nv_payload_case(rule::nvfp4_code_e2m1, "all16.validate", Level::quick, "domain", NINFER_OP_payload_validate, 128, 64, p));
    // layout_encode refuses a code byte above 0xF (not an E2M1 word).
    for (const std::uint8_t bad : {0x10, 0xFF}) {
        auto b = m;
        b.codes[77] = bad;
        out.push_back(nv_encode_case(rule::nvfp4_code_e2m1, "code_" + hex(bad, 2) + ".layout_encode", Level::quick, "boundary", b));
    }
}

void scale_cases(std::vector<Case> &out) {
    const auto m = base(1);
    // Invalid words: -0, negatives (-1.0, the largest negative, a negative subnormal), both NaNs;
    // -0 and both NaNs on every payload op (a decoder that checks only the sign lets 0x7F through).
    struct Bad {
        std::uint8_t w;
        std::uint64_t n, g;
        bool triple;
    };
    const Bad bad[] = {{0x80, 0, 0, true}, {0xB8, 37, 2, false}, {0x7F, 127, 3, true}, {0xFF, 64, 1, true},
                       {0xFE, 31, 0, false}, {0x81, 96, 3, false}};
    for (const auto &b : bad) {
        const std::string slug = "scale_" + hex(b.w, 2) + "_at_" + std::to_string(b.n) + "_" + std::to_string(b.g);
        const Bytes p = with_scale(m, b.n, b.g, b.w);
        if (b.triple) nv_payload_triple(out, rule::nvfp4_scale_validity, slug, Level::quick, "boundary", 128, 64, p);
        else out.push_back(nv_payload_case(rule::nvfp4_scale_validity, slug + ".validate", Level::quick, "boundary",
                                           NINFER_OP_payload_validate, 128, 64, p));
    }
    for (const std::uint8_t w : {0x80, 0x7F}) {
        auto e = m;
        e.scales[5 * 4 + 1] = w;
        out.push_back(nv_encode_case(rule::nvfp4_scale_validity, "scale_" + hex(w, 2) + ".layout_encode", Level::quick, "boundary", e));
    }
    // Valid edges: +0, the smallest subnormal 0x01, the largest subnormal 0x07, the smallest
    // normal 0x08, the largest finite 0x7E, all in one matrix (decoded values show them).
    auto v = m;
    const std::uint8_t edges[] = {0x00, 0x01, 0x07, 0x08, 0x7E};
    for (std::size_t i = 0; i < std::size(edges); ++i) v.scales[i * 4 * 9 + i % 4] = edges[i];
    out.push_back(nv_payload_case(rule::nvfp4_scale_validity, "valid_edges.layout_decode", Level::quick, "boundary",
                                  NINFER_OP_layout_decode, 128, 64, block_scale_encode(v)));
    out.push_back(nv_encode_case(rule::nvfp4_scale_validity, "valid_edges.layout_encode", Level::quick, "boundary", v));
}

void zero_scale_cases(std::vector<Case> &out) {
    // +0 block scales over every code word: valid; the weights are zeros of the code's sign.
    const auto z = nv_matrix(128, 64, [](std::uint64_t r, std::uint64_t c) { return static_cast<std::uint8_t>((r * 3 + c) % 16); },
                             [](std::uint64_t r, std::uint64_t g) -> std::uint8_t { return (r + g) % 2 ? 0x00 : 0x3C; }, {0x40400000u});
    const Bytes p = block_scale_encode(z);
    out.push_back(nv_payload_case(rule::nvfp4_scale_zero, "half_zero_blocks.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, 128, 64, p));
    out.push_back(nv_payload_case(rule::nvfp4_scale_zero, "half_zero_blocks.validate", Level::quick, "boundary",
                                  NINFER_OP_payload_validate, 128, 64, p));
    out.push_back(nv_encode_case(rule::nvfp4_scale_zero, "half_zero_blocks.layout_encode", Level::quick, "boundary", z));
}

void divisor_cases(std::vector<Case> &out) {
    // Invalid divisors: +0, -0, negative (-1, the negative subnormal), +-Inf, quiet and
    // signalling NaNs; the first four on every payload op, the rest on payload_validate.
    const std::uint32_t bad[] = {0x00000000u, 0x80000000u, 0xBF800000u, 0x7F800000u, 0xFF800000u,
                                 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x80000001u};
    for (std::size_t i = 0; i < std::size(bad); ++i) {
        const auto m = base(2, bad[i]);
        const Bytes p = block_scale_encode(m);
        const std::string slug = "divisor_" + hex(bad[i], 8);
        if (i == 0 || i == 5) nv_payload_triple(out, rule::nvfp4_divisor_validity, slug, Level::quick, "boundary", 128, 64, p);
        else out.push_back(nv_payload_case(rule::nvfp4_divisor_validity, slug + ".validate", Level::quick, "boundary",
                                           NINFER_OP_payload_validate, 128, 64, p));
        if (i == 2) out.push_back(nv_encode_case(rule::nvfp4_divisor_validity, slug + ".layout_encode", Level::quick, "boundary", m));
    }
    // The second of two divisors invalid (N = 256): refused wherever it stands.
    {
        const auto m = nv_seeded(256, 64, {kOne, 0x80000000u}, kGoldenSeed ^ 3);
        out.push_back(nv_payload_case(rule::nvfp4_divisor_validity, "second_of_two_negative_zero.validate", Level::quick, "boundary",
                                      NINFER_OP_payload_validate, 256, 64, block_scale_encode(m)));
    }
    // Valid: the smallest subnormal, the smallest normal, the largest finite (as payloads).
    for (const std::uint32_t d : {0x00000001u, 0x00800000u, 0x7F7FFFFFu}) {
        const auto m = base(4, d);
        out.push_back(nv_payload_case(rule::nvfp4_divisor_validity, "divisor_" + hex(d, 8) + ".validate", Level::quick, "boundary",
                                      NINFER_OP_payload_validate, 128, 64, block_scale_encode(m)));
    }
}

/// Rows of identical words under D distinct divisors: the values differ only by their owner.
Nvfp4Matrix owner_matrix(std::uint64_t n, const U32 &divisors) {
    return nv_matrix(n, 64, [](std::uint64_t r, std::uint64_t c) { return static_cast<std::uint8_t>((r % 4 + c) % 16); },
                     [](std::uint64_t, std::uint64_t g) -> std::uint8_t { return static_cast<std::uint8_t>(0x30 + g); }, divisors);
}

void owner_cases(std::vector<Case> &out) {
    // D = 4 over N = 128 (32 rows each: ownership does not follow the 128-row swizzle tiles);
    // D = 2 over N = 256 and D = 4 over N = 512 and 256 are seeded full-level cases.
    out.push_back(nv_payload_case(rule::nvfp4_divisor_row_owner, "128x64_d4.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, 128, 64,
                                  block_scale_encode(owner_matrix(128, {0x40400000u, kOne, 0x3F000000u, 0x40E00000u}))));
}

void reconstruct_cases(std::vector<Case> &out) {
    // Eight divisors over 16 rows each: 3 and 0.1f (non-dyadic: every nonzero weight rounds), 7,
    // 1.5, 2^-20, the smallest subnormal 2^-149 (most weights overflow to infinity), the largest
    // finite (weights fall to subnormals and zero), 1. Ties of the binary32 rounding cannot arise
    // (a product of at most 6 significant bits over a binary32 divisor never lands halfway; suites/SCALED.md).
    const U32 divs = {0x40400000u, 0x3DCCCCCDu, 0x40E00000u, 0x3FC00000u, 0x35800000u, 0x00000001u, 0x7F7FFFFFu, kOne};
    out.push_back(nv_payload_case(rule::nvfp4_reconstruct, "eight_divisors.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, 128, 64, block_scale_encode(nv_seeded(128, 64, divs, kGoldenSeed ^ 10))));
    // One source with a non-dyadic divisor (the equation "for a plane of one source"): the +0
    // block case of nvfp4.scale.zero divides by 3.
}

std::vector<Case> nvfp4_golden() {
    std::vector<Case> out;
    code_cases(out);
    scale_cases(out);
    zero_scale_cases(out);
    divisor_cases(out);
    owner_cases(out);
    reconstruct_cases(out);
    return out;
}

std::vector<Case> nvfp4_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x4e56u);
    const int count = level == Level::exhaustive ? 6 : 2;
    const std::string src = "random seed=" + std::to_string(seed);
    for (int i = 0; i < count; ++i) {
        const std::uint64_t n = 128 * (1 + rng() % 2), k = 64 * (1 + rng() % 2);
        const std::uint64_t d = std::uint64_t{1} << (rng() % 3);  // 1, 2, 4
        U32 divs;
        for (std::uint64_t j = 0; j < d; ++j)  // positive finite binary32, 2^-20 .. 2^20
            divs.push_back(static_cast<std::uint32_t>((107 + rng() % 41) << 23 | (rng() & 0x7FFFFF)));
        const auto m = nv_seeded(n, k, divs, rng());
        out.push_back(nv_payload_case(rule::nvfp4_reconstruct, "random_" + std::to_string(i) + "_" + shape_slug(n, k) + "_d" + std::to_string(d),
                                      level, src, NINFER_OP_quant_decode, n, k, block_scale_encode(m)));
    }
    // Two or more swizzle tiles both ways (2 x 2 tiles of 128 rows x 64 values of K), two
    // divisors: a decoder that walks the tiles in the wrong order decodes other rows' scales.
    {
        U32 divs;
        for (int j = 0; j < 2; ++j) divs.push_back(static_cast<std::uint32_t>((120 + rng() % 15) << 23 | (rng() & 0x7FFFFF)));
        out.push_back(nv_payload_case(rule::nvfp4_reconstruct, "tiles_2x2_" + shape_slug(256, 128) + "_d2", level, src,
                                      NINFER_OP_quant_decode, 256, 128, block_scale_encode(nv_seeded(256, 128, divs, rng()))));
    }
    // Row ownership over more rows: D = 4 over N = 512 and N = 256, seeded divisors.
    for (const auto &[n, d] : std::vector<std::pair<std::uint64_t, int>>{{512, 4}, {256, 4}, {256, 2}}) {
        U32 divs;
        for (int j = 0; j < d; ++j) divs.push_back(static_cast<std::uint32_t>((120 + rng() % 15) << 23 | (rng() & 0x7FFFFF)));
        out.push_back(nv_payload_case(rule::nvfp4_divisor_row_owner, "random_" + shape_slug(n, 64) + "_d" + std::to_string(d), level, src,
                                      NINFER_OP_quant_decode, n, 64, block_scale_encode(owner_matrix(n, divs))));
    }
    return out;
}

}  // namespace

Suite nvfp4_suite() {
    return {"scaled.nvfp4",
            "nvfp4 words (tensor-formats.txt 3.3): all 16 E2M1 codes, block-scale validity and +0 blocks, divisor "
            "validity and row ownership, binary32(e2m1 * e4m3 / d_w) (payload_validate, layout_decode, quant_decode, "
            "layout_encode)",
            cached_golden(nvfp4_golden), random_of(nvfp4_random)};
}

}  // namespace ninfer::suites::scaled
