/* SPDX-License-Identifier: Apache-2.0 */
/* The closed registry of ninfer-conform (tensor-formats.txt Section 1, storage-layouts.md
 * Section 1, number-formats-lesson.txt for the word formats the lesson adds).
 *
 * This header is the ONE list. Everything else is generated from these X-macros: the plugin
 * ABI's ids (ninfer/abi/plugin.h), the C++ registry (ninfer/abi/registry.hpp), the CLI's
 * `list`, the rule catalog and the report keys. Ids are ABI: never renumber, only append.
 * Plain C, so that a plugin written in C sees the same numbers. */
#ifndef NINFER_ABI_REGISTRY_H
#define NINFER_ABI_REGISTRY_H

/* ---- Scalar word formats ------------------------------------------------------------------
 * X(id, name, bits, exp_bits, man_bits, bias, has_sign, special, direct)
 *   special: IEEE  - all-ones exponent is Inf (fraction 0) or NaN, top fraction bit = quiet
 *            FN    - no Inf; only exponent and fraction all ones is NaN (OCP E4M3FN)
 *            NONE  - no Inf, no NaN (E2M1)
 *            E8M0  - value 2^(e-bias); 0xFF is NaN; no zero, no sign, no subnormals
 *            INT   - two's-complement integer (tensor-formats.txt Section 3.1, int32)
 *   direct:  1 when the word is also a direct tensor format stored by contiguous_le_v1. */
#define NINFER_WORD_FORMATS(X)                                   \
    X(1, fp32, 32, 8, 23, 127, 1, IEEE, 1)                       \
    X(2, bf16, 16, 8, 7, 127, 1, IEEE, 1)                        \
    X(3, fp16, 16, 5, 10, 15, 1, IEEE, 0)                        \
    X(4, int32, 32, 0, 0, 0, 1, INT, 1)                          \
    X(5, e4m3fn, 8, 4, 3, 7, 1, FN, 0)                           \
    X(6, e5m2, 8, 5, 2, 15, 1, IEEE, 0)                          \
    X(7, e2m1, 4, 2, 1, 1, 1, NONE, 0)                           \
    X(8, e8m0, 8, 8, 0, 127, 0, E8M0, 0)                         \
    X(9, ue4m3, 7, 4, 3, 7, 0, FN, 0)

/* ---- Grouped signed-integer formats (tensor-formats.txt Sections 3.2, 5, 6) ----------------
 * A composition: code word + binary16 scale + group size + layout.
 * X(id, name, code_bits, group, qmin, qmax, code_encoding, illegal_word, scale_format,
 *   canonical_encoders, layout, base_bytes_per_group, high_bytes_per_group, packing, scale_role)
 *   code_encoding: TWOS (two's complement) or OFFSET (stored u = q + 1, Q2)
 *   illegal_word:  the stored word outside the artifact language, or -1
 *   canonical_encoders: 1 when grouped_absmax / grouped_search accept the target
 *   base/high bytes per group: row_split_k128_v1 geometry (storage-layouts.md Section 3)
 *   packing: how a group's stored words lie in its base and high bytes (storage-layouts.md 3):
 *            BYTE        - one byte per lane
 *            NIBBLE_HIGH - lane pair (2j, 2j+1) in byte j, even lane in the low nibble; the
 *                          code_bits - 4 bits above the nibble in a lane-major high stream,
 *                          bit 4 first, stream bit t in bit t%8 of high byte t/8
 *            TWO_BIT_LSB - four lanes per byte, lane i in bits 2*(i%4)..2*(i%4)+1 of byte i/4
 *   scale_role: the validity role (NINFER_ROLES) of the group's scale word. */
