// SPDX-License-Identifier: Apache-2.0
// The reference's small GGUF quantizers (gguf_quantize_small.cpp: q1_0, q2_0, tq1_0,
// tq2_0, mxfp4, ggml's nvfp4) against the oracle's, byte for byte, on the blocks where a
// transcription goes wrong first: ties of roundf and lroundf, E2M1 midpoints, a maximum a few
// ulps below a power of two (mxfp4's log2f), all of one sign, tiny blocks whose 1/d overflows
// (beside a zero), +-FLT_MAX. Random blocks are in test_gguf_blocks.cpp.
#include <catch2/catch.hpp>

#include <bit>
#include <cfloat>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "gguf_blocks.hpp"
#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/gguf.hpp"

namespace gn = ninfer::reference::gguf_blocks;
namespace orc = ninfer::oracle;

namespace {

constexpr std::uint64_t kSeed = 20261201;  // include it in bug reports

/// The types of gguf_quantize_small.cpp.
const std::set<std::uint32_t> kSmallQuantizers = {NINFER_FORMAT_gguf_q1_0, NINFER_FORMAT_gguf_q2_0,  NINFER_FORMAT_gguf_tq1_0,
                                                  NINFER_FORMAT_gguf_tq2_0, NINFER_FORMAT_gguf_mxfp4, NINFER_FORMAT_gguf_nvfp4};

/// Block `kind` of n values: 0 ties (+-0.5 and +-1 beside an anchor 2), 1 E2M1 midpoints beside
/// 6, 2 all positive, 3 all negative, 4 a maximum m ulps below 2^k, 5 tiny gaussian with a zero,
/// 6 +-FLT_MAX alternating, 7 1e-45 and zeros.
std::vector<float> extreme_block(std::size_t n, int kind, std::mt19937_64 &rng) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    static constexpr float kMid[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    std::vector<float> x(n);
    const int k = static_cast<int>(rng() % 240) - 120;
    for (std::size_t i = 0; i < n; ++i) {
        const float sign = rng() & 1 ? -1.0f : 1.0f;
        switch (kind) {
        case 0: x[i] = sign * static_cast<float>(1 + rng() % 2) * 0.5f * (i % 16 == 0 ? 4.0f : 1.0f); break;
        case 1: x[i] = i % 16 == 0 ? 6.0f : sign * kMid[rng() % 7]; break;
        case 2: x[i] = std::fabs(normal(rng)) + 0.01f; break;
        case 3: x[i] = -std::fabs(normal(rng)) - 0.01f; break;
        case 4: x[i] = std::ldexp(normal(rng) * 0.1f, k); break;
        case 5: x[i] = normal(rng) * 1e-40f; break;
        case 6: x[i] = i % 2 ? FLT_MAX : -FLT_MAX; break;
        default: x[i] = i % 3 ? 1e-45f : 0.0f; break;
        }
    }
    if (kind == 4) x[rng() % n] = std::ldexp(1.0f - static_cast<float>(1 + rng() % 6) * 0x1p-24f, k);
    if (kind == 5) x[rng() % n] = 0.0f;
    return x;
}

}  // namespace

TEST_CASE("each small reference quantizer equals the oracle's on ties, one-sign and extreme blocks", "[gguf][codec][quantize]") {
    std::mt19937_64 rng(kSeed);
    std::size_t small = 0;
    for (const auto &t : ninfer::abi::kGgufTypes) {
        if (!kSmallQuantizers.contains(t.id)) continue;
        ++small;
        CHECK(t.ref_quantizer);
        for (int b = 0; b < 400; ++b) {
            const int kind = b % 8;
            const auto x = extreme_block(t.block_values, kind, rng);
            std::vector<std::uint32_t> w(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) w[i] = std::bit_cast<std::uint32_t>(x[i]);
            std::vector<std::uint8_t> got(t.block_bytes, 0xCD);
            const auto o = gn::quantize_row_ref(t.ggml_type, x, got.data());
            const auto expect = orc::gguf_quantize_block_ref(t, w);
            INFO(t.name << " block " << b << " kind " << kind << " seed " << kSeed);
            REQUIRE(expect.status == NINFER_OK);
            REQUIRE(o.status == NINFER_OK);
            REQUIRE(got == expect.block);
        }
    }
    CHECK(small == 6);
}
