// SPDX-License-Identifier: Apache-2.0
// The GGUF rules table: tensor-formats.txt (the gguf_* table and the paragraph "A gguf_* weight
// is a row-major [N,K] matrix ..."), storage-layouts.md Sections 1 and 7 (ggml_blocks_v1), lesson
// Example 14 (MXFP4). The spec fixes the meaning of a block by pointing at ggml's
// dequantize_row_*: the quote says so, and what ggml's C fixes for each block type (the struct's
// fields, the element order, the order of the binary32 operations) is the rule's `reading`.
// gguf.decode.<type> is one rule per registry row (abi::kGgufTypes), gguf.quantize.<type> one
// per row with ref_quantizer; the row's text is chosen by the registry column ggml_type.
#include <stdexcept>
#include <string>
#include <string_view>

#include "ninfer/abi/registry.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

constexpr std::string_view kDecodeSection = "tensor-formats.txt";
constexpr std::string_view kDecodeQuote =
    "A gguf_* weight is a row-major [N,K] matrix whose rows are K / block_values consecutive ggml blocks of the named "
    "type, each block the byte image of the block_* struct of ggml-common.h. The represented value of every element is "
    "what ggml-quants.c's dequantize_row_* for that type computes from the block: the per-block and per-sub-block "
    "scales, the grids of the i-quants (iq2xxs_grid, iq3s_grid, ... their sign encodings and the IQ1S_DELTA/IQ1M_DELTA "
    "offsets are ggml's, unchanged.";
constexpr std::string_view kQuantizeQuote =
    "GGUF block formats keep ggml's quantized blocks byte for byte, so a GGUF tensor imports without decoding or "
    "requantizing: ... each block the byte image of the block_* struct of ggml-common.h.";

/// What ggml's C fixes for one block type (ggml-common.h block_<type>, ggml-quants.c
/// dequantize_row_<type>), keyed by the registry column ggml_type. Every value is ggml's binary32
/// result, bit for bit: each operation of the expression rounded once in ggml's order.
struct TypeRow {
    std::uint32_t ggml_type;
    std::string_view decode, quantize;
};