#define NINFER_GROUPED_FORMATS(X)                                                                              \
    X(16, q2_g64_fp16, 2, 64, -1, 2, OFFSET, -1, fp16, 0, row_split_k128_v1, 16, 0, TWO_BIT_LSB, q2_fp16_scale)      \
    X(17, q4_g64_fp16, 4, 64, -8, 7, TWOS, -1, fp16, 1, row_split_k128_v1, 32, 0, NIBBLE_HIGH, grouped_fp16_scale)   \
    X(18, q5_g64_fp16, 5, 64, -16, 15, TWOS, -1, fp16, 1, row_split_k128_v1, 32, 8, NIBBLE_HIGH, grouped_fp16_scale) \
    X(19, q6_g64_fp16, 6, 64, -32, 31, TWOS, -1, fp16, 1, row_split_k128_v1, 32, 16, NIBBLE_HIGH, grouped_fp16_scale) \
    X(20, q8_g32_fp16, 8, 32, -127, 127, TWOS, 0x80, fp16, 1, row_split_k128_v1, 32, 0, BYTE, grouped_fp16_scale)   \
    X(21, t2_g128_fp16, 2, 128, -1, 1, TWOS, 0x2, fp16, 0, row_split_k128_v1, 32, 0, TWO_BIT_LSB, grouped_fp16_scale)

/* ---- Scaled floating-point weight formats (tensor-formats.txt Sections 3.3, 3.4) ------------
 * A composition: a floating-point code word + a scale word + how far a scale reaches + layout.
 * X(id, name, code_format, scale_format, group, divisors, layout, code_role, scale_role, encoder)
 *   group:     code words per scale word along K (0: one scale per row)
 *   divisors:  1 when the payload ends with fp32_weight_divisor words (nvfp4's d_w)
 *   code_role: the validity role of a code word (0: every word of code_format is a valid code)
 *   encoder:   the format's canonical encoder (NINFER_ENCODERS), or none */
#define NINFER_SCALED_FORMATS(X)                                                                                 \
    X(40, nvfp4, e2m1, e4m3fn, 16, 1, block_scale_k16_m128x4_v1, none, nvfp4_e4m3_scale, nvfp4_two_level)        \
    X(41, fp8_e4m3fn_row_bf16, e4m3fn, bf16, 0, 0, row_scale_v1, fp8_weight_code, bf16_row_multiplier, fp8_row_maxabs) \
    X(42, fp8_e4m3fn_row_fp16, e4m3fn, fp16, 0, 0, row_interleaved_v1, fp8_weight_code, fp16_row_multiplier, fp8_row_maxabs)

/* ---- GGUF block types (tensor-formats.txt, the gguf_* table; ggml.h GGML_TYPE_*) -------------
 * X(id, name, ggml_type, block_values, block_bytes, in_ninfer_registry, ref_quantizer)
 *   id:                 64 + ggml_type (format ids are ABI: only appended)
 *   in_ninfer_registry: 1 for the 18 formats of the .ninfer registry, 0 for the other block types
 *                       ggml dequantizes: accepted by the GGUF suites, refused as a .ninfer
 *                       format/layout pair (abi::layout_accepts)
 *   ref_quantizer:      1 when ggml has a deterministic quantize_row_<type>_ref that the oracle
 *                       reproduces (encoder ggml_quantize_ref)
 * All are stored by ggml_blocks_v1. */
#define NINFER_GGUF_TYPES(X) \
    X(72, gguf_q8_0, 8, 32, 34, 1, 1)      \
    X(66, gguf_q4_0, 2, 32, 18, 1, 1)      \
    X(70, gguf_q5_0, 6, 32, 22, 1, 1)      \
    X(106, gguf_q2_0, 42, 64, 18, 1, 1)    \
    X(74, gguf_q2_k, 10, 256, 84, 1, 1)    \
    X(75, gguf_q3_k, 11, 256, 110, 1, 1)   \
    X(76, gguf_q4_k, 12, 256, 144, 1, 1)   \
    X(77, gguf_q5_k, 13, 256, 176, 1, 1)   \
    X(78, gguf_q6_k, 14, 256, 210, 1, 1)   \
    X(80, gguf_iq2_xxs, 16, 256, 66, 1, 0) \
    X(81, gguf_iq2_xs, 17, 256, 74, 1, 0)  \
    X(82, gguf_iq3_xxs, 18, 256, 98, 1, 0) \
    X(83, gguf_iq1_s, 19, 256, 50, 1, 0)   \
    X(84, gguf_iq4_nl, 20, 32, 18, 1, 1)   \
    X(85, gguf_iq3_s, 21, 256, 110, 1, 0)  \
    X(86, gguf_iq2_s, 22, 256, 82, 1, 0)   \
    X(87, gguf_iq4_xs, 23, 256, 136, 1, 1) \
    X(93, gguf_iq1_m, 29, 256, 56, 1, 0)   \
    X(67, gguf_q4_1, 3, 32, 20, 0, 1)      \
    X(71, gguf_q5_1, 7, 32, 24, 0, 1)      \
    X(73, gguf_q8_1, 9, 32, 36, 0, 1)      \
    X(79, gguf_q8_k, 15, 256, 292, 0, 1)   \
    X(98, gguf_tq1_0, 34, 256, 54, 0, 1)   \
    X(99, gguf_tq2_0, 35, 256, 66, 0, 1)   \
    X(103, gguf_mxfp4, 39, 32, 17, 0, 1)   \
    X(104, gguf_nvfp4, 40, 64, 36, 0, 1)   \
    X(105, gguf_q1_0, 41, 128, 18, 0, 1)

