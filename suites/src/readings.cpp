// SPDX-License-Identifier: Apache-2.0
// The readings table: every rule that rests on a suite reading, classified (suites/README.md,
// "Forced and open readings"). Forced: the spec, or the authority it defers to, fixes the answer
// (one line: which and why). Open: the spec leaves a choice; the entry lists every documented
// outcome by name, the cases that meet the choice carry each one as an alternative
// (suites/case.hpp, Expect::alternatives), and `run --pin <rule>=<choice>` requires one of them.
// An entry whose key ends in '.' classifies every rule of that prefix (the GGUF block types).
#include <algorithm>
#include <string>
#include <string_view>

#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

namespace {

struct Entry {
    std::string_view key;  ///< a rule id, or a prefix ending in '.'
    ReadingKind kind;
    std::string_view why;
    std::vector<Choice> choices;
};

constexpr auto F = ReadingKind::forced;
constexpr auto O = ReadingKind::open;

constexpr std::string_view kOutOfFormat =
    "the plugin ABI (plugin.h) carries a narrow word in a byte and names a pattern wider than the format "
    "(NINFER_CLASS_OUTSIDE); such a byte is no word of the spec's format, so the ABI's convention decides";
constexpr std::string_view kOcpMx = "the OCP Microscaling specification, which the lesson cites, fixes it";
constexpr std::string_view kNanPrinciple =
    "IEEE 754-2019 6.2 through the NaN principle (oracle/README.md): the spec and the lesson are silent on a "
    "converted NaN, IEEE 754 requires it quiet";
constexpr std::string_view kNanProfile =
    "the profile rule's own definition (IEEE 754-2019 6.2.3's recommendation, the lesson's words, or the sign "
    "IEEE 754-2019 6.3 leaves open): a user requires or waives it apart from the main rule";
constexpr std::string_view kDirection =
    "the conversion's name fixes its rounding direction (IEEE 754-2019 4.3) and overflow (IEEE 754 7.4 for inf, "
    "OCP saturating mode for satfinite); the NaN follows the NaN principle (oracle/README.md)";
constexpr std::string_view kAbiStatus =
    "the plugin ABI (plugin.h, harness/README.md) names the status of every refusal; the spec fixes what is refused";
constexpr std::string_view kSelection =
    "storage-layouts.md's slice/gather sentence fixes whole rows; the refusal status is the plugin ABI's";
constexpr std::string_view kGgml =
    "the spec (the GGUF weight paragraph) defers to ggml: the value is what ggml-quants.c's dequantize_row_* computes";
constexpr std::string_view kGgmlQuantize =
    "the method is ggml's quantize_row_<type>_ref, bit for bit; a non-finite source is refused as "
    "tensor-formats.txt Section 8 requires of every encoder (NINFER_E_NONFINITE, the ABI's status)";
constexpr std::string_view kLinearProfile =
    "the compute profile's definition (suites/LINEAR.md): a subject declares the profile it implements";

constexpr std::string_view kStochastic =
    "issue 24 item 3 (the spec files do not state SR): the common hardware definition, r random bits added below "
    "the last place and truncated (registry.h NINFER_STOCHASTIC), fixes every word given its random value";
constexpr std::string_view kStochasticLaw =
    "issue 24 item 3: SR's law, P(up) = (x - lo) / (hi - lo) with fresh bits per word; the test is an exact "
    "binomial acceptance region (suites/SR.md)";

const std::vector<Entry> &table() {
    static const std::vector<Entry> t = {
        // ---- scalar formats ----
        {"decode.e2m1", F, kOutOfFormat, {}},
        {"decode.e8m0", F, kOcpMx, {}},
        {"decode.ue4m3", F, "the lesson's Example 15 names ggml's UE4M3 (E4M3FN without its sign); a byte with bit 7 set "
                            "is outside the format, as the plugin ABI (plugin.h) carries it", {}},
        {"classify.fp16", F, "the lesson names FP16 IEEE half precision: IEEE 754 binary16 fixes the quiet bit", {}},
        {"classify.e2m1", F, kOutOfFormat, {}},
        {"classify.e8m0", F, kOcpMx, {}},
        {"classify.ue4m3", F, "the classes of E4M3FN (tensor-formats.txt 3.3) without the sign bit; bit 7 is outside the "
                              "format, as the plugin ABI (plugin.h) carries it", {}},
        {"convert.fp32_to_bf16_rtz", F, kNanPrinciple, {}},
        {"convert.fp32_to_fp16_rne", F, kNanPrinciple, {}},
        {"convert.fp32_to_e4m3fn_rne_satfinite", F, "OCP FP8 (saturating mode) fixes the overflow; IEEE 754 6.2 the NaN", {}},
        {"convert.fp32_to_e4m3fn_rne_nan", F, "OCP FP8 (non-saturating mode: E4M3FN has no infinity) fixes the overflow", {}},
        {"convert.fp32_to_e5m2_rne_satfinite", F, "OCP FP8 (saturating mode) fixes the overflow; IEEE 754 6.2 the NaN", {}},
        {"convert.fp32_to_e5m2_rne_inf", F, "OCP FP8 (non-saturating mode) and IEEE 754 binary16 rules fix it", {}},
        {"convert.fp32_to_e2m1_rne_satfinite", F, "OCP MX fixes E2M1's rounding and saturation; E2M1 has no NaN, so no case "
                                                  "offers one", {}},
        {"convert.fp32_to_ue4m3_rnu_satfinite", F, "ggml's encoder, which the lesson's Example 15 follows, fixes every word", {}},
        {"convert.fp32_to_e8m0_rtz_satfinite", F, "OCP MX's E8M0 range with the conversion's named rounding (toward zero)", {}},
        {"convert.fp32_to_e8m0_rup_satfinite", F, "OCP MX's E8M0 range with the conversion's named rounding (up)", {}},
        {"convert.fp32_to_bf16_sr_satfinite", F, kStochastic, {}},
        {"convert.fp32_to_bf16_sr_satfinite.sr_unbiased", F, kStochasticLaw, {}},
        {"convert.fp32_to_bf16_sr_satfinite.sr_independent", F, kStochasticLaw, {}},
        {"convert.fp32_to_fp16_sr_satfinite", F, kStochastic, {}},
        {"convert.fp32_to_fp16_sr_satfinite.sr_unbiased", F, kStochasticLaw, {}},
        {"convert.fp32_to_fp16_sr_satfinite.sr_independent", F, kStochasticLaw, {}},
        {"convert.fp32_to_e4m3fn_sr_satfinite", F, kStochastic, {}},
        {"convert.fp32_to_e4m3fn_sr_satfinite.sr_unbiased", F, kStochasticLaw, {}},
        {"convert.fp32_to_e4m3fn_sr_satfinite.sr_independent", F, kStochasticLaw, {}},
        {"convert.fp32_to_e5m2_sr_satfinite", F, kStochastic, {}},
        {"convert.fp32_to_e5m2_sr_satfinite.sr_unbiased", F, kStochasticLaw, {}},
        {"convert.fp32_to_e5m2_sr_satfinite.sr_independent", F, kStochasticLaw, {}},
        {"convert.fp32_to_e2m1_sr_satfinite", F, kStochastic, {}},
        {"convert.fp32_to_e2m1_sr_satfinite.sr_unbiased", F, kStochasticLaw, {}},
        {"convert.fp32_to_e2m1_sr_satfinite.sr_independent", F, kStochasticLaw, {}},
        {"convert.sr.random_plane_size", F,
         "issue 24 item 3: the random plane holds one uint32 per word (harness/README.md, convert); the plugin ABI names "
         "the status of a malformed call",
         {}},
        {"convert.fp16_to_fp32", F, kNanPrinciple, {}},
        {"convert.bf16_to_fp32", F, kNanPrinciple, {}},
        {"convert.e4m3fn_to_fp32", F, kNanPrinciple, {}},
        {"convert.e5m2_to_fp32", F, kNanPrinciple, {}},
        {"convert.e8m0_to_fp32", F, kOcpMx, {}},
        {"convert.ue4m3_to_fp32", F, "the E4M3FN value (tensor-formats.txt 3.3) of the 7-bit word, exact in binary32", {}},
        {"convert.fp32_to_bf16_rne.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_bf16_rtz.nan_payload", F, kNanProfile, {}},
        {"convert.bf16_to_fp32.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_fp16_rne.nan_payload", F, kNanProfile, {}},
        {"convert.fp16_to_fp32.nan_payload", F, kNanProfile, {}},
        {"convert.e5m2_to_fp32.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rne_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rne_nan.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rne_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rne_inf.nan_sign", F, kNanProfile, {}},
        {"convert.e4m3fn_to_fp32.nan_sign", F, kNanProfile, {}},
        // the opt-in rounding directions (issue 24 item 2)
        {"convert.fp32_to_bf16_rna", F, kDirection, {}},
        {"convert.fp32_to_bf16_rup", F, kDirection, {}},
        {"convert.fp32_to_bf16_rdn", F, kDirection, {}},
        {"convert.fp32_to_fp16_rtz", F, kDirection, {}},
        {"convert.fp32_to_fp16_rna", F, kDirection, {}},
        {"convert.fp32_to_fp16_rup", F, kDirection, {}},
        {"convert.fp32_to_fp16_rdn", F, kDirection, {}},
        {"convert.fp32_to_e4m3fn_rtz_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e4m3fn_rna_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e4m3fn_rup_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e4m3fn_rdn_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rtz_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rna_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rup_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rdn_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rtz_inf", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rna_inf", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rup_inf", F, kDirection, {}},
        {"convert.fp32_to_e5m2_rdn_inf", F, kDirection, {}},
        {"convert.fp32_to_e2m1_rtz_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e2m1_rna_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e2m1_rup_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e2m1_rdn_satfinite", F, kDirection, {}},
        {"convert.fp32_to_ue4m3_rtz_satfinite", F, kDirection, {}},
        {"convert.fp32_to_ue4m3_rup_satfinite", F, kDirection, {}},
        {"convert.fp32_to_e8m0_rna_satfinite", F, kDirection, {}},
        {"convert.fp32_to_bf16_rna.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_bf16_rup.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_bf16_rdn.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_fp16_rtz.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_fp16_rna.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_fp16_rup.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_fp16_rdn.nan_payload", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rtz_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rna_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rup_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e4m3fn_rdn_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rtz_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rna_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rup_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rdn_satfinite.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rtz_inf.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rna_inf.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rup_inf.nan_sign", F, kNanProfile, {}},
        {"convert.fp32_to_e5m2_rdn_inf.nan_sign", F, kNanProfile, {}},
        // ---- grouped ----
        {"grouped.search.candidates", F, "tensor-formats.txt 7.3 lists the candidates of NInfer's search_quantize_matrix "
                                         "and keeps the incumbent unless an error is strictly smaller", {}},
        {"grouped.search.importance", F, "tensor-formats.txt 7.3 weighs the error by one importance per column; a weight "
                                         "that is no weight is refused with the ABI's status", {}},
        {"grouped.search.negative_scales", F, "tensor-formats.txt 7.3: negative candidates compete only when the recipe "
                                              "enables negative_scales", {}},
        {"row_split.registry", F, "storage-layouts.md Section 1 names both formats in row_split_k128_v1", {}},
        {"row_split.two_bit_packing", F, "storage-layouts.md, part of the spec, fixes the 2-bit packing", {}},
        // ---- scaled ----
        {"nvfp4.scale.zero", F, "the spec's formula: e2m1 * (+0) / d_w is an IEEE product, a zero of the code's sign", {}},
        {"nvfp4.reconstruct", F, "the ABI's VALUES plane is binary32; the exact weight rounds once, IEEE 754's default", {}},
        {"block_scale.divisor_plane", F, "storage-layouts.md Section 4 fixes the divisor words after the scale plane", {}},
        {"block_scale.slice", F, "storage-layouts.md Section 4 fixes per-row divisor ownership; a result must be an nvfp4 "
                                 "plane (a geometry, one divisor per source run), so R3's runs are the only carrier", {}},
        {"block_scale.gather", F, "storage-layouts.md Section 4 fixes per-row divisor ownership; a result must be an nvfp4 "
                                  "plane (a geometry, one divisor per source run), so R3's runs are the only carrier", {}},
        {"fp8_row.slice", F, kSelection, {}},
        {"fp8_row.gather", F, kSelection, {}},
        {"fp8_row_maxabs.bf16_inputs", F, "the paragraph represents inputs as BF16; Section 7.2's source conversion rounds "
                                          "to nearest, ties to even", {}},
        {"fp8_row_maxabs.scale_rounding", F, "the paragraph's steps are the only ones the spec gives; the format's BF16 "
                                             "multiplier replaces binary16 in them (NInfer's producer agrees byte for byte)", {}},
        {"fp8_row_maxabs.rescue", O,
         "a rescued BF16 multiplier below 2^-128 has an infinite binary32 reciprocal; the paragraph names only an "
         "overflowing scale as a refusal and Section 8 only an unrepresentable scale, so encoding and refusing both conform",
         {{"encode", "R2: the multiplier 0x0001 is stored, every nonzero product is infinite and clamps to +-448, a zero "
                     "keeps a zero code of its sign"},
          {"refuse", "NINFER_E_NONFINITE: the reciprocal of the multiplier is not finite (NInfer's producer: "
                     "\"normalization produced a non-finite value\")"}}},
        {"fp8_row_maxabs.nonfinite", O,
         "a finite fp32 source above BF16's largest finite is both a non-finite BF16 input and an overflowing scale; "
         "Section 8 refuses both, the spec names no status",
         {{"nonfinite", "NINFER_E_NONFINITE: the BF16 representation of the source is infinite (R2)"},
          {"scale_overflow", "NINFER_E_SCALE_OVERFLOW: the row's maximum, hence its multiplier, overflows"}}},
        {"fp8_row_maxabs.zero_row", F, "the paragraph's all-zero row, read on the BF16 inputs it names: +0 and -0 are zeros", {}},
        {"fp8_row_maxabs.bit_exact", F, "the paragraph's steps are the only ones the spec gives; the format's BF16 "
                                        "multiplier replaces binary16 in them (NInfer's producer agrees byte for byte)", {}},
        {"lesson.nvfp4_two_level", F, "the lesson's Example 15 recipe; an nvfp4 tensor divides by d_w, so the recipe's "
                                      "tensor scale is stored as its one-rounding inverse (oracle/SCALED.md R5)", {}},
        // ---- GGUF ----
        {"gguf.registry", F, kAbiStatus, {}},
        {"gguf.geometry", F, kAbiStatus, {}},
        {"gguf.size", F, kAbiStatus, {}},
        {"gguf.rows.slice", F, "the GGUF weight paragraph: a consecutive row slice copies whole rows; the refusal status is "
                               "the plugin ABI's", {}},
        {"gguf.rows.gather", F, "the GGUF weight paragraph: a row gather copies whole rows; the refusal status is the plugin "
                                "ABI's", {}},
        {"lesson.mxfp4", F, "the lesson's Example 14 and OCP MX fix the block; ggml's block_mxfp4 the byte order and the "
                            "all-zero block", {}},
        {"gguf.decode.", F, kGgml, {}},
        {"gguf.quantize.", F, kGgmlQuantize, {}},
        {"gguf.quantize.gguf_iq4_nl", O,
         "below GROUP_MAX_EPS ggml's quantize_row_iq4_nl_ref stores d = 0 and packs codes it never computed: no byte "
         "but d is defined, and every value of such a block decodes to a zero (oracle/GGUF.md, \"iq4_nl and iq4_xs\")",
         {{"refuse", "NINFER_E_METHOD: the method has no defined bytes for the block"},
          {"zero_scale", "ggml's block: d a binary16 zero (+0 as ggml stores it, or -0), any codes; every other block of the "
                         "row as ggml's method writes it"}}},
        // ---- linear ----
        {"linear.registry", F, kAbiStatus, {}},
        {"linear.shape", F, kAbiStatus, {}},
        {"linear.profile", F, "the profile registry of the plugin ABI (abi::kProfiles) fixes each profile's formats", {}},
        {"linear.payload", F, "the weight's own decode rules (the spec's format sections) decide what is refused; the "
                              "status and detail are the plugin ABI's", {}},
        {"linear.nonfinite", F, "IEEE 754 arithmetic on the exact products fixes NaN and infinity", {}},
        {"linear.bit_exact", F, kLinearProfile, {}},
        {"linear.correctly_rounded", F, kLinearProfile, {}},
        {"linear.forward_error_bound", F, kLinearProfile, {}},
        {"linear.gguf_q8_1_product", F, "the spec's own words: NInfer's products quantize the activation to ggml's q8_1 "
                                        "numbers and accumulate in FP32 (the GGUF weight paragraph)", {}},
    };
    return t;
}

/// The entry for an id: its exact entry, else the longest prefix entry; nullptr when none.
const Entry *entry_of(std::string_view id) {
    const Entry *best = nullptr;
    for (const auto &e : table()) {
        if (e.key == id) return &e;
        const bool prefix = !e.key.empty() && e.key.back() == '.' && id.substr(0, e.key.size()) == e.key;
        if (prefix && (!best || e.key.size() > best->key.size())) best = &e;
    }
    return best;
}

}  // namespace

ReadingClass reading_class(std::string_view id) {
    const Entry *e = entry_of(id);
    if (!e) return {};
    return {e->kind, std::string(e->why), e->choices};
}

std::vector<std::string> reading_table_keys() {
    std::vector<std::string> keys;
    for (const auto &e : table()) keys.emplace_back(e.key);
    return keys;
}

}  // namespace ninfer::suites
