// SPDX-License-Identifier: Apache-2.0
// grouped_absmax, tensor-formats.txt Section 7.2: the integral rounding examples, reciprocal
// multiply against division, binary16 scale rounding, the 0x0001 rescue, overflow, non-finite
// sources, all-zero groups, Q8 never -128, partial groups. Expected words are derived by hand
// in the comments (binary32 / binary16 bit patterns of exactly representable values).
#include <catch2/catch.hpp>
#include <cstring>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/scalar.hpp"

using namespace ninfer::oracle;

namespace {

const GroupedFormat &gf(std::uint32_t id) { return grouped_format(id); }

std::vector<std::uint8_t> le_bytes(const std::vector<std::uint32_t> &words, int width) {
    std::vector<std::uint8_t> out;
    for (const auto w : words) ninfer::abi::append_le(out, w, width);
    return out;
}

EncodeResult absmax32(std::uint32_t fmt, std::uint64_t rows, std::uint64_t cols, const std::vector<std::uint32_t> &w) {
    return grouped_absmax(gf(fmt), NINFER_FORMAT_fp32, rows, cols, le_bytes(w, 4));
}

const WordFormat &F32() { return word_format(NINFER_FORMAT_fp32); }
const WordFormat &F16() { return word_format(NINFER_FORMAT_fp16); }

}  // namespace

TEST_CASE("7.2 integral rounding examples: ties to even", "[grouped][absmax]") {
    // +-0.5 -> 0, +-1.5 -> +-2, +-2.5 -> +-2
    CHECK(f32_round_integral_even(0x3F000000u) == 0);
    CHECK(f32_round_integral_even(0xBF000000u) == 0);
    CHECK(f32_round_integral_even(0x3FC00000u) == 2);
    CHECK(f32_round_integral_even(0xBFC00000u) == -2);
    CHECK(f32_round_integral_even(0x40200000u) == 2);
    CHECK(f32_round_integral_even(0xC0200000u) == -2);
    CHECK(f32_round_integral_even(0x40600000u) == 4);    // 3.5
    CHECK(f32_round_integral_even(0x3F000001u) == 1);    // just above 0.5
    CHECK(f32_round_integral_even(0x3EFFFFFFu) == 0);    // just below 0.5
    CHECK(f32_round_integral_even(0x00000001u) == 0);    // 2^-149
    CHECK(f32_round_integral_even(0x42FE0000u) == 127);  // 127
    SECTION("through the encoder: amax 7 gives scale 1 and inv32 1, so normalized = x") {
        // q4 group [7, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5]
        const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 7,
                                {0x40E00000u, 0x3F000000u, 0xBF000000u, 0x3FC00000u, 0xBFC00000u, 0x40200000u, 0xC0200000u});
        REQUIRE(r.status == NINFER_OK);
        REQUIRE(r.m.scales == std::vector<std::uint16_t>{0x3C00});
        REQUIRE(r.m.codes == std::vector<std::int8_t>{7, 0, 0, 2, -2, 2, -2});
        const std::uint32_t x[] = {0x40E00000u, 0x3F000000u};
        const auto t = grouped_absmax_group(gf(NINFER_FORMAT_q4_g64_fp16), x);
        CHECK(t.amax32 == 0x40E00000u);
        CHECK(t.raw_scale32 == 0x3F800000u);
        CHECK(t.scale16 == 0x3C00u);
        CHECK(t.inv32 == 0x3F800000u);
        CHECK_FALSE(t.rescued);
        CHECK(t.normalized32 == std::vector<std::uint32_t>{0x40E00000u, 0x3F000000u});
    }
}

