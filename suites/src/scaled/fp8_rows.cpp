// SPDX-License-Identifier: Apache-2.0
// Suite scaled.fp8_rows: the FP8 row formats' words and reconstruction (tensor-formats.txt
// Section 3.4; both fp8_e4m3fn_row_bf16 and fp8_e4m3fn_row_fp16): code validity, multiplier
// validity, +0 rows, binary32(c32 * s32), payload sizes and the decode boundary
// (payload_validate, layout_decode, quant_decode, layout_encode).
#include "builders.hpp"

#include <tuple>

namespace ninfer::suites::scaled {

namespace {

bool is_bf16(const Fp8RowFormat &f) { return f.scale_format == NINFER_FORMAT_bf16; }
std::uint16_t one(const Fp8RowFormat &f) { return is_bf16(f) ? 0x3F80 : 0x3C00; }

/// The payload with the multiplier of row r replaced.
Bytes with_scale(const Fp8RowFormat &f, Fp8RowMatrix m, std::uint64_t r, std::uint16_t w) {
    m.scales[r] = w;
    return fp8_row_encode(f, m);
}

void code_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    // Every finite code (254 words) under a unit multiplier: row 0 the positive words
    // 0x00..0x7E, row 1 the negative ones 0x80..0xFE (each row padded with a zero of its sign).
    const auto all = f8_matrix(2, 128, [](std::uint64_t r, std::uint64_t c) { return static_cast<std::uint8_t>((c == 127 ? 0 : c) | r << 7); },
                               [&](std::uint64_t) { return one(f); });
    const Bytes p = fp8_row_encode(f, all);
    out.push_back(f8_payload_case(rule::fp8_row_code_validity, nm + ".all254.quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, f, 2, 128, p));
    out.push_back(f8_encode_case(rule::fp8_row_code_validity, nm + ".all254.layout_encode", Level::quick, "domain", f, all));
    // The NaN words, at the first and a middle code of a row.
    const auto m = f8_seeded(f, 3, 9, kGoldenSeed ^ f.format);
    for (const auto &[w, r, c] : std::vector<std::tuple<std::uint8_t, std::uint64_t, std::uint64_t>>{{0x7F, 1, 4}, {0xFF, 0, 0}, {0x7F, 2, 8}}) {
        auto b = m;
        b.codes[r * 9 + c] = w;
        const std::string slug = nm + ".code_" + hex(w, 2) + "_at_" + std::to_string(r) + "_" + std::to_string(c);
        f8_payload_triple(out, rule::fp8_row_code_validity, slug, Level::quick, "boundary", f, 3, 9, fp8_row_encode(f, b));
        out.push_back(f8_encode_case(rule::fp8_row_code_validity, slug + ".layout_encode", Level::quick, "boundary", f, b));
    }
}

void scale_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    const auto m = f8_seeded(f, 3, 9, kGoldenSeed ^ (f.format * 7));
    // Invalid: -0, -1, a negative subnormal, +-Inf, quiet NaNs of both signs, a signalling NaN.
    const std::uint16_t inf = is_bf16(f) ? 0x7F80 : 0x7C00;
    const std::uint16_t bad[] = {0x8000, static_cast<std::uint16_t>(0x8000 | one(f)), 0x8001, inf,
                                 static_cast<std::uint16_t>(0x8000 | inf), static_cast<std::uint16_t>(inf | (is_bf16(f) ? 0x40 : 0x200)),
                                 static_cast<std::uint16_t>(0x8000 | inf | (is_bf16(f) ? 0x40 : 0x200)), static_cast<std::uint16_t>(inf | 1)};
    for (std::size_t i = 0; i < std::size(bad); ++i) {
        const std::string slug = nm + ".scale_" + hex(bad[i], 4);
        const Bytes p = with_scale(f, m, i % 3, bad[i]);
        if (i < 4) f8_payload_triple(out, rule::fp8_row_scale_validity, slug, Level::quick, "boundary", f, 3, 9, p);
        else out.push_back(f8_payload_case(rule::fp8_row_scale_validity, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 9, p));
        if (i == 0 || i == 3 || i == 5) {
            auto e = m;
            e.scales[1] = bad[i];
            out.push_back(f8_encode_case(rule::fp8_row_scale_validity, slug + ".layout_encode", Level::quick, "boundary", f, e));
        }
    }
    // Valid edges: the smallest subnormal, the largest subnormal, the smallest normal, the largest finite.
    const std::uint16_t edges[] = {0x0001, static_cast<std::uint16_t>(is_bf16(f) ? 0x007F : 0x03FF),
                                   static_cast<std::uint16_t>(is_bf16(f) ? 0x0080 : 0x0400), static_cast<std::uint16_t>(is_bf16(f) ? 0x7F7F : 0x7BFF)};
    auto v = f8_seeded(f, 4, 9, kGoldenSeed ^ (f.format * 11));
    for (std::size_t i = 0; i < 4; ++i) v.scales[i] = edges[i];
    out.push_back(f8_payload_case(rule::fp8_row_scale_validity, nm + ".valid_edges.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, f, 4, 9, fp8_row_encode(f, v)));
    out.push_back(f8_encode_case(rule::fp8_row_scale_validity, nm + ".valid_edges.layout_encode", Level::quick, "boundary", f, v));
}

void zero_row_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    // A +0 row of 0x00 and 0x80 codes between nonzero rows: valid, its weights signed zeros.
    auto z = f8_seeded(f, 3, 10, kGoldenSeed ^ (f.format * 13));
    z.scales[1] = 0;
    for (std::uint64_t c = 0; c < 10; ++c) z.codes[10 + c] = c % 3 ? 0x80 : 0x00;
    const Bytes p = fp8_row_encode(f, z);
    out.push_back(f8_payload_case(rule::fp8_row_zero_row, nm + ".signed_zero_codes.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, f, 3, 10, p));
    out.push_back(f8_payload_case(rule::fp8_row_zero_row, nm + ".signed_zero_codes.validate", Level::quick, "boundary",
                                  NINFER_OP_payload_validate, f, 3, 10, p));
    out.push_back(f8_encode_case(rule::fp8_row_zero_row, nm + ".signed_zero_codes.layout_encode", Level::quick, "boundary", f, z));
    // The converse is not required: zero codes under a nonzero multiplier are valid.
    auto c0 = z;
    c0.scales[1] = one(f);
    out.push_back(f8_payload_case(rule::fp8_row_zero_row, nm + ".converse.validate", Level::quick, "boundary",
                                  NINFER_OP_payload_validate, f, 3, 10, fp8_row_encode(f, c0)));
    // Another code in the +0 row: the smallest subnormal, a normal, the largest negative.
    for (const auto &[w, at] : std::vector<std::pair<std::uint8_t, std::uint64_t>>{{0x01, 9}, {0x38, 0}, {0xFE, 5}}) {
        auto b = z;
        b.codes[10 + at] = w;
        const std::string slug = nm + ".code_" + hex(w, 2) + "_in_zero_row";
        if (w == 0x01) f8_payload_triple(out, rule::fp8_row_zero_row, slug, Level::quick, "boundary", f, 3, 10, fp8_row_encode(f, b));
        else out.push_back(f8_payload_case(rule::fp8_row_zero_row, slug + ".validate", Level::quick, "boundary",
                                           NINFER_OP_payload_validate, f, 3, 10, fp8_row_encode(f, b)));
        out.push_back(f8_encode_case(rule::fp8_row_zero_row, slug + ".layout_encode", Level::quick, "boundary", f, b));
    }
}

void reconstruct_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    // Rows: unit; a multiplier with every fraction bit set; the largest finite multiplier (448
    // times it overflows binary32 for BF16: infinity); the smallest subnormal (subnormal
    // binary32 products); a multiplier near 1/448.
    const std::uint16_t scales[] = {one(f), static_cast<std::uint16_t>(is_bf16(f) ? 0x3FFF : 0x3FFF),
                                    static_cast<std::uint16_t>(is_bf16(f) ? 0x7F7F : 0x7BFF), 0x0001,
                                    static_cast<std::uint16_t>(is_bf16(f) ? 0x3B12 : 0x1C92)};
    const auto m = f8_matrix(5, 16, [](std::uint64_t r, std::uint64_t c) {
        const std::uint8_t picks[] = {0x7E, 0xFE, 0x01, 0x81, 0x38, 0xB9, 0x00, 0x80, 0x77, 0x08, 0x07, 0x4F, 0xC3, 0x70, 0x7D, 0x30};
        return picks[(c + r) % 16]; }, [&](std::uint64_t r) { return scales[r]; });
    out.push_back(f8_payload_case(rule::fp8_row_reconstruct, nm + ".edges.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, f, 5, 16, fp8_row_encode(f, m)));
    out.push_back(f8_payload_case(rule::fp8_row_reconstruct, nm + ".seeded_7x33.quant_decode", Level::quick, "boundary",
                                  NINFER_OP_quant_decode, f, 7, 33, fp8_row_encode(f, f8_seeded(f, 7, 33, kGoldenSeed ^ (f.format * 17)))));
}

void size_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    const auto m = f8_seeded(f, 3, 100, kGoldenSeed ^ (f.format * 19));
    const Bytes p = fp8_row_encode(f, m);
    for (const auto &[slug, size] : std::vector<std::pair<std::string, std::size_t>>{
             {"short1", p.size() - 1}, {"long1", p.size() + 1}, {"long2", p.size() + 2}, {"short2", p.size() - 2},
             {"unaligned", 3 * 100 + 2 * 3}, {"empty", 0}}) {
        if (size == p.size()) continue;  // row_interleaved_v1 has no alignment: "unaligned" is its right size
        Bytes q = p;
        q.resize(size, 0);
        out.push_back(f8_payload_case(rule::fp8_row_size, nm + "." + slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 100, q));
        if (slug == "short1")
            out.push_back(f8_payload_case(rule::fp8_row_size, nm + "." + slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 3, 100, q));
    }
    // Shapes: N = 0 or K = 0 (E_SIZE), rank 1 and 3 (E_INVALID_ARGUMENT).
    for (const auto &[n, k] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 4}, {4, 0}}) {
        out.push_back(f8_payload_case(rule::fp8_row_size, nm + "." + shape_slug(n, k) + ".validate", Level::quick, "boundary",
                                      NINFER_OP_payload_validate, f, n, k, Bytes(8, 0)));
        out.push_back(f8_encode_case(rule::fp8_row_size, nm + "." + shape_slug(n, k) + ".layout_encode", Level::quick, "boundary", f,
                                     f8_matrix(n, k, [](std::uint64_t, std::uint64_t) -> std::uint8_t { return 0; },
                                               [](std::uint64_t) -> std::uint16_t { return 0; })));
    }
    for (const auto &shape : std::vector<std::vector<std::uint64_t>>{{300}, {1, 3, 100}}) {
        Case c = f8_payload_case(rule::fp8_row_size, nm + ".rank" + std::to_string(shape.size()) + ".validate", Level::quick, "boundary",
                                 NINFER_OP_payload_validate, f, 3, 100, p);
        c.shape = shape;
        c.expect = {};
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        out.push_back(std::move(c));
    }
    // layout_encode planes of the wrong size.
    auto bad = m;
    bad.codes.push_back(0);
    out.push_back(f8_encode_case(rule::fp8_row_size, nm + ".codes_long1.layout_encode", Level::quick, "boundary", f, bad));
    bad = m;
    bad.scales.pop_back();
    out.push_back(f8_encode_case(rule::fp8_row_size, nm + ".scales_short1.layout_encode", Level::quick, "boundary", f, bad));
}

void boundary_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::string nm = fp8_name(f);
    const auto m = f8_seeded(f, 4, 20, kGoldenSeed ^ (f.format * 23));
    const Bytes p = fp8_row_encode(f, m);
    Bytes size = p;
    size.push_back(0);
    f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".size", Level::quick, "boundary", f, 4, 20, size);
    auto code = m;
    code.codes[45] = 0xFF;
    f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".illegal_code", Level::quick, "boundary", f, 4, 20, fp8_row_encode(f, code));
    f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".invalid_scale", Level::quick, "boundary", f, 4, 20, with_scale(f, m, 3, 0x8000));
    auto zero = m;
    zero.scales[2] = 0;
    f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".zero_scale_codes", Level::quick, "boundary", f, 4, 20, fp8_row_encode(f, zero));
    if (f.layout == NINFER_LAYOUT_row_scale_v1) {
        Bytes gap = p;
        gap[4 * 20 + 7] = 0x10;
        f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".nonzero_gap", Level::quick, "boundary", f, 4, 20, gap);
    }
    // A valid payload decodes the same way through both decoding ops.
    f8_payload_triple(out, rule::fp8_row_decode_boundary, nm + ".valid", Level::quick, "boundary", f, 4, 20, p);
}

