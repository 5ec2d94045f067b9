// SPDX-License-Identifier: Apache-2.0
// Suite linear.scaled: `linear` over nvfp4 (block_scale_k16_m128x4_v1; W_hat the exact rational
// e2m1 * e4m3 / d_w) and the FP8 row formats in both layouts (row_scale_v1, row_interleaved_v1;
// W_hat = c * s exactly), every profile: +0 block scales and +0 rows, rescued multipliers, two
// nvfp4 divisors (N = 256), cancellation, wide range, infinities and NaN.
#include "builders.hpp"

namespace ninfer::suites::linear {

namespace {

std::vector<std::uint32_t> formats() {
    std::vector<std::uint32_t> out;
    for (const auto &f : kScaledFormats) out.push_back(f.id);
    return out;
}

std::vector<Case> golden() {
    std::vector<Case> out;
    Rng rng(kGoldenSeed ^ 0x5c);
    for (const auto f : formats()) common_cases(out, f, rng);
    // nvfp4 with two divisors: rows 0..127 divide by d_0, rows 128..255 by d_1 (non-dyadic results).
    for (const auto p : profiles_for(NINFER_FORMAT_nvfp4)) {
        WeightStyle s;
        s.zero_groups = true;
        out.push_back(linear_case(criterion_rule(p), "two_divisors", Level::quick, "seeded",
                                  call_of(NINFER_FORMAT_nvfp4, p, 256, 64, 1), weight_payload(NINFER_FORMAT_nvfp4, 256, 64, rng, s, 2),
                                  random_activation(NINFER_FORMAT_fp32, 1, 64, rng)));
    }
    // Batches (M > 1) from their own generator: the cases above keep their words.
    Rng batch(kGoldenSeed ^ 0x5cb);
    batch_cases(out, formats(), batch);
    return out;
}

std::vector<Case> random(std::uint64_t seed, Level level) {
    return random_cases(formats(), {NINFER_FORMAT_nvfp4, NINFER_FORMAT_fp8_e4m3fn_row_bf16}, seed, level, "scaled");
}

}  // namespace

Suite scaled_suite() {
    return {"linear.scaled",
            "linear over nvfp4 (exact e2m1 * e4m3 / d_w, one or two divisors) and the FP8 row formats in both layouts, "
            "every profile: +0 blocks and rows, rescued multipliers, cancellation, wide range, infinities and NaN",
            cached(golden), seeded(random)};
}

}  // namespace ninfer::suites::linear
