// SPDX-License-Identifier: Apache-2.0
// Correct rounding and the named conversions (registry.h NINFER_CONVERSIONS; OCP FP8 and MX
// conversion rules; IEEE 754 Section 7.4 overflow). Special values first, then regressions at
// range and subnormal boundaries, then the cross-check against independent references:
// MPFR's own rounding with emin/subnormalize (rne, rtz, rup, rdn), ties resolved from MPFR's two
// directed neighbours (rna, rnu), and the lesson's exhaustive nearest-code search (Example 8).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ninfer/oracle/convert_many.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "scalar_test_support.hpp"

using namespace ninfer::oracle;
using namespace ninfer::oracle::test;

namespace {

constexpr auto RNE = detail::rounding_rne;
constexpr auto RTZ = detail::rounding_rtz;
constexpr auto RNA = detail::rounding_rna;
constexpr auto RNU = detail::rounding_rnu;
constexpr auto RUP = detail::rounding_rup;
constexpr auto RDN = detail::rounding_rdn;
constexpr auto OVF_INF = detail::overflow_inf;
constexpr auto OVF_SAT = detail::overflow_satfinite;
constexpr auto OVF_NAN = detail::overflow_nan;

std::uint64_t cv(std::uint32_t conversion_id, std::uint64_t src) { return convert_word(C(conversion_id), src); }

/// The next binary32 word away from zero / toward zero (positive finite words).
std::uint64_t up1(std::uint64_t w) { return w + 1; }
std::uint64_t down1(std::uint64_t w) { return w - 1; }

/// Seed of the random sections: fixed, overridable by NINFER_TEST_SEED.
std::uint64_t test_seed() {
    const char *s = std::getenv("NINFER_TEST_SEED");
    return s ? std::strtoull(s, nullptr, 0) : 20261129u;
}

/// MPFR's rounding of exact x to precision man_bits + 1 with the format's subnormal grid and an
/// unbounded exponent above (emin = EXP of the smallest subnormal, then check_range and subnormalize).
Real mpfr_reference(const Real &x, const WordFormat &f, mpfr_rnd_t rnd) {
    mpfr_t y;
    mpfr_init2(y, f.man_bits + 1);
    int t = mpfr_set(y, x.backend().data(), rnd);
    const mpfr_exp_t old_emin = mpfr_get_emin();
    mpfr_set_emin(2 - f.bias - f.man_bits);
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    mpfr_set_emin(old_emin);
    Real r = exact_zero();
    mpfr_set(r.backend().data(), y, MPFR_RNDN);
    mpfr_clear(y);
    return r;
}

/// Nearest with ties resolved by `tie_up(lo, hi)` from the two directed MPFR neighbours.
Real mpfr_nearest_reference(const Real &x, const WordFormat &f, bool ties_away, bool ties_up) {
    const Real lo = mpfr_reference(x, f, MPFR_RNDD);
    const Real hi = mpfr_reference(x, f, MPFR_RNDU);
    const Real dlo = x - lo, dhi = hi - x;
    const int c = mpfr_cmp(dlo.backend().data(), dhi.backend().data());
    if (c < 0) return lo;
    if (c > 0) return hi;
    if (ties_up) return hi;
    if (ties_away) return mpfr_sgn(x.backend().data()) < 0 ? lo : hi;
    return mpfr_reference(x, f, MPFR_RNDN);
}

/// The expected word of x rounded to f, from an exact reference value (unbounded above).
std::uint64_t expected_word(const Real &ref, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow) {
    const bool negative = mpfr_signbit(ref.backend().data()) != 0;
    const std::uint64_t sign = negative && f.has_sign ? 1ull << (f.bits - 1) : 0;
    const Real max = value(f.id, largest_finite_word(f));
    if (mpfr_cmpabs(ref.backend().data(), max.backend().data()) > 0) {
        const std::uint64_t inf = sign | (((1ull << f.exp_bits) - 1) << f.man_bits);
        if (overflow == OVF_SAT) return sign | largest_finite_word(f);
        if (overflow == OVF_NAN) return f.special == Special::FN ? sign | 0x7F : inf | (1ull << (f.man_bits - 1));
        if (rounding == RTZ || (rounding == RUP && negative) || (rounding == RDN && !negative))
            return sign | largest_finite_word(f);
        return inf;
    }
    // The reference is on the grid: assemble its word from exponent and significand.
    if (mpfr_zero_p(ref.backend().data())) return sign;
    const long k = static_cast<long>(mpfr_get_exp(ref.backend().data())) - 1;  // |ref| in [2^k, 2^(k+1))
    const long emin = 1 - f.bias;
    Real scaled = abs(ref);
    Int field;
    if (k >= emin) {
        mpfr_mul_2si(scaled.backend().data(), scaled.backend().data(), f.man_bits - k, MPFR_RNDN);
        REQUIRE(mpfr_integer_p(scaled.backend().data()));
        mpfr_get_z(field.backend().data(), scaled.backend().data(), MPFR_RNDN);
        field = field - (Int(1) << f.man_bits) + (Int(k + f.bias) << f.man_bits);
    } else {
        mpfr_mul_2si(scaled.backend().data(), scaled.backend().data(), f.man_bits - emin, MPFR_RNDN);
        REQUIRE(mpfr_integer_p(scaled.backend().data()));
        mpfr_get_z(field.backend().data(), scaled.backend().data(), MPFR_RNDN);
    }
    return sign | field.convert_to<std::uint64_t>();
}

/// Expected word from the independent references for a rounding id.
std::uint64_t reference_round(const Real &x, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow) {
    Real ref;
    switch (rounding) {
    case RNE: ref = mpfr_reference(x, f, MPFR_RNDN); break;
    case RTZ: ref = mpfr_reference(x, f, MPFR_RNDZ); break;
    case RUP: ref = mpfr_reference(x, f, MPFR_RNDU); break;
    case RDN: ref = mpfr_reference(x, f, MPFR_RNDD); break;
    case RNA: ref = mpfr_nearest_reference(x, f, true, false); break;
    default: ref = mpfr_nearest_reference(x, f, false, true); break;
    }
    return expected_word(ref, f, rounding, overflow);
}

/// Exhaustive nearest search over every finite code (lesson Example 8's reference encoder),
/// with exact distances; ties go to the even code. Zero results compare by magnitude.
std::uint64_t nearest_code_search(const WordFormat &f, const Real &x) {
    std::uint64_t best = 0;
    Real best_err;
    bool have = false;
    for (std::uint64_t c = 0; c <= f.mask(); ++c) {
        const Real v = value(f.id, c);
        if (!mpfr_number_p(v.backend().data())) continue;
        const Real diff = v - x;
        const Real err = abs(diff);
        const int cmp = have ? mpfr_cmp(err.backend().data(), best_err.backend().data()) : -1;
        if (cmp < 0 || (cmp == 0 && (c & 1) == 0 && (best & 1) == 1)) {
            best = c;
            best_err = err;
            have = true;
        }
    }
    return best;
}

}  // namespace