/* ---- Layouts (storage-layouts.md Section 1) ------------------------------------------------
 * X(id, name, min_rank, max_rank, object_alignment) */
#define NINFER_LAYOUTS(X)                                        \
    X(1, contiguous_le_v1, 0, 16, 256)                           \
    X(2, row_split_k128_v1, 2, 2, 256)                           \
    X(3, block_scale_k16_m128x4_v1, 2, 2, 256)                   \
    X(4, row_scale_v1, 2, 2, 256)                                \
    X(5, row_interleaved_v1, 2, 2, 256)                          \
    X(6, ggml_blocks_v1, 1, 16, 256)

/* ---- Operations of the plugin ABI -----------------------------------------------------------
 * X(id, name, summary) */
#define NINFER_OPS(X)                                                                          \
    X(1, decode, "words of `format` to exact values (binary64 words)")                         \
    X(2, classify, "words of `format` to a class byte (NINFER_CLASS_*, sign in bit 7)")       \
    X(3, validate, "words to a verdict byte (NINFER_VERDICT_*) under role `method`")          \
    X(4, convert, "words of `format_in` to words of `format` by conversion `method`")         \
    X(5, layout_encode, "logical words to a payload of `layout`")                             \
    X(6, layout_decode, "a payload of `layout` to logical words")                             \
    X(7, quant_encode, "source words to a canonical payload by encoder `method`")             \
    X(8, quant_decode, "payload to codes, scales and binary32 values")                        \
    X(9, payload_validate, "accept or refuse a payload, naming the broken rule in `detail`")  \
    X(10, rows_select, "row slice or gather of a payload (row indices in the rows plane)")    \
    X(11, linear, "weight payload and activation to output under compute `profile` (ABI v2)")

/* ---- Rounding attributes and overflow behaviours ------------------------------------------- */
#define NINFER_ROUNDINGS(X)                                                        \
    X(1, rne, "round to nearest, ties to even")                                    \
    X(2, rtz, "round toward zero (truncation)")                                    \
    X(3, rna, "round to nearest, ties away from zero (C roundf)")                  \
    X(4, rnu, "round to nearest, ties toward +infinity (ggml UE4M3 half-up)")      \
    X(5, rup, "round toward +infinity")                                            \
    X(6, exact, "exact widening: every source value is representable")            \
    X(7, rdn, "round toward -infinity")                                            \
    X(8, sr, "stochastic: r random bits added below the last place, then truncated (NINFER_STOCHASTIC)")

#define NINFER_OVERFLOWS(X)                                                               \
    X(1, inf, "IEEE 754 7.4: infinity under nearest rounding; a directed rounding reaches infinity only in its direction, else the largest finite") \
    X(2, satfinite, "saturate to the largest finite of the sign; infinity saturates too") \
    X(3, nan, "out-of-range finite values and infinities become NaN (OCP non-saturating)") \
    X(4, none, "cannot overflow")

/* ---- Named conversions ----------------------------------------------------------------------
 * X(id, name, src, dst, rounding, overflow, nan_rule)
 *   nan_rule: QUIET_TRUNC - sign and top payload bits kept, quiet bit set (lesson Example 5)
 *             ANY_SIGNED  - any NaN word of the input's sign
 *             ANY         - any NaN word
 *             ZERO        - NaN and non-positive inputs map to word 0 (ggml UE4M3 encoder)
 *             UNDEFINED   - NaN input outside the conversion's domain (no case tests it)
 *             EXACT       - widening: NaN maps to the NaN of the same sign and payload bits */
