// SPDX-License-Identifier: Apache-2.0
// Exact values, classes, binary64 decodes and validity verdicts of scalar words
// (tensor-formats.txt Sections 3.1, 3.3, 3.4 and 6; OCP FP8 and MX definitions). Every word of
// every format up to 16 bits is checked against an independent integer formula typed from the
// spec text; binary32 and int32 against boundary and pattern tables. Then widening/narrowing
// round trips of every finite 16-bit and smaller word.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "scalar_test_support.hpp"

using namespace ninfer::oracle;
using namespace ninfer::oracle::test;

namespace {

enum class Kind { IEEE, FN, NONE, E8M0 };

/// A format as the spec text describes it, typed in independently of registry.h.
struct SpecFormat {
    std::uint32_t id;
    int bits, exp_bits, man_bits, bias;
    Kind kind;
    bool has_sign;
    std::uint64_t words;  ///< words enumerated (ue4m3: 256 byte values, 128 of them outside)
};

const std::vector<SpecFormat> &spec_formats() {
    static const std::vector<SpecFormat> formats = {
        {NINFER_FORMAT_bf16, 16, 8, 7, 127, Kind::IEEE, true, 1u << 16},
        {NINFER_FORMAT_fp16, 16, 5, 10, 15, Kind::IEEE, true, 1u << 16},
        {NINFER_FORMAT_e4m3fn, 8, 4, 3, 7, Kind::FN, true, 256},
        {NINFER_FORMAT_e5m2, 8, 5, 2, 15, Kind::IEEE, true, 256},
        {NINFER_FORMAT_e2m1, 4, 2, 1, 1, Kind::NONE, true, 16},
        {NINFER_FORMAT_e8m0, 8, 8, 0, 127, Kind::E8M0, false, 256},
        {NINFER_FORMAT_ue4m3, 7, 4, 3, 7, Kind::FN, false, 256},
    };
    return formats;
}

/// What the spec says a word is: class, sign, and for finite words value = sig * 2^exp.
struct Expected {
    std::uint8_t cls = 0;
    bool negative = false;
    std::int64_t sig = 0;
    long exp = 0;
    std::uint64_t nan64 = 0;  ///< an IEEE NaN: its binary64 word with every bit kept
};

Expected expected_word(const SpecFormat &s, std::uint64_t w) {
    Expected e;
    if (w >= (1ull << s.bits)) {
        e.cls = NINFER_CLASS_OUTSIDE;
        return e;
    }
    if (s.kind == Kind::E8M0) {  // 2^(w - 127); 0xFF is NaN
        e.cls = w == 0xFF ? NINFER_CLASS_NAN : NINFER_CLASS_NORMAL;
        e.sig = 1;
        e.exp = static_cast<long>(w) - 127;
        return e;
    }
    const std::uint64_t man = w & ((1ull << s.man_bits) - 1);
    const std::uint64_t ex = (w >> s.man_bits) & ((1ull << s.exp_bits) - 1);
    const std::uint64_t exp_ones = (1ull << s.exp_bits) - 1, man_ones = (1ull << s.man_bits) - 1;
    e.negative = s.has_sign && (w >> (s.bits - 1)) != 0;
    if (s.kind == Kind::IEEE && ex == exp_ones) {
        e.cls = man == 0 ? NINFER_CLASS_INFINITE
                         : ((man >> (s.man_bits - 1)) ? NINFER_CLASS_QNAN : NINFER_CLASS_SNAN);
        e.nan64 = (e.negative ? 1ull << 63 : 0) | 0x7FF0000000000000ull | (man << (52 - s.man_bits));
        return e;
    }
    if (s.kind == Kind::FN && ex == exp_ones && man == man_ones) {
        e.cls = NINFER_CLASS_NAN;
        return e;
    }
    if (ex == 0) {  // zero or subnormal: man * 2^(1 - bias - man_bits)
        e.cls = man == 0 ? NINFER_CLASS_ZERO : NINFER_CLASS_SUBNORMAL;
        e.sig = static_cast<std::int64_t>(man);
        e.exp = 1 - s.bias - s.man_bits;
    } else {  // (2^man_bits + man) * 2^(ex - bias - man_bits)
        e.cls = NINFER_CLASS_NORMAL;
        e.sig = static_cast<std::int64_t>((1ull << s.man_bits) + man);
        e.exp = static_cast<long>(ex) - s.bias - s.man_bits;
    }
    if (e.negative) e.sig = -e.sig;
    return e;
}

bool is_nan(std::uint8_t cls) {
    return cls == NINFER_CLASS_QNAN || cls == NINFER_CLASS_SNAN || cls == NINFER_CLASS_NAN;
}

/// binary64 bits of sig * 2^exp assembled from fields (all registry values are binary64 normals).
std::uint64_t binary64_bits(bool negative, std::uint64_t magnitude, long exp) {
    const std::uint64_t sign = negative ? 1ull << 63 : 0;
    if (magnitude == 0) return sign;
    int top = 63;
    while (!((magnitude >> top) & 1)) --top;
    const std::uint64_t frac = (top <= 52 ? magnitude << (52 - top) : magnitude >> (top - 52)) & ((1ull << 52) - 1);
    return sign | (static_cast<std::uint64_t>(exp + top + 1023) << 52) | frac;
}

std::uint64_t expected_binary64(const Expected &e) {
    if (e.cls == NINFER_CLASS_OUTSIDE) return 0x7FF8000000000000ull;
    if (e.nan64) return e.nan64;  // an IEEE NaN keeps every bit (the NaN principle)
    if (is_nan(e.cls)) return 0x7FF8000000000000ull | (e.negative ? 1ull << 63 : 0);
    if (e.cls == NINFER_CLASS_INFINITE) return 0x7FF0000000000000ull | (e.negative ? 1ull << 63 : 0);
    return binary64_bits(e.negative, static_cast<std::uint64_t>(e.sig < 0 ? -e.sig : e.sig), e.exp);
}

/// Check word_info, word_class_byte and decode_to_binary64 of one word against `e`.
void check_word(const WordFormat &f, std::uint64_t w, const Expected &e) {
    CAPTURE(f.name, word_hex(f, w));
    const auto info = word_info(f, w);
    REQUIRE(info.cls == e.cls);
    CHECK(info.negative == e.negative);
    CHECK(word_class_byte(f, w) == (e.cls | (e.negative ? NINFER_CLASS_SIGN : 0u)));
    CHECK(decode_to_binary64(f, w) == expected_binary64(e));
    const auto *v = info.value.backend().data();
    if (e.cls == NINFER_CLASS_INFINITE) {
        CHECK(mpfr_inf_p(v));
        CHECK((mpfr_signbit(v) != 0) == e.negative);
    } else if (is_nan(e.cls) || e.cls == NINFER_CLASS_OUTSIDE) {
        CHECK(mpfr_nan_p(v));
    } else if (e.sig == 0) {
        CHECK(mpfr_zero_p(v));
        CHECK((mpfr_signbit(v) != 0) == e.negative);
    } else {
        CHECK(mpfr_cmp_si_2exp(v, static_cast<long>(e.sig), e.exp) == 0);
    }
}

/// The verdict a role's summary gives a word with these properties.
std::uint8_t expected_verdict(std::uint32_t role_id, const Expected &e) {
    const bool zero = (e.cls == NINFER_CLASS_ZERO);
    if (e.cls == NINFER_CLASS_OUTSIDE) return NINFER_VERDICT_OUTSIDE;
    if (is_nan(e.cls)) return NINFER_VERDICT_NAN;
    switch (role_id) {
    case NINFER_ROLE_grouped_fp16_scale:  // +0 or finite nonzero of either sign
        if (e.cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
        return zero && e.negative ? NINFER_VERDICT_NEGATIVE_ZERO : NINFER_VERDICT_VALID;
    case NINFER_ROLE_q2_fp16_scale:  // every finite word
        return e.cls == NINFER_CLASS_INFINITE ? NINFER_VERDICT_INFINITE : NINFER_VERDICT_VALID;
    case NINFER_ROLE_fp8_weight_code: return NINFER_VERDICT_VALID;  // every finite E4M3FN word
    case NINFER_ROLE_nvfp4_e4m3_scale:
    case NINFER_ROLE_bf16_row_multiplier:
    case NINFER_ROLE_fp16_row_multiplier:  // sign zero and finite
        if (e.cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
        if (zero && e.negative) return NINFER_VERDICT_NEGATIVE_ZERO;
        return e.negative ? NINFER_VERDICT_NEGATIVE : NINFER_VERDICT_VALID;
    case NINFER_ROLE_fp32_weight_divisor:  // finite and strictly positive
        if (e.cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
        if (zero) return e.negative ? NINFER_VERDICT_NEGATIVE_ZERO : NINFER_VERDICT_ZERO;
        return e.negative ? NINFER_VERDICT_NEGATIVE : NINFER_VERDICT_VALID;
    default: FAIL("role without an expectation"); return 0;
    }
}

const SpecFormat &spec_of(std::uint32_t id) {
    for (const auto &s : spec_formats())
        if (s.id == id) return s;
    throw std::invalid_argument("no spec format");
}

/// binary32 as the spec describes it, for the pattern table.
const SpecFormat kFp32{NINFER_FORMAT_fp32, 32, 8, 23, 127, Kind::IEEE, true, 0};

}  // namespace

TEST_CASE("The registry's geometry matches the spec text", "[values][registry]") {
    for (const auto &s : spec_formats()) {
        const auto &f = F(s.id);
        CAPTURE(f.name);
        CHECK(f.bits == s.bits);
        CHECK(f.has_sign == s.has_sign);
        if (s.kind != Kind::E8M0) {
            CHECK(f.exp_bits == s.exp_bits);
            CHECK(f.man_bits == s.man_bits);
        }
        CHECK(f.bias == s.bias);
    }
}

TEST_CASE("Special values: largest finite words, classes with signs, texts", "[values][special]") {
    CHECK(largest_finite_word(F(NINFER_FORMAT_fp32)) == 0x7F7FFFFF);
    CHECK(largest_finite_word(F(NINFER_FORMAT_bf16)) == 0x7F7F);
    CHECK(largest_finite_word(F(NINFER_FORMAT_fp16)) == 0x7BFF);
    CHECK(largest_finite_word(F(NINFER_FORMAT_int32)) == 0x7FFFFFFF);
    CHECK(largest_finite_word(F(NINFER_FORMAT_e4m3fn)) == 0x7E);
    CHECK(largest_finite_word(F(NINFER_FORMAT_e5m2)) == 0x7B);
    CHECK(largest_finite_word(F(NINFER_FORMAT_e2m1)) == 0x7);
    CHECK(largest_finite_word(F(NINFER_FORMAT_e8m0)) == 0xFE);
    CHECK(largest_finite_word(F(NINFER_FORMAT_ue4m3)) == 0x7E);
    CHECK(word_value_text(F(NINFER_FORMAT_fp32), 0x7F7FFFFF) == "340282346638528859811704183484516925440");
    CHECK(word_value_text(F(NINFER_FORMAT_e8m0), 0xFE) == "170141183460469231731687303715884105728");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0x0001) == "0.000000059604644775390625");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0x8000) == "-0");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0x0000) == "0");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0x7C00) == "inf");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0xFC00) == "-inf");
    CHECK(word_value_text(F(NINFER_FORMAT_fp16), 0xFE01) == "nan");
    CHECK(word_value_text(F(NINFER_FORMAT_int32), 0x80000000) == "-2147483648");
    CHECK(word_value_text(F(NINFER_FORMAT_int32), 0x7FFFFFFF) == "2147483647");
    CHECK(word_value_text(F(NINFER_FORMAT_e2m1), 0xD) == "-3");
    CHECK(word_value_text(F(NINFER_FORMAT_e8m0), 0x00).size() == 2 + 127);  // 2^-127: 127 fraction digits
    CHECK(word_value_text(F(NINFER_FORMAT_ue4m3), 0x80) == "nan");
    CHECK(word_hex(F(NINFER_FORMAT_bf16), 0x3F80) == "3f80");
    CHECK(word_hex(F(NINFER_FORMAT_fp32), 0x3F800000) == "3f800000");
    CHECK(word_hex(F(NINFER_FORMAT_e2m1), 0xF) == "f");
    CHECK(word_hex(F(NINFER_FORMAT_ue4m3), 0x7E) == "7e");
    CHECK(word_hex(F(NINFER_FORMAT_e4m3fn), 0x05) == "05");
    CHECK(word_hex(F(NINFER_FORMAT_fp16), 0x12345) == "12345");  // wider than the format: all digits
    CHECK(word_class_byte(F(NINFER_FORMAT_fp16), 0x8001) == (NINFER_CLASS_SUBNORMAL | NINFER_CLASS_SIGN));
    CHECK(word_class_byte(F(NINFER_FORMAT_int32), 0xFFFFFFFF) == (NINFER_CLASS_INTEGER | NINFER_CLASS_SIGN));
    CHECK(word_class_byte(F(NINFER_FORMAT_int32), 0) == NINFER_CLASS_INTEGER);
    CHECK(word_class_byte(F(NINFER_FORMAT_ue4m3), 0x80) == NINFER_CLASS_OUTSIDE);
    CHECK(word_class_byte(F(NINFER_FORMAT_e4m3fn), 0xFF) == (NINFER_CLASS_NAN | NINFER_CLASS_SIGN));
    CHECK(word_class_byte(F(NINFER_FORMAT_fp32), 0xFFC00000) == (NINFER_CLASS_QNAN | NINFER_CLASS_SIGN));
    CHECK(word_class_byte(F(NINFER_FORMAT_fp32), 0x7F800001) == NINFER_CLASS_SNAN);
    CHECK(word_class_byte(F(NINFER_FORMAT_e2m1), 0x1) == NINFER_CLASS_SUBNORMAL);
    CHECK(word_class_byte(F(NINFER_FORMAT_e2m1), 0x10) == NINFER_CLASS_OUTSIDE);
    const auto nan_info = word_info(F(NINFER_FORMAT_fp32), 0xFFA12345);
    CHECK_FALSE(nan_info.quiet);
    CHECK(nan_info.payload == 0x212345);
    CHECK(decode_to_binary64(F(NINFER_FORMAT_ue4m3), 0x80) == 0x7FF8000000000000ull);
    // An IEEE NaN keeps every bit, a signalling one stays signalling (issue 21, the NaN principle).
    CHECK(decode_to_binary64(F(NINFER_FORMAT_fp32), 0xFF800001) == 0xFFF0000020000000ull);
    CHECK(decode_to_binary64(F(NINFER_FORMAT_int32), 0x80000000) == 0xC1E0000000000000ull);
    CHECK(decode_to_binary64(F(NINFER_FORMAT_fp32), 0x00000001) == 0x36A0000000000000ull);  // 2^-149
    CHECK_THROWS_AS(ordered_index(F(NINFER_FORMAT_fp16), 0x7E00), std::invalid_argument);
}

