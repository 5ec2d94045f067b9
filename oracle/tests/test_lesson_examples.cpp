// SPDX-License-Identifier: Apache-2.0
// Every word-level output printed by number-formats-lesson.txt Examples 1-9 and 13, recomputed
// by the oracle. Expected values are the lesson's printed outputs, typed in from the text.
// Java prints floats as the shortest decimal that designates them; such a value is checked by
// rounding the printed decimal to binary32 and comparing words.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "scalar_test_support.hpp"

using namespace ninfer::oracle;
using namespace ninfer::oracle::test;

namespace {

constexpr auto RNE = detail::rounding_rne;
constexpr auto OVF_INF = detail::overflow_inf;

const WordFormat &fp32() { return F(NINFER_FORMAT_fp32); }
const WordFormat &fp16() { return F(NINFER_FORMAT_fp16); }
const WordFormat &bf16() { return F(NINFER_FORMAT_bf16); }

/// Java's Float.floatToFloat16 (binary16 RNE, infinity on overflow).
std::uint64_t to_fp16(std::uint64_t f32_word) { return convert_word(C(NINFER_CONVERSION_fp32_to_fp16_rne), f32_word); }

/// Round an exact real to binary32 (a Java float operation's result).
std::uint64_t round_f32(const Real &x) { return round_real(x, fp32(), RNE, OVF_INF); }

}  // namespace

TEST_CASE("Example 1: the fields of 1.0f, -2.5f and 0.1f", "[lesson][example-1]") {
    struct Row {
        const char *literal;
        std::uint64_t bits;
        unsigned sign, exp, mant;
        const char *rebuilt;  // Java's double text of the rebuilt value
    };
    const std::vector<Row> rows = {{"1.0", 0x3F800000, 0, 127, 0x000000, "1.0"},
                                   {"-2.5", 0xC0200000, 1, 128, 0x200000, "-2.5"},
                                   {"0.1", 0x3DCCCCCD, 0, 123, 0x4CCCCD, "0.10000000149011612"}};
    for (const auto &r : rows) {
        CAPTURE(r.literal);
        const std::uint64_t w = f32(r.literal);
        CHECK(w == r.bits);
        CHECK((w >> 31) == r.sign);
        CHECK(((w >> 23) & 0xFF) == r.exp);
        CHECK((w & 0x7FFFFF) == r.mant);
        // rebuilt = (-1)^sign * (1 + mant / 2^23) * 2^(exp - 127), exactly the decoded value
        Int significand = 0x800000 + r.mant;
        if (r.sign) significand = -significand;
        const Real rebuilt = exact(significand, static_cast<long>(r.exp) - 127 - 23);
        CHECK(mpfr_equal_p(rebuilt.backend().data(), value(NINFER_FORMAT_fp32, w).backend().data()));
        // The printed double designates the decoded binary64 word.
        Int num, den;
        decimal_ratio(r.rebuilt, num, den);
        CHECK(decode_to_binary64(fp32(), w) == round_quotient(exact(num), exact(den), kBinary64, RNE, OVF_INF));
    }
    // 0.1 is the quotient 1/10 rounded once.
    CHECK(round_quotient(exact(1), exact(10), fp32(), RNE, OVF_INF) == 0x3DCCCCCD);
}

TEST_CASE("Example 2: the exact value of 0.1f, ulps, and 2^24 + 1", "[lesson][example-2]") {
    CHECK(word_value_text(fp32(), f32("0.1")) == "0.100000001490116119384765625");
    const std::vector<std::pair<const char *, const char *>> ulps = {
        {"1", "1.1920929E-7"}, {"1000", "6.1035156E-5"}, {"1000000", "0.0625"}, {"16777216", "2.0"}};
    for (const auto &[x, ulp] : ulps) {
        CAPTURE(x);
        const std::uint64_t w = f32(x);
        const Real gap = value(NINFER_FORMAT_fp32, w + 1) - value(NINFER_FORMAT_fp32, w);
        CHECK(round_f32(gap) == f32(ulp));
    }
    CHECK(word_value_text(fp32(), f32("1000000") + 1) == "1000000.0625");
    // 16777216f + 1f == 16777216f: the sum lies halfway and rounds back to the even neighbour.
    CHECK(round_f32(value(NINFER_FORMAT_fp32, f32("16777216")) + exact(1)) == f32("16777216"));
    CHECK(f32("16777216") == 0x4B800000);
}