TEST_CASE("7.2 reciprocal multiply, not division", "[grouped][absmax]") {
    // Search, with the scalar oracle's exact rounding, the first binary16 scale in [1,2) and
    // x = (k + 1/2) * s (a binary32) where round_f32(x * inv32) and round_f32(x / s) round to
    // different integers. Found offline and pinned: s = 0x3CCC (1.19921875), k = 3,
    // x = 4.197265625 = 0x40865000, inv32 = 0x3F5578E9, x * inv32 -> 3.4999998 (code 3),
    // x / s = 3.5 exactly (code 4).
    const auto &f32 = F32();
    Real one = exact_zero();
    one = 1;
    std::uint16_t found_s = 0;
    int found_k = -1;
    std::uint32_t found_x = 0, found_inv = 0;
    for (std::uint32_t w = 0x3C00; w < 0x4000 && found_k < 0; ++w) {
        const Real s = word_info(F16(), w).value;
        const auto inv = round_quotient(one, s, f32, detail::rounding_rne, detail::overflow_inf);
        for (int k = 0; k < 7; ++k) {
            const Real xr = s * (2 * k + 1) / 2;
            const auto x = round_real(xr, f32, detail::rounding_rne, detail::overflow_inf);
            if (word_info(f32, x).value != xr) continue;
            const auto mul = round_real(word_info(f32, x).value * word_info(f32, inv).value, f32, detail::rounding_rne,
                                        detail::overflow_inf);
            const auto div = round_quotient(word_info(f32, x).value, s, f32, detail::rounding_rne, detail::overflow_inf);
            if (f32_round_integral_even(static_cast<std::uint32_t>(mul)) !=
                f32_round_integral_even(static_cast<std::uint32_t>(div))) {
                found_s = static_cast<std::uint16_t>(w);
                found_k = k;
                found_x = static_cast<std::uint32_t>(x);
                found_inv = static_cast<std::uint32_t>(inv);
                break;
            }
        }
    }
    REQUIRE(found_s == 0x3CCC);
    REQUIRE(found_k == 3);
    REQUIRE(found_x == 0x40865000u);
    REQUIRE(found_inv == 0x3F5578E9u);
    // The q4 group [7 * s, x]: amax / 7 = s exactly, so scale16 = 0x3CCC; x selects code 3 by
    // the reciprocal multiply (division would select 4). 7 * 1.19921875 = 8.39453125 = 0x41065000.
    const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 2, {0x41065000u, 0x40865000u});
    REQUIRE(r.status == NINFER_OK);
    CHECK(r.m.scales[0] == 0x3CCC);
    CHECK(r.m.codes == std::vector<std::int8_t>{7, 3});
}

TEST_CASE("7.2 binary16 scale rounding: ties to even at a binary16 midpoint", "[grouped][absmax]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    SECTION("raw_scale32 = 1.5 + 2^-11, midpoint of 0x3E00 and 0x3E01: even 0x3E00") {
        // amax = 7 * 1.50048828125 = 10.50341796875 = 21511 * 2^-11 = 0x41280E00
        const std::uint32_t x[] = {0x41280E00u};
        const auto t = grouped_absmax_group(q4, x);
        CHECK(t.raw_scale32 == 0x3FC01000u);
        CHECK(t.scale16 == 0x3E00u);
        // An approximate division amax * round_f32(1/7) lands above the midpoint: 0x3E01.
        Real seven = exact_zero();
        seven = 7;
        Real one = exact_zero();
        one = 1;
        const auto inv7 = round_quotient(one, seven, F32(), detail::rounding_rne, detail::overflow_inf);
        const auto approx32 = round_real(word_info(F32(), 0x41280E00u).value * word_info(F32(), inv7).value, F32(),
                                         detail::rounding_rne, detail::overflow_inf);
        const auto approx16 =
            round_real(word_info(F32(), approx32).value, F16(), detail::rounding_rne, detail::overflow_inf);
        CHECK(approx16 == 0x3E01u);
    }
    SECTION("raw_scale32 = 1 + 3 * 2^-11, midpoint of 0x3C01 and 0x3C02: even 0x3C02") {
        // amax = 7 * (1 + 3 * 2^-11) = 14357 * 2^-11 = 7.01025390625 = 0x40E05400
        const std::uint32_t x[] = {0x40E05400u};
        const auto t = grouped_absmax_group(q4, x);
        CHECK(t.raw_scale32 == 0x3F803000u);
        CHECK(t.scale16 == 0x3C02u);
    }
}

