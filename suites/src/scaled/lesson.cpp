// SPDX-License-Identifier: Apache-2.0
// Suite lesson.nvfp4_two_level: NVIDIA's two-level NVFP4 recipe (number-formats-lesson.txt
// Example 15; oracle/SCALED.md R5) as the encoder profile nvfp4_two_level: quant_encode of fp32
// sources into a valid nvfp4 payload with one divisor (d_w = binary32(2688 / amax)).
#include "builders.hpp"

namespace ninfer::suites::scaled {

namespace {

/// Lesson Examples 14 and 15: the 32 inputs of `new Random(3)`, 32 x (float) nextGaussian(), as
/// binary32 words (the oracle's tests reproduce the lesson's printed outputs from them).
constexpr std::uint32_t kLessonInputs[32] = {
    0x3E1BEF37u, 0xBE90C354u, 0xBF9554BFu, 0x3F2F9AE0u, 0x3DDB93D9u, 0xBF634343u, 0xBFAECEE0u, 0xC0068A14u,
    0xBF07C324u, 0xBF525357u, 0xBCA0BC3Eu, 0x3F317B04u, 0x3F7B32BCu, 0x3DB7F733u, 0x3EEA5F51u, 0xBFC904E2u,
    0x3D0408C3u, 0x3D9F98D8u, 0xBF55D6B7u, 0xBF9A60A6u, 0xBE5E4897u, 0xBF811A12u, 0x3FD38929u, 0xBE568FF1u,
    0xBFA0A717u, 0xBE3CBEBFu, 0xBFE9E51Eu, 0x3C194A33u, 0x4076ADDAu, 0xBF141801u, 0xBF9221A6u, 0xBF9FF8FEu};

}  // namespace

/// quant_encode by nvfp4_two_level of binary32 words [n, k]: the oracle's payload or refusal.
Case two_level_case(const std::string &slug, Level level, const std::string &source, std::uint64_t n, std::uint64_t k, const U32 &x) {
    Case c = nv_call(rule::lesson_nvfp4_two_level, slug, level, source, NINFER_OP_quant_encode, n, k);
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_ENCODER_nvfp4_two_level;
    c.input(NINFER_PLANE_SOURCE) = le32(x);
    if (!block_scale_shape_error(n, k, 1).empty()) {
        c.expect.status = NINFER_E_SIZE;
        c.expect.detail = NINFER_DETAIL_SIZE;
        return c;
    }
    if (x.size() != n * k) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        return c;
    }
    const auto r = nvfp4_two_level_encode(n, k, x);
    c.expect.status = r.status;
    if (r.status == NINFER_OK) c.expect.output(NINFER_PLANE_PAYLOAD) = block_scale_encode(r.m);
    return c;
}

namespace {

std::vector<Case> lesson_golden() {
    std::vector<Case> out;
    // The lesson's 32 values in row 0 (two blocks of 16), zeros elsewhere: the tensor amax, the
    // tensor scale 1.433914e-03 and block codes 0x77, 0x7E are the lesson's.
    U32 x(128 * 64, 0);
    for (std::size_t i = 0; i < 32; ++i) x[i] = kLessonInputs[i];
    out.push_back(two_level_case("example15_in_128x64", Level::quick, "lesson Example 15", 128, 64, x));
    // A source of the wrong length; a shape without a geometry (the NaN refusal is a full-level case).
    out.push_back(two_level_case("source_short1", Level::quick, "boundary", 128, 64, U32(17, 0x3F800000u)));
    out.push_back(two_level_case("shape_1x32", Level::quick, "boundary", 1, 32, U32(kLessonInputs, kLessonInputs + 32)));
    return out;
}

std::vector<Case> lesson_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x4c45u);
    const int count = level == Level::exhaustive ? 4 : 2;
    const std::string src = "random seed=" + std::to_string(seed);
    for (int i = 0; i < count; ++i) {
        const std::uint64_t n = 128, k = 64 * (1 + rng() % 2);
        U32 x;
        for (std::uint64_t j = 0; j < n * k; ++j) {  // binary32 weights 2^-12 .. 2^3, 1 in 16 zero
            const std::uint64_t r = rng();
            x.push_back((r & 0xF) == 0 ? 0u : static_cast<std::uint32_t>(((r >> 4) & 1) << 31 | (115 + (r >> 5) % 16) << 23 | ((r >> 9) & 0x7FFFFF)));
        }
        out.push_back(two_level_case("random_" + std::to_string(i) + "_" + shape_slug(n, k), level, src, n, k, x));
    }
    U32 nan(128 * 64, 0x3F800000u);
    nan[128 * 64 - 1] = 0x7FC00000u;
    out.push_back(two_level_case("nan_input", level, src, 128, 64, nan));
    // An all-zero tensor: +0 scales and d_w = 1.
    if (level >= Level::full) out.push_back(two_level_case("all_zero", level, src, 128, 64, U32(128 * 64, 0)));
    return out;
}

}  // namespace

Suite lesson_suite() {
    return {"lesson.nvfp4_two_level",
            "NVIDIA's two-level NVFP4 recipe (lesson Example 15) as the encoder profile nvfp4_two_level: the lesson's "
            "worked example and seeded tensors into valid nvfp4 payloads (quant_encode)",
            cached_golden(lesson_golden), random_of(lesson_random)};
}

}  // namespace ninfer::suites::scaled