std::vector<Case> fp8_rows_golden() {
    std::vector<Case> out;
    for (const auto &f : fp8_row_formats()) {
        code_cases(f, out);
        scale_cases(f, out);
        zero_row_cases(f, out);
        reconstruct_cases(f, out);
        size_cases(f, out);
        boundary_cases(f, out);
    }
    return out;
}

std::vector<Case> fp8_rows_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x4638u);
    const int count = level == Level::exhaustive ? 8 : 3;
    const std::string src = "random seed=" + std::to_string(seed);
    for (const auto &f : fp8_row_formats())
        for (int i = 0; i < count; ++i) {
            const std::uint64_t n = 1 + rng() % 9, k = 1 + rng() % 300;
            auto m = f8_seeded(f, n, k, rng());
            // Some multipliers anywhere in the valid range (overflowing and subnormal products).
            for (auto &s : m.scales)
                if (rng() % 4 == 0) s = static_cast<std::uint16_t>(1 + rng() % (is_bf16(f) ? 0x7F7F : 0x7BFF));
            out.push_back(f8_payload_case(rule::fp8_row_reconstruct, fp8_name(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                          level, src, NINFER_OP_quant_decode, f, n, k, fp8_row_encode(f, m)));
        }
    return out;
}

}  // namespace

Suite fp8_rows_suite() {
    return {"scaled.fp8_rows",
            "fp8_e4m3fn_row_bf16 and fp8_e4m3fn_row_fp16 words (tensor-formats.txt 3.4): code validity, multiplier "
            "validity, +0 rows, binary32(c32 * s32), payload sizes, the decode boundary (payload_validate, "
            "layout_decode, quant_decode, layout_encode)",
            cached_golden(fp8_rows_golden), random_of(fp8_rows_random)};
}

}  // namespace ninfer::suites::scaled