TEST_CASE("Every word of every format up to 16 bits: class, exact value, binary64", "[values][exhaustive]") {
    for (const auto &s : spec_formats()) {
        const auto &f = F(s.id);
        for (std::uint64_t w = 0; w < s.words; ++w) check_word(f, w, expected_word(s, w));
        check_word(f, s.words + 5, Expected{NINFER_CLASS_OUTSIDE, false, 0, 0});
    }
}

TEST_CASE("binary32 and int32 words on a table of exponents and fraction patterns", "[values][fp32]") {
    const auto &fp32 = F(NINFER_FORMAT_fp32);
    std::mt19937_64 rng(20261129u);
    std::vector<std::uint64_t> fracs = {0, 1, 2, 3, 0x200000, 0x400000, 0x400001, 0x3FFFFF, 0x7FFFFE, 0x7FFFFF};
    for (int i = 0; i < 6; ++i) fracs.push_back(rng() & 0x7FFFFF);
    for (std::uint64_t sign = 0; sign < 2; ++sign)
        for (std::uint64_t ex = 0; ex < 256; ++ex)
            for (const auto frac : fracs) {
                const std::uint64_t w = (sign << 31) | (ex << 23) | frac;
                check_word(fp32, w, expected_word(kFp32, w));
            }
    const auto &i32 = F(NINFER_FORMAT_int32);
    std::vector<std::uint64_t> ints = {0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x00FFFFFF,
                                       0x01000001};
    for (int i = 0; i < 64; ++i) ints.push_back(rng() & 0xFFFFFFFF);
    for (const auto w : ints) {
        const bool neg = w >= 0x80000000;
        const std::int64_t v = neg ? static_cast<std::int64_t>(w) - (1ll << 32) : static_cast<std::int64_t>(w);
        CAPTURE(w);
        const auto info = word_info(i32, w);
        CHECK(info.cls == NINFER_CLASS_INTEGER);
        CHECK(info.negative == neg);
        CHECK(mpfr_cmp_si(info.value.backend().data(), static_cast<long>(v)) == 0);
        CHECK(decode_to_binary64(i32, w) == binary64_bits(neg, static_cast<std::uint64_t>(neg ? -v : v), 0));
        CHECK(ordered_index(i32, w) == v);
    }
}

