// SPDX-License-Identifier: Apache-2.0
// Suite scaled.fp8_row_maxabs: the fp8_row_maxabs producer (tensor-formats.txt Section 3.4's
// paragraph, Section 8) for both FP8 row formats, each step with rows on which a wrong
// implementation differs: BF16 inputs, the scale's rounding, the rescue, refusals, the
// reciprocal multiply, the clamp, E4M3 ties to even, all-zero rows, chunking, bit exactness
// (quant_encode, method fp8_row_maxabs, format_in fp32 / bf16 / fp16).
#include <algorithm>

#include "builders.hpp"

namespace ninfer::suites::scaled {

namespace {

bool is_bf16(const Fp8RowFormat &f) { return f.scale_format == NINFER_FORMAT_bf16; }

/// quant_encode of rows of equal length (K = the first row's length).
Case rows_case(RuleId r, const std::string &slug, Level level, const std::string &source, const Fp8RowFormat &f,
               std::uint32_t source_format, const std::vector<U64> &rows) {
    U64 words;
    for (const auto &row : rows) words.insert(words.end(), row.begin(), row.end());
    return maxabs_case(std::string(r), fp8_name(f) + "." + slug, level, source, f, source_format, rows.size(),
                       rows.empty() ? 0 : rows.front().size(), words);
}

/// A BF16 row whose rescued multiplier has an infinite reciprocal meets the open reading R2
/// (fp8_row_maxabs.rescue): the encoded bytes (choice "encode", the case's expected outcome) or
/// NInfer's producer's refusal of the non-finite reciprocal (choice "refuse", NINFER_E_NONFINITE).
Case tiny_scale(Case c) {
    add_alternative(c, std::string(rule::fp8_row_maxabs_rescue), "encode", {"refuse", NINFER_E_NONFINITE, 0, {}});
    return c;
}

/// A finite fp32 source above BF16's largest finite meets the open reading of
/// fp8_row_maxabs.nonfinite: refused as a non-finite input (the expected outcome) or as an
/// overflowing scale (choice "scale_overflow").
Case bf16_overflow(Case c) {
    add_alternative(c, std::string(rule::fp8_row_maxabs_nonfinite), "nonfinite", {"scale_overflow", NINFER_E_SCALE_OVERFLOW, 0, {}});
    return c;
}

/// A row of finite fp32 words of which one rounds to a BF16 infinity (magnitude 0x7F7F8000 and up).
bool finite_above_bf16(const U64 &row) {
    const auto finite = [](std::uint64_t w) { return (w & 0x7F800000u) != 0x7F800000u; };
    return std::all_of(row.begin(), row.end(), finite) &&
           std::any_of(row.begin(), row.end(), [](std::uint64_t w) { return (w & 0x7FFFFFFFu) >= 0x7F7F8000u; });
}

/// The scale word a truncating conversion of binary32(amax / 448) would give (normal range).
std::uint32_t truncated_scale(const Fp8RowFormat &f, std::uint32_t s32) {
    if (is_bf16(f)) return s32 >> 16;
    const int e = static_cast<int>((s32 >> 23) & 0xFF) - 127 + 15;
    return e >= 1 && e <= 30 ? static_cast<std::uint32_t>(e) << 10 | ((s32 >> 13) & 0x3FF) : 0xFFFFFFFFu;
}

/// Seeded BF16 words of one magnitude band (exponent 2^lo .. 2^hi), random sign and fraction.
U64 seeded_bf16_row(std::mt19937_64 &rng, std::uint64_t k, int lo, int hi) {
    U64 row;
    for (std::uint64_t i = 0; i < k; ++i) {
        const std::uint64_t r = rng();
        const auto e = static_cast<std::uint64_t>(127 + lo + static_cast<int>(r % static_cast<std::uint64_t>(hi - lo + 1)));
        row.push_back(((r >> 8) & 1) << 15 | e << 7 | ((r >> 9) & 0x7F));
    }
    return row;
}

/// Seeded fp32 words with full fractions (their BF16 rounding moves most of them).
U64 seeded_f32_row(std::mt19937_64 &rng, std::uint64_t k, int lo, int hi) {
    U64 row;
    for (std::uint64_t i = 0; i < k; ++i) {
        const std::uint64_t r = rng();
        const auto e = static_cast<std::uint64_t>(127 + lo + static_cast<int>(r % static_cast<std::uint64_t>(hi - lo + 1)));
        row.push_back(((r >> 8) & 1) << 31 | e << 23 | ((r >> 9) & 0x7FFFFF));
    }
    return row;
}

/// Seeded binary16 words (normal), random sign and fraction.
U64 seeded_f16_row(std::mt19937_64 &rng, std::uint64_t k, int lo, int hi) {
    U64 row;
    for (std::uint64_t i = 0; i < k; ++i) {
        const std::uint64_t r = rng();
        const auto e = static_cast<std::uint64_t>(15 + lo + static_cast<int>(r % static_cast<std::uint64_t>(hi - lo + 1)));
        row.push_back(((r >> 8) & 1) << 15 | e << 10 | ((r >> 9) & 0x3FF));
    }
    return row;
}

/// The source formats quant_encode takes (format_in).
constexpr auto F32 = NINFER_FORMAT_fp32, BF16 = NINFER_FORMAT_bf16, F16 = NINFER_FORMAT_fp16;

/// BF16 inputs: fp32 and fp16 sources whose BF16 rounding moves the maximum and codes.
void bf16_inputs_cases(const Fp8RowFormat &f, std::mt19937_64 &rng, std::vector<Case> &out) {
    // 1.00586 (0x3F80C000) rounds up to BF16 1.0078125: the maximum itself changes.
    out.push_back(rows_case(rule::fp8_row_maxabs_bf16_inputs, "fp32_max_rounds_up", Level::quick, "boundary", f, F32,
                            {{0x3F80C000u, 0x3E99999Au, 0x3F000000u, 0xBF40F000u}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_bf16_inputs, "fp32_seeded", Level::quick, "boundary", f, F32,
                            {seeded_f32_row(rng, 32, -3, 2), seeded_f32_row(rng, 32, -9, -6)}));
    // binary16 1 + 2^-10 and 0.99951 round to BF16 1.0, 255.875 to 256; a subnormal stays exact.
    out.push_back(rows_case(rule::fp8_row_maxabs_bf16_inputs, "fp16_rounded", Level::quick, "boundary", f, F16,
                            {{0x3C01, 0x3BFF, 0xBC03, 0x0001}, {0x5BFF, 0x5A01, 0xD803, 0x3C01}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_bf16_inputs, "fp16_seeded", Level::quick, "boundary", f, F16,
                            {seeded_f16_row(rng, 32, -4, 3)}));
}

/// Scale rounding: maxima whose binary32(max / 448) lies above the halfway point of the
/// scale type's grid (truncation differs), and below it (ties are impossible: suites/SCALED.md).
void scale_rounding_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    int up = 0, down = 0;
    for (std::uint64_t w = 0x3F80; w < 0x4000 && (up < 3 || down < 1); ++w) {
        const U64 row{w, 0x3F00, 0xBE80, 0x3EAB};
        const auto e = fp8_row_maxabs(f, BF16, row);
        if (e.status != NINFER_OK) continue;
        const bool differs = truncated_scale(f, e.scale32) != e.scale;
        if ((differs && up < 3) || (!differs && down < 1 && (e.scale32 & (is_bf16(f) ? 0xFFFFu : 0x1FFFu)) != 0)) {
            out.push_back(rows_case(rule::fp8_row_maxabs_scale_rounding, std::string(differs ? "rounds_up_" : "rounds_down_") + hex(w, 4),
                                    Level::quick, "boundary", f, BF16, {row}));
            (differs ? up : down) += 1;
        }
    }
}

/// Rescue: a positive maximum whose scale rounds to zero.
void rescue_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    if (is_bf16(f)) {
        // amax 2^-133 and 2^-126: BF16 scales round to +0, rescued as 0x0001; its reciprocal is
        // infinite (oracle/SCALED.md R2).
        out.push_back(tiny_scale(rows_case(rule::fp8_row_maxabs_rescue, "bf16_smallest_subnormal", Level::quick, "suite reading", f,
                                           BF16, {{0x0001, 0x8000, 0x8001}})));
        out.push_back(tiny_scale(rows_case(rule::fp8_row_maxabs_rescue, "bf16_amax_2^-126", Level::quick, "suite reading", f, BF16,
                                           {{0x0080, 0x0001, 0x8040}})));
        // The row of issue 21: [2^-125, 2^-126, 0, -0, -2^-130, 2^-133] encodes as 7e 7e 00 80 fe 7e
        // with multiplier 0x0001; NInfer's producer refuses it.
        out.push_back(tiny_scale(rows_case(rule::fp8_row_maxabs_rescue, "bf16_amax_2^-125", Level::quick, "suite reading", f, BF16,
                                           {{0x0100, 0x0080, 0x0000, 0x8000, 0x8008, 0x0001}})));
    } else {
        // amax 2^-20: binary32 0x31124925 rounds to binary16 +0, rescued as 0x0001 (2^-24).
        out.push_back(rows_case(rule::fp8_row_maxabs_rescue, "fp16_2^-20", Level::quick, "boundary", f, F16, {{0x0010, 0x8008, 0x0000}}));
        out.push_back(rows_case(rule::fp8_row_maxabs_rescue, "fp32_2^-18", Level::quick, "boundary", f, F32,
                                {{0x36800000u, 0xB6000000u, 0x35800000u, 0x00000000u}}));
    }
}

/// Scale overflow: binary16 multipliers overflow above 65504 * 448; BF16 ones never do.
void scale_overflow_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    if (is_bf16(f)) {
        out.push_back(rows_case(rule::fp8_row_maxabs_scale_overflow, "bf16_largest_finite_input", Level::quick, "boundary", f, BF16,
                                {{0x7F7F, 0xFF7F, 0x3F80}}));
    } else {
        out.push_back(rows_case(rule::fp8_row_maxabs_scale_overflow, "amax_2^25", Level::quick, "boundary", f, F32, {{0x4C000000u, 0x3F800000u}}));
        out.push_back(rows_case(rule::fp8_row_maxabs_scale_overflow, "amax_0x4be0", Level::quick, "boundary", f, BF16, {{0x4BE0, 0x3F80}}));
        out.push_back(rows_case(rule::fp8_row_maxabs_scale_overflow, "amax_0x4bdf_finite", Level::quick, "boundary", f, BF16, {{0x4BDF, 0x3F80}}));
        out.push_back(rows_case(rule::fp8_row_maxabs_scale_overflow, "second_row_overflows", Level::quick, "boundary", f, BF16,
                                {{0x3F80, 0x4000}, {0x4BE0, 0x3F80}}));
    }
}

/// Non-finite inputs refuse the call: Inf, NaN, an fp32 beyond BF16's largest finite.
void nonfinite_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    const std::vector<std::pair<std::string, std::pair<std::uint32_t, U64>>> bad = {
        {"fp32_inf", {F32, {0x3F800000u, 0x7F800000u}}},   {"fp32_neg_inf", {F32, {0xFF800000u, 0x3F800000u}}},
        {"fp32_nan", {F32, {0x3F800000u, 0x7FC00000u}}},   {"fp32_snan", {F32, {0xFF800001u, 0x3F800000u}}},
        {"bf16_inf", {BF16, {0x3F80, 0x7F80}}},             {"bf16_nan", {BF16, {0xFFC1, 0x3F80}}},
        {"fp16_inf", {F16, {0xFC00, 0x3C00}}},              {"fp16_nan", {F16, {0x3C00, 0x7E00}}},
        {"fp32_largest_finite", {F32, {0x7F7FFFFFu, 0u}}},  {"fp32_rounds_to_bf16_inf", {F32, {0x7F7F8000u, 0u}}},
    };
    for (const auto &[slug, v] : bad) {
        Case c = rows_case(rule::fp8_row_maxabs_nonfinite, slug, Level::quick, "boundary", f, v.first, {v.second});
        out.push_back(v.first == F32 && finite_above_bf16(v.second) ? bf16_overflow(std::move(c)) : std::move(c));
    }
    // The largest fp32 below BF16's rounding boundary has a finite BF16 input (binary16 scales then overflow).
    out.push_back(rows_case(rule::fp8_row_maxabs_nonfinite, "fp32_0x7f7f7fff_bf16_finite", Level::quick, "boundary", f, F32,
                            {{0x7F7F7FFFu, 0x3F800000u}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_nonfinite, "third_row_nan", Level::quick, "boundary", f, BF16,
                            {{0x3F80, 0x4000}, {0x3F00, 0x3E80}, {0x3F80, 0x7FC0}}));
}

/// Reciprocal multiply: seeded rows with non-dyadic scales (x * round(1/s) and x / s
/// differ on some codes).
void reciprocal_multiply_cases(const Fp8RowFormat &f, std::mt19937_64 &rng, std::vector<Case> &out) {
    out.push_back(rows_case(rule::fp8_row_maxabs_reciprocal_multiply, "seeded_4x64", Level::quick, "boundary", f, BF16,
                            {seeded_bf16_row(rng, 64, -2, 3), seeded_bf16_row(rng, 64, -8, -4), seeded_bf16_row(rng, 64, 5, 9),
                             seeded_bf16_row(rng, 64, -1, 0)}));
    // Rows where x / s is an exact E4M3 tie (6.5 * 2^-9 or 2.5 * 2^-9, to even) while
    // x * binary32(1 / s) lies just above it (found by a search over BF16 maxima and inputs; the
    // same rows serve both scale types).
    out.push_back(rows_case(rule::fp8_row_maxabs_reciprocal_multiply, "reciprocal_off_a_tie", Level::quick, "boundary", f, BF16,
                            {{0x3FB6, 0x3829}, {0x3FD2, 0x3796}, {0x4036, 0x38A9}}));
    // 100, 7, -1/3 (oracle/tests: scale 0x3325 for binary16).
    out.push_back(rows_case(rule::fp8_row_maxabs_reciprocal_multiply, "100_7_third", Level::quick, "boundary", f, F32,
                            {{0x42C80000u, 0x40E00000u, 0xBEAAAAABu}}));
}

/// Clamp: products beyond 448 after the reciprocal's rounding.
void clamp_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    // [1, -2, 0.5, 0.3]: -2 * r = -448.9 clamps to -448 (0xFE).
    out.push_back(rows_case(rule::fp8_row_maxabs_clamp, "minus2_448.9", Level::quick, "boundary", f, F32,
                            {{0x3F800000u, 0xC0000000u, 0x3F000000u, 0x3E99999Au}}));
    if (is_bf16(f)) {
        // The BF16 rescue: an infinite reciprocal, every nonzero product infinite -> +-448.
        out.push_back(tiny_scale(rows_case(rule::fp8_row_maxabs_clamp, "infinite_reciprocal", Level::quick, "suite reading", f, BF16,
                                           {{0x0001, 0x8001, 0x0000}})));
    } else {
        // amax 2^-14: binary32 2.2857 * 2^-24 rounds to the subnormal 2 * 2^-24, reciprocal 2^23,
        // product 512 -> 448; without the clamp 512 is no E4M3FN value.
        out.push_back(rows_case(rule::fp8_row_maxabs_clamp, "subnormal_scale_512", Level::quick, "boundary", f, BF16,
                                {{0x3880, 0xB880, 0x3800, 0x3000}}));
        out.push_back(rows_case(rule::fp8_row_maxabs_clamp, "subnormal_scale_fp16_source", Level::quick, "boundary", f, F16,
                                {{0x0400, 0x8400, 0x0300, 0x0001}}));
    }
}