TEST_CASE("FP16: the 65504 / 65520 overflow boundary", "[rounding][fp16]") {
    const auto &fp16 = F(NINFER_FORMAT_fp16);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, f32("65504")) == 0x7BFF);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, f32("65519")) == 0x7BFF);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, down1(f32("65520"))) == 0x7BFF);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, f32("65520")) == 0x7C00);  // the midpoint ties to 2^16
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, f32("-65520")) == 0xFC00);
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_fp16_rne), f32("65520")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_fp16_rne), f32("65519")));
    // IEEE overflow under the other roundings.
    const Real x = exact(65520);
    CHECK(round_real(x, fp16, RTZ, OVF_INF) == 0x7BFF);
    CHECK(round_real(exact(70000), fp16, RTZ, OVF_INF) == 0x7BFF);
    CHECK(round_real(x, fp16, RUP, OVF_INF) == 0x7C00);
    CHECK(round_real(exact(-65520), fp16, RUP, OVF_INF) == 0xFBFF);
    CHECK(round_real(exact(-70000), fp16, RUP, OVF_INF) == 0xFBFF);
    CHECK(round_real(x, fp16, RNA, OVF_INF) == 0x7C00);
    CHECK(round_real(exact(-65520), fp16, RNU, OVF_INF) == 0xFBFF);  // tie toward +inf keeps -65504
    CHECK(round_real(exact(65520), fp16, RNE, OVF_SAT) == 0x7BFF);
    CHECK(round_real(exact(65520), fp16, RNE, OVF_NAN) == 0x7E00);
    // Infinity inputs.
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x7F800000) == 0x7C00);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0xFF800000) == 0xFC00);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x7F7FFFFF) == 0x7C00);
}

TEST_CASE("E4M3FN: 448, 464 and 480 under satfinite and NaN-producing conversion", "[rounding][e4m3fn]") {
    const auto sat = NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite;
    const auto nan = NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan;
    CHECK(cv(sat, f32("448")) == 0x7E);
    CHECK(cv(nan, f32("448")) == 0x7E);
    CHECK(cv(sat, f32("464")) == 0x7E);  // tie between 448 (even) and 480: 448
    CHECK(cv(nan, f32("464")) == 0x7E);
    CHECK(conversion_is_tie(C(sat), f32("464")));
    CHECK(cv(sat, up1(f32("464"))) == 0x7E);
    CHECK(cv(nan, up1(f32("464"))) == 0x7F);  // rounds to 480, beyond 448
    CHECK(cv(nan, down1(f32("464"))) == 0x7E);
    CHECK(cv(sat, f32("480")) == 0x7E);
    CHECK(cv(nan, f32("480")) == 0x7F);
    CHECK(cv(sat, f32("-480")) == 0xFE);
    CHECK(cv(nan, f32("-480")) == 0xFF);
    CHECK(cv(sat, 0x7F800000) == 0x7E);
    CHECK(cv(sat, 0xFF800000) == 0xFE);
    CHECK(cv(nan, 0x7F800000) == 0x7F);
    CHECK(cv(nan, 0xFF800000) == 0xFF);
    CHECK(cv(sat, 0x7FC00000) == 0x7F);
    CHECK(cv(sat, 0xFFC00001) == 0xFF);
    CHECK(cv(nan, 0x7F800001) == 0x7F);
    // 'inf' has no meaning for a format without infinities.
    CHECK_THROWS_AS(round_real(exact(1000), F(NINFER_FORMAT_e4m3fn), RNE, OVF_INF), std::invalid_argument);
}

TEST_CASE("BF16: the top of the range near 0x7F7F8000", "[rounding][bf16]") {
    const auto rne = NINFER_CONVERSION_fp32_to_bf16_rne;
    const auto rtz = NINFER_CONVERSION_fp32_to_bf16_rtz;
    // 0x7F7F8000 is halfway between 0x7F7F (odd fraction) and 2^128: the tie goes up to infinity.
    CHECK(cv(rne, 0x7F7F8000) == 0x7F80);
    CHECK(conversion_is_tie(C(rne), 0x7F7F8000));
    CHECK(cv(rne, 0x7F7F7FFF) == 0x7F7F);
    CHECK(cv(rne, 0x7F7FFFFF) == 0x7F80);
    CHECK(cv(rne, 0xFF7F8000) == 0xFF80);
    CHECK(cv(rtz, 0x7F7FFFFF) == 0x7F7F);
    CHECK(cv(rtz, 0xFF7FFFFF) == 0xFF7F);
    CHECK(cv(rtz, 0x7F800000) == 0x7F80);  // infinity stays infinity
    // 0x7F7E8000 is halfway between 0x7F7E (even) and 0x7F7F.
    CHECK(cv(rne, 0x7F7E8000) == 0x7F7E);
}

TEST_CASE("E5M2: 57344 and the 61440 midpoint", "[rounding][e5m2]") {
    const auto sat = NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite;
    const auto inf = NINFER_CONVERSION_fp32_to_e5m2_rne_inf;
    CHECK(cv(sat, f32("57344")) == 0x7B);
    CHECK(cv(inf, f32("57344")) == 0x7B);
    CHECK(cv(sat, down1(f32("61440"))) == 0x7B);
    CHECK(cv(inf, down1(f32("61440"))) == 0x7B);
    CHECK(cv(sat, f32("61440")) == 0x7B);  // tie goes to 2^16 (even), beyond: saturates
    CHECK(cv(inf, f32("61440")) == 0x7C);
    CHECK(cv(inf, f32("-61440")) == 0xFC);
    CHECK(cv(sat, f32("-1e6")) == 0xFB);
    CHECK(cv(inf, 0x7F800000) == 0x7C);
    CHECK(cv(sat, 0xFF800000) == 0xFB);
    CHECK(cv(inf, 0x7FC00000) == 0x7E);
    CHECK(cv(inf, 0xFFFFFFFF) == 0xFE);
}

