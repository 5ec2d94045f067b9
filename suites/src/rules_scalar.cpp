// SPDX-License-Identifier: Apache-2.0
// The scalar rules table: one rule per word format (decode, classify), role (validity), named
// conversion (convert) and contiguous_le_v1 aspect (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// storage-layouts.md Sections 1, 2; number-formats-lesson.txt Examples 1-15). The rule ids are
// generated from the registry tables (rule_ids.hpp); each id's row below is data: the spec text
// it enforces, copied verbatim (`quote`, tested against the spec in NINFER_SPEC_DIR), and the suite's own
// reading or gloss, kept apart (`reading`, "" when the quote says it all).
#include <stdexcept>
#include <string>
#include <string_view>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/sr_statistics.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

/// One row of the table: a rule id, where its text stands, the verbatim quote, the reading.
struct Row {
    std::string_view id, section, quote, reading;
};

/// Every scalar rule's row. A registry entry without a row here is a logic error.
constexpr Row kRows[] = {
    // ---- decode.<format>: the exact value of a word ----
    {"decode.fp32", "tensor-formats.txt 3.1",
     "fp32 is IEEE-754 binary32: one sign bit at bit 31, an 8-bit exponent at bits 30 through 23 "
     "with bias 127, and a 23-bit trailing fraction at bits 22 through 0. Its zeros, subnormals, "
     "normal values, infinities, and NaNs have the standard binary32 interpretation; the minimum "
     "positive subnormal is 2^-149.",
     ""},
    {"decode.bf16", "tensor-formats.txt 3.1",
     "bf16 is the bfloat16 bit encoding. Its abstract 16-bit word has one sign bit at bit 15, an "
     "8-bit exponent at bits 14 through 7 with bias 127, and a 7-bit trailing fraction at bits 6 "
     "through 0. ... Equivalently, its exact expansion to binary32 places the 16-bit logical word in "
     "the high 16 bits of a binary32 word and appends 16 zero low bits.",
     ""},
    {"decode.fp16", "lesson Examples 3, 4",
     "FP16 (IEEE half precision) is the 16-bit float. It has 1 sign bit, 5 exponent bits with bias "
     "15, and 10 mantissa bits ... In a subnormal number the exponent field is 0, there is no implied "
     "leading 1, and the value is mantissa * 2^-24.",
     ""},
    {"decode.int32", "tensor-formats.txt 3.1",
     "int32 is a 32-bit two's-complement signed integer. For an abstract unsigned logical word u: "
     "value = u if u < 2^31 value = u - 2^32 otherwise",
     ""},
    {"decode.e4m3fn", "tensor-formats.txt 3.3",
     "An E4M3FN word has sign bit 7, exponent e in bits 6:3, fraction m in bits 2:0, and bias 7: e == "
     "0, m == 0 : signed zero e == 0, m != 0 : (-1)^sign * m * 2^-9 1 <= e <= 14 : (-1)^sign * (1 + "
     "m/8) * 2^(e-7) e == 15, m < 7 : (-1)^sign * (1 + m/8) * 2^8 e == 15, m == 7: NaN",
     ""},
    {"decode.e5m2", "lesson Example 9",
     "E5M2 is the other FP8 format. It trades one mantissa bit for one exponent bit: 1 sign bit, 5 "
     "exponent bits with bias 15, and 2 mantissa bits. ... It follows IEEE rules, the same rules as "
     "FP16: exponent 31 means infinity (when the mantissa is 0) or NaN (otherwise). The maximum "
     "finite value is 1.75 * 2^15 = 57344.",
     ""},
    {"decode.e2m1", "tensor-formats.txt 3.3",
     "An E2M1 word has sign bit 3, exponent bits 2:1, and mantissa bit 0. Positive code words 0..7 "
     "decode to: 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0 Bit 3 negates that value.",
     "a byte with bits above bit 3 set is outside the format and decodes to the positive canonical "
     "NaN."},
    {"decode.e8m0", "lesson Example 14",
     "The scale is an E8M0 number: 8 exponent bits, no mantissa, and no sign. It is always a power "
     "of two, 2^(e - 127), so it is stored in one byte.",
     "the word 0xFF is NaN, as in the OCP Microscaling specification the lesson cites."},
    {"decode.ue4m3", "lesson Example 15",
     "ggml groups NVFP4 differently. block_nvfp4 in ggml-common.h holds 64 values as four 16-value "
     "sub-blocks, each with an unsigned E4M3 scale byte",
     "the word is the low 7 bits of the byte, an E4M3FN word without its sign bit (bias 7, "
     "subnormals, 0x7F NaN); a byte with bit 7 set is outside the format and decodes to the positive "
     "canonical NaN."},

    // ---- classify.<format>: the value class of a word, with its sign ----
    {"classify.fp32", "tensor-formats.txt 3.1",
     "Its zeros, subnormals, normal values, infinities, and NaNs have the standard binary32 "
     "interpretation; the minimum positive subnormal is 2^-149. All 2^32 logical words are valid at "
     "the format layer. As with BF16, signed zeros, infinities, and NaN payloads remain distinct "
     "persistent words.",
     ""},
    {"classify.bf16", "tensor-formats.txt 3.1",
     "Its value classes are: - exponent zero and fraction zero: positive or negative zero according to "
     "the sign bit; - exponent zero and nonzero fraction: a subnormal value (-1)^sign * fraction * "
     "2^-133; - exponent 1 through 254: a normal value (-1)^sign * 2^(exponent-127) * (1 + "
     "fraction/2^7); - exponent 255 and fraction zero: positive or negative infinity; - exponent 255 "
     "and nonzero fraction: NaN, including its sign, quiet/signaling bit, and payload.",
     ""},
    {"classify.fp16", "lesson Examples 3, 4, 9",
     "The largest finite FP16 value is 0x7BFF, which equals (2 - 2^-10) * 2^15 = 65504. ... In a "
     "subnormal number the exponent field is 0, there is no implied leading 1, and the value is "
     "mantissa * 2^-24. ... It follows IEEE rules, the same rules as FP16: exponent 31 means infinity "
     "(when the mantissa is 0) or NaN (otherwise).",
     "IEEE 754 binary16, as the lesson names FP16: the top fraction bit of a NaN is its quiet bit."},
    {"classify.int32", "tensor-formats.txt 3.1",
     "Every 32-bit word is valid, and the value interval is [-2147483648, 2147483647]. int32 has no "
     "scale, zero point, saturation behavior, sentinel convention, or dependency on the host C++ int "
     "type.",
     ""},
    {"classify.e4m3fn", "tensor-formats.txt 3.3, 3.4",
     "e == 0, m == 0 : signed zero e == 0, m != 0 : (-1)^sign * m * 2^-9 1 <= e <= 14 : (-1)^sign * "
     "(1 + m/8) * 2^(e-7) e == 15, m < 7 : (-1)^sign * (1 + m/8) * 2^8 e == 15, m == 7: NaN ... The "
     "positive and negative NaN words 0x7f and 0xff are invalid; E4M3FN has no infinity words.",
     ""},
    {"classify.e5m2", "lesson Example 9",
     "It follows IEEE rules, the same rules as FP16: exponent 31 means infinity (when the mantissa "
     "is 0) or NaN (otherwise).",
     ""},
    {"classify.e2m1", "tensor-formats.txt 3.3, lesson Example 13",
     "Words 0x0 and 0x8 are distinct positive and negative zero words; all 16 code words are valid "
     "and must remain bit-exact. ... With exponent 0, the value is subnormal: mantissa * 0.5. ... "
     "There is no infinity and no NaN.",
     "a byte with bits above bit 3 set is outside the format."},
    {"classify.e8m0", "lesson Example 14",
     "The scale is an E8M0 number: 8 exponent bits, no mantissa, and no sign. It is always a power "
     "of two, 2^(e - 127)",
     "every word but 0xFF is normal (no zero, no subnormal); 0xFF is NaN, as in the OCP Microscaling "
     "specification."},
    {"classify.ue4m3", "lesson Example 15",
     "each with an unsigned E4M3 scale byte",
     "classes of E4M3FN without a sign bit (0x00 zero, 0x01-0x07 subnormal, 0x7F NaN); a byte with "
     "bit 7 set is outside the format."},

    // ---- validity.<role> ----
    {"validity.grouped_fp16_scale", "tensor-formats.txt 6",
     "A valid scale is either: - positive zero, binary16 bit pattern 0x0000; or - a finite nonzero "
     "binary16 normal or subnormal number of either sign. Negative zero, positive or negative "
     "infinity, and every NaN are invalid.",
     ""},
    {"validity.q2_fp16_scale", "tensor-formats.txt 3.2",
     "Q2 accepts every finite binary16 scale word, including both signed zeros and subnormals. When "
     "the scale is zero, any code remains valid and preserves the source representation. These Q2 "
     "rules override the zero-scale restrictions below; infinity and NaN remain invalid.",
     ""},
    {"validity.nvfp4_e4m3_scale", "tensor-formats.txt 3.3",
     "Stored NVFP4 weight scales admit only sign-zero finite words, including positive zero. "
     "Negative values, negative zero, and both NaN words are invalid.",
     ""},
    {"validity.fp8_weight_code", "tensor-formats.txt 3.4",
     "The E4M3FN code meaning is the one defined in Section 3.3. Both signed-zero words and every "
     "finite subnormal or normal word are valid. The positive and negative NaN words 0x7f and 0xff "
     "are invalid; E4M3FN has no infinity words.",
     ""},
    {"validity.bf16_row_multiplier", "tensor-formats.txt 3.4",
     "A valid row scale has sign bit zero and is finite, including positive zero and positive "
     "subnormals. Negative values, negative zero, infinity, and NaN are invalid.",
     ""},
    {"validity.fp16_row_multiplier", "tensor-formats.txt 3.4",
     "fp8_e4m3fn_row_fp16 has the same E4M3FN code rules and multiplier semantics, with an IEEE "
     "binary16 row scale instead of BF16. Scale sign must be positive, including positive zero; "
     "subnormals are admitted, negative zero and non-finite scales are refused.",
     ""},
    {"validity.fp32_weight_divisor", "tensor-formats.txt 3.3",
     "Every serialized binary32 word of d_w must be finite and strictly positive.", ""},

    // ---- convert.<conversion> ----
    {"convert.fp32_to_bf16_rne", "lesson Example 5, tensor-formats.txt 3.1",
     "Round to nearest even: add a rounding constant first, then drop the low bits. ... // NaN stays "
     "NaN (quiet) ... 1.00390625 is exactly halfway between 1.0 and 1.0078125. Round-to-nearest-even "
     "picks 1.0, because its last mantissa bit is 0 (even). ... A compute operation is not required "
     "to preserve a NaN payload unless its compute profile says so.",
     ""},
    {"convert.fp32_to_bf16_rtz", "lesson Example 5",
     "Truncate: throw the low 16 bits away. ... Truncation always moves values toward zero, which is "
     "a systematic bias.",
     "the NaN principle (oracle/README.md): the lesson truncates finite values only; a NaN becomes a "
     "quiet NaN of either sign (IEEE 754 6.2; 6.3 leaves the sign unspecified; plain truncation could "
     "turn a NaN into an infinity). Keeping the sign and the top payload bits is the profile rule "
     "convert.fp32_to_bf16_rtz.nan_payload."},
    {"convert.fp32_to_fp16_rne", "lesson Examples 3, 4",
     "It rounds to the nearest representable value, and when a value is exactly halfway between two "
     "candidates it picks the one whose last bit is 0 (this rule is called \"ties to even\"). ... A "
     "value below the midpoint, such as 65519, rounds down to 65504. A value at or above it, such as "
     "65520, rounds to infinity (0x7C00). ... 2.9e-8 is less than half of one step, so it rounds to "
     "zero.",
     "the NaN principle (oracle/README.md): a NaN becomes a quiet NaN of either sign (IEEE 754 6.2: "
     "a signalling NaN never stays signalling; 6.3 leaves the sign unspecified); keeping the sign and "
     "the payload's leading bits is the profile rule convert.fp32_to_fp16_rne.nan_payload."},
    {"convert.fp32_to_e4m3fn_rne_satfinite", "lesson Example 8",
     "nearest finite value, ties to even, saturating ... 500 is beyond the range. It saturates to "
     "448, which means it is clamped to the largest value instead of becoming NaN. The OCP "
     "specification defines both a saturating conversion and one that produces NaN for out-of-range "
     "values.",
     "OCP FP8 saturating mode: infinities saturate too; a NaN stays NaN, of either sign (the NaN "
     "principle, oracle/README.md: IEEE 754 6.3 leaves the sign unspecified); keeping the input's "
     "sign is the profile rule convert.fp32_to_e4m3fn_rne_satfinite.nan_sign."},
    {"convert.fp32_to_e4m3fn_rne_nan", "lesson Example 8",
     "The OCP specification defines both a saturating conversion and one that produces NaN for "
     "out-of-range values.",
     "round to nearest, ties to even; a result beyond 448 after rounding, an infinity or a NaN "
     "becomes NaN; a NaN input gives a NaN of either sign (the NaN principle, oracle/README.md); "
     "keeping its sign is the profile rule convert.fp32_to_e4m3fn_rne_nan.nan_sign."},
    {"convert.fp32_to_e5m2_rne_satfinite", "lesson Example 9",
     "The maximum finite value is 1.75 * 2^15 = 57344. ... nearest finite value, ties to even, "
     "saturating",
     "OCP FP8 saturating mode: values and infinities beyond the largest finite saturate; a NaN stays "
     "NaN: quiet, of either sign (the NaN principle, oracle/README.md); keeping the input's sign is "
     "the profile rule convert.fp32_to_e5m2_rne_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rne_inf", "lesson Example 9",
     "It follows IEEE rules, the same rules as FP16: exponent 31 means infinity (when the mantissa "
     "is 0) or NaN (otherwise).",
     "OCP FP8 non-saturating mode for E5M2: round to nearest even, overflow to infinity as binary16 "
     "does; a NaN becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); keeping "
     "the input's sign is the profile rule convert.fp32_to_e5m2_rne_inf.nan_sign."},
    {"convert.fp32_to_e2m1_rne_satfinite", "lesson Example 13",
     "FP4 E2M1 is a 4-bit float with 1 sign bit, 2 exponent bits (bias 1), and 1 mantissa bit, as "
     "defined in the OCP Microscaling (MX) specification. ... There is no infinity and no NaN.",
     "OCP MX: round to nearest even, saturate to +-6; a NaN input is outside the conversion's "
     "domain."},
    {"convert.fp32_to_ue4m3_rnu_satfinite", "lesson Example 15",
     "each with an unsigned E4M3 scale byte (ggml_fp32_to_ue4m3 in ggml-impl.h rounds half up "
     "rather than to even)",
     "values saturate at 448; zero, negative values, negative zero and NaN give word 0x00 (ggml's "
     "encoder)."},
    {"convert.fp32_to_e8m0_rtz_satfinite", "lesson Example 14",
     "The scale is an E8M0 number: 8 exponent bits, no mantissa, and no sign. It is always a power "
     "of two, 2^(e - 127) ... the scale exponent is therefore floor(log2(amax)) - 2.",
     "round the magnitude toward zero to a power of two (floor of log2); values below 2^-127, zero "
     "and negative inputs clamp to 0x00, values above 2^127 and infinities to 0xFE; NaN gives NaN."},
    {"convert.fp32_to_e8m0_rup_satfinite", "lesson Example 14",
     "The scale is an E8M0 number: 8 exponent bits, no mantissa, and no sign. It is always a power "
     "of two, 2^(e - 127)",
     "round the magnitude up to a power of two (ceiling of log2, as the OCP MX scale rounding up); "
     "values below 2^-127, zero and negative inputs clamp to 0x00, values above 2^127 and infinities "
     "to 0xFE; NaN gives NaN."},
    {"convert.bf16_to_fp32", "tensor-formats.txt 3.1, lesson Example 5",
     "Equivalently, its exact expansion to binary32 places the 16-bit logical word in the high 16 "
     "bits of a binary32 word and appends 16 zero low bits. ... A compute operation is not required "
     "to preserve a NaN payload unless its compute profile says so. ... Converting BF16 up to FP32 is "
     "a shift left by 16 bits.",
     "the NaN principle (oracle/README.md): a NaN stays a NaN of its sign, w << 16 or quiet (the "
     "suite reads the spec's payload waiver as covering the quiet bit, as IEEE 754 6.2 quiets); "
     "keeping every bit is the profile rule convert.bf16_to_fp32.nan_payload."},
    {"convert.fp16_to_fp32", "lesson Example 3, tensor-formats.txt 6.2",
     "Float.float16ToFloat(short) converts back. ... every binary16 value expands exactly to "
     "binary32",
     "the NaN principle (oracle/README.md): a NaN stays a NaN, quiet of either sign (IEEE 754 6.2, "
     "6.3) or with every bit kept; keeping every bit (the sign, a signalling NaN signalling) is the "
     "profile rule convert.fp16_to_fp32.nan_payload."},
    {"convert.e4m3fn_to_fp32", "tensor-formats.txt 3.4",
     "The E4M3FN code meaning is the one defined in Section 3.3. ... c32 = "
     "exact_e4m3fn_to_binary32(c[n,k])",
     "the NaN principle (oracle/README.md): the NaN words 0x7F and 0xFF give a quiet binary32 NaN of "
     "either sign; keeping the word's sign is the profile rule convert.e4m3fn_to_fp32.nan_sign."},
    {"convert.e5m2_to_fp32", "lesson Example 9",
     "The first 8 bits of an FP16 value, the sign, all 5 exponent bits, and the top 2 mantissa "
     "bits, form an E5M2 byte, so E5M2 is the top byte of an FP16 value.",
     "the NaN principle (oracle/README.md): a NaN stays a NaN, quiet of either sign or with every bit "
     "kept; keeping every bit (the sign too) is the profile rule convert.e5m2_to_fp32.nan_payload."},
    {"convert.e2m1_to_fp32", "lesson Example 13",
     "With exponent 0, the value is subnormal: mantissa * 0.5. Otherwise it is (1 + mantissa / 2) * "
     "2^(exponent - 1). There is no infinity and no NaN.",
     ""},
    {"convert.e8m0_to_fp32", "lesson Example 14",
     "It is always a power of two, 2^(e - 127), so it is stored in one byte.",
     "0xFF gives a quiet binary32 NaN (OCP Microscaling); 2^-127 is the binary32 subnormal "
     "0x00400000."},
    {"convert.ue4m3_to_fp32", "lesson Example 15",
     "each with an unsigned E4M3 scale byte",
     "the E4M3FN value of the 7-bit word (0x7F gives a quiet binary32 NaN)."},

    // ---- convert.<conversion>: the opt-in rounding directions (issue 24 item 2; a plugin is
    //      tested on one only when it declares it) ----
    {"convert.fp32_to_bf16_rna", "IEEE 754-2019 4.3.1, 7.4 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond the largest finite becomes the "
     "infinity of its sign (IEEE 754 7.4); a NaN becomes a quiet NaN of either sign (the NaN "
     "principle, oracle/README.md); keeping the sign and the top payload bits is the profile rule "
     "convert.fp32_to_bf16_rna.nan_payload."},
    {"convert.fp32_to_bf16_rup", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward +infinity; a positive result beyond the largest finite becomes +infinity and a "
     "negative one the negative largest finite 0xFF7F (IEEE 754 7.4), and an infinity stays "
     "infinite; a NaN becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); "
     "keeping the sign and the top payload bits is the profile rule "
     "convert.fp32_to_bf16_rup.nan_payload."},
    {"convert.fp32_to_bf16_rdn", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward -infinity; a negative result beyond the largest finite becomes -infinity and a "
     "positive one the largest finite 0x7F7F (IEEE 754 7.4), and an infinity stays infinite; a NaN "
     "becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); keeping the sign "
     "and the top payload bits is the profile rule convert.fp32_to_bf16_rdn.nan_payload."},
    {"convert.fp32_to_fp16_rtz", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward zero; a finite result beyond the largest finite becomes the largest finite of "
     "its sign (0x7BFF or 0xFBFF; IEEE 754 7.4) and an infinity stays infinite; a NaN becomes a "
     "quiet NaN of either sign (the NaN principle, oracle/README.md); keeping the sign and the "
     "payload's leading bits is the profile rule convert.fp32_to_fp16_rtz.nan_payload."},
    {"convert.fp32_to_fp16_rna", "IEEE 754-2019 4.3.1, 7.4 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond the largest finite becomes the "
     "infinity of its sign (IEEE 754 7.4); a NaN becomes a quiet NaN of either sign (the NaN "
     "principle, oracle/README.md); keeping the sign and the payload's leading bits is the profile "
     "rule convert.fp32_to_fp16_rna.nan_payload."},
    {"convert.fp32_to_fp16_rup", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward +infinity; a positive result beyond the largest finite becomes +infinity and a "
     "negative one the negative largest finite 0xFBFF (IEEE 754 7.4), and an infinity stays "
     "infinite; a NaN becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); "
     "keeping the sign and the payload's leading bits is the profile rule "
     "convert.fp32_to_fp16_rup.nan_payload."},
    {"convert.fp32_to_fp16_rdn", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward -infinity; a negative result beyond the largest finite becomes -infinity and a "
     "positive one the largest finite 0x7BFF (IEEE 754 7.4), and an infinity stays infinite; a NaN "
     "becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); keeping the sign "
     "and the payload's leading bits is the profile rule convert.fp32_to_fp16_rdn.nan_payload."},
    {"convert.fp32_to_e4m3fn_rtz_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward zero; a result beyond 448 and an infinity saturate to +-448 (OCP FP8 saturating "
     "mode); a NaN input gives an E4M3FN NaN of either sign (the NaN principle, oracle/README.md); "
     "keeping its sign is the profile rule convert.fp32_to_e4m3fn_rtz_satfinite.nan_sign."},
    {"convert.fp32_to_e4m3fn_rna_satfinite", "IEEE 754-2019 4.3.1 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond 448 and an infinity saturate to +-448 "
     "(OCP FP8 saturating mode); a NaN input gives an E4M3FN NaN of either sign (the NaN "
     "principle, oracle/README.md); keeping its sign is the profile rule "
     "convert.fp32_to_e4m3fn_rna_satfinite.nan_sign."},
    {"convert.fp32_to_e4m3fn_rup_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward +infinity; a result beyond 448 and an infinity saturate to +-448 (OCP FP8 "
     "saturating mode); a NaN input gives an E4M3FN NaN of either sign (the NaN principle, "
     "oracle/README.md); keeping its sign is the profile rule "
     "convert.fp32_to_e4m3fn_rup_satfinite.nan_sign."},
    {"convert.fp32_to_e4m3fn_rdn_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward -infinity; a result beyond 448 and an infinity saturate to +-448 (OCP FP8 "
     "saturating mode); a NaN input gives an E4M3FN NaN of either sign (the NaN principle, "
     "oracle/README.md); keeping its sign is the profile rule "
     "convert.fp32_to_e4m3fn_rdn_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rtz_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward zero; a result beyond 57344 and an infinity saturate to +-57344 (OCP FP8 "
     "saturating mode); a NaN becomes a quiet NaN of either sign (the NaN principle, "
     "oracle/README.md); keeping the input's sign is the profile rule "
     "convert.fp32_to_e5m2_rtz_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rna_satfinite", "IEEE 754-2019 4.3.1 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond 57344 and an infinity saturate to "
     "+-57344 (OCP FP8 saturating mode); a NaN becomes a quiet NaN of either sign (the NaN "
     "principle, oracle/README.md); keeping the input's sign is the profile rule "
     "convert.fp32_to_e5m2_rna_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rup_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward +infinity; a result beyond 57344 and an infinity saturate to +-57344 (OCP FP8 "
     "saturating mode); a NaN becomes a quiet NaN of either sign (the NaN principle, "
     "oracle/README.md); keeping the input's sign is the profile rule "
     "convert.fp32_to_e5m2_rup_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rdn_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward -infinity; a result beyond 57344 and an infinity saturate to +-57344 (OCP FP8 "
     "saturating mode); a NaN becomes a quiet NaN of either sign (the NaN principle, "
     "oracle/README.md); keeping the input's sign is the profile rule "
     "convert.fp32_to_e5m2_rdn_satfinite.nan_sign."},
    {"convert.fp32_to_e5m2_rtz_inf", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward zero; a finite result beyond the largest finite becomes the largest finite of "
     "its sign (0x7B or 0xFB; IEEE 754 7.4) and an infinity stays infinite; a NaN becomes a quiet "
     "NaN of either sign (the NaN principle, oracle/README.md); keeping the input's sign is the "
     "profile rule convert.fp32_to_e5m2_rtz_inf.nan_sign."},
    {"convert.fp32_to_e5m2_rna_inf", "IEEE 754-2019 4.3.1, 7.4 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond the largest finite becomes the "
     "infinity of its sign (IEEE 754 7.4); a NaN becomes a quiet NaN of either sign (the NaN "
     "principle, oracle/README.md); keeping the input's sign is the profile rule "
     "convert.fp32_to_e5m2_rna_inf.nan_sign."},
    {"convert.fp32_to_e5m2_rup_inf", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward +infinity; a positive result beyond the largest finite becomes +infinity and a "
     "negative one the negative largest finite 0xFB (IEEE 754 7.4), and an infinity stays "
     "infinite; a NaN becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); "
     "keeping the input's sign is the profile rule convert.fp32_to_e5m2_rup_inf.nan_sign."},
    {"convert.fp32_to_e5m2_rdn_inf", "IEEE 754-2019 4.3.2, 7.4 (opt-in)", "",
     "round toward -infinity; a negative result beyond the largest finite becomes -infinity and a "
     "positive one the largest finite 0x7B (IEEE 754 7.4), and an infinity stays infinite; a NaN "
     "becomes a quiet NaN of either sign (the NaN principle, oracle/README.md); keeping the "
     "input's sign is the profile rule convert.fp32_to_e5m2_rdn_inf.nan_sign."},
    {"convert.fp32_to_e2m1_rtz_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward zero; a result beyond 6 saturates to +-6 (OCP MX); a NaN input is outside the "
     "conversion's domain."},
    {"convert.fp32_to_e2m1_rna_satfinite", "IEEE 754-2019 4.3.1 (opt-in)", "",
     "round to nearest, ties away from zero; a result beyond 6 saturates to +-6 (OCP MX); a NaN "
     "input is outside the conversion's domain."},
    {"convert.fp32_to_e2m1_rup_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward +infinity; a result beyond 6 saturates to +-6 (OCP MX); a NaN input is outside "
     "the conversion's domain."},
    {"convert.fp32_to_e2m1_rdn_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward -infinity; a result beyond 6 saturates to +-6 (OCP MX); a NaN input is outside "
     "the conversion's domain."},
    {"convert.fp32_to_ue4m3_rtz_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward zero on the unsigned E4M3 grid; positive values below the smallest subnormal "
     "2^-9 give 0x00; a result beyond 448 and +infinity saturate to 448; zero, negative values, "
     "negative zero, -infinity and NaN give word 0x00 (ggml's encoder)."},
    {"convert.fp32_to_ue4m3_rup_satfinite", "IEEE 754-2019 4.3.2 (opt-in)", "",
     "round toward +infinity on the unsigned E4M3 grid; every positive value below the smallest "
     "subnormal 2^-9 gives 0x01; a result beyond 448 and +infinity saturate to 448; zero, negative "
     "values, negative zero, -infinity and NaN give word 0x00 (ggml's encoder)."},
    {"convert.fp32_to_e8m0_rna_satfinite", "IEEE 754-2019 4.3.1 (opt-in)", "",
     "round the magnitude to the nearest power of two, ties away from zero (a tie between 2^k and "
     "2^(k+1) has the even neighbour 2^(k+1) on E8M0's grid, so rne, rna and rnu agree: 1.5 -> "
     "0x80, 3 -> 0x81); values below 2^-127, zero and negative inputs clamp to 0x00, results above "
     "2^127 and infinities to 0xFE; NaN gives 0xFF."},

    // ---- convert.<sr conversion>: stochastic rounding, exact given the random bits (issue 24 item 3;
    //      registry.h NINFER_STOCHASTIC; suites/SR.md). The spec files do not state SR. ----
    {"convert.fp32_to_bf16_sr_satfinite", "issue 24 item 3 (stochastic rounding)", "",
     "SR with r = 16: the word equals SR(x, R) = truncate(|x| + R * 2^(q - 16)) with the sign of x, 2^q "
     "the bf16 last place at |x|, R the low 16 bits of the word's random value; beyond the largest "
     "finite and infinities: +-0x7F7F; NaN: a quiet NaN of either sign."},
    {"convert.fp32_to_fp16_sr_satfinite", "issue 24 item 3 (stochastic rounding)", "",
     "SR with r = 13: the word equals SR(x, R) = truncate(|x| + R * 2^(q - 13)) with the sign of x, 2^q "
     "the binary16 last place at |x| (2^-24 below the normal range), R the low 13 bits of the random "
     "value; beyond 65504 and infinities: +-0x7BFF; NaN: a quiet NaN of either sign."},
    {"convert.fp32_to_e4m3fn_sr_satfinite", "issue 24 item 3 (stochastic rounding)", "",
     "SR with r = 20: the word equals SR(x, R) = truncate(|x| + R * 2^(q - 20)) with the sign of x, 2^q "
     "the E4M3FN last place at |x| (2^-9 below the normal range), R the low 20 bits of the random "
     "value; beyond 448 and infinities: +-0x7E; NaN: 0x7F or 0xFF."},
    {"convert.fp32_to_e5m2_sr_satfinite", "issue 24 item 3 (stochastic rounding)", "",
     "SR with r = 21: the word equals SR(x, R) = truncate(|x| + R * 2^(q - 21)) with the sign of x, 2^q "
     "the E5M2 last place at |x| (2^-16 below the normal range), R the low 21 bits of the random "
     "value; beyond 57344 and infinities: +-0x7B; NaN: a quiet NaN of either sign."},
    {"convert.fp32_to_e2m1_sr_satfinite", "issue 24 item 3 (stochastic rounding)", "",
     "SR with r = 22: the word equals SR(x, R) = truncate(|x| + R * 2^(q - 22)) with the sign of x, 2^q "
     "the E2M1 last place at |x| (0.5 below 1), R the low 22 bits of the random value; beyond 6 and "
     "infinities: +-6 (0x7, 0xF); NaN is outside the domain."},

    // ---- convert.<sr conversion>.sr_unbiased / .sr_independent: the statistical rules ----
    {"convert.fp32_to_bf16_sr_satfinite.sr_unbiased", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's law when the subject draws its own bits: for x of either sign between neighbours lo < x < hi "
     "(several binades, subnormal results, the satfinite band), the count of results hi among N words of x lies in the exact two-sided binomial acceptance region of "
     "P(up) = (x - lo) / (hi - lo) (r = 16) at the run's level (suites/SR.md)."},
    {"convert.fp32_to_bf16_sr_satfinite.sr_independent", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's independence when the subject draws its own bits: among N/2 pairs of lanes of the same x "
     "(neighbours, lanes 64 apart, the same lane of two calls), the count of (hi, hi) pairs lies in "
     "the exact binomial acceptance region of P(up)^2 at the run's level (suites/SR.md)."},
    {"convert.fp32_to_fp16_sr_satfinite.sr_unbiased", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's law when the subject draws its own bits: for x of either sign between neighbours lo < x < hi "
     "(several binades, subnormal results, the satfinite band), the count of results hi among N words of x lies in the exact two-sided binomial acceptance region of "
     "P(up) = (x - lo) / (hi - lo) (r = 13) at the run's level (suites/SR.md)."},
    {"convert.fp32_to_fp16_sr_satfinite.sr_independent", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's independence when the subject draws its own bits: among N/2 pairs of lanes of the same x "
     "(neighbours, lanes 64 apart, the same lane of two calls), the count of (hi, hi) pairs lies in "
     "the exact binomial acceptance region of P(up)^2 at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e4m3fn_sr_satfinite.sr_unbiased", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's law when the subject draws its own bits: for x of either sign between neighbours lo < x < hi "
     "(several binades, subnormal results, the satfinite band), the count of results hi among N words of x lies in the exact two-sided binomial acceptance region of "
     "P(up) = (x - lo) / (hi - lo) (r = 20) at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e4m3fn_sr_satfinite.sr_independent", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's independence when the subject draws its own bits: among N/2 pairs of lanes of the same x "
     "(neighbours, lanes 64 apart, the same lane of two calls), the count of (hi, hi) pairs lies in "
     "the exact binomial acceptance region of P(up)^2 at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e5m2_sr_satfinite.sr_unbiased", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's law when the subject draws its own bits: for x of either sign between neighbours lo < x < hi "
     "(several binades, subnormal results, the satfinite band), the count of results hi among N words of x lies in the exact two-sided binomial acceptance region of "
     "P(up) = (x - lo) / (hi - lo) (r = 21) at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e5m2_sr_satfinite.sr_independent", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's independence when the subject draws its own bits: among N/2 pairs of lanes of the same x "
     "(neighbours, lanes 64 apart, the same lane of two calls), the count of (hi, hi) pairs lies in "
     "the exact binomial acceptance region of P(up)^2 at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e2m1_sr_satfinite.sr_unbiased", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's law when the subject draws its own bits: for x of either sign between neighbours lo < x < hi "
     "(several binades, subnormal results, the satfinite band), the count of results hi among N words of x lies in the exact two-sided binomial acceptance region of "
     "P(up) = (x - lo) / (hi - lo) (r = 22) at the run's level (suites/SR.md)."},
    {"convert.fp32_to_e2m1_sr_satfinite.sr_independent", "issue 24 item 3 (stochastic rounding, statistical)", "",
     "SR's independence when the subject draws its own bits: among N/2 pairs of lanes of the same x "
     "(neighbours, lanes 64 apart, the same lane of two calls), the count of (hi, hi) pairs lies in "
     "the exact binomial acceptance region of P(up)^2 at the run's level (suites/SR.md)."},

    // ---- convert.<conversion>.nan_payload: the stricter NaN profile (oracle/README.md) ----
    {"convert.fp32_to_bf16_rne.nan_payload", "lesson Example 5",
     "if ((bits & 0x7FFFFFFF) > 0x7F800000) return (bits >>> 16) | 64; // NaN stays NaN (quiet)",
     "NaN payload profile: a NaN keeps its sign and the top seven payload bits, quiet bit set: "
     "(w >> 16) | 0x0040, the lesson's word."},
    {"convert.fp32_to_bf16_rtz.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the top seven payload bits, quiet bit set: "
     "(w >> 16) | 0x0040, as the lesson's rounding conversion does."},
    {"convert.fp32_to_fp16_rne.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the payload's leading bits, quiet bit set: "
     "sign | 0x7E00 | (fraction >> 13)."},
    {"convert.bf16_to_fp32.nan_payload", "tensor-formats.txt 3.1, lesson Example 5",
     "Equivalently, its exact expansion to binary32 places the 16-bit logical word in the high 16 "
     "bits of a binary32 word and appends 16 zero low bits. ... static float toFloat(int bf16) { "
     "return Float.intBitsToFloat(bf16 << 16); }",
     "NaN payload profile: a NaN keeps every bit, w << 16; a signalling NaN stays signalling."},
    {"convert.fp16_to_fp32.nan_payload", "lesson Example 3, IEEE 754-2019 6.2.3 (profile)",
     "FP16 (IEEE half precision) is the 16-bit float.",
     "NaN payload profile: a NaN keeps every bit, sign, quiet/signalling bit and payload moved to "
     "the top of the binary32 fraction; a signalling NaN stays signalling."},
    {"convert.e5m2_to_fp32.nan_payload", "lesson Example 9, IEEE 754-2019 6.2.3 (profile)",
     "It follows IEEE rules, the same rules as FP16",
     "NaN payload profile: a NaN keeps every bit, sign, quiet/signalling bit and payload moved to "
     "the top of the binary32 fraction; a signalling NaN stays signalling."},
    {"convert.fp32_to_bf16_rna.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the top seven payload bits, quiet bit set: "
     "(w >> 16) | 0x0040, as the lesson's rounding conversion does."},
    {"convert.fp32_to_bf16_rup.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the top seven payload bits, quiet bit set: "
     "(w >> 16) | 0x0040, as the lesson's rounding conversion does."},
    {"convert.fp32_to_bf16_rdn.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the top seven payload bits, quiet bit set: "
     "(w >> 16) | 0x0040, as the lesson's rounding conversion does."},
    {"convert.fp32_to_fp16_rtz.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the payload's leading bits, quiet bit set: "
     "sign | 0x7E00 | (fraction >> 13)."},
    {"convert.fp32_to_fp16_rna.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the payload's leading bits, quiet bit set: "
     "sign | 0x7E00 | (fraction >> 13)."},
    {"convert.fp32_to_fp16_rup.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the payload's leading bits, quiet bit set: "
     "sign | 0x7E00 | (fraction >> 13)."},
    {"convert.fp32_to_fp16_rdn.nan_payload", "IEEE 754-2019 6.2.3 (profile)", "",
     "NaN payload profile: a NaN keeps its sign and the payload's leading bits, quiet bit set: "
     "sign | 0x7E00 | (fraction >> 13)."},

    // ---- convert.<conversion>.nan_sign: the NaN sign profile (oracle/README.md) ----
    {"convert.fp32_to_e4m3fn_rne_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e4m3fn_rne_nan.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e5m2_rne_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rne_inf.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.e4m3fn_to_fp32.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: the NaN words 0x7F and 0xFF give a quiet binary32 NaN of the word's sign."},
    {"convert.fp32_to_e4m3fn_rtz_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e4m3fn_rna_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e4m3fn_rup_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e4m3fn_rdn_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives the E4M3FN NaN of its sign, 0x7F or 0xFF."},
    {"convert.fp32_to_e5m2_rtz_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rna_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rup_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rdn_satfinite.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rtz_inf.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rna_inf.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rup_inf.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},
    {"convert.fp32_to_e5m2_rdn_inf.nan_sign", "IEEE 754-2019 6.3 (profile)", "",
     "NaN sign profile: a NaN input gives a quiet E5M2 NaN of its sign."},

    // ---- layouts ----
    {rule::layout_contiguous_le_v1_words, "storage-layouts.md 2",
     "Direct words in C order (last dimension fastest), each word little-endian: 2 bytes for `bf16`, "
     "4 for `fp32` and `int32`. Rank 0 holds one word. ... The layout never converts, reshapes or "
     "canonicalizes a word (NaN payloads and signed zeros survive bit for bit).",
     ""},
    {rule::layout_contiguous_le_v1_size, "storage-layouts.md 2",
     "`payload_bytes = elements * word bytes`; no prefix, stride, padding or trailer.", ""},
    {rule::layout_contiguous_le_v1_overflow, "storage-layouts.md preamble",
     "All sizes and offsets are unsigned 64-bit integers; a shape whose size overflows must be "
     "rejected, never wrapped.",
     ""},
    {rule::layout_contiguous_le_v1_cross_type, "tensor-formats.txt 3.1, 9",
     "Persistence from the same source type is bitwise identity at the logical-word boundary. A "
     "conversion between different source and target types is not implicit. ... rejection of "
     "implicit cross-type encoding",
     ""},
    {rule::convert_sr_random_plane_size, "issue 24 item 3 (stochastic rounding; the plugin ABI)", "",
     "a convert call of an sr conversion whose random plane does not hold count x 4 bytes (one uint32 "
     "random value per word) is refused with NINFER_E_INVALID_ARGUMENT, never served from a short, "
     "long or ragged plane."},
    {rule::layout_registry_unregistered_pair, "storage-layouts.md 1",
     "Any other format/layout pair is unsupported and must be refused, by name, before any byte is "
     "read. There is no open-ended `(bits, group, scale type)` constructor.",
     ""},
};

/// The rule of this id, from its row in kRows (std::logic_error when missing).
Rule table_rule(std::string_view id, std::string family) {
    for (const auto &r : kRows)
        if (r.id == id)
            return make_rule(std::string(id), std::move(family), std::string(r.section), std::string(r.quote),
                             std::string(r.reading));
    throw std::logic_error("rules_scalar.cpp: no row for rule " + std::string(id));
}

}  // namespace