constexpr TypeRow kTypeRows[] = {
    {2, "block_q4_0 = binary16 d, qs[16]; element j is ((qs[j] & 0xF) - 8) * d and element j + 16 is ((qs[j] >> 4) - 8) * d "
        "(split halves, not interleaved nibbles); NaN and infinite d pass through as ggml computes them.",
     "quantize_row_q4_0_ref: max is the signed value of largest magnitude (the first one on equal magnitude), d = max / -8, "
     "id = 1/d (0 when d = 0), code = MIN(15, (int8)(x * id + 8.5f)), d stored nearest-even as binary16."},
    {3, "block_q4_1 = binary16 d, binary16 m, qs[16]; element j is (qs[j] & 0xF) * d + m, element j + 16 (qs[j] >> 4) * d + m.",
     "quantize_row_q4_1_ref: d = (max - min) / 15, m = min, code = MIN(15, (int8)((x - min) * id + 0.5f))."},
    {6, "block_q5_0 = binary16 d, qh[4] (uint32 LE), qs[16]; the fifth bit of element j is bit j of qh, of element j + 16 "
        "bit j + 16; element = (5-bit word - 16) * d.",
     "quantize_row_q5_0_ref: max the signed value of largest magnitude, d = max / -16, code = MIN(31, (int8)(x * id + 16.5f)), "
     "bit 4 of code j into bit j of qh (element j + 16: bit j + 16)."},
    {7, "block_q5_1 = binary16 d, binary16 m, qh[4], qs[16]; element = 5-bit word * d + m, high bits as q5_0.",
     "quantize_row_q5_1_ref: d = (max - min) / 31, m = min, code = (uint8)((x - min) * id + 0.5f), high bits as q5_0."},
    {8, "block_q8_0 = binary16 d, qs[32] int8; element j is qs[j] * d.",
     "quantize_row_q8_0_ref: amax = max |x|, d = amax / 127, id = 1/d (0 when d = 0), code = roundf(x * id) (ties away "
     "from zero), d stored nearest-even as binary16."},
    {9, "block_q8_1 = binary16 d, binary16 s, qs[32] int8; ggml has no dequantize_row_q8_1: the value of element j is "
        "qs[j] * d (s = d * sum of the codes is metadata for dot products).",
     "quantize_row_q8_1_ref: as q8_0, and s = the binary16 of d times the sum of the 32 codes."},
    {10, "block_q2_K = scales[16], qs[64], binary16 d, binary16 dmin; scales[i]: low nibble the sub-block scale, high nibble "
         "its min; element = (d * sc) * q - (dmin * m), q the 2-bit field at shifts 0, 2, 4, 6 of 32-byte groups.",
     "quantize_row_q2_K_ref: make_qkx2_quants per 16 values (nmin -0.5 .. step 0.1, 15 steps), 4-bit scales and mins from "
     "q4scale = 15 / max, nearest_int through 12582912.f (ties to even below 2^22)."},
    {11, "block_q3_K = hmask[32], qs[64], scales[12], binary16 d; the 16 6-bit scales: low 4 bits in byte i % 8 (nibble "
         "i / 8), high 2 bits in byte 8 + i % 4 (bits 2 * (i / 4)); element = (d * (scale - 32)) * (q2 - (hmask bit ? 0 : 4)).",
     "quantize_row_q3_K_ref: make_q3_quants per 16 values (nmax 4, do_rmse), 6-bit scales from iscale = -32 / max_scale, "
     "nearest_int ties to even below 2^22."},
    {12, "block_q4_K = binary16 d, binary16 dmin, scales[12], qs[128]; get_scale_min_k4: sub-blocks 0..3 take the low 6 "
         "bits of bytes j and j + 4, sub-blocks 4..7 the nibbles of byte j + 4 and the top 2 bits of bytes j - 4 and j; "
         "element = (d * sc) * q - (dmin * m), low nibbles for the first 32 of each 64, high nibbles for the next 32.",
     "quantize_row_q4_K_ref: make_qkx2_quants per 32 values (nmin -1, step 0.1, 20 steps), 6-bit scales and mins from "
     "inv_scale = 63 / max_scale, nearest_int ties to even below 2^22."},
    {13, "block_q5_K = binary16 d, binary16 dmin, scales[12] (as q4_K), qh[32], qs[128]; the fifth bit of element l of "
         "sub-block pair p is bit 2p (first 32) or 2p + 1 (next 32) of qh[l]; element = (d * sc) * q - (dmin * m).",
     "quantize_row_q5_K_ref: make_qkx2_quants per 32 values (nmax 31, nmin -0.5, step 0.1, 15 steps), scales as q4_K."},
    {14, "block_q6_K = ql[128], qh[64], scales[16] int8, binary16 d; element = (d * scale) * (6-bit word - 32), the low "
         "nibbles from ql and the high 2 bits from qh at shifts 0, 2, 4, 6 in ggml's 128-value halves.",
     "quantize_row_q6_K_ref: make_qx_quants per 16 values (nmax 32, rmse_type 1), scales int8 from iscale = -128 / "
     "max_scale, nearest_int ties to even below 2^22."},
    {15, "block_q8_K = binary32 d, qs[256] int8, bsums[16] int16; element j is d * qs[j] (bsums are metadata).",
     "quantize_row_q8_K_ref: max the signed value of largest magnitude, iscale = -127 / max, code = MIN(127, "
     "nearest_int(iscale * x)), d = 1 / iscale, bsums[i] the sum of codes 16i..16i+15; an all-zero block stores d = 0, "
     "zero codes and zero bsums."},
    {16, "block_iq2_xxs = binary16 d, qs[32] uint16; per 32 values two uint32 words: the 4 bytes of the first are "
         "iq2xxs_grid indices, the second holds four 7-bit ksigns_iq2xs indices and the 4-bit scale s in its top bits; "
         "db = d * (0.5 + s) * 0.25; element = db * grid byte * (sign ? -1 : 1).",
     ""},
    {17, "block_iq2_xs = binary16 d, qs[32] uint16 (9-bit iq2xs_grid index, 7-bit ksigns_iq2xs index), scales[8] (two "
         "4-bit scales); db = d * (0.5 + s) * 0.25; element = db * grid byte * (sign ? -1 : 1).",
     ""},
    {18, "block_iq3_xxs = binary16 d, qs[64] iq3xxs_grid indices, then 8 uint32 with four 7-bit ksigns_iq2xs indices and "
         "the 4-bit scale s; db = d * (0.5 + s) * 0.5; element = db * grid byte * (sign ? -1 : 1).",
     ""},
    {19, "block_iq1_s = binary16 d, qs[32], qh[8] uint16; grid index qs | 3 bits of qh << 8 (iq1s_grid, signed bytes), "
         "dl = d * (2 * ((qh >> 12) & 7) + 1); element = dl * (grid byte + delta), delta = -IQ1S_DELTA when bit 15 of qh "
         "is set, else +IQ1S_DELTA.",
     ""},
    {20, "block_iq4_nl = binary16 d, qs[16]; element j is d * kvalues_iq4nl[qs[j] & 0xF], element j + 16 the high nibble.",
     "quantize_row_iq4_nl_ref (quantize_row_iq4_nl_impl, ntry -1, weights x * x): max the signed value of largest magnitude, "
     "codes best_index_int8(kvalues_iq4nl, x / (max / -127)) (ties to the upper code), d = sum(w*q*x) / sum(w*q*q) stored "
     "as binary16 (a NaN of inf / inf as x86 stores it, 0xFE00). A block whose largest magnitude is below GROUP_MAX_EPS "
     "(1e-15f) is refused with NINFER_E_METHOD (reading: ggml packs codes it never wrote)."},
    {21, "block_iq3_s = binary16 d, qs[64], qh[8], signs[32], scales[4]; grid index qs | qh bit << 8 (iq3s_grid), db = d * "
         "(1 + 2 * s); element = db * grid byte * (sign bit ? -1 : 1), sign bits from the signs bytes directly.",
     ""},
    {22, "block_iq2_s = binary16 d, qs[64] (32 low index bytes, then 32 sign bytes), qh[8], scales[8]; grid index qs | 2 "
         "bits of qh << 8 (iq2s_grid); db = d * (0.5 + s) * 0.25; element = db * grid byte * (sign bit ? -1 : 1).",
     ""},
    {23, "block_iq4_xs = binary16 d, uint16 scales_h, scales_l[4], qs[128]; the 6-bit scale ls of sub-block ib is the "
         "nibble ib of scales_l | 2 bits of scales_h << 4; element = (d * (ls - 32)) * kvalues_iq4nl[nibble].",
     "quantize_row_iq4_xs_ref (quantize_row_iq4_nl_impl, ntry 7, weights x * x): per 32 values the least-squares scale "
     "of the codes at max / 127, then 15 inverse scales (itry - 127) / max kept when sum(w*q*x)^2 / sum(w*q*q) grows; "
     "d = -max_scale / 32, ls = nearest_int(scale / d) clamped to -32..31 and stored + 32, codes re-chosen at d * ls. "
     "A sub-block below GROUP_MAX_EPS has scale 0; an all-zero block stores d = -0 (0x8000), ls 32, codes 8."},
    {29, "block_iq1_m = qs[32], qh[16], scales[8]; the binary16 d is the top nibbles of the four uint16 scale words; "
         "dl = d * (2 * s + 1) with 3-bit s; element = dl * (grid byte + delta), delta = -IQ1M_DELTA when the group's qh "
         "bit 3 is set, else +IQ1M_DELTA (IQ1M_DELTA = IQ1S_DELTA).",
     ""},
    {34, "block_tq1_0 = qs[48], qh[4], binary16 d; 5 (qs) or 4 (qh) base-3 digits per byte, digit n = ((byte * 3^n mod "
         "256) * 3) >> 8, in ggml's order (32-byte run, 16-byte run, qh); element = (digit - 1) * d.",
     "quantize_row_tq1_0_ref: d = amax, id = 1/d (0 when d = 0), trit = lroundf(x * id) + 1 (ties away from zero), "
     "five trits a byte most significant first (qh: four, then times 3), byte = ceil(q * 256 / 243); a NaN or infinite "
     "x * id (1/d overflowed) is trit 1, as x86-64 glibc's lroundf gives it."},
    {35, "block_tq2_0 = qs[64], binary16 d; 2-bit fields at shifts 0, 2, 4, 6 of each 32-byte run; element = (field - 1) * "
         "d (the offset 1 is part of the value).",
     "quantize_row_tq2_0_ref: d = amax, id = 1/d (0 when d = 0), field = lroundf(x * id) + 1 (ties away from zero) at "
     "shift 2n for value m + 32n of each 128; a NaN or infinite x * id (1/d overflowed) is field 1, as x86-64 glibc's "
     "lroundf gives it."},
    {39, "block_mxfp4 = E8M0 e, qs[16]; element j is kvalues_mxfp4[qs[j] & 0xF] * 2^(e - 128) (ggml_e8m0_to_fp32_half, "
         "no NaN for e = 0xFF: binary32 0x7F000000 * 2^-1 times the doubled E2M1 value), element j + 16 the high nibble.",
     "quantize_row_mxfp4_ref: e = (uint8)(floorf(log2f(amax)) - 2 + 127) (0 when amax = 0; log2f rounded to nearest, so "
     "an amax just below a power of two takes the upper exponent; below 2^-125 the low byte of the integer, as x86-64 "
     "converts it), d = ggml_e8m0_to_fp32_half(e), code = best_index_mxfp4: the least |kvalues_mxfp4[i] * d - x| in "
     "binary32, the first index on ties."},
    {40, "block_nvfp4 (ggml, 64 values) = four UE4M3 sub-block scales, qs[32]; ggml_ue4m3_to_fp32 reads the low 7 bits "
         "(0x00 and 0x7F are 0, no NaN) and halves; element = kvalues_mxfp4[nibble] * scale, low nibbles of 8 bytes then "
         "their high nibbles per 16 values. Not the .ninfer nvfp4 format.",
     "quantize_row_nvfp4_ref: per 16 values ue = ggml_fp32_to_ue4m3(amax / 6) (clamped to 448; below 2^-6 the code "
     "(int)(x * 512 + 0.5) up to 7; else three mantissa bits rounded half up, 0x7E from exponent 15), d = "
     "ggml_ue4m3_to_fp32(ue), code = best_index_mxfp4 (the first index on ties)."},
    {41, "block_q1_0 = binary16 d, qs[16]; bit j (LSB first) set gives d, clear gives d * -1.",
     "quantize_row_q1_0_ref: d = (sum of |x| in order) / 128, stored nearest-even as binary16 (infinite when the sum "
     "overflows); bit j set when x >= 0 (-0 included)."},
    {42, "block_q2_0 = binary16 d, qs[16]; the 2-bit word u of element j sits at bits 2 * (j % 4) of byte j / 4 (LSB "
         "first); element = (u - 1) * d.",
     "quantize_row_q2_0_ref: d = amax, id = 1/d (0 unless d > 0), u = clamp((int)roundf(x * id) + 1, 0, 3) (ties away "
     "from zero); a NaN or infinite x * id (1/d overflowed) converts to 0x80000000 as on x86-64, so u = 0."},
};