TEST_CASE("E2M1: ties to even and saturation", "[rounding][e2m1]") {
    const auto c = NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite;
    const std::vector<std::pair<const char *, std::uint64_t>> rows = {
        {"0.25", 0x0}, {"0.75", 0x2}, {"1.25", 0x2}, {"1.75", 0x4}, {"2.5", 0x4},   {"3.5", 0x6},
        {"5", 0x6},    {"6", 0x7},    {"7", 0x7},    {"100", 0x7},  {"-5", 0xE},    {"-0.25", 0x8},
        {"-0.1", 0x8}, {"0.26", 0x1}, {"4.9", 0x6},  {"5.1", 0x7},  {"-0.0", 0x8},  {"0", 0x0}};
    for (const auto &[x, code] : rows) {
        CAPTURE(x);
        CHECK(cv(c, f32(x)) == code);
    }
    for (const char *tie : {"0.25", "0.75", "1.25", "1.75", "2.5", "3.5", "5"}) CHECK(conversion_is_tie(C(c), f32(tie)));
    CHECK(cv(c, 0x7F800000) == 0x7);
    CHECK(cv(c, 0xFF800000) == 0xF);
    CHECK(cv(c, 0x7FC00000) == 0x0);  // NaN outside the conversion's domain: 0 by this oracle's profile
    // rna against rne on the same ties.
    const auto &e2m1 = F(NINFER_FORMAT_e2m1);
    CHECK(round_real(exact(5, -1), e2m1, RNA, OVF_SAT) == 0x5);   // 2.5 -> 3
    CHECK(round_real(exact(5, -1), e2m1, RNE, OVF_SAT) == 0x4);   // 2.5 -> 2
    CHECK(round_real(exact(-5, -1), e2m1, RNA, OVF_SAT) == 0xD);  // -2.5 -> -3
    CHECK(round_real(exact(-5, -1), e2m1, RNU, OVF_SAT) == 0xC);  // -2.5 -> -2 (toward +inf)
    CHECK(round_real(exact(1, -2), e2m1, RNA, OVF_SAT) == 0x1);   // 0.25 -> 0.5
    CHECK(round_real(exact(-1, -2), e2m1, RNE, OVF_SAT) == 0x8);  // -0.25 -> -0
}

TEST_CASE("UE4M3: ggml's half-up scale encoder", "[rounding][ue4m3]") {
    const auto c = NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite;
    CHECK(cv(c, f32("1.0625")) == 0x39);  // tie between 1.0 and 1.125 goes up
    CHECK(cv(c, down1(f32("1.0625"))) == 0x38);
    CHECK(cv(c, f32("1.1875")) == 0x3A);  // tie between 1.125 and 1.25 goes up (rne would too)
    CHECK(cv(c, f32("448")) == 0x7E);
    CHECK(cv(c, f32("464")) == 0x7E);  // up to 480, saturates
    CHECK(cv(c, f32("1e9")) == 0x7E);
    CHECK(cv(c, 0x7F800000) == 0x7E);
    CHECK(cv(c, 0xFF800000) == 0x00);
    CHECK(cv(c, f32("-1")) == 0x00);
    CHECK(cv(c, 0x80000000) == 0x00);
    CHECK(cv(c, 0x00000000) == 0x00);
    CHECK(cv(c, 0x7FC00000) == 0x00);
    CHECK(cv(c, 0xFFC00000) == 0x00);
    CHECK(cv(c, f32("0.0009765625")) == 0x01);  // 2^-10: half the smallest subnormal, ties up
    CHECK(cv(c, f32("0.00048828125")) == 0x00); // 2^-11
    CHECK(cv(c, f32("0.0029296875")) == 0x02);  // 1.5 * 2^-9 ties up to 2 * 2^-9
    CHECK(conversion_is_tie(C(c), f32("1.0625")));
    CHECK_FALSE(conversion_is_tie(C(c), f32("-1")));
    CHECK_THROWS_AS(round_real(exact(-1), F(NINFER_FORMAT_ue4m3), RNU, OVF_SAT), std::invalid_argument);
}

TEST_CASE("E8M0: rtz and rup to powers of two, saturating at both ends", "[rounding][e8m0]") {
    const auto rtz = NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite;
    const auto rup = NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite;
    struct Row {
        std::uint64_t x;
        std::uint64_t down, up;
    };
    const std::vector<Row> rows = {
        {f32("1"), 0x7F, 0x7F},          {f32("1.5"), 0x7F, 0x80},        {f32("3"), 0x80, 0x81},
        {f32("0.75"), 0x7E, 0x7F},       {0x00400000, 0x00, 0x00},  // 2^-127
        {0x00000001, 0x00, 0x00},  // 2^-149: below 2^-127, clamps
        {0x00600000, 0x00, 0x01},  // 1.5 * 2^-127
        {0x7F000000, 0xFE, 0xFE},  // 2^127
        {0x7F400000, 0xFE, 0xFE},  // 1.5 * 2^127: rup reaches 2^128, saturates
        {0x7F7FFFFF, 0xFE, 0xFE},        {0x7F800000, 0xFE, 0xFE},        {0xFF800000, 0x00, 0x00},
        {0x00000000, 0x00, 0x00},        {0x80000000, 0x00, 0x00},        {f32("-3"), 0x00, 0x00},
        {0x7FC00000, 0xFF, 0xFF},        {0xFF800001, 0xFF, 0xFF},
    };
    for (const auto &r : rows) {
        CAPTURE(word_hex(F(NINFER_FORMAT_fp32), r.x));
        CHECK(cv(rtz, r.x) == r.down);
        CHECK(cv(rup, r.x) == r.up);
    }
}

TEST_CASE("Subnormal boundaries: half the smallest subnormal", "[rounding][subnormal]") {
    // fp16: smallest subnormal 2^-24; 2^-25 ties to +0, the next binary32 above rounds up.
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x33000000) == 0x0000);  // 2^-25
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x33000001) == 0x0001);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0xB3000000) == 0x8000);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0xB3000001) == 0x8001);
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x33C00000) == 0x0002);  // 1.5 * 2^-24 ties to even 2
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x387FE000) == 0x0400);  // (2^10 - 0.5) * 2^-24 ties to the min normal
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x387FA000) == 0x03FE);  // (2^10 - 1.5) * 2^-24 ties to even 0x3FE
    // bf16: smallest subnormal 2^-133 = binary32 0x00010000.
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rne, 0x00008000) == 0x0000);
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rne, 0x00008001) == 0x0001);
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rne, 0x00018000) == 0x0002);
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rne, 0x80008000) == 0x8000);
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rtz, 0x0000FFFF) == 0x0000);
    CHECK(cv(NINFER_CONVERSION_fp32_to_bf16_rtz, 0x8001FFFF) == 0x8001);
    // e4m3fn: smallest subnormal 2^-9.
    CHECK(cv(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x3A800000) == 0x00);  // 2^-10
    CHECK(cv(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x3A800001) == 0x01);
    CHECK(cv(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0xBA800000) == 0x80);
    CHECK(cv(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, 0xBA800001) == 0x81);
    // e5m2: smallest subnormal 2^-16.
    CHECK(cv(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, 0x37000000) == 0x00);  // 2^-17
    CHECK(cv(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, 0x37000001) == 0x01);
    CHECK(cv(NINFER_CONVERSION_fp32_to_e5m2_rne_inf, 0xB7000000) == 0x80);
    // Tiny values keep their sign as zeros.
    CHECK(cv(NINFER_CONVERSION_fp32_to_fp16_rne, 0x80000001) == 0x8000);
    CHECK(cv(NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x80000001) == 0x8);
    CHECK(cv(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, 0x80000001) == 0x80);
    CHECK(round_real(exact(-1, -30), F(NINFER_FORMAT_fp16), RTZ, OVF_INF) == 0x8000);
    CHECK(round_real(exact(-1, -30), F(NINFER_FORMAT_fp16), RUP, OVF_INF) == 0x8000);
    CHECK(round_real(exact(1, -30), F(NINFER_FORMAT_fp16), RUP, OVF_INF) == 0x0001);
    CHECK(round_real(exact(-1, -30), F(NINFER_FORMAT_e4m3fn), RNE, OVF_SAT) == 0x80);
    CHECK(round_real(exact(1, -100000), F(NINFER_FORMAT_fp16), RNE, OVF_INF) == 0x0000);  // far below
    CHECK(round_real(exact(1, -100000), F(NINFER_FORMAT_fp16), RUP, OVF_INF) == 0x0001);
    CHECK(round_real(exact(-1, -100000), F(NINFER_FORMAT_fp16), RNA, OVF_INF) == 0x8000);
    CHECK(round_real(exact(3, -26), F(NINFER_FORMAT_fp16), RNE, OVF_INF) == 0x0001);  // 0.75 quantum
    CHECK(round_real(exact(1, -26), F(NINFER_FORMAT_fp16), RNA, OVF_INF) == 0x0000);  // 0.25 quantum
    CHECK(round_real(exact_zero(), F(NINFER_FORMAT_fp16), RNE, OVF_INF) == 0x0000);
    CHECK(round_real(-exact_zero(), F(NINFER_FORMAT_fp16), RNE, OVF_INF) == 0x8000);
}

