// SPDX-License-Identifier: Apache-2.0
// The NaN principle table (oracle/README.md "The NaN principle"; IEEE 754-2019 Sections 6.2,
// 6.2.3 and 7.2 where the spec and number-formats-lesson.txt are silent).
#include "ninfer/suites/nan_principle.hpp"

#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::suites {

namespace {
constexpr const char *kIeee = "IEEE 754-2019 6.2 (a converted NaN is quiet), 6.2.3 (payload kept: recommended)";
}  // namespace

NanPrinciple nan_principle(const oracle::Conversion &c) {
    switch (c.id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne:
        return {NanPolicy::exact, "(w >> 16) | 0x0040: sign and top payload bits kept, quiet bit set", "lesson Example 5", false};
    case NINFER_CONVERSION_fp32_to_bf16_rtz:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign", kIeee, true};
    case NINFER_CONVERSION_fp32_to_fp16_rne:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign", kIeee, true};
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan:
        return {NanPolicy::same_sign, "the E4M3FN NaN of the input's sign (0x7F / 0xFF; E4M3FN has no quiet bit)",
                "IEEE 754-2019 6.2 (sign kept); tensor-formats.txt 3.3 (one NaN per sign)", false};
    case NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rne_inf:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign", kIeee, false};
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite:
        return {NanPolicy::exact, "outside the conversion's domain (E2M1 has no NaN; no case offers one)", "OCP MX via the rule's sentence", false};
    case NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite:
        return {NanPolicy::exact, "0x00", "ggml's NVFP4 scale encoder (lesson Example 15, the rule's sentence)", false};
    case NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite:
        return {NanPolicy::any, "0xFF (E8M0's only NaN)", "OCP MX via the rule's sentence", false};
    case NINFER_CONVERSION_bf16_to_fp32:
        return {NanPolicy::exact, "w << 16: every bit kept (a signalling NaN stays signalling)", "lesson Example 5 (toFloat)", false};
    case NINFER_CONVERSION_fp16_to_fp32:
    case NINFER_CONVERSION_e5m2_to_fp32:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign, or the word that keeps every bit", kIeee, true};
    case NINFER_CONVERSION_e4m3fn_to_fp32:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign", "IEEE 754-2019 6.2 (the lesson says only \"NaN\")", false};
    case NINFER_CONVERSION_e2m1_to_fp32:
        return {NanPolicy::exact, "none (E2M1 has no NaN)", "tensor-formats.txt, lesson Example 13", false};
    case NINFER_CONVERSION_e8m0_to_fp32:
    case NINFER_CONVERSION_ue4m3_to_fp32:
        return {NanPolicy::any, "a quiet NaN of either sign (the source NaN has no sign)", "IEEE 754-2019 6.2", false};
    default: return {};
    }
}

std::string nan_payload_rule(const oracle::Conversion &c) { return rule::convert_nan_payload(c); }

}  // namespace ninfer::suites
