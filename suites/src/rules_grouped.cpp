// SPDX-License-Identifier: Apache-2.0
// The rules of the grouped family: tensor-formats.txt Sections 3.2, 4, 5, 6 (6.2), 7 (7.2
// grouped_absmax, 7.3 grouped_search), 8; storage-layouts.md Sections 1 and 3
// (row_split_k128_v1). One rule per normative sentence, quoted verbatim.
#include <string>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

namespace {

constexpr const char *kTf = "tensor-formats.txt ";
constexpr const char *kSl = "storage-layouts.md ";

Rule rule(std::string id, std::string family, std::string section, std::string sentence, bool reading = false) {
    return Rule{std::move(id), std::move(family), std::move(section), std::move(sentence), reading};
}

/// The code-domain sentence of a grouped format, chosen by its registry encoding.
Rule code_rule(const ninfer::oracle::GroupedFormat &f) {
    const std::string id = "grouped.code." + std::string(f.name);
    if (f.encoding == ninfer::oracle::CodeEncoding::OFFSET)
        return rule(id, "grouped", std::string(kTf) + "5",
                    "q2_g64_fp16 preserves the GSQ Q2_0 grid: each unsigned stored two-bit word u in 0..3 represents "
                    "integer q = u - 1 in [-1, 2], and each group of 64 values owns one binary16 scale. Its exact weight "
                    "is (u - 1) * scale. This offset encoding differs from T2's two's complement; all four Q2 words are valid.");
    if (f.illegal_word == 0x80)
        return rule(id, "grouped", std::string(kTf) + "5",
                    "q8_g32_fp16 uses an 8-bit two's-complement signed code with the deliberately restricted interval "
                    "[-127, 127].");
    if (f.illegal_word >= 0)
        return rule(id, "grouped", std::string(kTf) + "5",
                    "t2_g128_fp16 stores ternary weights: a 2-bit two's-complement code restricted to [-1, 1], so the "
                    "word 0b10 (-2) is outside the valid artifact language, and one binary16 scale per 128 columns.");
    return rule(id, "grouped", std::string(kTf) + "5",
                "Every bit pattern of the stated logical width is valid. Conversion between an unsigned logical word u "
                "and signed code q is: q = u if u < 2^(b - 1), q = u - 2^b otherwise");
}

void add_code_rules(std::vector<Rule> &r) {
    for (const auto &f : ninfer::oracle::kGroupedFormats) r.push_back(code_rule(f));
    r.push_back(rule("grouped.code.q8_0x80_illegal", "grouped", std::string(kTf) + "5",
                     "The byte pattern 0x80, which would represent -128, is outside the valid artifact language."));
    r.push_back(rule("grouped.code.q8_never_emitted", "grouped", std::string(kTf) + "5, 7.2, 8",
                     "The project-owned quantizer must never emit it; decoding semantics are defined only for a valid "
                     "code stream. ... The clamp happens after integral rounding. The Q8 result therefore never emits -128."));
    r.push_back(rule("grouped.code.t2_0b10_illegal", "grouped", std::string(kTf) + "5",
                     "t2_g128_fp16 stores ternary weights: a 2-bit two's-complement code restricted to [-1, 1], so the "
                     "word 0b10 (-2) is outside the valid artifact language"));
    r.push_back(rule("grouped.code.q2_offset", "grouped", std::string(kTf) + "5",
                     "each unsigned stored two-bit word u in 0..3 represents integer q = u - 1 in [-1, 2] ... This offset "
                     "encoding differs from T2's two's complement; all four Q2 words are valid."));
}

void add_scale_rules(std::vector<Rule> &r) {
    const std::string s6 = std::string(kTf) + "6";
    r.push_back(rule("grouped.scale.validity", "grouped", s6,
                     "A valid scale is either: - positive zero, binary16 bit pattern 0x0000; or - a finite nonzero "
                     "binary16 normal or subnormal number of either sign. Negative zero, positive or negative infinity, "
                     "and every NaN are invalid."));
    r.push_back(rule("grouped.scale.subnormal", "grouped", s6,
                     "Binary16 subnormals are valid; consumers must preserve their defined value. In particular, the "
                     "minimum positive binary16 scale is 2^-24, bit pattern 0x0001."));
    r.push_back(rule("grouped.scale.q2", "grouped", std::string(kTf) + "5",
                     "Q2 accepts every finite binary16 scale word, including both signed zeros and subnormals. When the "
                     "scale is zero, any code remains valid and preserves the source representation. These Q2 rules "
                     "override the zero-scale restrictions below; infinity and NaN remain invalid."));
    r.push_back(rule("grouped.scale.signed_multiply", "grouped", s6,
                     "A negative scale is an ordinary multiplier. ... Every consumer applies the scale as a signed "
                     "multiply (Section 6.2) and none may assume its sign: no absolute value, sign mask or unsigned "
                     "reinterpretation of a stored grouped scale."));
    r.push_back(rule("grouped.scale.zero_group_codes", "grouped", s6,
                     "If a stored scale is positive zero, every logical code in that group must be zero."));
    r.push_back(rule("grouped.scale.zero_converse", "grouped", s6,
                     "The converse is not required: a valid representation may have a nonzero scale and all-zero codes."));
}

void add_reconstruction_rules(std::vector<Rule> &r) {
    r.push_back(rule("grouped.reconstruct", "grouped", std::string(kTf) + "6.2",
                     "g = floor(k / G); s32 = exact_binary16_to_binary32(s[p, g]); "
                     "w_hat[p,k] = binary32(s32 * binary32(q[p, k])). This binary32 expression is the mathematical "
                     "conformance oracle."));
    r.push_back(rule("grouped.reconstruct.zero_point_free", "grouped", std::string(kTf) + "4, 6",
                     "All four schemes are zero-point-free, weight-only signed-integer schemes. ... There is no zero "
                     "point, offset, minimum, secondary scale, block exponent, or codebook."));
    r.push_back(rule("grouped.reconstruct.no_bf16_scale", "grouped", std::string(kTf) + "6.2",
                     "The formula code / scale is wrong: the stored scale is a multiplier. An independent scheme decoder "
                     "or exact oracle that introduces a zero point, recenters the code interval, or converts the scale "
                     "through BF16 implements a different numerical contract."));
    r.push_back(rule("grouped.group.last_axis", "grouped", std::string(kTf) + "4",
                     "The last dimension K is always the quantization axis. Every coordinate in the leading dimensions "
                     "identifies an independent logical row. ... A group never crosses a row boundary or any leading "
                     "dimension."));
    r.push_back(rule("grouped.group.partial", "grouped", std::string(kTf) + "4",
                     "K need not be divisible by G at the scheme level. The final group of each row contains "
                     "K - floor(K / G) * G logical values when that number is nonzero. Its scale and codes are computed "
                     "from those logical values only."));
}

void add_absmax_rules(std::vector<Rule> &r) {
    const std::string s = std::string(kTf) + "7.2";
    r.push_back(rule("grouped.absmax.source_conversion", "grouped", s,
                     "Each source value is converted to IEEE-754 binary32 using round-to-nearest, ties-to-even before "
                     "group processing. Finite BF16 and binary16 values convert exactly; finite binary32 values are "
                     "unchanged."));
    r.push_back(rule("grouped.absmax.nonfinite", "grouped", s,
                     "If a source value cannot be represented as finite binary32, the encoder fails."));
    r.push_back(rule("grouped.absmax.scale_rounding", "grouped", s,
                     "raw_scale32 = round_f32(amax / binary32(qmax)); scale16 = round_f16(raw_scale32). All binary32 and "
                     "binary16 operations below use round-to-nearest, ties-to-even. No flush-to-zero is permitted where "
                     "it would change a specified binary16 scale."));
    r.push_back(rule("grouped.absmax.rescue", "grouped", s,
                     "If a nonzero raw_scale32 rounds to binary16 zero, the explicit 0x0001 rescue preserves a positive "
                     "dequantization scale."));
    r.push_back(rule("grouped.absmax.scale_overflow", "grouped", s,
                     "If conversion of raw_scale32 to binary16 produces infinity, encoding fails rather than storing it "
                     "or silently clipping the scale."));
    r.push_back(rule("grouped.absmax.reciprocal_multiply", "grouped", s,
                     "The sequence inv32 = round_f32(1 / scale32) followed by normalized32 = round_f32(x * inv32) is "
                     "normative for this encoder. Replacing it with round_f32(x / scale32) can select a different "
                     "integer code even though the real-number expressions are algebraically equivalent."));
    r.push_back(rule("grouped.absmax.ties_to_even", "grouped", s,
                     "rounded = round_to_integral_ties_to_even(normalized32). The integral rounding examples are: "
                     "+0.5 -> 0 -0.5 -> 0 +1.5 -> 2 -1.5 -> -2 +2.5 -> 2 -2.5 -> -2"));
    r.push_back(rule("grouped.absmax.clamp_after_rounding", "grouped", s,
                     "code[i] = clamp(rounded, qmin, qmax). The clamp happens after integral rounding."));
    r.push_back(rule("grouped.absmax.zero_group", "grouped", s,
                     "An all-zero group is handled before the reciprocal and always produces positive-zero scale and "
                     "zero codes."));
    r.push_back(rule("grouped.absmax.refuses_q2_t2", "grouped", std::string(kTf) + "2, 7.2",
                     "Native q2_g64_fp16 imports trained GSQ Q2_0 codes; grouped_absmax and grouped_search refuse that "
                     "target. ... It applies to the four grouped integer formats."));
    r.push_back(rule("grouped.absmax.denominator_qmax", "grouped", s,
                     "qmax, not abs(qmin), is the scale denominator. Thus Q4 uses 7, Q5 uses 15, Q6 uses 31, and Q8 uses "
                     "127."));
    r.push_back(rule("grouped.absmax.bit_exact", "grouped", std::string(kTf) + "8, 9",
                     "Only a grouped signed-integer encoder claiming canonical-reference parity must reproduce Section 7 "
                     "bit for bit. ... Their canonical encode oracle is a bit-level host/software implementation of the "
                     "ordered algorithm in Section 7; production converters claiming that profile require parity against "
                     "it rather than defining the oracle through their own arithmetic."));
    r.push_back(rule("grouped.absmax.rank2", "grouped", s,
                     "The implementation accepts positive rank-two matrices, rejects non-finite source values and "
                     "unrepresentable scales, and supplies zero tail padding for row_split_k128_v1."));
}

void add_search_rules(std::vector<Rule> &r) {
    const std::string s = std::string(kTf) + "7.3";
    r.push_back(rule("grouped.search.strict_improvement", "grouped", s,
                     "Each group keeps the Section 7.2 result unless a candidate scale has a strictly smaller "
                     "importance-weighted squared reconstruction error sum_k imp[k] * (w[k] - s * q[k])^2, with codes "
                     "selected by the Section 7.2 reciprocal multiply."));
    r.push_back(rule("grouped.search.candidates", "grouped", s,
                     "The candidates are 25 multiples (0.70 to 1.18) of the max-abs scale amax / qmax and of the "
                     "full-range scale extreme / qmin, which maps the group's largest-magnitude value onto the most "
                     "negative code; power-of-two multiples and binary16 neighbours of the max-abs scale; and the "
                     "weighted least-squares scale of the max-abs codes and of the winning codes, with their neighbours. "
                     "Computed candidates round through binary32 to binary16 as in Section 7.2. Suite reading: "
                     "candidate order, arithmetic and ties as oracle/GROUPED.md R3 and R4 read them.",
                     true));
    r.push_back(rule("grouped.search.importance", "grouped", s,
                     "The importance vector, one weight per input channel, comes from an activation importance matrix "
                     "(tools/convert/imatrix.py); without it every channel weighs the same. Suite reading: K finite "
                     "non-negative binary32 weights, one per column (oracle/GROUPED.md R4).",
                     true));
    r.push_back(rule("grouped.search.negative_scales", "grouped", s,
                     "Negative candidates compete only when the recipe enables negative_scales. Suite reading: the "
                     "flag NINFER_FLAG_NEGATIVE_SCALES enables them; the candidates are oracle/GROUPED.md R3's.",
                     true));
    r.push_back(rule("grouped.search.valid_words", "grouped", s,
                     "An alternative method need not match grouped_absmax bit for bit. It must produce valid words of "
                     "the selected format."));
}

void add_row_split_rules(std::vector<Rule> &r) {
    const std::string s3 = std::string(kSl) + "3";
    r.push_back(rule("row_split.registry", "row_split", std::string(kSl) + "1",
                     "row_split_k128_v1 | q4_g64_fp16, q5_g64_fp16, q6_g64_fp16, q8_g32_fp16; Suite reading: also "
                     "q2_g64_fp16, t2_g128_fp16 | rank 2 [N,K] | 256",
                     true));
    r.push_back(rule("row_split.geometry", "row_split", s3,
                     "K_pad = align_up(K, 128); groups_per_row = K_pad / G; logical_groups = ceil_div(K, G); "
                     "base_bytes = N * groups_per_row * B; high_bytes = N * groups_per_row * H; scale_bytes = N * "
                     "groups_per_row * 2; high_offset = align_up(base_bytes, 256); scale_offset = high_offset + "
                     "align_up(high_bytes, 256); payload_bytes = scale_offset + scale_bytes"));
    r.push_back(rule("row_split.size", "row_split", std::string(kSl) + "intro, 3",
                     "All sizes and offsets are unsigned 64-bit integers; a shape whose size overflows must be rejected, "
                     "never wrapped. (payload_bytes = scale_offset + scale_bytes)"));
    r.push_back(rule("row_split.plane_order", "row_split", s3,
                     "Planes, in order: base-code plane; zeros to a 256-byte boundary; high-bit plane (may be empty); "
                     "zeros to a 256-byte boundary; binary16 scale plane. Inside each plane the order is row 0 group 0, "
                     "row 0 group 1, ..., row 1 group 0, ...; the bytes of one group are adjacent."));
    r.push_back(rule("row_split.nibble_order", "row_split", s3,
                     "q4/q5/q6: u = q mod 2^b (two's complement word); lane pair (2j, 2j+1) shares byte j: "
                     "(u[2j] & 0xF) | (u[2j+1] & 0xF) << 4 (even lane in the low nibble)."));
    r.push_back(rule("row_split.q8_bytes", "row_split", s3,
                     "q8: lane i is byte i, its 8-bit two's-complement word (0x80 never legal)."));
    r.push_back(rule("row_split.high_bit_order", "row_split", s3,
                     "High plane (q5, q6). high[i] = (u[i] >> 4) & ((1 << (b-4)) - 1); the stream is lane-major, bit 4 "
                     "first then bit 5 (q6); stream bit t is bit t % 8 of byte t / 8."));
    r.push_back(rule("row_split.two_bit_packing", "row_split", s3,
                     "Suite reading for 2-bit codes: lane i sits in bits 2*(i%4) .. 2*(i%4)+1 of byte i/4 (least "
                     "significant first, as ggml's Q2_0 block packs them), the stored word being u = q + 1 for q2 "
                     "(offset code) and u = q mod 4 for t2 (two's complement; word 0b10 is illegal).",
                     true));
    r.push_back(rule("row_split.scale_plane", "row_split", s3,
                     "Scale plane: one little-endian binary16 word per physical group, index row * groups_per_row + group."));
    r.push_back(rule("row_split.padding", "row_split", s3,
                     "Padding: lanes of the last logical group whose column is >= K hold code 0 and the group keeps its "
                     "logical scale; every whole physical group after logical_groups has scale word 0x0000 and all codes 0."));
    r.push_back(rule("row_split.gaps", "row_split", s3, "All gap bytes between planes are zero."));
    r.push_back(rule("row_split.row_view", "row_split", s3,
                     "Row view [r0, r0+rc): three plane spans starting at plane_offset + r0 * plane_row_bytes with "
                     "plane_row_bytes = groups_per_row * {B, H, 2}; the view keeps the parent's K_pad."));
    r.push_back(rule("row_split.slice", "row_split", s3,
                     "A standalone slice, or a gather of arbitrary rows in a given order, concatenates the selected row "
                     "spans plane by plane and recomputes offsets and zero padding for the new row count; no code is "
                     "decoded or repacked."));
    r.push_back(rule("row_split.gather", "row_split", s3,
                     "A standalone slice, or a gather of arbitrary rows in a given order, concatenates the selected row "
                     "spans plane by plane and recomputes offsets and zero padding for the new row count; no code is "
                     "decoded or repacked."));
    r.push_back(rule("row_split.decode_boundary", "row_split", std::string(kSl) + "8",
                     "Layout decoding yields persistent logical words only: ... grouped signed codes and binary16 scales "
                     "for columns 0..K-1"));
}

}  // namespace

std::vector<Rule> grouped_rules() {
    std::vector<Rule> r;
    add_code_rules(r);
    add_scale_rules(r);
    add_reconstruction_rules(r);
    add_absmax_rules(r);
    add_search_rules(r);
    add_row_split_rules(r);
    return r;
}

}  // namespace ninfer::suites