TEST_CASE("Role verdicts on every word of the role's format", "[values][roles]") {
    for (const auto &r : kRoles) {
        const auto &f = F(r.format);
        CAPTURE(r.name);
        std::size_t valid = 0;
        if (r.format == NINFER_FORMAT_fp32) {
            std::mt19937_64 rng(7);
            std::vector<std::uint64_t> words = {0, 0x80000000, 1, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                                                0xFF800000, 0x7FC00000, 0xFF800001, 0x3F800000, 0xBF800000};
            for (int i = 0; i < 2000; ++i) words.push_back(rng() & 0xFFFFFFFF);
            for (const auto w : words) {
                CAPTURE(word_hex(f, w));
                CHECK(role_verdict(r, w) == expected_verdict(r.id, expected_word(kFp32, w)));
            }
            continue;
        }
        const auto &s = spec_of(r.format);
        for (std::uint64_t w = 0; w < (1ull << s.bits); ++w) {
            const auto v = role_verdict(r, w);
            CAPTURE(word_hex(f, w));
            CHECK(v == expected_verdict(r.id, expected_word(s, w)));
            valid += v == NINFER_VERDICT_VALID;
        }
        CHECK(role_verdict(r, 1ull << s.bits) == NINFER_VERDICT_OUTSIDE);
        // Counts read off the role summaries.
        switch (r.id) {
        case NINFER_ROLE_grouped_fp16_scale: CHECK(valid == 65536 - 2048 - 1); break;
        case NINFER_ROLE_q2_fp16_scale: CHECK(valid == 65536 - 2048); break;
        case NINFER_ROLE_nvfp4_e4m3_scale: CHECK(valid == 0x7F); break;
        case NINFER_ROLE_fp8_weight_code: CHECK(valid == 254); break;
        case NINFER_ROLE_bf16_row_multiplier: CHECK(valid == 0x7F80); break;
        case NINFER_ROLE_fp16_row_multiplier: CHECK(valid == 0x7C00); break;
        default: break;
        }
    }
    const auto &divisor = role(NINFER_ROLE_fp32_weight_divisor);
    CHECK(role_verdict(divisor, 0x00000000) == NINFER_VERDICT_ZERO);
    CHECK(role_verdict(divisor, 0x80000000) == NINFER_VERDICT_NEGATIVE_ZERO);
    CHECK(role_verdict(divisor, 0x00000001) == NINFER_VERDICT_VALID);
    CHECK(role_verdict(divisor, 0xBF800000) == NINFER_VERDICT_NEGATIVE);
    CHECK(role_verdict(divisor, 0xFF800000) == NINFER_VERDICT_INFINITE);
    CHECK(role_verdict(divisor, 0xFFC00000) == NINFER_VERDICT_NAN);
    CHECK(role_verdict(role(NINFER_ROLE_grouped_fp16_scale), 0x8001) == NINFER_VERDICT_VALID);
    CHECK(role_verdict(role(NINFER_ROLE_nvfp4_e4m3_scale), 0x80) == NINFER_VERDICT_NEGATIVE_ZERO);
    CHECK(role_verdict(role(NINFER_ROLE_nvfp4_e4m3_scale), 0xFF) == NINFER_VERDICT_NAN);
    CHECK(role_verdict(role(NINFER_ROLE_nvfp4_e4m3_scale), 0x81) == NINFER_VERDICT_NEGATIVE);
}

