// SPDX-License-Identifier: Apache-2.0
// Stochastic rounding given the random bits (issue 24 item 3; registry.h NINFER_STOCHASTIC):
// hand-worked words at ties, grid points, subnormal results, the overflow threshold and the
// specials of the five sr conversions; then SR against the directed roundings of the same
// oracle (R = 0 is truncation, R = 2^r - 1 rounds away from zero when no bit is dropped) and the
// threshold R = 2^r - (the r dropped bits) where a normal input starts to round up.
#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>

#include "ninfer/oracle/sr_conventions.hpp"
#include "scalar_test_support.hpp"

using namespace ninfer::oracle;
using namespace ninfer::oracle::test;

namespace {

std::uint64_t sr(std::uint32_t conversion_id, std::uint64_t src, std::uint32_t random) {
    return convert_word_sr(C(conversion_id), src, random);
}

constexpr auto BF16 = NINFER_CONVERSION_fp32_to_bf16_sr_satfinite;
constexpr auto FP16 = NINFER_CONVERSION_fp32_to_fp16_sr_satfinite;
constexpr auto E4M3 = NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite;
constexpr auto E5M2 = NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite;
constexpr auto E2M1 = NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite;

}  // namespace

TEST_CASE("the sr conversions draw r = 23 - man_bits random bits") {
    CHECK(ninfer::abi::sr_random_bits(BF16) == 16);
    CHECK(ninfer::abi::sr_random_bits(FP16) == 13);
    CHECK(ninfer::abi::sr_random_bits(E4M3) == 20);
    CHECK(ninfer::abi::sr_random_bits(E5M2) == 21);
    CHECK(ninfer::abi::sr_random_bits(E2M1) == 22);
    CHECK(ninfer::abi::sr_random_bits(NINFER_CONVERSION_fp32_to_bf16_rne) == 0);
}

TEST_CASE("sr fp32 -> bf16 at a tie: up iff R >= 2^15") {
    // 1 + 2^-8 = 0x3F808000 lies halfway between bf16 1.0 (0x3F80) and 1 + 2^-7 (0x3F81): its 16
    // dropped bits are 0x8000, so R + 0x8000 carries into the last place iff R >= 0x8000.
    CHECK(sr(BF16, 0x3F808000, 0) == 0x3F80);
    CHECK(sr(BF16, 0x3F808000, 0x7FFF) == 0x3F80);
    CHECK(sr(BF16, 0x3F808000, 0x8000) == 0x3F81);
    CHECK(sr(BF16, 0x3F808000, 0xFFFF) == 0x3F81);
    CHECK(sr(BF16, 0xBF808000, 0x8000) == 0xBF81);  // the magnitude rounds, the sign stays
    CHECK(sr(BF16, 0x3F808000, 0x10000) == 0x3F80);  // bits of the random value above r are unused
    // dropped bits 0xFFFF: every R but 0 carries
    CHECK(sr(BF16, 0x3F80FFFF, 0) == 0x3F80);
    CHECK(sr(BF16, 0x3F80FFFF, 1) == 0x3F81);
    // an exact grid point never moves
    CHECK(sr(BF16, 0x3F800000, 0xFFFF) == 0x3F80);
}

TEST_CASE("sr fp32 -> bf16: overflow saturates, specials follow the conversion's rules") {
    CHECK(sr(BF16, 0x7F7FFFFF, 0) == 0x7F7F);
    CHECK(sr(BF16, 0x7F7FFFFF, 1) == 0x7F7F);  // carries past the largest finite: satfinite
    CHECK(sr(BF16, 0xFF7FFFFF, 0xFFFF) == 0xFF7F);
    CHECK(sr(BF16, 0x7F800000, 0xFFFF) == 0x7F7F);
    CHECK(sr(BF16, 0xFF800000, 0) == 0xFF7F);
    CHECK(sr(BF16, 0x7FC00001, 0xFFFF) == 0x7FC0);  // QUIET_TRUNC
    CHECK(sr(BF16, 0xFF812345, 0) == 0xFFC1);
    CHECK(sr(BF16, 0x80000000, 0xFFFF) == 0x8000);
    CHECK(sr(BF16, 0x00000000, 0xFFFF) == 0x0000);
}

