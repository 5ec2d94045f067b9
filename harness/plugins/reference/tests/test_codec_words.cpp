// SPDX-License-Identifier: Apache-2.0
// Worked words of the reference's scalar codec and of ninfer::native, each derived by hand from the spec (tensor-formats.txt
// Sections 3.1, 3.3; number-formats-lesson.txt Examples 3-9, 13-15; OCP FP8/MX rules) and the
// oracle's documented decisions (oracle/README.md): specials first, then ties and thresholds.
#include <catch2/catch.hpp>
#include <cstdint>

#include "scalar_codec.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace {

using ninfer::reference::scalar_convert;

struct Word {
    std::uint32_t conversion;
    std::uint64_t in, out;
    const char *why;
};

// clang-format off
const Word kWords[] = {
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F800000, 0x3F80, "1.0 (lesson Example 5)"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F808000, 0x3F80, "tie, even side kept"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F818000, 0x3F82, "tie, odd lsb rounds up"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F808001, 0x3F81, "just above a tie"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x7F7F7FFF, 0x7F7F, "below the overflow tie"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x7F7F8000, 0x7F80, "overflow tie (odd 0x7F7F) goes to Inf"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x7F800001, 0x7FC0, "NaN with payload only in the low half stays NaN"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0xFF810000, 0xFFC1, "NaN sign and top payload kept, quiet bit set"},
    {NINFER_CONVERSION_fp32_to_bf16_rne, 0x80000001, 0x8000, "-smallest subnormal to -0"},
    {NINFER_CONVERSION_fp32_to_bf16_rtz, 0x3F81FFFF, 0x3F81, "truncation"},
    {NINFER_CONVERSION_fp32_to_bf16_rtz, 0x7F7FFFFF, 0x7F7F, "largest finite toward zero"},
    {NINFER_CONVERSION_fp32_to_bf16_rtz, 0x7F800001, 0x7FC0, "NaN quieted, not truncated to Inf"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x477FEF00, 0x7BFF, "65519 rounds to 65504 (lesson Example 3)"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x477FF000, 0x7C00, "65520 overflows to Inf"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x33800000, 0x0001, "2^-24, smallest subnormal (lesson Example 4)"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x33000000, 0x0000, "2^-25 ties to even zero"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x33000001, 0x0001, "just above 2^-25"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x387FE000, 0x0400, "tie above 0x03FF (odd) carries into the smallest normal"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x387FC000, 0x03FF, "largest subnormal, exact"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0x7FC00000, 0x7E00, "quiet NaN"},
    {NINFER_CONVERSION_fp32_to_fp16_rne, 0xFF800000, 0xFC00, "-Inf"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x3F800000, 0x38, "1.0 (lesson Example 8)"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x43FA0000, 0x7E, "500 saturates to 448 (lesson Example 8)"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0xFF800000, 0xFE, "-Inf saturates"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x7FC00000, 0x7F, "NaN"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, 0x3A800000, 0x00, "2^-10 ties to even zero"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, 0x43E80000, 0x7E, "464 ties to even 448"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, 0x43E80001, 0x7F, "above 464 is NaN"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, 0xC3FA0000, 0xFF, "-500 is NaN of the sign"},
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, 0x7F800000, 0x7F, "Inf is NaN"},
    {NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, 0x43FA0000, 0x60, "500 to 512 (lesson Example 9)"},
    {NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, 0x7F800000, 0x7B, "Inf saturates to 57344"},
    {NINFER_CONVERSION_fp32_to_e5m2_rne_inf, 0x476FFF00, 0x7B, "61439 below the overflow tie"},
    {NINFER_CONVERSION_fp32_to_e5m2_rne_inf, 0x47700000, 0x7C, "61440 ties away from odd 0x7B to Inf"},
    {NINFER_CONVERSION_fp32_to_e5m2_rne_inf, 0xFFC00000, 0xFE, "NaN of the sign"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x40200000, 0x4, "2.5 ties to even 2.0 (lesson Example 13)"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x40600000, 0x6, "3.5 ties to even 4.0"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x3E800000, 0x0, "0.25 ties to zero"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x3F400000, 0x2, "0.75 ties to 1.0"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0xC0E00000, 0xF, "-7 saturates to -6"},
    {NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x7FC00000, 0x0, "NaN to 0"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x3A800000, 0x01, "2^-10 ties up"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x3F880000, 0x39, "1.0625 ties up to 1.125"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x43E80000, 0x7E, "464 saturates to 448"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0xBF800000, 0x00, "negative to 0"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x80000000, 0x00, "-0 to 0"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x7F800000, 0x7E, "+Inf to 448"},
    {NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x7FC00000, 0x00, "NaN to 0"},
    {NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite, 0x40400000, 0x80, "3.0 floors to 2^1"},
    {NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite, 0x40400000, 0x81, "3.0 ceils to 2^2"},
    {NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite, 0x3F800000, 0x7F, "1.0 exact"},
    {NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite, 0x00000001, 0x00, "2^-149 clamps to 2^-127"},
    {NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite, 0x7F000001, 0xFE, "above 2^127 clamps to 2^127"},
    {NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite, 0xBF800000, 0x00, "negative to 0x00"},
    {NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite, 0x7F800000, 0xFE, "+Inf to 2^127"},
    {NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite, 0x7FC00000, 0xFF, "NaN"},
    {NINFER_CONVERSION_bf16_to_fp32, 0x7F81, 0x7F810000, "signaling NaN kept bit for bit"},
    {NINFER_CONVERSION_fp16_to_fp32, 0x0001, 0x33800000, "2^-24"},
    {NINFER_CONVERSION_fp16_to_fp32, 0xFC01, 0xFF802000, "signaling NaN payload moved up"},
    {NINFER_CONVERSION_e4m3fn_to_fp32, 0x01, 0x3B000000, "2^-9"},
    {NINFER_CONVERSION_e4m3fn_to_fp32, 0x7E, 0x43E00000, "448"},
    {NINFER_CONVERSION_e4m3fn_to_fp32, 0xFF, 0xFFC00000, "NaN of the sign"},
    {NINFER_CONVERSION_e5m2_to_fp32, 0x7D, 0x7FA00000, "signaling NaN kept"},
    {NINFER_CONVERSION_e2m1_to_fp32, 0x7, 0x40C00000, "6.0"},
    {NINFER_CONVERSION_e2m1_to_fp32, 0x9, 0xBF000000, "-0.5"},
    {NINFER_CONVERSION_e2m1_to_fp32, 0x10, 0x00000000, "word wider than E2M1: outside the domain (UNDEFINED), the oracle writes 0"},
    {NINFER_CONVERSION_e8m0_to_fp32, 0x00, 0x00400000, "2^-127 is a binary32 subnormal"},
    {NINFER_CONVERSION_e8m0_to_fp32, 0xFE, 0x7F000000, "2^127"},
    {NINFER_CONVERSION_e8m0_to_fp32, 0xFF, 0x7FC00000, "NaN"},
    {NINFER_CONVERSION_ue4m3_to_fp32, 0x7E, 0x43E00000, "448"},
    {NINFER_CONVERSION_ue4m3_to_fp32, 0x7F, 0x7FC00000, "NaN"},
    {NINFER_CONVERSION_ue4m3_to_fp32, 0x80, 0x7FC00000, "word wider than UE4M3"},
};
// clang-format on

}  // namespace