TEST_CASE("Example 3: FP16 rounding, maximum and overflow", "[lesson][example-3]") {
    struct Row {
        std::uint64_t input;  // binary32 word of the Java float
        std::uint64_t bits;
        const char *round_trip;
    };
    const std::vector<Row> rows = {
        {f32("0.1"), 0x2E66, "0.099975586"},
        {round_quotient(exact(1), exact(3), fp32(), RNE, OVF_INF), 0x3555, "0.33325195"},  // 1f / 3
        {f32("3.14159265"), 0x4248, "3.140625"},
        {f32("1000.3"), 0x63D1, "1000.5"},
        {f32("65504"), 0x7BFF, "65504.0"},
        {f32("65519"), 0x7BFF, "65504.0"},
        {f32("65520"), 0x7C00, "Infinity"},
        {f32("100000"), 0x7C00, "Infinity"},
    };
    for (const auto &r : rows) {
        CAPTURE(word_hex(fp32(), r.input));
        const std::uint64_t h = to_fp16(r.input);
        CHECK(h == r.bits);
        CHECK(widen_to_f32(NINFER_FORMAT_fp16, h) == f32(r.round_trip));
    }
    // ulp at 1.0 in FP16: roundTrip(1f + 1f/1024) - 1f
    const std::uint64_t h = to_fp16(f32("1.0009765625"));
    CHECK(h == 0x3C01);
    CHECK(round_f32(value(NINFER_FORMAT_fp16, h) - exact(1)) == f32("9.765625E-4"));
    // The largest finite value and the midpoint to 2^16, as the text derives them.
    CHECK(largest_finite_word(fp16()) == 0x7BFF);
    CHECK(word_value_text(fp16(), 0x7BFF) == "65504");
}

TEST_CASE("Example 4: FP16 subnormals and underflow", "[lesson][example-4]") {
    CHECK(to_fp16(f32("6.103515625E-5")) == 0x0400);  // 2^-14
    CHECK(widen_to_f32(NINFER_FORMAT_fp16, 0x0400) == f32("6.1035156E-5"));
    CHECK(to_fp16(f32("5.9604644775390625E-8")) == 0x0001);  // 2^-24
    CHECK(widen_to_f32(NINFER_FORMAT_fp16, 0x0001) == f32("5.9604645E-8"));
    const std::vector<std::pair<const char *, std::uint64_t>> rows = {{"1e-4", 0x068E}, {"1e-5", 0x00A8},
                                                                      {"1e-6", 0x0011}, {"1e-7", 0x0002},
                                                                      {"3e-8", 0x0001}, {"2.9e-8", 0x0000}};
    for (const auto &[x, bits] : rows) {
        CAPTURE(x);
        CHECK(to_fp16(f32(x)) == bits);
    }
    // 1e-7 / 2^-24 = 1.68 steps -> 2 steps = 1.19e-7 (printed 1.192093e-07)
    CHECK(word_value_text(fp16(), 0x0002) == "0.00000011920928955078125");
}

TEST_CASE("Example 5: FP32 to BF16 by truncation and by round to nearest even", "[lesson][example-5]") {
    struct Row {
        const char *x;
        std::uint64_t trunc_bits;
        const char *trunc_value;
        std::uint64_t rne_bits;
        const char *rne_value;
    };
    const std::vector<Row> rows = {
        {"3.14159265", 0x4049, "3.140625", 0x4049, "3.140625"},
        {"0.1", 0x3DCC, "0.099609375", 0x3DCD, "0.100097656"},
        {"1.00390625", 0x3F80, "1.0", 0x3F80, "1.0"},
        {"1.01171875", 0x3F81, "1.0078125", 0x3F82, "1.015625"},
        {"65520.0", 0x477F, "65280.0", 0x4780, "65536.0"},
        {"3.0E38", 0x7F61, "2.990763E38", 0x7F62, "3.0040553E38"},
    };
    for (const auto &r : rows) {
        CAPTURE(r.x);
        const std::uint64_t w = f32(r.x);
        const std::uint64_t t = convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rtz), w);
        const std::uint64_t n = convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rne), w);
        CHECK(t == r.trunc_bits);
        CHECK(n == r.rne_bits);
        CHECK(widen_to_f32(NINFER_FORMAT_bf16, t) == f32(r.trunc_value));
        CHECK(widen_to_f32(NINFER_FORMAT_bf16, n) == f32(r.rne_value));
    }
    // The tie rows: 1.00390625 and 1.01171875 lie halfway between two BF16 neighbours.
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rne), f32("1.00390625")));
    CHECK(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rne), f32("1.01171875")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rne), f32("0.1")));
    CHECK_FALSE(conversion_is_tie(C(NINFER_CONVERSION_fp32_to_bf16_rtz), f32("1.00390625")));  // directed: no tie
    // "NaN stays NaN (quiet)": (bits >>> 16) | 64
    CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rne), 0x7F800001) == 0x7FC0);
    CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rne), 0xFFA00000) == 0xFFE0);
    CHECK(convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rtz), 0x7FC12345) == 0x7FC1);
}