TEST_CASE("sr fp32 -> fp16 at a tie and in the subnormal range") {
    // 1 + 2^-11 = 0x3F801000: fp16's last place at 1 is 2^-10, the 13 dropped bits are 0x1000.
    CHECK(sr(FP16, 0x3F801000, 0x0FFF) == 0x3C00);
    CHECK(sr(FP16, 0x3F801000, 0x1000) == 0x3C01);
    // 2^-25 = 0x33000000: half of fp16's smallest subnormal 2^-24; R is added at 2^-37.
    CHECK(sr(FP16, 0x33000000, 0x0FFF) == 0x0000);
    CHECK(sr(FP16, 0x33000000, 0x1000) == 0x0001);
    CHECK(sr(FP16, 0xB3000000, 0x1FFF) == 0x8001);
    // 2^-38 lies below R's lowest place 2^-37: truncated away before the addition, so no R lifts it.
    CHECK(sr(FP16, 0x2C800000, 0x1FFF) == 0x0000);
    // 65504 is fp16's largest; 65520 (its midpoint to 2^16) saturates either way
    CHECK(sr(FP16, 0x477FF000, 0x1FFF) == 0x7BFF);
    CHECK(sr(FP16, 0x477FF000, 0) == 0x7BFF);
    CHECK(sr(FP16, 0x7F800000, 0) == 0x7BFF);
}

TEST_CASE("sr fp32 -> e4m3fn, e5m2 and e2m1 at ties, thresholds and specials") {
    // e4m3fn: 1.0625 = 0x3F880000 halfway between 1 (0x38) and 1.125 (0x39); r = 20, bits 0x80000
    CHECK(sr(E4M3, 0x3F880000, 0x7FFFF) == 0x38);
    CHECK(sr(E4M3, 0x3F880000, 0x80000) == 0x39);
    CHECK(sr(E4M3, 0x43E80000, 0xFFFFF) == 0x7E);  // 464, halfway to 480: satfinite 448
    CHECK(sr(E4M3, 0xFF800000, 0) == 0xFE);
    CHECK(sr(E4M3, 0x7FC00000, 0) == 0x7F);
    // e5m2: 1.125 = 0x3F900000 halfway between 1 (0x3C) and 1.25 (0x3D); r = 21, bits 0x100000
    CHECK(sr(E5M2, 0x3F900000, 0x0FFFFF) == 0x3C);
    CHECK(sr(E5M2, 0x3F900000, 0x100000) == 0x3D);
    CHECK(sr(E5M2, 0x7F800000, 0) == 0x7B);  // satfinite: infinity saturates too
    // e2m1: 0.25 halfway between 0 and the subnormal 0.5; 5 halfway between 4 and 6; r = 22
    CHECK(sr(E2M1, 0x3E800000, 0x1FFFFF) == 0x0);
    CHECK(sr(E2M1, 0x3E800000, 0x200000) == 0x1);
    CHECK(sr(E2M1, 0x40A00000, 0x1FFFFF) == 0x6);
    CHECK(sr(E2M1, 0x40A00000, 0x200000) == 0x7);
    CHECK(sr(E2M1, 0xC0A00000, 0x200000) == 0xF);
    CHECK(sr(E2M1, 0x40E00000, 0x3FFFFF) == 0x7);  // 7 rounds to 6 or 8: 8 saturates to 6
    CHECK(sr(E2M1, 0x00000001, 0x3FFFFF) == 0x0);  // 2^-149 lies wholly below R's lowest place 2^-23
    CHECK(sr(E2M1, 0x3E800000, 0xFFC00000) == 0x0);  // only the low 22 bits of the value count
}

