// SPDX-License-Identifier: Apache-2.0
// The NaN principle table (oracle/README.md "The NaN principle" and "The NaN table"): spec, then
// lesson, then IEEE 754-2019 (Sections 6.2, 6.2.3, 6.3) where both are silent.
#include "ninfer/suites/nan_principle.hpp"

#include <string>
#include <vector>

#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::suites {

namespace {
/// The spec's payload waiver for every compute operation (tensor-formats.txt 3.1).
#define NINFER_NAN_WAIVER "tensor-formats.txt 3.1 (no payload required of a compute operation)"
constexpr const char *kIeee = NINFER_NAN_WAIVER "; IEEE 754-2019 6.2 (quiet), 6.3 (sign unspecified)";
constexpr const char *kQuietOfSign = "a quiet NaN of the input's sign";
constexpr const char *kQuietEitherSign = "a quiet NaN of either sign";
constexpr const char *kKeptOrQuiet = "a quiet NaN of either sign, or the word that keeps every bit";
constexpr const char *kEveryBit = "every bit kept: sign, quiet bit and payload at the top of the fraction";
constexpr const char *kRecommended = "IEEE 754-2019 6.2.3 (payload kept: recommended); suite profile (sign kept)";
}  // namespace

NanPrinciple nan_principle(const oracle::Conversion &c) {
    switch (c.id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne:
        return {NanPolicy::same_sign, kQuietOfSign, NINFER_NAN_WAIVER "; lesson Example 5 (sign kept, quiet bit set)", true,
                "(w >> 16) | 0x0040", "lesson Example 5"};
    case NINFER_CONVERSION_fp32_to_bf16_rtz:
    case NINFER_CONVERSION_fp32_to_bf16_rna:
    case NINFER_CONVERSION_fp32_to_bf16_rup:
    case NINFER_CONVERSION_fp32_to_bf16_rdn:
        return {NanPolicy::any, kQuietEitherSign, kIeee, true, "(w >> 16) | 0x0040", kRecommended};
    case NINFER_CONVERSION_fp32_to_fp16_rne:
    case NINFER_CONVERSION_fp32_to_fp16_rtz:
    case NINFER_CONVERSION_fp32_to_fp16_rna:
    case NINFER_CONVERSION_fp32_to_fp16_rup:
    case NINFER_CONVERSION_fp32_to_fp16_rdn:
        return {NanPolicy::any, kQuietEitherSign, kIeee, true, "sign | 0x7E00 | (fraction >> 13)", kRecommended};
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rna_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rup_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rdn_satfinite:
        return {NanPolicy::any, "an E4M3FN NaN of either sign (0x7F or 0xFF; no quiet bit, no payload)",
                "tensor-formats.txt 3.3 (one NaN per sign); IEEE 754-2019 6.3 (sign unspecified)", false, "", "", true};
    case NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rne_inf:
    case NINFER_CONVERSION_fp32_to_e5m2_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rna_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rup_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rdn_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rtz_inf:
    case NINFER_CONVERSION_fp32_to_e5m2_rna_inf:
    case NINFER_CONVERSION_fp32_to_e5m2_rup_inf:
    case NINFER_CONVERSION_fp32_to_e5m2_rdn_inf: return {NanPolicy::any, kQuietEitherSign, kIeee, false, "", "", true};
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e2m1_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_e2m1_rna_satfinite:
    case NINFER_CONVERSION_fp32_to_e2m1_rup_satfinite:
    case NINFER_CONVERSION_fp32_to_e2m1_rdn_satfinite:
        return {NanPolicy::exact, "outside the conversion's domain (E2M1 has no NaN; no case offers one)", "OCP MX via the rule's sentence", false};
    case NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite:
    case NINFER_CONVERSION_fp32_to_ue4m3_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_ue4m3_rup_satfinite:
        return {NanPolicy::exact, "0x00", "ggml's NVFP4 scale encoder (lesson Example 15, the rule's sentence)", false};
    case NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite:
    case NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite:
    case NINFER_CONVERSION_fp32_to_e8m0_rna_satfinite:
        return {NanPolicy::any, "0xFF (E8M0's only NaN)", "OCP MX via the rule's sentence", false};
    // The stochastic conversions (issue 24 item 3): the NaN verdicts of their rne rows, no profile.
    case NINFER_CONVERSION_fp32_to_bf16_sr_satfinite:
    case NINFER_CONVERSION_fp32_to_fp16_sr_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite: return {NanPolicy::any, kQuietEitherSign, kIeee, false};
    case NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite:
        return {NanPolicy::any, "an E4M3FN NaN of either sign (0x7F or 0xFF; no quiet bit, no payload)",
                "tensor-formats.txt 3.3 (one NaN per sign); IEEE 754-2019 6.3 (sign unspecified)", false};
    case NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite:
        return {NanPolicy::exact, "outside the conversion's domain (E2M1 has no NaN; no case offers one)", "OCP MX via the rule's sentence", false};
    case NINFER_CONVERSION_bf16_to_fp32:
        return {NanPolicy::same_sign, "a quiet NaN of the input's sign, or w << 16 (every bit kept)",
                "tensor-formats.txt 3.1 (no payload required of a compute operation; read as covering the quiet bit); "
                "lesson Example 5 (toFloat: sign kept)",
                true,
                "w << 16: every bit kept", "tensor-formats.txt 3.1 (the exact expansion to binary32), lesson Example 5 (toFloat)"};
    case NINFER_CONVERSION_fp16_to_fp32:
    case NINFER_CONVERSION_e5m2_to_fp32:
        return {NanPolicy::any, kKeptOrQuiet, kIeee, true, kEveryBit, kRecommended};
    case NINFER_CONVERSION_e4m3fn_to_fp32:
        return {NanPolicy::any, kQuietEitherSign,
                "IEEE 754-2019 6.2 (quiet), 6.3 (sign unspecified); the lesson says only \"NaN\"", false, "", "", true};
    case NINFER_CONVERSION_e2m1_to_fp32:
        return {NanPolicy::exact, "none (E2M1 has no NaN)", "tensor-formats.txt, lesson Example 13", false};
    case NINFER_CONVERSION_e8m0_to_fp32:
    case NINFER_CONVERSION_ue4m3_to_fp32:
        return {NanPolicy::any, "a quiet NaN of either sign (the source NaN has no sign)", "IEEE 754-2019 6.2", false};
    default: return {};
    }
}