TEST_CASE("Example 6: FP16 and BF16 side by side", "[lesson][example-6]") {
    struct Row {
        const char *x;
        const char *fp16_value;
        const char *bf16_value;
    };
    const std::vector<Row> rows = {
        {"1.0E-8", "0.0", "1.0011718E-8"},        {"1.0E-6", "1.013279E-6", "9.983778E-7"},
        {"0.1", "0.099975586", "0.100097656"},    {"1000.5", "1000.5", "1000.0"},
        {"70000.0", "Infinity", "70144.0"},       {"1.0E10", "Infinity", "9.999221E9"},
    };
    for (const auto &r : rows) {
        CAPTURE(r.x);
        const std::uint64_t w = f32(r.x);
        const std::uint64_t h = to_fp16(w);
        const std::uint64_t b = convert_word(C(NINFER_CONVERSION_fp32_to_bf16_rne), w);
        CHECK(widen_to_f32(NINFER_FORMAT_fp16, h) == f32(r.fp16_value));
        CHECK(widen_to_f32(NINFER_FORMAT_bf16, b) == f32(r.bf16_value));
    }
    CHECK(to_fp16(f32("1.0E-8")) == 0x0000);   // underflow
    CHECK(to_fp16(f32("70000.0")) == 0x7C00);  // overflow
    CHECK(to_fp16(f32("1000.5")) == 0x63D1);   // exact in FP16
}

TEST_CASE("Example 7: sum of squares in FP32, FP16 and BF16 with the outlier", "[lesson][example-7]") {
    // x[i] = (i % 7 - 3) * 0.5, x[1234] = 300; every step rounds as the Java program does.
    const Real half = exact(1, -1);
    std::uint64_t s32 = 0, s16 = 0, sbf = 0;  // +0 words of fp32, fp16, bf16
    for (int i = 0; i < 4096; ++i) {
        const std::uint64_t v = i == 1234 ? f32("300") : round_f32(exact(i % 7 - 3) * half);
        const Real v_value = value(NINFER_FORMAT_fp32, v);
        const std::uint64_t vv = round_f32(v_value * v_value);  // v * v in float
        const Real vv_value = value(NINFER_FORMAT_fp32, vv);
        s32 = round_f32(value(NINFER_FORMAT_fp32, s32) + vv_value);
        // s16 = fp16(s16 + fp16(v * v)): fp16() returns a float, the sum is a float addition
        const Real h = value(NINFER_FORMAT_fp16, round_real(vv_value, fp16(), RNE, OVF_INF));
        s16 = round_real(value(NINFER_FORMAT_fp32, round_f32(value(NINFER_FORMAT_fp16, s16) + h)), fp16(), RNE,
                         OVF_INF);
        const Real b = value(NINFER_FORMAT_bf16, round_real(vv_value, bf16(), RNE, OVF_INF));
        sbf = round_real(value(NINFER_FORMAT_fp32, round_f32(value(NINFER_FORMAT_bf16, sbf) + b)), bf16(), RNE,
                         OVF_INF);
    }
    CHECK(word_value_text(fp32(), s32) == "94097");  // sum of squares FP32 = 94097.0
    CHECK(s16 == 0x7C00);                             // sum of squares FP16 = Infinity
    CHECK(word_value_text(bf16(), sbf) == "91136");  // sum of squares BF16 = 91136.0
}