TEST_CASE("convert_word refuses an sr conversion's finite input; convert_word_sr refuses other conversions") {
    CHECK_THROWS_AS(convert_word(C(BF16), 0x3F808000), std::invalid_argument);
    CHECK_THROWS_AS(convert_word_sr(C(NINFER_CONVERSION_fp32_to_bf16_rne), 0x3F808000, 0), std::invalid_argument);
}

TEST_CASE("sr with R = 0 truncates; with R = 2^r - 1 it rounds away from zero where no bit is dropped") {
    std::mt19937_64 rng(20261202u);
    for (const auto &s : ninfer::abi::kStochastic) {
        const auto &c = C(s.conversion);
        const auto &dst = F(c.dst);
        const auto all = static_cast<std::uint32_t>((1ull << s.random_bits) - 1);
        for (int i = 0; i < 4000; ++i) {
            // a finite binary32 word whose value lies in dst's normal range or below (exponent 70..160)
            const std::uint64_t w = (rng() & 0x807FFFFFull) | ((70 + rng() % 90) << 23);
            const Real x = value(NINFER_FORMAT_fp32, w);
            const bool negative = (w >> 31) != 0;
            INFO(c.name << " word " << std::hex << w);
            CHECK(sr(s.conversion, w, 0) == round_real(x, dst, detail::rounding_rtz, detail::overflow_satfinite));
            // below dst's smallest normal, bits of a binary32 value may lie under R's lowest place
            const bool normal_result = ((w >> 23) & 0xFF) >= static_cast<std::uint64_t>(128 - dst.bias);
            if (!normal_result) continue;
            const auto away = negative ? detail::rounding_rdn : detail::rounding_rup;
            CHECK(sr(s.conversion, w, all) == round_real(x, dst, away, detail::overflow_satfinite));
            // the r dropped bits d: R + d carries iff R >= 2^r - d (d = 0: an exact grid point)
            const auto d = static_cast<std::uint32_t>(w & all);
            if (d == 0) continue;
            const std::uint32_t threshold = all + 1 - d;
            CHECK(sr(s.conversion, w, threshold - 1) == sr(s.conversion, w, 0));
            CHECK(sr(s.conversion, w, threshold) == sr(s.conversion, w, all));
        }
    }
}

// ---- issue 34 item 2: the conventions of sr_conventions.hpp ----

namespace {

std::uint64_t sr_as(std::uint32_t conversion_id, std::uint64_t src, std::uint32_t random, std::string_view name,
                    int k = 0) {
    const auto v = find_sr_convention(name);
    REQUIRE(v.has_value());
    return convert_word_sr_as(C(conversion_id), src, random, *v, k);
}

/// The random values of k bits that round x up, counted by bisection (SR is monotone in R).
std::uint64_t ups(std::uint32_t conversion_id, std::uint64_t src, std::string_view name, int k) {
    const auto down = sr_as(conversion_id, src, 0, name);
    std::uint64_t lo = 0, hi = 1ull << k;
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        (sr_as(conversion_id, src, static_cast<std::uint32_t>(mid), name) == down ? lo : hi) = mid;
    }
    return (1ull << k) - hi;
}

}  // namespace

TEST_CASE("sr conventions: ninfer is convert_word_sr; every name is found once") {
    std::mt19937_64 g(34);
    for (const auto id : {BF16, FP16, E4M3, E5M2, E2M1})
        for (int i = 0; i < 2000; ++i) {
            const auto x = static_cast<std::uint32_t>(g());
            const auto rnd = static_cast<std::uint32_t>(g());
            INFO(std::hex << id << " " << x << " " << rnd);
            CHECK(sr_as(id, x, rnd, "ninfer") == sr(id, x, rnd));
        }
    for (const auto &v : kSrConventions) CHECK(find_sr_convention(v.name)->source == v.source);
    CHECK_FALSE(find_sr_convention("nonsense").has_value());
}