TEST_CASE("ordered_index: consecutive over the sorted non-NaN words, -0 one step below +0", "[values][ordered]") {
    for (const auto &s : spec_formats()) {
        const auto &f = F(s.id);
        CAPTURE(f.name);
        std::vector<std::pair<Real, std::uint64_t>> words;
        for (std::uint64_t w = 0; w < (1ull << s.bits); ++w) {
            const auto info = word_info(f, w);
            if (!mpfr_nan_p(info.value.backend().data())) words.emplace_back(info.value, w);
        }
        std::sort(words.begin(), words.end(), [](const auto &a, const auto &b) {
            const int c = mpfr_cmp(a.first.backend().data(), b.first.backend().data());
            if (c != 0) return c < 0;
            return mpfr_signbit(a.first.backend().data()) > mpfr_signbit(b.first.backend().data());
        });
        for (std::size_t i = 1; i < words.size(); ++i) {
            CAPTURE(word_hex(f, words[i].second));
            CHECK(ordered_index(f, words[i].second) - ordered_index(f, words[i - 1].second) == 1);
        }
        if (s.has_sign) {
            const std::uint64_t neg_zero = 1ull << (s.bits - 1);
            CHECK(ordered_index(f, neg_zero) == -1);
            CHECK(ordered_index(f, 0) == 0);
        } else {
            CHECK(ordered_index(f, 0x05) == 0x05);
        }
    }
}

