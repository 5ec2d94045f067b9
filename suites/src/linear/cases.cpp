// SPDX-License-Identifier: Apache-2.0
// Cases every `linear` family suite shares (builders.hpp): for each weight format and each profile
// that takes it, a seeded small product, a cancellation, a wide dynamic range and non-finite
// activations at quick; seeded shapes at full and exhaustive, generated at run time.
#include <fmt/format.h>

#include <algorithm>

#include "builders.hpp"
#include "ninfer/abi/bytes.hpp"

namespace ninfer::suites::linear {

namespace {

/// A small shape of a format's family (its WeightFamily).
SmallShape small_shape(std::uint32_t format) { return weight_family(format).small_shape(format); }

/// Cancellation is built from paired weights: every family whose codes the builders pair.
bool pairable(std::uint32_t format) {
    const auto *fv = abi::find_format(format);
    return fv->family != Family::gguf || format == NINFER_FORMAT_gguf_q8_0;
}

/// Exponent range of a wide activation in a format.
std::pair<int, int> wide_range(std::uint32_t act) {
    if (act == NINFER_FORMAT_fp16) return {-14, 15};
    return {-60, 60};
}

}  // namespace

void common_cases(std::vector<Case> &out, std::uint32_t format, Rng &rng) {
    const auto [n, k] = small_shape(format);
    const bool gguf = abi::find_format(format)->family == Family::gguf;
    const bool nvfp4 = format == NINFER_FORMAT_nvfp4;
    // GGUF and nvfp4 stay at one activation row (vector size); the others take two.
    const std::uint64_t m = gguf || nvfp4 ? 1 : 2;
    for (const auto p : profiles_for(format)) {
        const auto rule = criterion_rule(p);
        const bool q8 = p == NINFER_PROFILE_gguf_q8_1_f32;
        // A seeded product, fp32 activation (GGUF outside q8_1: bf16, half the bytes).
        const auto act = q8 || !gguf ? NINFER_FORMAT_fp32 : NINFER_FORMAT_bf16;
        WeightStyle style;
        style.zero_groups = style.rescued = true;
        const auto w = weight_payload(format, n, k, rng, style);
        out.push_back(linear_case(rule, "seeded", Level::quick, "seeded", call_of(format, p, n, k, m, act), w,
                                  random_activation(act, m, k, rng)));
        if (q8) continue;  // gguf_q8_1_f32: gguf.cpp adds its own
        // The other activation formats; for correctly_rounded the other output formats too.
        if (!gguf && !nvfp4) {
            for (const auto a : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
                out.push_back(linear_case(rule, "seeded." + format_label(a), Level::quick, "seeded", call_of(format, p, n, k, m, a), w,
                                          random_activation(a, m, k, rng)));
        }
        if (p == NINFER_PROFILE_correctly_rounded)
            for (const auto o : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
                out.push_back(linear_case(rule, "seeded.out_" + format_label(o), Level::quick, "seeded",
                                          call_of(format, p, n, k, m, act, o), w, random_activation(act, m, k, rng)));
        if (gguf) continue;  // gguf.cpp: extreme scales, q8_0 cancellation
        // Cancellation: columns 2j and 2j+1 equal, activation x, -x: the exact sum is 0, S is not.
        if (pairable(format)) {
            WeightStyle pair;
            pair.pair = true;
            out.push_back(linear_case(rule, "cancellation", Level::quick, "adversarial", call_of(format, p, n, k, m),
                                      weight_payload(format, n, k, rng, pair), paired_activation(NINFER_FORMAT_fp32, m, k, rng)));
        }
        // Wide dynamic range: activation exponents across the format's range.
        const auto wa = nvfp4 ? NINFER_FORMAT_fp32 : NINFER_FORMAT_bf16;
        const auto [lo, hi] = wide_range(wa);
        out.push_back(linear_case(rule, "wide_range", Level::quick, "adversarial", call_of(format, p, n, k, m, wa), w,
                                  random_activation(wa, m, k, rng, lo, hi)));
        // Infinities and NaN in a bf16 activation: row 0 holds +inf at column 0 and -inf at column
        // 2 (NaN where both products are nonzero, inf or NaN by the weights), the last row a NaN.
        auto x = random_activation(NINFER_FORMAT_bf16, m, k, rng);
        auto put16 = [&x](std::uint64_t i, std::uint16_t v) { abi::store_le16(&x[2 * i], v); };
        put16(0, 0x7F80);
        if (m > 1) {
            put16(k + 1, 0xFFC0);
            put16(k + 2, 0xFF80);
        }
        out.push_back(linear_case(rule::linear_nonfinite, "inf_nan.bf16", Level::quick, "special values",
                                  call_of(format, p, n, k, m, NINFER_FORMAT_bf16), w, x));
    }
}

void batch_cases(std::vector<Case> &out, const std::vector<std::uint32_t> &formats, Rng &rng) {
    // 13 is no multiple of a kernel's batch tile (2, 4, 8, 16): a remainder after a full tile of 8.
    static constexpr std::uint64_t kBatch[] = {2, 3, 5, 8, 13};
    static constexpr std::uint32_t kActivation[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};
    std::size_t turn = 0;
    for (const auto f : formats) {
        const auto *fv = abi::find_format(f);
        const bool gguf = fv->family == Family::gguf, nvfp4 = f == NINFER_FORMAT_nvfp4;
        // Shapes of at least 2 weight rows (a row stride of N instead of K shows).
        auto [n, k] = small_shape(f);
        if (!nvfp4) n = gguf ? 2 : 3;
        const auto w = weight_payload(f, n, k, rng);
        // Every profile for the direct words, the FP8 row formats, q4_0 and q4_K; one in turn for
        // each grouped format and each other 32-value GGUF type (the other 256-value types stay at
        // M = 1: their activations would be most of the bytes).
        const bool every_profile = fv->family == Family::word || fv->family == Family::scaled || f == NINFER_FORMAT_gguf_q4_0 ||
                                   f == NINFER_FORMAT_gguf_q4_k;
        if (gguf && !every_profile && k > 32) continue;
        const auto profiles = profiles_for(f);
        const std::size_t pick = turn % profiles.size();
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            const auto p = profiles[i];
            if (nvfp4 ? p != NINFER_PROFILE_correctly_rounded : !every_profile && i != pick) continue;
            std::uint64_t m = kBatch[turn % std::size(kBatch)];
            // 128 weight rows (nvfp4) or K > 128: at most 3 rows, to keep the vectors small.
            if (nvfp4 || k > 128) m = std::min<std::uint64_t>(m, 3);
            const auto act = p == NINFER_PROFILE_gguf_q8_1_f32 ? std::uint32_t{NINFER_FORMAT_fp32} : kActivation[turn % std::size(kActivation)];
            ++turn;
            out.push_back(linear_case(criterion_rule(p), "batch_m" + std::to_string(m), Level::quick, "batch",
                                      call_of(f, p, n, k, m, act), w, random_activation(act, m, k, rng)));
        }
    }
}

std::vector<Case> random_cases(const std::vector<std::uint32_t> &formats, const std::vector<std::uint32_t> &big, std::uint64_t seed,
                               Level level, const std::string &family) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::uint64_t salt = 0;
    for (const char ch : family) salt = salt * 131 + static_cast<unsigned char>(ch);
    Rng rng(seed ^ salt);
    const std::string src = "random seed=" + std::to_string(seed);
    const int rounds = level == Level::exhaustive ? 3 : 1;
    int i = 0;
    for (int round = 0; round < rounds; ++round)
        for (const auto f : formats)
            for (const auto p : profiles_for(f)) {
                const auto *fv = abi::find_format(f);
                std::uint64_t n = 1 + rng() % 48, k = 1 + rng() % 300;
                if (f == NINFER_FORMAT_nvfp4) {
                    n = 128;
                    k = 64 * (1 + rng() % 4);
                } else if (fv->family == Family::gguf) {
                    const auto [n0, bv] = small_shape(f);
                    (void)n0;
                    k = bv * (1 + rng() % (bv >= 256 ? 3 : 8));
                    n = 1 + rng() % 16;
                }
                const std::uint64_t m = 1 + rng() % 3;
                const std::uint32_t acts[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};
                const auto act = p == NINFER_PROFILE_gguf_q8_1_f32 ? std::uint32_t{NINFER_FORMAT_fp32} : acts[rng() % 3];
                const auto o = p == NINFER_PROFILE_correctly_rounded ? acts[rng() % 3] : std::uint32_t{NINFER_FORMAT_fp32};
                WeightStyle style;
                style.pair = false;
                style.zero_groups = rng() % 4 == 0;
                style.rescued = rng() % 4 == 0;
                const auto w = weight_payload(f, n, k, rng, style, f == NINFER_FORMAT_nvfp4 ? 1 + rng() % 2 : 1);
                const auto x = random_activation(act, m, k, rng, act == NINFER_FORMAT_fp16 ? -8 : -20, act == NINFER_FORMAT_fp16 ? 8 : 20);
                out.push_back(linear_case(criterion_rule(p), fmt::format("random_{}_{}x{}x{}", i++, n, k, m), level, src,
                                          call_of(f, p, n, k, m, act, o), w, x));
            }
    // Realistic shapes: K up to 8192, N up to 4096 (full); [4096, 8192] with 2 rows (exhaustive).
    struct Shape {
        std::uint64_t n, k, m;
    };
    // GGUF weights decode block by block through the binary32 oracle (seconds per million weights):
    // their realistic shapes are narrower.
    const bool gguf_family = family == "gguf";
    std::vector<Shape> shapes = gguf_family ? std::vector<Shape>{{512, 4096, 1}, {256, 8192, 1}}
                                            : std::vector<Shape>{{4096, 4096, 1}, {512, 8192, 1}};
    if (level == Level::exhaustive) shapes.push_back(gguf_family ? Shape{1024, 8192, 2} : Shape{4096, 8192, 2});
    for (const auto f : big)
        for (const auto &s : shapes) {
            const bool gguf = abi::find_format(f)->family == Family::gguf;
            const auto p = gguf && s.k == 8192 ? NINFER_PROFILE_gguf_q8_1_f32 : NINFER_PROFILE_f32_accumulate;
            const auto w = weight_payload(f, s.n, s.k, rng, {}, 1);
            const auto x = random_activation(NINFER_FORMAT_fp32, s.m, s.k, rng);
            out.push_back(linear_case(criterion_rule(p), fmt::format("random_{}_{}x{}x{}", i++, s.n, s.k, s.m), level, src,
                                      call_of(f, p, s.n, s.k, s.m), w, x));
        }
    return out;
}

}  // namespace ninfer::suites::linear