TEST_CASE("rna, rnu and rne on ties of an integer grid (int32)", "[rounding][int32]") {
    const auto &i32 = F(NINFER_FORMAT_int32);
    struct Row {
        int twice;  // the value is twice / 2
        std::uint32_t rne, rtz, rna, rnu, rup;
    };
    const std::vector<Row> rows = {
        {5, 2, 2, 3, 3, 3},
        {-5, static_cast<std::uint32_t>(-2), static_cast<std::uint32_t>(-2), static_cast<std::uint32_t>(-3),
         static_cast<std::uint32_t>(-2), static_cast<std::uint32_t>(-2)},
        {7, 4, 3, 4, 4, 4},
        {-1, 0, 0, static_cast<std::uint32_t>(-1), 0, 0},
        {1, 0, 0, 1, 1, 1},
    };
    for (const auto &r : rows) {
        CAPTURE(r.twice);
        const Real x = exact(r.twice, -1);
        CHECK(round_real(x, i32, RNE, OVF_SAT) == r.rne);
        CHECK(round_real(x, i32, RTZ, OVF_SAT) == r.rtz);
        CHECK(round_real(x, i32, RNA, OVF_SAT) == r.rna);
        CHECK(round_real(x, i32, RNU, OVF_SAT) == r.rnu);
        CHECK(round_real(x, i32, RUP, OVF_SAT) == r.rup);
    }
    CHECK(round_real(exact(1, 40), i32, RNE, OVF_SAT) == 0x7FFFFFFF);
    CHECK(round_real(exact(-1, 40), i32, RNE, OVF_SAT) == 0x80000000);
    CHECK(round_real(exact(-1, 31), i32, RNE, OVF_SAT) == 0x80000000);
    CHECK_THROWS(round_real(exact(1, 40), i32, RNE, OVF_INF));
}

TEST_CASE("round_quotient rounds once, exact ties included", "[rounding][quotient]") {
    const auto &fp32 = F(NINFER_FORMAT_fp32);
    CHECK(round_quotient(exact(1), exact(3), fp32, RNE, OVF_INF) == 0x3EAAAAAB);
    CHECK(round_quotient(exact(1), exact(3), fp32, RTZ, OVF_INF) == 0x3EAAAAAA);
    CHECK(round_quotient(exact(2), exact(3), fp32, RNE, OVF_INF) == 0x3F2AAAAB);
    CHECK(round_quotient(exact(-1), exact(3), fp32, RUP, OVF_INF) == 0xBEAAAAAA);
    // (2^24 + 1) * 3 / 3 lies halfway between 2^24 and 2^24 + 2.
    const Int n = (Int(1) << 24) + 1;
    CHECK(round_quotient(exact(n * 3), exact(3), fp32, RNE, OVF_INF) == 0x4B800000);
    CHECK(round_quotient(exact(n * 3), exact(3), fp32, RNA, OVF_INF) == 0x4B800001);
    CHECK(round_quotient(exact(-n * 3), exact(3), fp32, RNU, OVF_INF) == 0xCB800000);
    CHECK(round_quotient(exact(n * 3), exact(-3), fp32, RNA, OVF_INF) == 0xCB800001);
    // Subnormal results and signed zeros.
    CHECK(round_quotient(exact(1), exact(Int(1) << 149), fp32, RNE, OVF_INF) == 0x00000001);
    CHECK(round_quotient(exact(1), exact(Int(1) << 150), fp32, RNE, OVF_INF) == 0x00000000);
    CHECK(round_quotient(exact(3), exact(Int(1) << 151), fp32, RNE, OVF_INF) == 0x00000001);
    CHECK(round_quotient(exact(-1), exact(Int(1) << 200), fp32, RNE, OVF_INF) == 0x80000000);
    CHECK(round_quotient(-exact_zero(), exact(5), fp32, RNE, OVF_INF) == 0x80000000);
    CHECK(round_quotient(exact(Int(1) << 200), exact(3), fp32, RNE, OVF_INF) == 0x7F800000);
    CHECK_THROWS_AS(round_quotient(exact(1), exact_zero(), fp32, RNE, OVF_INF), std::invalid_argument);
    // Against MPFR's correctly rounded division with subnormals, on random integer pairs.
    const auto seed = test_seed();
    INFO("seed " << seed << " (set NINFER_TEST_SEED; include this in bug reports)");
    std::mt19937_64 rng(seed);
    for (const auto id : {NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_FORMAT_bf16, NINFER_FORMAT_e4m3fn}) {
        const auto &f = F(id);
        for (int i = 0; i < 3000; ++i) {
            const Int a = Int(rng() >> (rng() % 64)) * ((rng() & 1) ? 1 : -1);
            const Int b = Int((rng() >> (rng() % 64)) | 1);
            const long shift = static_cast<long>(rng() % 80) - 40;
            const Real ra = exact(a, shift), rb = exact(b);
            for (const auto rnd : {RNE, RTZ, RUP}) {
                mpfr_t q;
                mpfr_init2(q, f.man_bits + 1);
                const mpfr_rnd_t mode = rnd == RNE ? MPFR_RNDN : rnd == RTZ ? MPFR_RNDZ : MPFR_RNDU;
                const mpfr_exp_t old_emin = mpfr_get_emin();
                mpfr_set_emin(2 - f.bias - f.man_bits);
                int t = mpfr_div(q, ra.backend().data(), rb.backend().data(), mode);
                mpfr_subnormalize(q, t, mode);
                mpfr_set_emin(old_emin);
                Real ref = exact_zero();
                mpfr_set(ref.backend().data(), q, MPFR_RNDN);
                mpfr_clear(q);
                CAPTURE(f.name, a.str(), b.str(), shift, rnd);
                const auto overflow = f.special == Special::IEEE ? OVF_INF : OVF_SAT;
                CHECK(round_quotient(ra, rb, f, rnd, overflow) == expected_word(ref, f, rnd, overflow));
            }
        }
    }
}