TEST_CASE("native conversions reproduce hand-derived words", "[native]") {
    for (const auto &w : kWords) {
        INFO("conversion " << w.conversion << " input 0x" << std::hex << w.in << ": " << w.why);
        CHECK(scalar_convert(w.conversion, w.in) == w.out);
        CHECK(ninfer::native::convert_word(w.conversion, w.in) == w.out);  // the sweep's copy
    }
}

TEST_CASE("native decode, classify and verdicts of hand-picked words", "[native]") {
    using namespace ninfer::reference;
    CHECK(scalar_decode(NINFER_FORMAT_e4m3fn, 0x38) == 0x3FF0000000000000ull);  // 1.0, lesson Example 8
    CHECK(scalar_decode(NINFER_FORMAT_e4m3fn, 0x7E) == 0x407C000000000000ull);  // 448
    CHECK(scalar_decode(NINFER_FORMAT_e4m3fn, 0x01) == 0x3F60000000000000ull);  // 2^-9
    CHECK(scalar_decode(NINFER_FORMAT_e4m3fn, 0xFF) == 0xFFF8000000000000ull);  // NaN keeps its sign
    CHECK(scalar_decode(NINFER_FORMAT_int32, 0x80000000u) == 0xC1E0000000000000ull);  // -2^31
    CHECK(scalar_decode(NINFER_FORMAT_ue4m3, 0x80) == 0x7FF8000000000000ull);  // outside UE4M3
    CHECK(scalar_decode(NINFER_FORMAT_e8m0, 0x00) == 0x3800000000000000ull);   // 2^-127
    // The sweep's copy (ninfer::native) on the same words.
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_e4m3fn, 0x38) == 0x3FF0000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_e4m3fn, 0x7E) == 0x407C000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_e4m3fn, 0xFF) == 0xFFF8000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_int32, 0x80000000u) == 0xC1E0000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_ue4m3, 0x80) == 0x7FF8000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_e8m0, 0x00) == 0x3800000000000000ull);
    CHECK(ninfer::native::decode_to_binary64(999, 0) == 0x7FF8000000000000ull);
    // An IEEE NaN keeps every bit, a signalling one stays signalling (the NaN principle).
    CHECK(scalar_decode(NINFER_FORMAT_fp16, 0xFC01) == 0xFFF0040000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_fp16, 0xFC01) == 0xFFF0040000000000ull);
    CHECK(ninfer::native::decode_to_binary64(NINFER_FORMAT_bf16, 0x7FC1) == 0x7FF8200000000000ull);
    CHECK(scalar_classify(NINFER_FORMAT_bf16, 0x8000) == (NINFER_CLASS_ZERO | NINFER_CLASS_SIGN));
    CHECK(scalar_classify(NINFER_FORMAT_bf16, 0x7F81) == NINFER_CLASS_SNAN);
    CHECK(scalar_classify(NINFER_FORMAT_fp16, 0xFE00) == (NINFER_CLASS_QNAN | NINFER_CLASS_SIGN));
    CHECK(scalar_classify(NINFER_FORMAT_e4m3fn, 0x78) == NINFER_CLASS_NORMAL);  // e == 15, m < 7 is finite
    CHECK(scalar_classify(NINFER_FORMAT_e2m1, 0x1) == NINFER_CLASS_SUBNORMAL);
    CHECK(scalar_classify(NINFER_FORMAT_ue4m3, 0x7F) == NINFER_CLASS_NAN);
    CHECK(scalar_classify(NINFER_FORMAT_ue4m3, 0x80) == NINFER_CLASS_OUTSIDE);
    CHECK(scalar_classify(NINFER_FORMAT_int32, 0xFFFFFFFFu) == (NINFER_CLASS_INTEGER | NINFER_CLASS_SIGN));
    CHECK(scalar_verdict(NINFER_ROLE_grouped_fp16_scale, 0x8000) == NINFER_VERDICT_NEGATIVE_ZERO);
    CHECK(scalar_verdict(NINFER_ROLE_grouped_fp16_scale, 0x8001) == NINFER_VERDICT_VALID);
    CHECK(scalar_verdict(NINFER_ROLE_q2_fp16_scale, 0x8000) == NINFER_VERDICT_VALID);
    CHECK(scalar_verdict(NINFER_ROLE_q2_fp16_scale, 0xFC00) == NINFER_VERDICT_INFINITE);
    CHECK(scalar_verdict(NINFER_ROLE_nvfp4_e4m3_scale, 0x81) == NINFER_VERDICT_NEGATIVE);
    CHECK(scalar_verdict(NINFER_ROLE_nvfp4_e4m3_scale, 0xFF) == NINFER_VERDICT_NAN);
    CHECK(scalar_verdict(NINFER_ROLE_fp8_weight_code, 0x80) == NINFER_VERDICT_VALID);
    CHECK(scalar_verdict(NINFER_ROLE_bf16_row_multiplier, 0x0001) == NINFER_VERDICT_VALID);
    CHECK(scalar_verdict(NINFER_ROLE_fp16_row_multiplier, 0x8000) == NINFER_VERDICT_NEGATIVE_ZERO);
    CHECK(scalar_verdict(NINFER_ROLE_fp32_weight_divisor, 0x00000000) == NINFER_VERDICT_ZERO);
    CHECK(scalar_verdict(NINFER_ROLE_fp32_weight_divisor, 0xFF800000u) == NINFER_VERDICT_INFINITE);
    CHECK(scalar_verdict(NINFER_ROLE_fp32_weight_divisor, 0x00000001) == NINFER_VERDICT_VALID);
    CHECK(scalar_verdict(NINFER_ROLE_grouped_fp16_scale, 0x10000) == NINFER_VERDICT_OUTSIDE);
}