TEST_CASE("7.2 underflow rescue 0x0001", "[grouped][absmax]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    SECTION("raw = 2^-25 exactly rounds to +0 (tie to even), rescued to 2^-24") {
        // amax = 7 * 2^-25 = 0x34600000; inv32 = 2^24; 7 * 2^-25 * 2^24 = 3.5 -> 4
        const std::uint32_t x[] = {0x34600000u, 0xB3E00000u};  // 7*2^-25, -7*2^-26 (-> -1.75 -> -2)
        const auto t = grouped_absmax_group(q4, x);
        CHECK(t.raw_scale32 == 0x33000000u);
        CHECK(t.scale16 == 0x0001u);
        CHECK(t.rescued);
        CHECK(t.inv32 == 0x4B800000u);
        CHECK(t.codes == std::vector<int>{4, -2});
    }
    SECTION("amax = 2^-140: raw_scale32 itself is a binary32 subnormal, rescued") {
        const std::uint32_t x[] = {0x00000200u};
        const auto t = grouped_absmax_group(q4, x);
        CHECK(t.scale16 == 0x0001u);
        CHECK(t.rescued);
        CHECK(t.codes == std::vector<int>{0});
    }
    SECTION("raw just above 2^-25 rounds to 0x0001 without the rescue") {
        // amax = 0x34600001 (7*2^-25 + 2^-48): raw = 2^-25 + 2^-48/7 rounds to binary32 above 2^-25
        const std::uint32_t x[] = {0x34600001u};
        const auto t = grouped_absmax_group(q4, x);
        CHECK(t.scale16 == 0x0001u);
        CHECK_FALSE(t.rescued);
    }
}

TEST_CASE("7.2 clamp after rounding, Q8 never -128, q4 reaches -8", "[grouped][absmax]") {
    SECTION("q8: amax = 189 * 2^-24, scale rounds down to 2^-24, normalized +-189 clamps to +-127") {
        // 189 * 2^-24 = 0x373D0000; raw = 1.488 * 2^-24 -> binary16 0x0001
        const auto r = absmax32(NINFER_FORMAT_q8_g32_fp16, 1, 2, {0xB73D0000u, 0x373D0000u});
        REQUIRE(r.status == NINFER_OK);
        CHECK(r.m.scales[0] == 0x0001);
        CHECK(r.m.codes == std::vector<std::int8_t>{-127, 127});
    }
    SECTION("q8 ordinary group: -amax maps to -127") {
        const auto r = absmax32(NINFER_FORMAT_q8_g32_fp16, 1, 2, {0xC2FE0000u, 0x3F800000u});  // -127, 1
        REQUIRE(r.status == NINFER_OK);
        CHECK(r.m.scales[0] == 0x3C00);
        CHECK(r.m.codes == std::vector<std::int8_t>{-127, 1});
    }
    SECTION("q4: amax = 10 * 2^-24, scale 2^-24, -10 clamps to qmin = -8, +10 to qmax = 7") {
        // 10 * 2^-24 = 0x35200000
        const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 2, {0xB5200000u, 0x35200000u});
        REQUIRE(r.status == NINFER_OK);
        CHECK(r.m.scales[0] == 0x0001);
        CHECK(r.m.codes == std::vector<std::int8_t>{-8, 7});
    }
    SECTION("qmax, not abs(qmin), is the denominator: q6 amax 31 gives scale 1") {
        const auto r = absmax32(NINFER_FORMAT_q6_g64_fp16, 1, 2, {0xC1F80000u, 0x40000000u});  // -31, 2
        REQUIRE(r.status == NINFER_OK);
        CHECK(r.m.scales[0] == 0x3C00);
        CHECK(r.m.codes == std::vector<std::int8_t>{-31, 2});
    }
}