TEST_CASE("Random and structured binary32 inputs against MPFR and the nearest-code search",
          "[rounding][cross-check]") {
    const auto seed = test_seed();
    INFO("seed " << seed << " (set NINFER_TEST_SEED; include this in bug reports)");
    std::mt19937_64 rng(seed);
    // Each narrowing conversion to a signed format, against the MPFR reference.
    for (const auto &c : kConversions) {
        // sr: test_stochastic.cpp (a random value per word)
        if (c.src != NINFER_FORMAT_fp32 || c.dst == NINFER_FORMAT_fp32 || ninfer::abi::is_stochastic(c)) continue;
        const auto &f = F(c.dst);
        if (f.special == Special::E8M0) continue;  // no subnormal grid: covered by the table above
        const int emax = static_cast<int>((1 << f.exp_bits) - 1 - f.bias);
        const int elo = 1 - f.bias - f.man_bits - 3;
        for (int i = 0; i < 20000; ++i) {
            // A binary32 word whose exponent lies around the target's range; a third are exact ties.
            const int k = elo + static_cast<int>(rng() % static_cast<std::uint64_t>(emax + 3 - elo));
            const std::uint64_t exp_field = static_cast<std::uint64_t>(std::clamp(k + 127, 1, 254));
            std::uint64_t frac = rng() & 0x7FFFFF;
            const int cut = 23 - f.man_bits;
            if (i % 3 == 0 && cut > 0) frac = (frac & ~((1ull << cut) - 1)) | (1ull << (cut - 1));
            const bool negative = f.has_sign && (rng() & 1);
            const std::uint64_t w = (negative ? 0x80000000ull : 0) | (exp_field << 23) | frac;
            const Real x = value(NINFER_FORMAT_fp32, w);
            CAPTURE(c.name, word_hex(F(NINFER_FORMAT_fp32), w));
            CHECK(convert_word(c, w) == reference_round(x, f, c.rounding, c.overflow));
        }
    }
    // Every midpoint of adjacent finite words of the 8- and 4-bit formats, and its binary32
    // neighbours: the oracle against the lesson's exhaustive nearest-code search (satfinite).
    for (const auto id : {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite,
                          NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite}) {
        const auto &c = C(id);
        const auto &f = F(c.dst);
        const std::uint64_t top = largest_finite_word(f);
        for (std::uint64_t a = 0; a < top; ++a) {
            const Real mid = (value(f.id, a) + value(f.id, a + 1)) / 2;
            const std::uint64_t w = round_real(mid, F(NINFER_FORMAT_fp32), RNE, OVF_INF);
            REQUIRE(mpfr_equal_p(value(NINFER_FORMAT_fp32, w).backend().data(), mid.backend().data()));
            CHECK(conversion_is_tie(c, w));
            for (const std::uint64_t probe : {w - 1, w, w + 1, w | std::uint64_t{0x80000000}}) {
                CAPTURE(c.name, word_hex(F(NINFER_FORMAT_fp32), probe));
                const std::uint64_t got = convert_word(c, probe);
                const std::uint64_t want = nearest_code_search(f, value(NINFER_FORMAT_fp32, probe));
                const std::uint64_t magnitude_mask = f.mask() >> 1;
                if ((want & magnitude_mask) == 0) CHECK((got & magnitude_mask) == 0);  // the search ignores -0
                else CHECK(got == want);
                if (probe == w - 1 || probe == w + 1) CHECK_FALSE(conversion_is_tie(c, probe));
                else CHECK(conversion_is_tie(c, probe));
            }
        }
    }
    // ue4m3: every midpoint ties up, against MPFR's directed neighbours.
    const auto &ue = F(NINFER_FORMAT_ue4m3);
    for (std::uint64_t a = 0; a < 0x7E; ++a) {
        const Real mid = (value(ue.id, a) + value(ue.id, a + 1)) / 2;
        const std::uint64_t w = round_real(mid, F(NINFER_FORMAT_fp32), RNE, OVF_INF);
        CAPTURE(a);
        CHECK(cv(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, w) == a + 1);
        CHECK(cv(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, w - 1) == a);
        CHECK(cv(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, w) ==
              reference_round(mid, ue, RNU, OVF_SAT));
    }
}

TEST_CASE("Every fp16 and bf16 midpoint against MPFR", "[rounding][cross-check][midpoints]") {
    for (const auto id : {NINFER_CONVERSION_fp32_to_fp16_rne, NINFER_CONVERSION_fp32_to_bf16_rne,
                          NINFER_CONVERSION_fp32_to_bf16_rtz}) {
        const auto &c = C(id);
        const auto &f = F(c.dst);
        const std::uint64_t top = largest_finite_word(f);
        for (std::uint64_t a = 0; a < top; a += (f.id == NINFER_FORMAT_bf16 ? 7 : 1)) {
            const Real mid = (value(f.id, a) + value(f.id, a + 1)) / 2;
            const std::uint64_t w = round_real(mid, F(NINFER_FORMAT_fp32), RNE, OVF_INF);
            // The bf16 low midpoints and every fp16 one are binary32 values.
            if (!mpfr_equal_p(value(NINFER_FORMAT_fp32, w).backend().data(), mid.backend().data())) continue;
            const bool even = (a & 1) == 0;
            const std::uint64_t up = a + 1;
            CAPTURE(c.name, a);
            if (c.rounding == RNE) {
                CHECK(convert_word(c, w) == (even ? a : up));
                CHECK(convert_word(c, w + 1) == up);
                CHECK(convert_word(c, w - 1) == a);
                CHECK(convert_word(c, w | 0x80000000u) == ((even ? a : up) | (1u << 15)));
            } else {
                CHECK(convert_word(c, w) == a);
                CHECK(convert_word(c, w + 1) == a);
            }
            // a midpoint is a tie of the nearest rounding only; truncation has no tie rule
            CHECK(conversion_is_tie(c, w) == (c.rounding == RNE));
        }
    }
}

// ---- The opt-in rounding directions (issue 24 item 2): rows worked by hand from each target's
// grid; each row is checked against the oracle and against ninfer::native. ----

namespace {

/// One input under the four directions of a target: toward zero, nearest-away, up, down.
struct DirRow {
    const char *what;  ///< the input, in words or as a decimal
    std::uint64_t x;   ///< the binary32 input word
    std::uint64_t rtz, rna, rup, rdn;
};

/// Checks a hand-worked row under the conversions of one target (0: the direction is not named).
void check_directions(const std::vector<DirRow> &rows, std::uint32_t rtz, std::uint32_t rna, std::uint32_t rup,
                      std::uint32_t rdn) {
    for (const auto &r : rows) {
        const std::pair<std::uint32_t, std::uint64_t> by_direction[] = {{rtz, r.rtz}, {rna, r.rna}, {rup, r.rup}, {rdn, r.rdn}};
        for (const auto &[id, want] : by_direction) {
            if (id == 0) continue;
            CAPTURE(r.what, C(id).name);
            CHECK(cv(id, r.x) == want);
            CHECK(ninfer::native::convert_word(id, r.x) == want);
        }
    }
}

}  // namespace