#define NINFER_CONVERSIONS(X)                                                      \
    X(1, fp32_to_bf16_rne, fp32, bf16, rne, inf, QUIET_TRUNC)                      \
    X(2, fp32_to_bf16_rtz, fp32, bf16, rtz, inf, QUIET_TRUNC)                      \
    X(3, fp32_to_fp16_rne, fp32, fp16, rne, inf, ANY_SIGNED)                       \
    X(4, fp32_to_e4m3fn_rne_satfinite, fp32, e4m3fn, rne, satfinite, ANY)          \
    X(5, fp32_to_e4m3fn_rne_nan, fp32, e4m3fn, rne, nan, ANY)                      \
    X(6, fp32_to_e5m2_rne_satfinite, fp32, e5m2, rne, satfinite, ANY)              \
    X(7, fp32_to_e5m2_rne_inf, fp32, e5m2, rne, inf, ANY)                          \
    X(8, fp32_to_e2m1_rne_satfinite, fp32, e2m1, rne, satfinite, UNDEFINED)        \
    X(9, fp32_to_ue4m3_rnu_satfinite, fp32, ue4m3, rnu, satfinite, ZERO)           \
    X(10, fp32_to_e8m0_rtz_satfinite, fp32, e8m0, rtz, satfinite, ANY)             \
    X(11, fp32_to_e8m0_rup_satfinite, fp32, e8m0, rup, satfinite, ANY)             \
    X(12, bf16_to_fp32, bf16, fp32, exact, none, EXACT)                            \
    X(13, fp16_to_fp32, fp16, fp32, exact, none, EXACT)                            \
    X(14, e4m3fn_to_fp32, e4m3fn, fp32, exact, none, ANY_SIGNED)                   \
    X(15, e5m2_to_fp32, e5m2, fp32, exact, none, EXACT)                            \
    X(16, e2m1_to_fp32, e2m1, fp32, exact, none, UNDEFINED)                        \
    X(17, e8m0_to_fp32, e8m0, fp32, exact, none, ANY)                              \
    X(18, ue4m3_to_fp32, ue4m3, fp32, exact, none, ANY)                            \
    X(19, fp32_to_bf16_rna, fp32, bf16, rna, inf, QUIET_TRUNC)                     \
    X(20, fp32_to_bf16_rup, fp32, bf16, rup, inf, QUIET_TRUNC)                     \
    X(21, fp32_to_bf16_rdn, fp32, bf16, rdn, inf, QUIET_TRUNC)                     \
    X(22, fp32_to_fp16_rtz, fp32, fp16, rtz, inf, ANY_SIGNED)                      \
    X(23, fp32_to_fp16_rna, fp32, fp16, rna, inf, ANY_SIGNED)                      \
    X(24, fp32_to_fp16_rup, fp32, fp16, rup, inf, ANY_SIGNED)                      \
    X(25, fp32_to_fp16_rdn, fp32, fp16, rdn, inf, ANY_SIGNED)                      \
    X(26, fp32_to_e4m3fn_rtz_satfinite, fp32, e4m3fn, rtz, satfinite, ANY)         \
    X(27, fp32_to_e4m3fn_rna_satfinite, fp32, e4m3fn, rna, satfinite, ANY)         \
    X(28, fp32_to_e4m3fn_rup_satfinite, fp32, e4m3fn, rup, satfinite, ANY)         \
    X(29, fp32_to_e4m3fn_rdn_satfinite, fp32, e4m3fn, rdn, satfinite, ANY)         \
    X(30, fp32_to_e5m2_rtz_satfinite, fp32, e5m2, rtz, satfinite, ANY)             \
    X(31, fp32_to_e5m2_rna_satfinite, fp32, e5m2, rna, satfinite, ANY)             \
    X(32, fp32_to_e5m2_rup_satfinite, fp32, e5m2, rup, satfinite, ANY)             \
    X(33, fp32_to_e5m2_rdn_satfinite, fp32, e5m2, rdn, satfinite, ANY)             \
    X(34, fp32_to_e5m2_rtz_inf, fp32, e5m2, rtz, inf, ANY)                         \
    X(35, fp32_to_e5m2_rna_inf, fp32, e5m2, rna, inf, ANY)                         \
    X(36, fp32_to_e5m2_rup_inf, fp32, e5m2, rup, inf, ANY)                         \
    X(37, fp32_to_e5m2_rdn_inf, fp32, e5m2, rdn, inf, ANY)                         \
    X(38, fp32_to_e2m1_rtz_satfinite, fp32, e2m1, rtz, satfinite, UNDEFINED)       \
    X(39, fp32_to_e2m1_rna_satfinite, fp32, e2m1, rna, satfinite, UNDEFINED)       \
    X(40, fp32_to_e2m1_rup_satfinite, fp32, e2m1, rup, satfinite, UNDEFINED)       \
    X(41, fp32_to_e2m1_rdn_satfinite, fp32, e2m1, rdn, satfinite, UNDEFINED)       \
    X(42, fp32_to_ue4m3_rtz_satfinite, fp32, ue4m3, rtz, satfinite, ZERO)          \
    X(43, fp32_to_ue4m3_rup_satfinite, fp32, ue4m3, rup, satfinite, ZERO)          \
    X(44, fp32_to_e8m0_rna_satfinite, fp32, e8m0, rna, satfinite, ANY)             \
    X(45, fp32_to_bf16_sr_satfinite, fp32, bf16, sr, satfinite, QUIET_TRUNC)       \
    X(46, fp32_to_fp16_sr_satfinite, fp32, fp16, sr, satfinite, ANY_SIGNED)        \
    X(47, fp32_to_e4m3fn_sr_satfinite, fp32, e4m3fn, sr, satfinite, ANY)           \
    X(48, fp32_to_e5m2_sr_satfinite, fp32, e5m2, sr, satfinite, ANY)               \
    X(49, fp32_to_e2m1_sr_satfinite, fp32, e2m1, sr, satfinite, UNDEFINED)