TEST_CASE("7.2 scale overflow fails, naming row and group", "[grouped][absmax]") {
    SECTION("q4 amax = 7 * 65520 = 458640: raw 65520 ties to binary16 infinity") {
        // 458640 = 0x48DFF200; the binary32 below it, 458639.96875 = 0x48DFF1FF, gives 0x7BFF
        const std::uint32_t big[] = {0x48DFF200u};
        const auto t = grouped_absmax_group(gf(NINFER_FORMAT_q4_g64_fp16), big);
        CHECK(t.status == NINFER_E_SCALE_OVERFLOW);
        CHECK(t.raw_scale32 == 0x477FF000u);  // 65520
        const std::uint32_t below[] = {0x48DFF1FFu};
        const auto u = grouped_absmax_group(gf(NINFER_FORMAT_q4_g64_fp16), below);
        CHECK(u.status == NINFER_OK);
        CHECK(u.scale16 == 0x7BFFu);
    }
    SECTION("the encoder names row 1 group 1") {
        std::vector<std::uint32_t> w(2 * 100, 0x3F800000u);
        w[100 + 64] = 0x7F7FFFFFu;  // largest binary32 in row 1, group 1
        const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 2, 100, w);
        CHECK(r.status == NINFER_E_SCALE_OVERFLOW);
        CHECK(r.message.find("row 1 group 1") != std::string::npos);
    }
}

TEST_CASE("7.2 non-finite sources fail, every source type converts exactly", "[grouped][absmax]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    for (const std::uint32_t bad : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u}) {
        const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 3, {0x3F800000u, bad, 0x3F800000u});
        CHECK(r.status == NINFER_E_NONFINITE);
        CHECK(r.message.find("column 1") != std::string::npos);
    }
    for (const std::uint32_t bad : {0x7F80u, 0xFFC0u, 0x7F81u}) {
        const auto r = grouped_absmax(q4, NINFER_FORMAT_bf16, 1, 2, le_bytes({0x3F80u, bad}, 2));
        CHECK(r.status == NINFER_E_NONFINITE);
    }
    for (const std::uint32_t bad : {0x7C00u, 0xFC00u, 0x7E00u}) {
        const auto r = grouped_absmax(q4, NINFER_FORMAT_fp16, 1, 2, le_bytes({bad, 0x3C00u}, 2));
        CHECK(r.status == NINFER_E_NONFINITE);
        CHECK(r.message.find("row 0, column 0") != std::string::npos);
    }
    SECTION("non-finite wins over a scale overflow in an earlier group") {
        std::vector<std::uint32_t> w(128, 0x3F800000u);
        w[0] = 0x7F7FFFFFu;
        w[127] = 0x7FC00000u;
        CHECK(absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 128, w).status == NINFER_E_NONFINITE);
    }
    SECTION("fp16 and bf16 widen exactly") {
        // fp16 0x0001 = 2^-24 = 0x33800000; 0x8000 -> 0x80000000; bf16 0x4049 -> 0x40490000
        const auto h = grouped_source_to_binary32(NINFER_FORMAT_fp16, le_bytes({0x0001u, 0x8000u, 0x7BFFu}, 2), 3);
        REQUIRE(h);
        CHECK(*h == std::vector<std::uint32_t>{0x33800000u, 0x80000000u, 0x477FE000u});
        const auto b = grouped_source_to_binary32(NINFER_FORMAT_bf16, le_bytes({0x4049u, 0x0001u}, 2), 2);
        REQUIRE(b);
        CHECK(*b == std::vector<std::uint32_t>{0x40490000u, 0x00010000u});
        const auto r = grouped_absmax(q4, NINFER_FORMAT_fp16, 1, 2, le_bytes({0x4700u, 0x3E00u}, 2));  // 7, 1.5
        REQUIRE(r.status == NINFER_OK);
        CHECK(r.m.codes == std::vector<std::int8_t>{7, 2});
    }
}