namespace {

/// The decode rows' texts, made once (NanPrinciple holds C strings): the widening's policy and
/// authority under the decode's own result wording.
struct DecodeTexts {
    NanPolicy policy = NanPolicy::any;
    std::string result, decided_by;
};

DecodeTexts decode_texts(const oracle::WordFormat &f) {
    for (const auto &c : oracle::kConversions)
        if (c.src == f.id && c.dst == NINFER_FORMAT_fp32) {
            const auto w = nan_principle(c);
            const bool ieee = f.special == oracle::Special::IEEE;
            const char *sign = w.policy == NanPolicy::same_sign ? "of the word's sign" : "of either sign";
            return {w.policy,
                    std::string("a quiet binary64 NaN ") + sign +
                        (ieee ? ", or the binary64 word that keeps every bit" : " (no quiet bit, no payload to keep)"),
                    std::string(w.decided_by) + "; as " + rule::convert(c) + ", the same widening (sign and payload: its profiles)"};
        }
    return {NanPolicy::any, "a quiet binary64 NaN of either sign, or the binary64 word that keeps every bit",
            std::string(kIeee) + "; no conversion widens binary32 further"};  // fp32
}

}  // namespace

NanPrinciple decode_nan_principle(const oracle::WordFormat &f) {
    // A decode widens the word as convert.<format>_to_fp32 does: one verdict for one behaviour.
    static const std::vector<DecodeTexts> texts = [] {
        std::vector<DecodeTexts> t;
        for (const auto &w : oracle::kWordFormats) t.push_back(decode_texts(w));
        return t;
    }();
    for (std::size_t i = 0; i < oracle::kWordFormats.size(); ++i)
        if (oracle::kWordFormats[i].id == f.id) return {texts[i].policy, texts[i].result.c_str(), texts[i].decided_by.c_str(), false};
    return {};
}

std::string nan_payload_rule(const oracle::Conversion &c) { return rule::convert_nan_payload(c); }

std::string nan_sign_rule(const oracle::Conversion &c) { return rule::convert_nan_sign(c); }

namespace {

bool has_nan(const oracle::WordFormat &f) { return f.special != oracle::Special::NONE && f.special != oracle::Special::INT; }

}  // namespace

std::vector<NanRow> nan_table() {
    std::vector<NanRow> rows;
    for (const auto &f : oracle::kWordFormats)
        if (has_nan(f)) {
            const auto p = decode_nan_principle(f);
            rows.push_back({rule::decode(f), p.result, p.policy, p.decided_by});
        }
    for (const auto &c : oracle::kConversions) {
        const auto p = nan_principle(c);
        rows.push_back({rule::convert(c), p.result, p.policy, p.decided_by});
        if (p.payload_profile) rows.push_back({nan_payload_rule(c), p.profile_result, NanPolicy::exact, p.profile_decided_by});
        if (p.sign_profile) rows.push_back({nan_sign_rule(c), kNanSignProfileResult, NanPolicy::same_sign, kNanSignProfileAuthority});
    }
    rows.push_back({"classify.<format>", "the class byte QNAN, SNAN or NAN with the word's sign bit", NanPolicy::exact,
                    "tensor-formats.txt 3.1 (a NaN, including its sign, quiet/signaling bit and payload)"});
    rows.push_back({"validity.<role>", "the verdict NAN: every NaN is invalid", NanPolicy::exact,
                    "tensor-formats.txt 3.3, 3.4, 7 (NaN scales and codes invalid)"});
    rows.push_back({std::string(rule::layout_contiguous_le_v1_words), "the same word, bit for bit", NanPolicy::exact,
                    "storage-layouts.md 2; tensor-formats.txt 3.1 (a direct layout never canonicalizes a NaN)"});
    rows.push_back({"gguf.decode.<type>", "a NaN of either sign (ggml's NaN bits follow the host)", NanPolicy::any,
                    "ggml's dequantize_row_* (the normative meaning of a GGUF block)"});
    rows.push_back({"linear.<criterion>", "any NaN where the acceptance admits one (kAcceptNan)", NanPolicy::any,
                    "tensor-formats.txt 3.1 (compute-time propagation belongs to the compute profile); suites/LINEAR.md"});
    return rows;
}

#undef NINFER_NAN_WAIVER

}  // namespace ninfer::suites