TEST_CASE("BF16 under rtz, rna, rup, rdn: ties, one-sided values and the IEEE overflow", "[rounding][bf16][directions]") {
    // bf16 keeps 7 fraction bits: at 1.0 the step is 2^-7, 1.00390625 = 1 + 2^-8 the midpoint of
    // 0x3F80 (even) and 0x3F81; 1.001 lies just above 1.0; the largest finite is 0x7F7F.
    check_directions(
        {
            {"1.00390625 (tie)", f32("1.00390625"), 0x3F80, 0x3F81, 0x3F81, 0x3F80},
            {"-1.00390625 (tie)", f32("-1.00390625"), 0xBF80, 0xBF81, 0xBF80, 0xBF81},
            {"-1.0625 (exact)", f32("-1.0625"), 0xBF88, 0xBF88, 0xBF88, 0xBF88},
            {"-1.0664 (8.4992 steps above 1: nearer 0xBF88)", f32("-1.0664"), 0xBF88, 0xBF88, 0xBF88, 0xBF89},
            {"1.001", f32("1.001"), 0x3F80, 0x3F80, 0x3F81, 0x3F80},
            {"-1.001", f32("-1.001"), 0xBF80, 0xBF80, 0xBF80, 0xBF81},
            {"largest binary32: beyond the midpoint above 0x7F7F", 0x7F7FFFFF, 0x7F7F, 0x7F80, 0x7F80, 0x7F7F},
            {"-largest binary32", 0xFF7FFFFF, 0xFF7F, 0xFF80, 0xFF7F, 0xFF80},
            {"one ulp above the largest bf16", 0x7F7F0001, 0x7F7F, 0x7F7F, 0x7F80, 0x7F7F},
            {"one ulp below -largest bf16", 0xFF7F0001, 0xFF7F, 0xFF7F, 0xFF7F, 0xFF80},
            {"+Inf stays infinite", 0x7F800000, 0x7F80, 0x7F80, 0x7F80, 0x7F80},
            {"-Inf stays infinite", 0xFF800000, 0xFF80, 0xFF80, 0xFF80, 0xFF80},
            {"smallest binary32 subnormal (bf16 quantum 2^-133)", 0x00000001, 0x0000, 0x0000, 0x0001, 0x0000},
            {"-smallest binary32 subnormal", 0x80000001, 0x8000, 0x8000, 0x8000, 0x8001},
            {"half the smallest bf16 subnormal (tie)", 0x00008000, 0x0000, 0x0001, 0x0001, 0x0000},
            {"signalling NaN: sign, top payload, quiet bit", 0xFFA00000, 0xFFE0, 0xFFE0, 0xFFE0, 0xFFE0},
        },
        NINFER_CONVERSION_fp32_to_bf16_rtz, NINFER_CONVERSION_fp32_to_bf16_rna, NINFER_CONVERSION_fp32_to_bf16_rup,
        NINFER_CONVERSION_fp32_to_bf16_rdn);
}

TEST_CASE("FP16 under rtz, rna, rup, rdn: the 65504 boundary in each direction", "[rounding][fp16][directions]") {
    // fp16: largest finite 65504 (0x7BFF), step 32 there, so 65505 rounds up to 65536, beyond it;
    // 1 + 2^-11 is the midpoint of 0x3C00 (even) and 0x3C01; the smallest subnormal is 2^-24.
    check_directions(
        {
            {"65505", f32("65505"), 0x7BFF, 0x7BFF, 0x7C00, 0x7BFF},
            {"-65505", f32("-65505"), 0xFBFF, 0xFBFF, 0xFBFF, 0xFC00},
            {"65520 (the midpoint to 65536)", f32("65520"), 0x7BFF, 0x7C00, 0x7C00, 0x7BFF},
            {"-65520", f32("-65520"), 0xFBFF, 0xFC00, 0xFBFF, 0xFC00},
            {"1e6", f32("1e6"), 0x7BFF, 0x7C00, 0x7C00, 0x7BFF},
            {"-1e6", f32("-1e6"), 0xFBFF, 0xFC00, 0xFBFF, 0xFC00},
            {"65504 exactly", f32("65504"), 0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF},
            {"1 + 2^-11 (tie)", f32("1.00048828125"), 0x3C00, 0x3C01, 0x3C01, 0x3C00},
            {"-(1 + 2^-11) (tie)", f32("-1.00048828125"), 0xBC00, 0xBC01, 0xBC00, 0xBC01},
            {"2^-25 (half the smallest subnormal)", 0x33000000, 0x0000, 0x0001, 0x0001, 0x0000},
            {"-2^-25", 0xB3000000, 0x8000, 0x8001, 0x8000, 0x8001},
            {"3 * 2^-26 (0.75 of the smallest subnormal)", 0x33400000, 0x0000, 0x0001, 0x0001, 0x0000},
            {"2^-26 (a quarter)", 0x32800000, 0x0000, 0x0000, 0x0001, 0x0000},
            {"-2^-26", 0xB2800000, 0x8000, 0x8000, 0x8000, 0x8001},
            {"+Inf", 0x7F800000, 0x7C00, 0x7C00, 0x7C00, 0x7C00},
            {"-Inf", 0xFF800000, 0xFC00, 0xFC00, 0xFC00, 0xFC00},
            {"-0", 0x80000000, 0x8000, 0x8000, 0x8000, 0x8000},
        },
        NINFER_CONVERSION_fp32_to_fp16_rtz, NINFER_CONVERSION_fp32_to_fp16_rna, NINFER_CONVERSION_fp32_to_fp16_rup,
        NINFER_CONVERSION_fp32_to_fp16_rdn);
}