TEST_CASE("Widening then narrowing round-trips every finite word", "[values][round-trip]") {
    // bf16 <-> fp32: every word widens to w << 16 (NaN payloads included) and comes back.
    for (std::uint64_t w = 0; w < 0x10000; ++w) {
        CAPTURE(w);
        const std::uint64_t wide = convert_word(C(NINFER_CONVERSION_bf16_to_fp32), w);
        REQUIRE(wide == w << 16);
        const bool nan = (w & 0x7F80) == 0x7F80 && (w & 0x7F) != 0;
        CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rne), wide) == (nan ? (w | 0x40) : w));
        CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rtz), wide) == (nan ? (w | 0x40) : w));
        if (!nan) CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rne), wide));
    }
    // fp16 <-> fp32: finite words and infinities come back; NaNs keep sign and payload, quieted.
    for (std::uint64_t w = 0; w < 0x10000; ++w) {
        CAPTURE(w);
        const std::uint64_t sign = (w >> 15) << 31, ex = (w >> 10) & 0x1F, frac = w & 0x3FF;
        const std::uint64_t wide = convert_word(C(NINFER_CONVERSION_fp16_to_fp32), w);
        const bool nan = ex == 0x1F && frac != 0;
        if (nan) CHECK(wide == (sign | 0x7F800000 | (frac << 13)));
        else CHECK((ex == 0x1F || mpfr_equal_p(value(NINFER_FORMAT_fp32, wide).backend().data(),
                                                value(NINFER_FORMAT_fp16, w).backend().data())));
        CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_fp16_rne), wide) == (nan ? (w | 0x200) : w));
    }
    // The 8- and 4-bit formats through binary32 and back by each narrowing conversion.
    struct Pair {
        std::uint32_t widen;
        std::vector<std::uint32_t> narrow;
        std::uint64_t words;
    };
    const std::vector<Pair> pairs = {
        {NINFER_CONVERSION_e4m3fn_to_fp32,
         {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan}, 256},
        {NINFER_CONVERSION_e5m2_to_fp32,
         {NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, NINFER_CONVERSION_fp32_to_e5m2_rne_inf}, 256},
        {NINFER_CONVERSION_e2m1_to_fp32, {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite}, 16},
        {NINFER_CONVERSION_e8m0_to_fp32,
         {NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite, NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite}, 256},
        {NINFER_CONVERSION_ue4m3_to_fp32, {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite}, 128},
    };
    for (const auto &p : pairs) {
        const auto &src = F(C(p.widen).src);
        for (std::uint64_t w = 0; w < p.words; ++w) {
            CAPTURE(src.name, w);
            const auto info = word_info(src, w);
            const std::uint64_t wide = convert_word(C(p.widen), w);
            if (!mpfr_number_p(info.value.backend().data())) continue;
            CHECK(mpfr_equal_p(value(NINFER_FORMAT_fp32, wide).backend().data(), info.value.backend().data()));
            CHECK((wide >> 31) == (info.negative ? 1u : 0u));
            for (const auto n : p.narrow) CHECK(convert_word(C(n), wide) == w);
        }
    }
    // NaN words widen to the NaNs the conversion's rule names.
    CHECK(convert_word(C(NINFER_CONVERSION_e4m3fn_to_fp32), 0x7F) == 0x7FC00000);
    CHECK(convert_word(C(NINFER_CONVERSION_e4m3fn_to_fp32), 0xFF) == 0xFFC00000);
    CHECK(convert_word(C(NINFER_CONVERSION_e5m2_to_fp32), 0xFD) == 0xFFA00000);  // sNaN payload kept
    CHECK(convert_word(C(NINFER_CONVERSION_e5m2_to_fp32), 0x7E) == 0x7FC00000);
    CHECK(convert_word(C(NINFER_CONVERSION_e5m2_to_fp32), 0x7C) == 0x7F800000);
    CHECK(convert_word(C(NINFER_CONVERSION_e8m0_to_fp32), 0xFF) == 0x7FC00000);
    CHECK(convert_word(C(NINFER_CONVERSION_e8m0_to_fp32), 0x00) == 0x00400000);  // 2^-127, a binary32 subnormal
    CHECK(convert_word(C(NINFER_CONVERSION_ue4m3_to_fp32), 0x7F) == 0x7FC00000);
    CHECK(convert_word(C(NINFER_CONVERSION_ue4m3_to_fp32), 0x80) == 0x7FC00000);  // outside: a NaN
    CHECK(convert_word(C(NINFER_CONVERSION_fp16_to_fp32), 0xFD01) == 0xFFA02000);
    CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_fp16_rne), 0xFFA02000) == 0xFF01);
    CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_fp16_rne), 0x7F800001) == 0x7E00);
}