TEST_CASE("scalar_convert_batch agrees with scalar_convert and refuses unknown ids", "[native]") {
    using namespace ninfer::reference;
    const std::uint8_t in[8] = {0x00, 0x80, 0x81, 0x3F, 0x01, 0x00, 0x80, 0x7F};  // 0x3F818000, 0x7F800001 LE
    std::uint8_t out[4] = {};
    REQUIRE(scalar_convert_batch(NINFER_CONVERSION_fp32_to_bf16_rne, in, out, 2));
    CHECK((out[0] | out[1] << 8) == 0x3F82);  // tie with an odd kept lsb rounds up
    CHECK((out[2] | out[3] << 8) == 0x7FC0);
    CHECK_FALSE(scalar_convert_batch(999, in, out, 2));
    CHECK(scalar_convert(999, 1) == 0);
    CHECK_FALSE(scalar_knows_conversion(0));
    std::uint8_t sweep_out[4] = {};
    REQUIRE(ninfer::native::convert_batch(NINFER_CONVERSION_fp32_to_bf16_rne, in, sweep_out, 2));
    CHECK((sweep_out[0] | sweep_out[1] << 8) == 0x3F82);
    CHECK((sweep_out[2] | sweep_out[3] << 8) == 0x7FC0);
    CHECK_FALSE(ninfer::native::convert_batch(999, in, sweep_out, 2));
    CHECK(ninfer::native::convert_word(999, 1) == 0);
    CHECK_FALSE(ninfer::native::knows_conversion(0));
    CHECK(ninfer::native::knows_conversion(NINFER_CONVERSION_fp32_to_bf16_rne));
    CHECK(ninfer::native::knows_format(NINFER_FORMAT_bf16));
    CHECK_FALSE(ninfer::native::knows_format(NINFER_FORMAT_q4_g64_fp16));
}