TEST_CASE("E4M3FN saturating under rtz, rna, rup, rdn", "[rounding][e4m3fn][directions]") {
    // E4M3FN: step 2^-3 at 1.0 (1.0625 the midpoint of 0x38 and 0x39), largest finite 448 (0x7E)
    // with the next step 480 on 0x7F, the NaN: every direction saturates to +-448.
    check_directions(
        {
            {"1.0625 (tie)", f32("1.0625"), 0x38, 0x39, 0x39, 0x38},
            {"-1.0625 (tie)", f32("-1.0625"), 0xB8, 0xB9, 0xB8, 0xB9},
            {"1.1", f32("1.1"), 0x38, 0x39, 0x39, 0x38},
            {"449: rup reaches 480, saturates", f32("449"), 0x7E, 0x7E, 0x7E, 0x7E},
            {"-449", f32("-449"), 0xFE, 0xFE, 0xFE, 0xFE},
            {"464 (midpoint to 480)", f32("464"), 0x7E, 0x7E, 0x7E, 0x7E},
            {"1e9", f32("1e9"), 0x7E, 0x7E, 0x7E, 0x7E},
            {"+Inf saturates", 0x7F800000, 0x7E, 0x7E, 0x7E, 0x7E},
            {"-Inf saturates", 0xFF800000, 0xFE, 0xFE, 0xFE, 0xFE},
            {"2^-10 (half the smallest subnormal)", 0x3A800000, 0x00, 0x01, 0x01, 0x00},
            {"-2^-10", 0xBA800000, 0x80, 0x81, 0x80, 0x81},
            {"quiet NaN", 0x7FC00000, 0x7F, 0x7F, 0x7F, 0x7F},
            {"-quiet NaN", 0xFFC00000, 0xFF, 0xFF, 0xFF, 0xFF},
        },
        NINFER_CONVERSION_fp32_to_e4m3fn_rtz_satfinite, NINFER_CONVERSION_fp32_to_e4m3fn_rna_satfinite,
        NINFER_CONVERSION_fp32_to_e4m3fn_rup_satfinite, NINFER_CONVERSION_fp32_to_e4m3fn_rdn_satfinite);
}

TEST_CASE("E5M2 under rtz, rna, rup, rdn: satfinite and the IEEE overflow", "[rounding][e5m2][directions]") {
    // E5M2: step 2^-2 at 1.0 (1.125 the midpoint of 0x3C and 0x3D), largest finite 57344 (0x7B),
    // step 8192 there (61440 the midpoint to 65536); 0x7C is +Inf.
    const std::vector<DirRow> common = {
        {"1.125 (tie)", f32("1.125"), 0x3C, 0x3D, 0x3D, 0x3C},
        {"-1.125 (tie)", f32("-1.125"), 0xBC, 0xBD, 0xBC, 0xBD},
        {"1.3", f32("1.3"), 0x3D, 0x3D, 0x3E, 0x3D},
        {"2^-17 (half the smallest subnormal)", 0x37000000, 0x00, 0x01, 0x01, 0x00},
        {"-2^-17", 0xB7000000, 0x80, 0x81, 0x80, 0x81},
        {"quiet NaN", 0x7FC00000, 0x7E, 0x7E, 0x7E, 0x7E},
    };
    check_directions(common, NINFER_CONVERSION_fp32_to_e5m2_rtz_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rna_satfinite,
                     NINFER_CONVERSION_fp32_to_e5m2_rup_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rdn_satfinite);
    check_directions(common, NINFER_CONVERSION_fp32_to_e5m2_rtz_inf, NINFER_CONVERSION_fp32_to_e5m2_rna_inf,
                     NINFER_CONVERSION_fp32_to_e5m2_rup_inf, NINFER_CONVERSION_fp32_to_e5m2_rdn_inf);
    check_directions(
        {
            {"57345", f32("57345"), 0x7B, 0x7B, 0x7B, 0x7B},
            {"61440 (midpoint)", f32("61440"), 0x7B, 0x7B, 0x7B, 0x7B},
            {"-1e6", f32("-1e6"), 0xFB, 0xFB, 0xFB, 0xFB},
            {"+Inf", 0x7F800000, 0x7B, 0x7B, 0x7B, 0x7B},
            {"-Inf", 0xFF800000, 0xFB, 0xFB, 0xFB, 0xFB},
        },
        NINFER_CONVERSION_fp32_to_e5m2_rtz_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rna_satfinite,
        NINFER_CONVERSION_fp32_to_e5m2_rup_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rdn_satfinite);
    check_directions(
        {
            {"57345", f32("57345"), 0x7B, 0x7B, 0x7C, 0x7B},
            {"-57345", f32("-57345"), 0xFB, 0xFB, 0xFB, 0xFC},
            {"61440 (midpoint)", f32("61440"), 0x7B, 0x7C, 0x7C, 0x7B},
            {"-61440", f32("-61440"), 0xFB, 0xFC, 0xFB, 0xFC},
            {"1e6", f32("1e6"), 0x7B, 0x7C, 0x7C, 0x7B},
            {"+Inf", 0x7F800000, 0x7C, 0x7C, 0x7C, 0x7C},
            {"-Inf", 0xFF800000, 0xFC, 0xFC, 0xFC, 0xFC},
        },
        NINFER_CONVERSION_fp32_to_e5m2_rtz_inf, NINFER_CONVERSION_fp32_to_e5m2_rna_inf,
        NINFER_CONVERSION_fp32_to_e5m2_rup_inf, NINFER_CONVERSION_fp32_to_e5m2_rdn_inf);
}

TEST_CASE("E2M1 under rtz, rna, rup, rdn", "[rounding][e2m1][directions]") {
    // E2M1 magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 on codes 0..7; sign bit 0x8; saturating at 6.
    check_directions(
        {
            {"2.5 (tie)", f32("2.5"), 0x4, 0x5, 0x5, 0x4},
            {"-2.5 (tie)", f32("-2.5"), 0xC, 0xD, 0xC, 0xD},
            {"5 (tie of 4 and 6)", f32("5"), 0x6, 0x7, 0x7, 0x6},
            {"0.25 (tie of 0 and 0.5)", f32("0.25"), 0x0, 0x1, 0x1, 0x0},
            {"0.1", f32("0.1"), 0x0, 0x0, 0x1, 0x0},
            {"-0.1", f32("-0.1"), 0x8, 0x8, 0x8, 0x9},
            {"6.5: rup beyond 6 saturates", f32("6.5"), 0x7, 0x7, 0x7, 0x7},
            {"-100", f32("-100"), 0xF, 0xF, 0xF, 0xF},
            {"+Inf", 0x7F800000, 0x7, 0x7, 0x7, 0x7},
            {"-Inf", 0xFF800000, 0xF, 0xF, 0xF, 0xF},
        },
        NINFER_CONVERSION_fp32_to_e2m1_rtz_satfinite, NINFER_CONVERSION_fp32_to_e2m1_rna_satfinite,
        NINFER_CONVERSION_fp32_to_e2m1_rup_satfinite, NINFER_CONVERSION_fp32_to_e2m1_rdn_satfinite);
}