TEST_CASE("Example 8: FP8 E4M3 decoder, grid and saturating encoder", "[lesson][example-8]") {
    const auto &e4m3 = F(NINFER_FORMAT_e4m3fn);
    CHECK(word_value_text(e4m3, 0x7E) == "448");
    CHECK(word_value_text(e4m3, 0x08) == "0.015625");
    CHECK(word_value_text(e4m3, 0x01) == "0.001953125");
    CHECK(word_value_text(e4m3, 0x38) == "1");
    const std::vector<std::string> grid = {"0.5",  "0.5625", "0.625", "0.6875", "0.75",  "0.8125",
                                           "0.875", "0.9375", "1.0",   "1.125",  "1.25",  "1.375",
                                           "1.5",  "1.625",  "1.75",  "1.875",  "2.0"};
    for (std::uint64_t c = 0x30; c <= 0x40; ++c) CHECK(word_value_text(e4m3, c) == strip_point_zero(grid[c - 0x30]));
    struct Row {
        const char *x;
        std::uint64_t code;
        const char *decoded;
    };
    const std::vector<Row> rows = {{"1.06", 0x38, "1.0"},   {"1.07", 0x39, "1.125"}, {"0.3", 0x2A, "0.3125"},
                                   {"300", 0x79, "288.0"},  {"500", 0x7E, "448.0"},  {"-2.2", 0xC1, "-2.25"},
                                   {"0.001", 0x01, "0.001953125"}};
    for (const auto &r : rows) {
        CAPTURE(r.x);
        const std::uint64_t c = convert_word(C(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite), f32(r.x));
        CHECK(c == r.code);
        CHECK(word_value_text(e4m3, c) == strip_point_zero(r.decoded));
    }
}

TEST_CASE("Example 9: FP8 E5M2 decoder, grid, saturating encoder and the FP16 top byte", "[lesson][example-9]") {
    const auto &e5m2 = F(NINFER_FORMAT_e5m2);
    CHECK(word_value_text(e5m2, 0x7B) == "57344");
    CHECK(widen_to_f32(NINFER_FORMAT_e5m2, 0x04) == f32("6.1035156E-5"));
    CHECK(widen_to_f32(NINFER_FORMAT_e5m2, 0x01) == f32("1.5258789E-5"));
    const std::vector<std::string> grid = {"0.5", "0.625", "0.75", "0.875", "1.0", "1.25", "1.5", "1.75", "2.0"};
    for (std::uint64_t c = 0x38; c <= 0x40; ++c) CHECK(word_value_text(e5m2, c) == strip_point_zero(grid[c - 0x38]));
    struct Row {
        const char *x;
        std::uint64_t code;
        const char *decoded;
    };
    const std::vector<Row> rows = {{"1.06", 0x3C, "1.0"},   {"1.07", 0x3C, "1.0"},   {"0.3", 0x35, "0.3125"},
                                   {"300", 0x5D, "320.0"},  {"500", 0x60, "512.0"},  {"-2.2", 0xC0, "-2.0"},
                                   {"0.001", 0x14, "9.765625E-4"}};
    for (const auto &r : rows) {
        CAPTURE(r.x);
        const std::uint64_t c = convert_word(C(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite), f32(r.x));
        CHECK(c == r.code);
        CHECK(widen_to_f32(NINFER_FORMAT_e5m2, c) == f32(r.decoded));
    }
    const std::uint64_t h = to_fp16(f32("1.5"));
    CHECK(h == 0x3E00);
    CHECK((h >> 8) == convert_word(C(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite), f32("1.5")));
    CHECK((h >> 8) == 0x3E);
}

TEST_CASE("Example 13: all 16 E2M1 values", "[lesson][example-13]") {
    const auto &e2m1 = F(NINFER_FORMAT_e2m1);
    const std::vector<std::string> values = {"0.0",  "0.5",  "1.0",  "1.5",  "2.0",  "3.0",  "4.0",  "6.0",
                                             "-0.0", "-0.5", "-1.0", "-1.5", "-2.0", "-3.0", "-4.0", "-6.0"};
    const int ggml_doubled[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};  // kvalues_fp4
    for (std::uint64_t c = 0; c < 16; ++c) {
        CAPTURE(c);
        CHECK(word_value_text(e2m1, c) == strip_point_zero(values[c]));
        const Real doubled = value(NINFER_FORMAT_e2m1, c) * 2;
        CHECK(mpfr_cmp_si(doubled.backend().data(), ggml_doubled[c]) == 0);
        CHECK(widen_to_f32(NINFER_FORMAT_e2m1, c) == f32(values[c]));
    }
}