TEST_CASE("7.2 all-zero groups: +0 scale and zero codes", "[grouped][absmax]") {
    // row 0: group 0 all zero (signed zeros mixed), group 1 nonzero
    std::vector<std::uint32_t> w(128, 0);
    w[3] = 0x80000000u;
    w[64] = 0x40E00000u;
    const auto r = absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 128, w);
    REQUIRE(r.status == NINFER_OK);
    CHECK(r.m.scales == std::vector<std::uint16_t>{0x0000, 0x3C00});
    CHECK(r.m.codes[3] == 0);
    CHECK(r.m.codes[64] == 7);
}

TEST_CASE("7.2 refuses q2 and t2 targets", "[grouped][absmax]") {
    CHECK(absmax32(NINFER_FORMAT_q2_g64_fp16, 1, 1, {0x3F800000u}).status == NINFER_E_METHOD);
    CHECK(absmax32(NINFER_FORMAT_t2_g128_fp16, 1, 1, {0x3F800000u}).status == NINFER_E_METHOD);
    CHECK(absmax32(NINFER_FORMAT_q4_g64_fp16, 1, 2, {0x3F800000u}).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(absmax32(NINFER_FORMAT_q4_g64_fp16, 0, 1, {}).status == NINFER_E_INVALID_ARGUMENT);
}

TEST_CASE("7.2 partial last groups take their logical values only", "[grouped][absmax]") {
    // Lane i of group g in row r holds ((i % (2 qmax + 1)) - qmax) * 2^(2r - g): lane 0 is
    // -qmax * 2^(2r-g), so every group, partial or not, has amax qmax * 2^(2r-g), scale
    // 2^(2r-g) (binary16 0x3C00 + (2r - g) << 10) and codes (i % (2 qmax + 1)) - qmax. Row 1 is 4x row 0: an encoder that read
    // past K would take row 1's values into row 0's last group.
    for (const std::uint32_t id : {NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_q5_g64_fp16, NINFER_FORMAT_q6_g64_fp16,
                                   NINFER_FORMAT_q8_g32_fp16}) {
        const auto &f = gf(id);
        for (const std::uint64_t k : {1, 63, 64, 65, 127, 128, 129, 130}) {
            CAPTURE(f.name, k);
            std::vector<std::uint32_t> w, h;
            std::vector<std::int8_t> expect_codes;
            std::vector<std::uint16_t> expect_scales;
            const std::uint64_t gpr = (k + f.group - 1) / f.group;
            for (int r = 0; r < 2; ++r) {
                for (std::uint64_t c = 0; c < k; ++c) {
                    const int q = static_cast<int>((c % f.group) % (2 * f.qmax + 1)) - f.qmax;
                    const int e = 2 * r - static_cast<int>(c / f.group);
                    // binary32 of q * 2^e, |q| <= 127; built by hand from sign, exponent, fraction
                    std::uint32_t word = 0;
                    if (q != 0) {
                        const int a = q < 0 ? -q : q;
                        int top = 0;
                        while ((a >> (top + 1)) != 0) ++top;
                        word = (q < 0 ? 0x80000000u : 0u) | static_cast<std::uint32_t>(127 + top + e) << 23 |
                               static_cast<std::uint32_t>((a - (1 << top)) << (23 - top));
                    }
                    w.push_back(word);
                    expect_codes.push_back(static_cast<std::int8_t>(q));
                }
                for (std::uint64_t g = 0; g < gpr; ++g)
                    expect_scales.push_back(static_cast<std::uint16_t>(0x3C00 + (2 * r - static_cast<int>(g)) * 0x400));
            }
            const auto r = absmax32(id, 2, k, w);
            REQUIRE(r.status == NINFER_OK);
            CHECK(r.m.codes == expect_codes);
            CHECK(r.m.scales == expect_scales);
            // bf16 source of the same values (upper halves) gives the same result
            for (const auto x : w) h.push_back(x >> 16);
            const auto rb = grouped_absmax(f, NINFER_FORMAT_bf16, 2, k, le_bytes(h, 2));
            REQUIRE(rb.status == NINFER_OK);
            CHECK(rb.m.codes == expect_codes);
            CHECK(rb.m.scales == expect_scales);
        }
    }
}