TEST_CASE("UE4M3 under rtz and rup: unsigned, saturating, x <= 0 and NaN to 0x00", "[rounding][ue4m3][directions]") {
    // UE4M3: the E4M3 magnitudes on 7 bits; smallest subnormal 2^-9 (0x01), largest 448 (0x7E).
    // An unsigned target has rna = rnu (no negative tie) and rdn = rtz: those are not named.
    check_directions(
        {
            {"1.0625 (tie)", f32("1.0625"), 0x38, 0, 0x39, 0},
            {"1 + 2^-23", 0x3F800001, 0x38, 0, 0x39, 0},
            {"1", f32("1"), 0x38, 0, 0x38, 0},
            {"smallest binary32 subnormal", 0x00000001, 0x00, 0, 0x01, 0},
            {"2^-10", 0x3A800000, 0x00, 0, 0x01, 0},
            {"449: rup reaches 480, saturates", f32("449"), 0x7E, 0, 0x7E, 0},
            {"+Inf", 0x7F800000, 0x7E, 0, 0x7E, 0},
            {"-Inf", 0xFF800000, 0x00, 0, 0x00, 0},
            {"-1", f32("-1"), 0x00, 0, 0x00, 0},
            {"-smallest subnormal", 0x80000001, 0x00, 0, 0x00, 0},
            {"quiet NaN", 0x7FC00000, 0x00, 0, 0x00, 0},
        },
        NINFER_CONVERSION_fp32_to_ue4m3_rtz_satfinite, 0, NINFER_CONVERSION_fp32_to_ue4m3_rup_satfinite, 0);
}

TEST_CASE("E8M0 under rna: the even neighbour of a tie is the upper power of two", "[rounding][e8m0][directions]") {
    const auto rna = NINFER_CONVERSION_fp32_to_e8m0_rna_satfinite;
    // 1.5 lies halfway between 2^0 (0x7F) and 2^1 (0x80): on E8M0's grid (quantum 2^k in [2^k,
    // 2^(k+1))) 2^k is 1 quantum (odd) and 2^(k+1) is 2 (even), so ties to even goes up, as away does.
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> rows = {
        {f32("1.5"), 0x80},      {f32("3"), 0x81},        {f32("1"), 0x7F},        {f32("1.4"), 0x7F},
        {f32("0.75"), 0x7F},     {f32("0.7"), 0x7E},      {f32("6"), 0x82},        {f32("5.9"), 0x81},
        {0x00300000, 0x00},      // 0.75 * 2^-127: the tie of 2^-128 (no word) and 2^-127 clamps to 0x00
        {0x00600000, 0x01},      // 1.5 * 2^-127 ties up to 2^-126
        {0x00000001, 0x00},      // 2^-149 clamps to 2^-127
        {0x7F400000, 0xFE},      // 1.5 * 2^127 ties to 2^128: saturates
        {0x7F7FFFFF, 0xFE},      {0x7F800000, 0xFE},      {0xFF800000, 0x00},      {f32("-3"), 0x00},
        {0x80000000, 0x00},      {0x00000000, 0x00},      {0x7FC00000, 0xFF},      {0xFFC00001, 0xFF},
    };
    for (const auto &[x, want] : rows) {
        CAPTURE(word_hex(F(NINFER_FORMAT_fp32), x));
        CHECK(cv(rna, x) == want);
        CHECK(ninfer::native::convert_word(rna, x) == want);
    }
    // On E8M0's grid ties to even, away and up agree (round_real with rne and rnu against rna).
    const auto &e8m0 = F(NINFER_FORMAT_e8m0);
    for (int k = -126; k <= 126; k += 3) {
        CAPTURE(k);
        const Real tie = exact(3, k - 1);  // 1.5 * 2^k
        CHECK(round_real(tie, e8m0, RNA, OVF_SAT) == static_cast<std::uint64_t>(k + 128));
        CHECK(round_real(tie, e8m0, RNE, OVF_SAT) == static_cast<std::uint64_t>(k + 128));
        CHECK(round_real(tie, e8m0, RNU, OVF_SAT) == static_cast<std::uint64_t>(k + 128));
    }
}

TEST_CASE("rdn on an integer grid and round_real's rdn overflow words", "[rounding][rdn]") {
    const auto &i32 = F(NINFER_FORMAT_int32);
    CHECK(round_real(exact(5, -1), i32, RDN, OVF_SAT) == 2);                               // 2.5 -> 2
    CHECK(round_real(exact(-5, -1), i32, RDN, OVF_SAT) == static_cast<std::uint32_t>(-3)); // -2.5 -> -3
    CHECK(round_real(exact(-1, -1), i32, RDN, OVF_SAT) == static_cast<std::uint32_t>(-1)); // -0.5 -> -1
    CHECK(round_real(exact(1, -1), i32, RDN, OVF_SAT) == 0);                               // 0.5 -> 0
    CHECK(round_real(exact(-4), i32, RDN, OVF_SAT) == static_cast<std::uint32_t>(-4));     // exact
    const auto &fp16 = F(NINFER_FORMAT_fp16);
    CHECK(round_real(exact(1, 17), fp16, RDN, OVF_INF) == 0x7BFF);   // 2^17: the largest finite
    CHECK(round_real(exact(-1, 17), fp16, RDN, OVF_INF) == 0xFC00);  // -2^17: -Inf
    CHECK(round_real(exact(-1, 17), fp16, RDN, OVF_SAT) == 0xFBFF);
    CHECK(round_real(exact(-1, -100000), fp16, RDN, OVF_INF) == 0x8001);  // far below: -2^-24
    CHECK(round_real(exact(1, -100000), fp16, RDN, OVF_INF) == 0x0000);
}

TEST_CASE("conversion_is_tie: midpoints are ties under rna only among the new directions", "[rounding][directions]") {
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rna), f32("1.00390625")));
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_e8m0_rna_satfinite), f32("1.5")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_e8m0_rna_satfinite), f32("1.4")));
    // the same midpoints under directed roundings: no tie rule
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rup), f32("1.00390625")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rdn), f32("1.00390625")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_fp16_rtz), f32("1.00048828125")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_e2m1_rdn_satfinite), f32("2.5")));
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_e2m1_rna_satfinite), f32("2.5")));
}

TEST_CASE("convert_word_many equals convert_word for every conversion of one source", "[rounding][many]") {
    std::vector<const Conversion *> fp32_sources;
    for (const auto &c : kConversions)
        if (c.src == NINFER_FORMAT_fp32 && !ninfer::abi::is_stochastic(c)) fp32_sources.push_back(&c);  // sr needs bits
    REQUIRE(fp32_sources.size() > 1);
    std::mt19937_64 rng(test_seed());
    std::vector<std::uint64_t> words = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00001, 0xFF800001,
                                        0x00000001, 0x3F800000, 0x7F7FFFFF, 0xC7800000};
    for (int i = 0; i < 2000; ++i) words.push_back(rng() & 0xFFFFFFFFu);
    std::vector<std::uint64_t> out(fp32_sources.size());
    for (const auto w : words) {
        convert_word_many(fp32_sources, w, out.data());
        for (std::size_t k = 0; k < fp32_sources.size(); ++k) {
            CAPTURE(fp32_sources[k]->name, word_hex(F(NINFER_FORMAT_fp32), w));
            CHECK(out[k] == convert_word(*fp32_sources[k], w));
        }
    }
    const Conversion *mixed[] = {&C(NINFER_CONVERSION_fp32_to_bf16_rne), &C(NINFER_CONVERSION_bf16_to_fp32)};
    CHECK_THROWS_AS(convert_word_many(mixed, 0, out.data()), std::invalid_argument);
}
