// SPDX-License-Identifier: Apache-2.0
// The `linear` operator's rules table (suites/LINEAR.md): tensor-formats.txt Section 2 ("A compute
// profile owns ..."), Sections 6.2, 8 and 9 (the Op's named criterion against the independent
// oracle; "An NVFP4 Op oracle starts from ..."), and the GGUF product paragraph. One rule per id of
// NINFER_LINEAR_RULES (rule_ids.hpp), then one per criterion of abi::kCriteria
// (rule::linear_criterion), each with the spec text copied verbatim (`quote`, tested against
// the spec in NINFER_SPEC_DIR) and the suite's reading apart (`reading`): the spec names the criteria's place,
// the profiles and their parameters are the suite's (abi::kProfiles).
#include <string>
#include <string_view>

#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/linear.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

namespace {

struct Row {
    std::string_view id, section, quote, reading;
};

constexpr std::string_view kProfileQuote =
    "A compute profile owns observable input and output types, explicitly semantic casts or quantization "
    "boundaries, determinism requirements, and operator-level numerical tolerances.";
constexpr std::string_view kCriterionQuote =
    "It may choose its private fusion, reduction, staging, and intermediate precision; the observable Op result "
    "is qualified against the independent oracle with the Op's named criterion for that implementation profile.";

constexpr Row kRows[] = {
    {rule::linear_registry, "tensor-formats.txt 2",
     "A kernel supports specific combinations of numeric format, storage layout, operator semantics, shape, "
     "compute profile, and execution platform.",
     "linear takes a weight of every registered format whose elements decode to reals: the direct float word "
     "formats fp32, bf16 and fp16 in contiguous_le_v1, the grouped formats in row_split_k128_v1, nvfp4 in "
     "block_scale_k16_m128x4_v1, fp8_e4m3fn_row_bf16 in row_scale_v1, fp8_e4m3fn_row_fp16 in row_interleaved_v1 "
     "and every GGUF block type in ggml_blocks_v1. Any other format (int32, the conversion-only word formats, an "
     "unknown id) is refused with NINFER_E_UNSUPPORTED; a format read in another layout with NINFER_E_LAYOUT."},
    {rule::linear_shape, "tensor-formats.txt 9",
     "Native Op preparation, resource queries, warmup or execution check actual operand support.",
     "The call's shape is the weight's [N, K] (rank 2; another rank: NINFER_E_INVALID_ARGUMENT), count is M. "
     "N, K or M of 0, a shape the weight's geometry refuses (nvfp4: N % 128, K % 64; GGUF: K % block values) "
     "or a size overflowing uint64 is NINFER_E_SIZE; after the profile checks, an ACTIVATION plane that is not "
     "M*K words, an OUTPUT plane shorter than M*N words, or a PAYLOAD that is not the format's size for [N, K] "
     "(nvfp4: the divisor count D = (bytes - divisor offset) / 4 must divide N) is NINFER_E_SIZE."},
    {rule::linear_profile, "tensor-formats.txt 2", kProfileQuote,
     "The profiles are the registry's (abi::kProfiles): f32_sequential (bit_exact), correctly_rounded, "
     "f32_accumulate (forward_error_bound) and gguf_q8_1_f32 (gguf_q8_1_product, GGUF weights only). Every "
     "profile takes fp32, bf16 and fp16 activations (gguf_q8_1_f32: fp32 only) and gives fp32 outputs "
     "(correctly_rounded: fp32, bf16, fp16). Profile 0, an unknown profile, gguf_q8_1_f32 on a weight that is "
     "not GGUF, an activation or output format the profile does not list: NINFER_E_UNSUPPORTED."},
    {rule::linear_payload, "tensor-formats.txt 9",
     "A consuming kernel or model component must interpret direct logical words according to Section 3.1, "
     "grouped signed-integer identities, codes, and scales according to Section 3.2 and Sections 5 and 6, nvfp4 "
     "words and divisor according to Section 3.3, and row-scaled FP8 words according to Section 3.4.",
     "A payload that the format's decode refuses (an illegal code, an invalid scale or divisor, a nonzero "
     "padding or gap, a +0 scale over nonzero codes) is refused with NINFER_E_INVALID_PAYLOAD and the detail "
     "quant_decode gives; nothing is written. GGUF blocks have no invalid payload: their infinite and NaN "
     "scales are values (linear.nonfinite)."},
    {rule::linear_nonfinite, "tensor-formats.txt 3.1",
     "A compute operation is not required to preserve a NaN payload unless its compute profile says so.",
     "The exact result of an element is NaN when a product is NaN (a NaN operand, 0 * inf) or the products "
     "hold both +inf and -inf; else +inf or -inf when a product is infinite. A NaN is matched by any NaN (any "
     "sign, any payload), an infinity only by itself. Under gguf_q8_1_f32 an activation block of 32 holding an "
     "infinity or NaN has no q8_1 block: the suite takes every element of it as NaN (no case depends on it)."},
    // ---- the criteria, in abi::kCriteria order ----
    {rule::linear_criterion_id<NINFER_CRITERION_bit_exact>, "tensor-formats.txt 2",
     "Exact or bitwise operations may require an exact observable result; that requirement does not turn a "
     "floating-point oracle into a prescribed internal evaluation order.",
     "Profile f32_sequential defines its word: p_k = RN32(w32_k * x_k) with w32_k the binary32 decoded weight "
     "(quant_decode's VALUES), s = 0, then s = RN32(s + p_k) for k = 0 .. K-1 (IEEE binary32, subnormals, "
     "overflow to infinity, no FMA). Accepted: that word bit for bit; a NaN word: any NaN."},
    {rule::linear_criterion_id<NINFER_CRITERION_correctly_rounded>, "tensor-formats.txt 6.2",
     "its operator-level result is qualified against this oracle with the Op's named criterion for that "
     "implementation profile.",
     "The exact sum of the exact products (every weight decoded exactly: direct words, the Section 6.2 binary32 "
     "reconstruction, c * s for the FP8 rows, nvfp4's exact e2m1 * e4m3 / d_w, ggml's binary32 dequantized "
     "words) rounded once to the output format, nearest-even, overflow to infinity. Accepted: that value "
     "(-0 equals +0)."},
    {rule::linear_criterion_id<NINFER_CRITERION_forward_error_bound>, "tensor-formats.txt 9", kCriterionQuote,
     "Profile f32_accumulate: |y - y_exact| <= k * u * S with S = sum_k |w_k x_k| exact, k = K + 2, u = 2^-24 "
     "(binary32 accumulation in any order). Accepted: every output word whose value lies in the interval; when "
     "S >= 2^128 - 2^103 (a binary32 partial sum may overflow) every word and NaN. An NVFP4 Op oracle starts "
     "from the represented public activation and the exact-decoded weight."},
    {rule::linear_criterion_id<NINFER_CRITERION_gguf_q8_1_product>, "tensor-formats.txt gguf_*",
     "The format fixes the stored weight, not the arithmetic of a product. NInfer's products quantize the "
     "activation to ggml's q8_1 numbers (one binary16 scale and one sum per 32 values) as llama.cpp does, and "
     "accumulate in FP32 (see src/ops/linear/gguf/).",
     "Profile gguf_q8_1_f32: each fp32 activation row is quantized in blocks of 32 exactly as "
     "quantize_row_q8_1_ref (binary16 d = amax / 127, q = roundf(x * (1 / d))), x_q = d * q exactly; then the "
     "forward error bound of f32_accumulate around y_q = sum w_k x_q,k with S_q = sum |w_k x_q,k|, k = K + 2, "
     "u = 2^-24."},
};

}  // namespace

std::vector<Rule> linear_rules() {
    std::vector<Rule> r;
    for (const auto &row : kRows)
        r.push_back(make_rule(std::string(row.id), "linear", std::string(row.section), std::string(row.quote),
                              std::string(row.reading)));
    return r;
}

const CatalogFamily kLinearCatalog = {.family = abi::Family::linear, .rules = &linear_rules, .suites = &linear_suites};

}  // namespace ninfer::suites