TEST_CASE("conversion_accepts under each NaN rule", "[values][accepts]") {
    const auto &to_fp16 = C(NINFER_CONVERSION_fp32_to_fp16_rne);  // ANY_SIGNED
    CHECK(conversion_accepts(to_fp16, 0x7FC00000, 0x7E00, 0x7E00));
    CHECK(conversion_accepts(to_fp16, 0x7FC00000, 0x7E00, 0x7C01));
    CHECK_FALSE(conversion_accepts(to_fp16, 0x7FC00000, 0x7E00, 0xFE00));
    CHECK_FALSE(conversion_accepts(to_fp16, 0x7FC00000, 0x7E00, 0x7C00));
    CHECK_FALSE(conversion_accepts(to_fp16, f32("1"), 0x3C00, 0x3C01));
    const auto &to_e4m3 = C(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan);  // ANY
    CHECK(conversion_accepts(to_e4m3, 0xFFC00000, 0xFF, 0x7F));
    CHECK_FALSE(conversion_accepts(to_e4m3, 0xFFC00000, 0xFF, 0x7E));
    const auto &to_bf16 = C(NINFER_CONVERSION_fp32_to_bf16_rne);  // QUIET_TRUNC
    CHECK_FALSE(conversion_accepts(to_bf16, 0x7FC10000, 0x7FC1, 0x7FC0));
    CHECK(conversion_accepts(to_bf16, 0x7FC10000, 0x7FC1, 0x7FC1));
    const auto &widen = C(NINFER_CONVERSION_bf16_to_fp32);  // EXACT
    CHECK_FALSE(conversion_accepts(widen, 0x7F81, 0x7F810000, 0x7FC10000));
    const auto &ue = C(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite);  // ZERO
    CHECK_FALSE(conversion_accepts(ue, 0x7FC00000, 0x00, 0x7F));
    CHECK(conversion_accepts(ue, 0x7FC00000, 0x00, 0x00));
}