const TypeRow &type_row(const abi::GgufType &t) {
    for (const auto &r : kTypeRows)
        if (r.ggml_type == t.ggml_type) return r;
    throw std::logic_error("rules_gguf.cpp: no row for ggml type " + std::to_string(t.ggml_type) + " (" + std::string(t.name) + ")");
}

/// The reading of a type outside the .ninfer registry adds where it stands.
std::string registry_note(const abi::GgufType &t) {
    return t.in_ninfer_registry ? std::string()
                                : " Outside the .ninfer registry (not in the spec's gguf_* table): checked in ggml_blocks_v1 "
                                  "by the GGUF suites as ggml defines it.";
}

struct Row {
    RuleId id;
    std::string_view section, quote, reading;
};

/// The GGUF rules that stand alone, in catalog order (rule::kGguf).
constexpr Row kRows[] = {
    {rule::gguf_registry, "storage-layouts.md 1",
     "| `ggml_blocks_v1` | every `gguf_*` block format | rank 1..16, `K % block_values == 0` | 256 | ... Any other "
     "format/layout pair is unsupported and must be refused, by name, before any byte is read.",
     "the GGUF operations accept the 18 gguf_* types of the spec's table and the other block types ggml dequantizes "
     "(q4_1, q5_1, q8_1, q8_K, tq1_0, tq2_0, mxfp4, ggml's nvfp4, q1_0) in ggml_blocks_v1; a GGUF type in another "
     "layout, or another format in ggml_blocks_v1, is refused with NINFER_E_LAYOUT. The encoder ggml_quantize_ref "
     "serves the types whose quantize_row_<type>_ref is deterministic; another type, or an encoder of another family, "
     "is refused with NINFER_E_METHOD."},
    {rule::gguf_geometry, "storage-layouts.md 1, 7",
     "rank 1..16, `K % block_values == 0` ... Shape `[..., K]`; each row is `K / block_values` ggml blocks in increasing "
     "K, each block the byte image of ggml's `block_*` struct, rows in C order of the leading coordinates.",
     "a rank outside 1..16, a zero dimension or K not a multiple of the block values is refused with NINFER_E_SIZE "
     "(detail size) before any plane is read; rows are the product of the leading dimensions (1 for rank 1)."},
    {rule::gguf_size, "storage-layouts.md intro, 7",
     "All sizes and offsets are unsigned 64-bit integers; a shape whose size overflows must be rejected, never "
     "wrapped. ... `row_bytes = (K / block_values) * block_bytes`, `payload_bytes = rows * row_bytes`.",
     "a payload of any other size is refused with NINFER_E_SIZE (detail size) by payload_validate, quant_decode and "
     "rows_select; nothing is decoded."},
    {rule::gguf_rows_slice, "tensor-formats.txt",
     "A row gather or a consecutive row slice copies whole rows; nothing in a block is renormalized.",
     "a slice {first, count} of a rank-2 tensor yields the bytes of rows first..first+count-1; count 0 or a row past "
     "N is refused with NINFER_E_INVALID_ARGUMENT."},
    {rule::gguf_rows_gather, "tensor-formats.txt",
     "A row gather or a consecutive row slice copies whole rows; nothing in a block is renormalized.",
     "a gather (NINFER_FLAG_GATHER) yields the bytes of the named rows in the given order, repeats allowed; no index "
     "or an index past N is refused with NINFER_E_INVALID_ARGUMENT."},
    {rule::lesson_mxfp4, "lesson Example 14",
     "Following the specification and ggml's quantize_row_mxfp4_ref, the scale exponent is therefore "
     "floor(log2(amax)) - 2. After the scale is picked, each value takes the nearest of the 16 E2M1 values multiplied "
     "by the scale. ... llama.cpp's MXFP4 tensor type has this layout (block_mxfp4: one e byte and 16 bytes of qs).",
     "encoder mxfp4_ocp on gguf_mxfp4 (oracle/SCALED.md R4): floor(log2(amax)) exact, the first E2M1 word (lesson "
     "order) wins a tie, an all-zero block stores e = 0 and +0 codes; a scale exponent outside E8M0 is refused with "
     "NINFER_E_SCALE_OVERFLOW, a non-finite input with NINFER_E_NONFINITE. Block bytes: e, then element j in the low "
     "nibble of qs[j] and element j + 16 in its high nibble."},
};