TEST_CASE("sr conventions: PTX's 16 bits for e4m3x4 ignore the low 4 dropped bits") {
    // x = 1 + f 2^-23, r = 20: the 16 random bits enter at 2^(q - 16), f's low 4 bits are dropped
    CHECK(sr_as(E4M3, 0x3F80000Fu, 0xFFFFFFFFu, "ptx_rs_f8x4") == 0x38);  // never up: f < 16
    CHECK(sr(E4M3, 0x3F80000Fu, 0xFFFFFu) == 0x39);                      // the suite's rule: up at R = 2^20 - 1
    CHECK(sr_as(E4M3, 0x3F880000u, 0x7FFFu, "ptx_rs_f8x4") == 0x38);     // the tie: down below 2^15
    CHECK(sr_as(E4M3, 0x3F880000u, 0x8000u, "ptx_rs_f8x4") == 0x39);     // up from 2^15
    CHECK(ups(E4M3, 0x3F840000u, "ptx_rs_f8x4", 16) == 1u << 14);         // a quarter: P(up) = 1/4 exactly
    CHECK(ups(E2M1, 0x3F900000u, "ptx_rs_f4x4", 8) == 1u << 6);           // 1.125 in E2M1: 1/4 of 2^8
}

TEST_CASE("sr conventions: AMD's input-LSB noise is exact on subnormal results, the suite's rule truncates") {
    // e4m3fn subnormal quantum 2^-9; x = 2^-9 (1 + 2^-23): its bit 2^-32 lies below 2^(q - 20)
    const std::uint32_t x = 0x3B000001u;
    CHECK(ups(E4M3, x, "ninfer", 20) == 0);                               // dropped before R is added
    CHECK(ups(E4M3, x, "amd_input_lsb", 23) == 1);                        // P(up) = 2^-23 exactly
    // a normal result: both rules are the same
    for (const std::uint32_t rnd : {0u, 0x12345u, 0xFFFFFu, 0xFFFFFFFFu})
        CHECK(sr_as(E4M3, 0x3F855555u, rnd, "amd_input_lsb") == sr(E4M3, 0x3F855555u, rnd));
    // the bit pattern plus r random bits: up only when the high dropped bits carry
    CHECK(ups(E4M3, x, "pattern_add", 20) == 0);
    CHECK(sr_as(E4M3, 0x3B000000u | 0x7FFFFFu, 1u, "pattern_add") == 0x02);  // 2^-9 (2 - 2^-23) + R: carries to 2 Q
}

TEST_CASE("sr conventions: gfloat's Stochastic, StochasticFast, StochasticFastest and StochasticOdd at k = 8") {
    // bf16, x = 1 + 128 2^-23: the dropped bits below the 8 random bits are exactly half their unit
    const std::uint32_t half = 0x3F800080u, above = 0x3F800081u;
    CHECK(sr_as(BF16, half, 0xFFu, "gfloat_stochastic_fastest", 8) == 0x3F80);  // truncated: t = 0
    CHECK(sr_as(BF16, half, 0xFFu, "gfloat_stochastic", 8) == 0x3F80);          // tie to even: t = 0
    CHECK(sr_as(BF16, above, 0xFFu, "gfloat_stochastic", 8) == 0x3F81);         // above half: t = 1
    CHECK(sr_as(BF16, half, 0xFFu, "gfloat_stochastic_odd", 8) == 0x3F81);      // to odd: t = 1
    CHECK(sr_as(BF16, half, 0xFEu, "gfloat_stochastic_odd", 8) == 0x3F80);
    CHECK(sr_as(BF16, half, 0xFFu, "gfloat_stochastic_fast", 8) == 0x3F81);     // 1 + 2 255 + 1 >= 2^9
    CHECK(sr_as(BF16, half, 0xFEu, "gfloat_stochastic_fast", 8) == 0x3F80);
    // k = r: every convention at the result's quantum is the suite's rule on a normal input
    for (const char *name : {"gfloat_stochastic", "gfloat_stochastic_fast", "gfloat_stochastic_fastest",
                             "gfloat_stochastic_odd"})
        for (const std::uint32_t rnd : {0u, 0x4000u, 0x8000u, 0xC001u, 0xFFFFu})
            CHECK(sr_as(BF16, 0x3F80C000u, rnd, name) == sr(BF16, 0x3F80C000u, rnd));
}
