// SPDX-License-Identifier: Apache-2.0
// The scaled mutants' replacement steps that take more than a line (mutant_scaled_common.hpp):
// each does exactly the one wrong thing its mutant names and nothing else, so that a kill says
// something about that step. E4M3FN ties away from zero differ from nearest-even at ties only;
// the truncated row multiplier is the largest word not above the raw value.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <random>

#include "mutant_scaled_common.hpp"

namespace {

namespace ms = ninfer::mutants::scaled;
using ninfer::reference::scalar_convert;

float e4m3_value(std::uint8_t w) { return ms::f32_of(scalar_convert(NINFER_CONVERSION_e4m3fn_to_fp32, w)); }
std::uint8_t e4m3_even(float q) {
    return static_cast<std::uint8_t>(scalar_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, std::bit_cast<std::uint32_t>(q)));
}

}  // namespace

TEST_CASE("mutant step: E4M3FN ties away from zero", "[mutants][scaled]") {
    // Every midpoint between neighbouring finite E4M3FN magnitudes goes to the larger one, either sign.
    int ties_where_even_differs = 0;
    for (std::uint8_t w = 0; w < 0x7E; ++w) {
        const float mid = (e4m3_value(w) + e4m3_value(static_cast<std::uint8_t>(w + 1))) / 2;  // exact in binary32
        CAPTURE(w, mid);
        CHECK(ms::e4m3_ties_away(mid) == w + 1);
        CHECK(ms::e4m3_ties_away(-mid) == ((w + 1) | 0x80));
        ties_where_even_differs += e4m3_even(mid) != w + 1;
    }
    CHECK(ties_where_even_differs == 63);  // nearest-even keeps the even word at half the ties
    // Off the ties it is the nearest-even conversion: where the two differ, q is a tie.
    std::mt19937 rng(7);
    int differ = 0;
    for (int i = 0; i < 200000; ++i) {
        const float scale = i % 3 ? 1.0f : 1.0f / 4096;
        const float q = std::uniform_real_distribution<float>(-448.0f, 448.0f)(rng) * scale;
        const std::uint8_t even = e4m3_even(q), away = ms::e4m3_ties_away(q);
        if (away == even) continue;
        ++differ;
        const float a = std::fabs(q);
        CHECK(std::fabs(e4m3_value(away)) - a == a - std::fabs(e4m3_value(even)));
    }
    CHECK(differ < 100);
}

TEST_CASE("mutant step: the row multiplier truncated toward zero", "[mutants][scaled]") {
    std::mt19937 rng(11);
    for (const auto &[to, from] : {std::pair{NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_CONVERSION_bf16_to_fp32},
                                  std::pair{NINFER_CONVERSION_fp32_to_fp16_rne, NINFER_CONVERSION_fp16_to_fp32}}) {
        const bool bf16 = to == NINFER_CONVERSION_fp32_to_bf16_rne;
        for (int i = 0; i < 200000; ++i) {
            // Positive finite binary32 values over the scale type's whole range, subnormals included.
            const std::uint32_t lo = bf16 ? 0x00000001u : 0x33000000u, hi = bf16 ? 0x7F7F0000u : 0x477FE000u;
            const std::uint32_t x = lo + static_cast<std::uint32_t>(rng() % (hi - lo));
            const float raw = std::bit_cast<float>(x);
            const std::uint16_t w = ms::scale_word_truncated(to, from, raw);
            CAPTURE(bf16, x, w);
            REQUIRE(ms::f32_of(scalar_convert(from, w)) <= raw);
            REQUIRE(ms::f32_of(scalar_convert(from, static_cast<std::uint16_t>(w + 1))) > raw);
            if (bf16) REQUIRE(w == scalar_convert(NINFER_CONVERSION_fp32_to_bf16_rtz, x));
        }
    }
    // An overflow to infinity is kept: the encoder's refusal is not this mutant's business.
    CHECK(ms::scale_word_truncated(NINFER_CONVERSION_fp32_to_fp16_rne, NINFER_CONVERSION_fp16_to_fp32, 70000.0f) == 0x7C00);
}