/// E4M3 ties to even with a unit scale (amax 448): 1.0625 -> 1.0, 1.1875 -> 1.25,
/// negatives alike, 136 between 128 and 144 -> 128, 2^-10 between 0 and 2^-9 -> 0,
/// 1.5 * 2^-9 between 2^-9 and 2^-8 -> 2^-8, 3.375 between 3.25 and 3.5 -> 3.5.
void ties_to_even_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    out.push_back(rows_case(rule::fp8_row_maxabs_ties_to_even, "unit_scale", Level::quick, "boundary", f, BF16,
                            {{0x43E0, 0x3F88, 0x3F98, 0xBF88, 0xBF98, 0x4308, 0x3A80, 0x3B40, 0x4058, 0xC058}}));
}

/// All-zero rows: +0 codes and multiplier, from +0 and -0 inputs of every source type.
void zero_row_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    out.push_back(rows_case(rule::fp8_row_maxabs_zero_row, "bf16_signed_zeros", Level::quick, "boundary", f, BF16,
                            {{0x8000, 0x0000, 0x8000}, {0x3F80, 0x8000, 0x4000}, {0x0000, 0x0000, 0x0000}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_zero_row, "fp32_negative_zeros", Level::quick, "boundary", f, F32,
                            {{0x80000000u, 0x80000000u}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_zero_row, "fp16_signed_zeros", Level::quick, "boundary", f, F16, {{0x8000, 0x0000}}));
}

/// Chunking: 37 rows of different maxima (2^-18 .. 2^18) in one call.
void chunking_cases(const Fp8RowFormat &f, std::mt19937_64 &rng, std::vector<Case> &out) {
    std::vector<U64> rows;
    for (int r = 0; r < 37; ++r) rows.push_back(seeded_bf16_row(rng, 16, r - 20, r - 17));
    out.push_back(rows_case(rule::fp8_row_maxabs_chunking, "37_rows", Level::quick, "boundary", f, BF16, rows));
}

/// Bit exactness: worked rows, every source type.
void bit_exact_cases(const Fp8RowFormat &f, std::mt19937_64 &rng, std::vector<Case> &out) {
    out.push_back(rows_case(rule::fp8_row_maxabs_bit_exact, "worked_fp32", Level::quick, "oracle/tests", f, F32,
                            {{0x3F800000u, 0xC0000000u, 0x3F000000u, 0x3E99999Au}, {0x42C80000u, 0x40E00000u, 0xBEAAAAABu, 0u}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_bit_exact, "reciprocal_off_a_tie", Level::quick, "boundary", f, BF16,
                            {{0x3FC4, 0x3836, 0x3F80, 0xBF00}, {0x4052, 0x3816, 0xC000, 0x3E00}}));
    out.push_back(rows_case(rule::fp8_row_maxabs_bit_exact, "seeded_fp32_3x48", Level::quick, "boundary", f, F32,
                            {seeded_f32_row(rng, 48, -6, 6), seeded_f32_row(rng, 48, 10, 14), seeded_f32_row(rng, 48, -30, -20)}));
}

/// Bit exactness, call refusals: a source one word short, a method of another family (an
/// unknown method id has no name in the vector files: not a golden case).
void call_refusal_cases(const Fp8RowFormat &f, std::vector<Case> &out) {
    Case c = rows_case(rule::fp8_row_maxabs_bit_exact, "source_short1", Level::quick, "boundary", f, BF16, {{0x3F80, 0x4000}});
    c.input(NINFER_PLANE_SOURCE).resize(2);
    c.expect = {};
    c.expect.status = NINFER_E_INVALID_ARGUMENT;
    out.push_back(std::move(c));
    Case m = rows_case(rule::fp8_row_maxabs_bit_exact, "method_grouped_absmax", Level::quick, "boundary", f, BF16, {{0x3F80, 0x4000}});
    m.method = NINFER_ENCODER_grouped_absmax;
    m.expect = {};
    m.expect.status = NINFER_E_METHOD;
    out.push_back(std::move(m));
}

/// The golden cases of one FP8 row format, step by step of the producer; the seeded steps draw
/// from one generator in this order.
void cases_of(const Fp8RowFormat &f, std::vector<Case> &out) {
    std::mt19937_64 rng(kGoldenSeed ^ f.format);
    bf16_inputs_cases(f, rng, out);
    scale_rounding_cases(f, out);
    rescue_cases(f, out);
    scale_overflow_cases(f, out);
    nonfinite_cases(f, out);
    reciprocal_multiply_cases(f, rng, out);
    clamp_cases(f, out);
    ties_to_even_cases(f, out);
    zero_row_cases(f, out);
    chunking_cases(f, rng, out);
    bit_exact_cases(f, rng, out);
    call_refusal_cases(f, out);
}

std::vector<Case> maxabs_golden() {
    std::vector<Case> out;
    for (const auto &f : fp8_row_formats()) cases_of(f, out);
    return out;
}

std::vector<Case> maxabs_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x4d41u);
    const int count = level == Level::exhaustive ? 8 : 3;
    const std::string src = "random seed=" + std::to_string(seed);
    for (const auto &f : fp8_row_formats())
        for (int i = 0; i < count; ++i)
            for (const auto sf : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}) {
                const std::uint64_t n = 1 + rng() % 8, k = 1 + rng() % 200;
                std::vector<U64> rows;
                for (std::uint64_t r = 0; r < n; ++r) {
                    const int lo = static_cast<int>(rng() % 20) - 12;
                    rows.push_back(sf == NINFER_FORMAT_fp32   ? seeded_f32_row(rng, k, lo, lo + 4)
                                   : sf == NINFER_FORMAT_bf16 ? seeded_bf16_row(rng, k, lo, lo + 4)
                                                              : seeded_f16_row(rng, k, lo / 2, lo / 2 + 3));
                }
                out.push_back(rows_case(rule::fp8_row_maxabs_bit_exact,
                                        "random_" + std::to_string(i) + "_" + std::string(format_name(sf)) + "_" + shape_slug(n, k), level,
                                        src, f, sf, rows));
            }
    return out;
}

}  // namespace

Suite maxabs_suite() {
    return {"scaled.fp8_row_maxabs",
            "fp8_row_maxabs (tensor-formats.txt 3.4, 8) for both FP8 row formats: BF16 inputs, scale rounding, rescue, "
            "refusals, reciprocal multiply, clamp, ties to even, all-zero rows, chunking, bit exactness (quant_encode)",
            cached_golden(maxabs_golden), random_of(maxabs_random)};
}

}  // namespace ninfer::suites::scaled