/* ---- Stochastic rounding (issue 24 item 3; oracle/README.md, suites/SR.md) ----------------------
 * X(conversion, random_bits): the conversions of rounding `sr` and r, the random bits each draws.
 * SR(x, R) = truncate(|x| + R * 2^(q - r)) with the sign of x, where 2^q is the result's last
 * place (the quantum of the target's grid at |x|; the subnormal quantum below the normal range)
 * and R is the low r bits of the word's random value (NINFER_PLANE_RANDOM); the bits of |x| below
 * 2^(q - r) are dropped before the addition (what r-bit hardware does). Then the overflow rule and
 * the NaN rule. r = 23 - man_bits: every bit that a normal result drops from a binary32 input. */
#define NINFER_STOCHASTIC(X)                \
    X(fp32_to_bf16_sr_satfinite, 16)        \
    X(fp32_to_fp16_sr_satfinite, 13)        \
    X(fp32_to_e4m3fn_sr_satfinite, 20)      \
    X(fp32_to_e5m2_sr_satfinite, 21)        \
    X(fp32_to_e2m1_sr_satfinite, 22)

/* ---- Validity roles (tensor-formats.txt Sections 3.3, 3.4, 6) ------------------------------
 * X(id, name, word_format, accepts_negative_zero, accepts_positive_zero, accepts_negative, summary)
 *   accepts_*: 1 when the role accepts -0, +0, a negative nonzero value. NaN and infinity are
 *   refused by every role; subnormals are accepted by every role (no role refuses one). The
 *   oracle's role_verdict and the reference plugin's native_verdict read these columns. */
#define NINFER_ROLES(X)                                                                                         \
    X(1, grouped_fp16_scale, fp16, 0, 1, 1, "+0 or finite nonzero of either sign; -0, Inf, NaN invalid")        \
    X(2, q2_fp16_scale, fp16, 1, 1, 1, "every finite binary16 word, both zeros included; Inf, NaN invalid")     \
    X(3, nvfp4_e4m3_scale, e4m3fn, 0, 1, 0, "sign-zero finite words, +0 included; negatives, -0, NaN invalid")  \
    X(4, fp8_weight_code, e4m3fn, 1, 1, 1, "every finite E4M3FN word, both zeros; 0x7F and 0xFF invalid")       \
    X(5, bf16_row_multiplier, bf16, 0, 1, 0, "sign zero and finite, +0 and subnormals included")               \
    X(6, fp16_row_multiplier, fp16, 0, 1, 0, "sign zero and finite, +0 and subnormals included")               \
    X(7, fp32_weight_divisor, fp32, 0, 0, 0, "finite and strictly positive")