std::string family_of(std::string_view id) { return std::string(id.substr(0, id.find('.'))); }

}  // namespace

std::vector<Rule> gguf_rules() {
    std::vector<Rule> r;
    for (const auto &row : kRows)
        r.push_back(make_rule(std::string(row.id), family_of(row.id), std::string(row.section), std::string(row.quote),
                              std::string(row.reading)));
    for (const auto &t : abi::kGgufTypes)
        r.push_back(make_rule(rule::gguf_decode(t), "gguf", std::string(kDecodeSection), std::string(kDecodeQuote),
                              std::string(type_row(t).decode) + registry_note(t)));
    for (const auto &t : abi::kGgufTypes) {
        if (!t.ref_quantizer) continue;
        const auto &row = type_row(t);
        if (row.quantize.empty()) throw std::logic_error("rules_gguf.cpp: no quantizer text for " + std::string(t.name));
        r.push_back(make_rule(rule::gguf_quantize(t), "gguf", std::string(kDecodeSection), std::string(kQuantizeQuote),
                              std::string(row.quantize) + " Inputs are binary32 words; a non-finite one is refused with "
                                                          "NINFER_E_NONFINITE (oracle/GGUF.md)." + registry_note(t)));
    }
    return r;
}

const CatalogFamily kGgufCatalog = {.family = abi::Family::gguf, .rules = &gguf_rules, .suites = &gguf_suites};

}  // namespace ninfer::suites