std::vector<Rule> scalar_rules() {
    using namespace ninfer::oracle;
    std::vector<Rule> rules;
    for (const auto &f : kWordFormats) rules.push_back(table_rule(rule::decode(f), "decode"));
    for (const auto &f : kWordFormats) rules.push_back(table_rule(rule::classify(f), "classify"));
    for (const auto &r : kRoles) rules.push_back(table_rule(rule::validity(r), "validity"));
    for (const auto &c : kConversions) rules.push_back(table_rule(rule::convert(c), "convert"));
    for (const auto &c : kConversions)
        if (abi::is_stochastic(c)) {  // judged by the statistical module (harness sr_run.hpp), not by cases
            rules.push_back(table_rule(sr::unbiased_rule(c), "convert"));
            rules.push_back(table_rule(sr::independent_rule(c), "convert"));
        }
    for (const auto &c : kConversions)
        if (nan_principle(c).payload_profile) rules.push_back(table_rule(rule::convert_nan_payload(c), "convert"));
    for (const auto &c : kConversions)
        if (nan_principle(c).sign_profile) rules.push_back(table_rule(rule::convert_nan_sign(c), "convert"));
    rules.push_back(table_rule(rule::convert_sr_random_plane_size, "convert"));
    for (const RuleId id : {rule::layout_contiguous_le_v1_words, rule::layout_contiguous_le_v1_size,
                            rule::layout_contiguous_le_v1_overflow, rule::layout_contiguous_le_v1_cross_type,
                            rule::layout_registry_unregistered_pair})
        rules.push_back(table_rule(id, "layout"));
    return rules;
}

const CatalogFamily kWordCatalog = {.family = abi::Family::word, .rules = &scalar_rules, .suites = &scalar_suites};

}  // namespace ninfer::suites