/* ---- Families (docs/ARCHITECTURE.md, "A block-format family"): the format families, one per
 * format table of kAllFormats, and the operator families, whose rules span the formats of others.
 * Each side of the project (catalog, compare, CLI, reference plugin, `linear`'s weights) holds one
 * descriptor per row its kind asks for (harness/tests/test_family_descriptors.cpp).
 * X(name, kind, weights)
 *   kind:    formats (its formats are rows of a format table), op (an operator family: linear),
 *            test (no formats of the registry; only a test registers it: the toy family of
 *            harness/tests/toy_family/, which proves the recipe's list of files)
 *   weights: 1 when `linear` takes its weights in the family's formats */
#define NINFER_FAMILIES(X)    \
    X(word, formats, 1)       \
    X(grouped, formats, 1)    \
    X(scaled, formats, 1)     \
    X(gguf, formats, 1)       \
    X(linear, op, 0)          \
    X(toy, test, 0)

/* ---- Encoder methods ---------------------------------------------------------------------
 * grouped_absmax, grouped_search: tensor-formats.txt Section 7 (grouped formats)
 * fp8_row_maxabs:  the fp8_row_maxabs paragraph (tensor-formats.txt 3.4; the FP8 row formats)
 * nvfp4_two_level: NVIDIA's two-level NVFP4 recipe (lesson Example 15; informative; nvfp4)
 * mxfp4_ocp:       the OCP MXFP4 recipe (lesson Example 14; informative; gguf_mxfp4 blocks)
 * ggml_quantize_ref: ggml's quantize_row_<type>_ref (GGUF types with ref_quantizer = 1)
 * X(id, name, family): family = the format family (NINFER_FAMILIES) whose formats it targets */
#define NINFER_ENCODERS(X)                  \
    X(1, grouped_absmax, grouped)           \
    X(2, grouped_search, grouped)           \
    X(3, fp8_row_maxabs, scaled)            \
    X(4, nvfp4_two_level, scaled)           \
    X(5, mxfp4_ocp, gguf)                   \
    X(6, ggml_quantize_ref, gguf)

/* ---- Operator criteria and compute profiles (tensor-formats.txt Section 2: "A compute profile
 * owns observable input and output types, ... and operator-level numerical tolerances"; Sections
 * 8-9: "the observable Op result is qualified against the independent oracle with the Op's named
 * criterion for that implementation profile"; suites/LINEAR.md).
 * Criteria: X(id, name, summary); each is the rule linear.<name> of the catalog. */
#define NINFER_CRITERIA(X)                                                                                   \
    X(1, bit_exact, "the output word equals the profile's defined evaluation bit for bit (any NaN for NaN)")   \
    X(2, correctly_rounded, "the exact result rounded once to the output format, nearest-even")               \
    X(3, forward_error_bound, "|y - y_exact| <= k * u * sum_k |w_k x_k|, k and u named by the profile")         \
    X(4, gguf_q8_1_product, "the activation quantized to q8_1 as ggml does, then the forward error bound")

/* Compute profiles of the `linear` op: X(id, name, criterion, summary). A profile names its
 * criterion and the criterion's parameters; a plugin declares the profiles it claims
 * (ninfer_capability_v2.profile). Activation formats: fp32, bf16, fp16 (gguf_q8_1_f32: fp32);
 * output format: fp32 (correctly_rounded: fp32, bf16 or fp16). Ids are ABI (only appended). */
#define NINFER_PROFILES(X)                                                                                     \
    X(1, f32_sequential, bit_exact,                                                                            \
      "binary32 decoded weights; each product and the running sum rounded to binary32 in k order, no FMA")     \
    X(2, correctly_rounded, correctly_rounded,                                                                 \
      "the exact sum of the exact products rounded once to the output format")                                 \
    X(3, f32_accumulate, forward_error_bound,                                                                  \
      "binary32 accumulation in any order: k = K + 2, u = 2^-24")                                              \
    X(4, gguf_q8_1_f32, gguf_q8_1_product,                                                                     \
      "GGUF weights; activation to q8_1 blocks (quantize_row_q8_1_ref), binary32 accumulation: k = K + 2, u = 2^-24")

#endif /* NINFER_ABI_REGISTRY_H */
