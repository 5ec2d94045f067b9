// SPDX-License-Identifier: Apache-2.0
// Suite linear.grouped: `linear` over the grouped formats (row_split_k128_v1) with the Section 6.2
// binary32 reconstruction as W_hat, every profile: partial last groups (K % G != 0), all-zero
// groups under a +0 scale, rescued 0x0001 scales, cancellation, wide range, infinities and NaN.
#include "builders.hpp"

namespace ninfer::suites::linear {

namespace {

std::vector<std::uint32_t> formats() {
    std::vector<std::uint32_t> out;
    for (const auto &f : kGroupedFormats) out.push_back(f.id);
    return out;
}

std::vector<Case> golden() {
    std::vector<Case> out;
    Rng rng(kGoldenSeed ^ 0x9e);
    for (const auto f : formats()) common_cases(out, f, rng);
    // Batches (M > 1) from their own generator: the cases above keep their words.
    Rng batch(kGoldenSeed ^ 0x9eb);
    batch_cases(out, formats(), batch);
    return out;
}

std::vector<Case> random(std::uint64_t seed, Level level) {
    return random_cases(formats(), {NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_q8_g32_fp16}, seed, level, "grouped");
}

}  // namespace

Suite grouped_suite() {
    return {"linear.grouped",
            "linear over the grouped formats (row_split_k128_v1, W_hat the Section 6.2 binary32 reconstruction), every "
            "profile: partial groups, all-zero groups, rescued scales, cancellation, wide range, infinities and NaN",
            cached(golden), seeded(random)};
}

}  // namespace ninfer::suites::linear
