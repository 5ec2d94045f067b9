// SPDX-License-Identifier: Apache-2.0
// Suite linear.direct: `linear` over the direct float word weights fp32, bf16 and fp16
// (contiguous_le_v1), every profile: the shared cases (cases.cpp) and the hand-made edges of each
// criterion: the f32_sequential absorption that the exact sum does not have, an all -0 row, ties
// of the final rounding to bf16 and fp16 and results near them, products that underflow binary32, partial sums that may
// overflow (S >= 2^128 - 2^103), inf * 0, +inf with -inf, a NaN weight.
#include "builders.hpp"

namespace ninfer::suites::linear {

namespace {

constexpr std::uint32_t kF32 = NINFER_FORMAT_fp32;

Bytes f32(const std::vector<std::uint64_t> &w) { return le_words(w, 4); }

void edge_cases(std::vector<Case> &out) {
    const auto one = 0x3F800000ull;
    for (const auto p : profiles_for(kF32)) {
        const auto rule = criterion_rule(p);
        // 2^24 + 1 + 1: the sequential sum absorbs both ones (ties to even), the exact sum does not.
        out.push_back(linear_case(rule, "absorption", Level::quick, "adversarial", call_of(kF32, p, 1, 3, 1),
                                  f32({one, one, one}), f32({0x4B800000, one, one})));
        // Every product -0: 0 + (-0) = +0 for f32_sequential; 0 for the others.
        out.push_back(linear_case(rule, "negative_zero_row", Level::quick, "signed zeros", call_of(kF32, p, 1, 2, 1),
                                  f32({0x80000000, 0x80000000}), f32({one, one})));
        // 1 + 2^-8 and 1 + 3 * 2^-8: ties of bf16 (exact in fp32 and fp16).
        out.push_back(linear_case(rule, "tie_bf16", Level::quick, "ties", call_of(kF32, p, 2, 2, 1),
                                  f32({one, 0x3B800000, one, 0x3C400000}), f32({one, one})));
        // Products below binary32's subnormals: 2^-100 * 2^-60 and a subnormal product sum.
        out.push_back(linear_case(rule, "underflow", Level::quick, "boundary", call_of(kF32, p, 1, 3, 1),
                                  f32({0x0D800000, 0x0D800000, 0x00000001}), f32({0x21800000, 0xA1800000, one})));
        // Large products: S >= 2^128 - 2^103 (partial sums may overflow), exact sum finite.
        out.push_back(linear_case(rule, "overflow_s", Level::quick, "boundary", call_of(kF32, p, 1, 2, 1),
                                  f32({0x7F7FFFFF, 0x7F7FFFFF}), f32({0x40000000, 0xC0000000})));
        // A product just below binary32's largest finite: the correctly rounded word is finite.
        out.push_back(linear_case(rule, "near_max", Level::quick, "boundary", call_of(kF32, p, 1, 2, 1),
                                  f32({0x7F000000, 0x7E800000}), f32({0x3FFFFFFF, one})));
        // Non-finite: inf * 0, +inf with -inf, a NaN weight.
        out.push_back(linear_case(rule::linear_nonfinite, "inf_times_zero", Level::quick, "special values",
                                  call_of(kF32, p, 2, 2, 1), f32({0x00000000, one, 0x80000000, 0x00000000}), f32({0x7F800000, one})));
        out.push_back(linear_case(rule::linear_nonfinite, "inf_minus_inf", Level::quick, "special values",
                                  call_of(kF32, p, 1, 2, 1, NINFER_FORMAT_fp16), f32({one, one}), le_words({0x7C00, 0xFC00}, 2)));
        out.push_back(linear_case(rule::linear_nonfinite, "nan_weight", Level::quick, "special values",
                                  call_of(kF32, p, 2, 2, 1), f32({0x7FC00001, one, one, 0xFF800000}), f32({one, one})));
    }
    // Subnormal weights of each 16-bit weight format (fp32's are in "underflow" above): their
    // exact values 2^-24 .. (fp16) and 2^-133 .. (bf16) count; a decode that flushes them does not.
    for (const auto &[f, words] : {std::pair{NINFER_FORMAT_fp16, std::vector<std::uint64_t>{0x0001, 0x03FF, 0x8200}},
                                   std::pair{NINFER_FORMAT_bf16, std::vector<std::uint64_t>{0x0001, 0x007F, 0x8040}}})
        for (const auto p : profiles_for(f))
            out.push_back(linear_case(criterion_rule(p), "subnormal_weights", Level::quick, "boundary", call_of(f, p, 1, 3, 1),
                                      le_words(words, 2), f32({0x4B000000, 0x3F800000, 0x3F800000})));
    // correctly_rounded into bf16 and fp16: the ties above, rounded once.
    for (const auto o : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
        out.push_back(linear_case(criterion_rule(NINFER_PROFILE_correctly_rounded), "tie_out_" + format_label(o), Level::quick,
                                  "ties", call_of(kF32, NINFER_PROFILE_correctly_rounded, 2, 2, 1, kF32, o),
                                  f32({one, 0x3B800000, one, 0x3C400000}), f32({one, one})));
    // ... and within half a binary32 ulp of an output midpoint: 1 + h +- 2^-40, h half an output
    // ulp at 1 (bf16 2^-8, fp16 2^-11). Rounded once: 1 + 2h and 1; through binary32 first, both
    // are the tie 1 + h, which nearest-even takes to 1 (a double rounding).
    for (const auto &[o, half] : {std::pair{NINFER_FORMAT_bf16, 0x3B800000ull}, std::pair{NINFER_FORMAT_fp16, 0x3A000000ull}})
        out.push_back(linear_case(criterion_rule(NINFER_PROFILE_correctly_rounded), "near_tie_out_" + format_label(o),
                                  Level::quick, "ties", call_of(kF32, NINFER_PROFILE_correctly_rounded, 2, 3, 1, kF32, o),
                                  f32({one, half, 0x2B800000, one, half, 0xAB800000}), f32({one, one, one})));
}

std::vector<Case> golden() {
    std::vector<Case> out;
    Rng rng(kGoldenSeed ^ 0xd1);
    for (const auto f : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}) common_cases(out, f, rng);
    edge_cases(out);
    // Batches (M > 1) from their own generator: the cases above keep their words.
    Rng batch(kGoldenSeed ^ 0xd1b);
    batch_cases(out, {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}, batch);
    return out;
}

std::vector<Case> random(std::uint64_t seed, Level level) {
    return random_cases({NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}, {NINFER_FORMAT_bf16}, seed, level, "direct");
}

}  // namespace

Suite direct_suite() {
    return {"linear.direct",
            "linear over fp32, bf16 and fp16 weights (contiguous_le_v1), every profile: seeded products, cancellation, "
            "wide range, ties, underflow, overflowing partial sums, infinities and NaN",
            cached(golden), seeded(random)};
}

}  // namespace ninfer::suites::linear
