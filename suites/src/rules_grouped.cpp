// SPDX-License-Identifier: Apache-2.0
// The grouped rules table: tensor-formats.txt Sections 3.2, 4, 5, 6 (6.2), 7 (7.2 grouped_absmax,
// 7.3 grouped_search), 8; storage-layouts.md Sections 1, 3 and 8 (row_split_k128_v1). One rule
// per normative sentence: the spec text copied verbatim (`quote`, tested against
// the spec in NINFER_SPEC_DIR) and the suite's reading kept apart (`reading`, "" when the quote says it all).
// grouped.code.<format> is one rule per registry row, its quote chosen by the row's code
// encoding and illegal word; every other rule is a row of kRows, its id a typed constant.
#include <stdexcept>
#include <string>
#include <string_view>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

using ninfer::oracle::CodeEncoding;

/// The code-domain text of a grouped format, chosen by the registry columns `code_encoding` and
/// `illegal_word` (-1: none).
struct CodeRow {
    CodeEncoding encoding;
    int illegal_word;
    std::string_view section, quote, reading;
};

constexpr CodeRow kCodeRows[] = {
    {CodeEncoding::OFFSET, -1, "tensor-formats.txt 5",
     "q2_g64_fp16 preserves the GSQ Q2_0 grid: each unsigned stored two-bit word u in 0..3 represents "
     "integer q = u - 1 in [-1, 2], and each group of 64 values owns one binary16 scale. Its exact weight "
     "is (u - 1) * scale. This offset encoding differs from T2's two's complement; all four Q2 words are "
     "valid.",
     ""},
    {CodeEncoding::TWOS, 0x80, "tensor-formats.txt 5",
     "q8_g32_fp16 uses an 8-bit two's-complement signed code with the deliberately restricted interval "
     "[-127, 127].",
     ""},
    {CodeEncoding::TWOS, 0x2, "tensor-formats.txt 5",
     "t2_g128_fp16 stores ternary weights: a 2-bit two's-complement code restricted to [-1, 1], so the "
     "word 0b10 (-2) is outside the valid artifact language, and one binary16 scale per 128 columns.",
     ""},
    {CodeEncoding::TWOS, -1, "tensor-formats.txt 5",
     "Every bit pattern of the stated logical width is valid. Conversion between an unsigned logical word "
     "u and signed code q is: q = u if u < 2^(b - 1) q = u - 2^b otherwise",
     ""},
};

/// One rule that stands alone: its typed id, where its text stands, the quote, the reading.
struct Row {
    RuleId id;
    std::string_view section, quote, reading;
};

/// Every grouped rule but grouped.code.<format>, in catalog order.
constexpr Row kRows[] = {
    // ---- codes (Section 5) ----
    {rule::grouped_code_q8_0x80_illegal, "tensor-formats.txt 5",
     "The byte pattern 0x80, which would represent -128, is outside the valid artifact language.", ""},
    {rule::grouped_code_q8_never_emitted, "tensor-formats.txt 5, 7.2, 8",
     "The project-owned quantizer must never emit it; decoding semantics are defined only for a valid "
     "code stream. ... The clamp happens after integral rounding. The Q8 result therefore never emits "
     "-128.",
     ""},
    {rule::grouped_code_t2_0b10_illegal, "tensor-formats.txt 5",
     "t2_g128_fp16 stores ternary weights: a 2-bit two's-complement code restricted to [-1, 1], so the "
     "word 0b10 (-2) is outside the valid artifact language",
     ""},
    {rule::grouped_code_q2_offset, "tensor-formats.txt 5",
     "each unsigned stored two-bit word u in 0..3 represents integer q = u - 1 in [-1, 2] ... This "
     "offset encoding differs from T2's two's complement; all four Q2 words are valid.",
     ""},

    // ---- scales (Section 6) ----
    {rule::grouped_scale_validity, "tensor-formats.txt 6",
     "A valid scale is either: - positive zero, binary16 bit pattern 0x0000; or - a finite nonzero "
     "binary16 normal or subnormal number of either sign. Negative zero, positive or negative infinity, "
     "and every NaN are invalid.",
     ""},
    {rule::grouped_scale_subnormal, "tensor-formats.txt 6",
     "Binary16 subnormals are valid; consumers must preserve their defined value. In particular, the "
     "minimum positive binary16 scale is 2^-24, bit pattern 0x0001.",
     ""},
    {rule::grouped_scale_q2, "tensor-formats.txt 5",
     "Q2 accepts every finite binary16 scale word, including both signed zeros and subnormals. When the "
     "scale is zero, any code remains valid and preserves the source representation. These Q2 rules "
     "override the zero-scale restrictions below; infinity and NaN remain invalid.",
     ""},
    {rule::grouped_scale_signed_multiply, "tensor-formats.txt 6",
     "A negative scale is an ordinary multiplier. ... Every consumer applies the scale as a signed "
     "multiply (Section 6.2) and none may assume its sign: no absolute value, sign mask or unsigned "
     "reinterpretation of a stored grouped scale.",
     ""},
    {rule::grouped_scale_zero_group_codes, "tensor-formats.txt 6",
     "If a stored scale is positive zero, every logical code in that group must be zero.", ""},
    {rule::grouped_scale_zero_converse, "tensor-formats.txt 6",
     "The converse is not required: a valid representation may have a nonzero scale and all-zero codes.", ""},

    // ---- reconstruction and groups (Sections 4, 6.2) ----
    {rule::grouped_reconstruct, "tensor-formats.txt 6.2",
     "g = floor(k / G) s32 = exact_binary16_to_binary32(s[p, g]) w_hat[p,k] = binary32(s32 * "
     "binary32(q[p, k])) This binary32 expression is the mathematical conformance oracle.",
     ""},
    {rule::grouped_reconstruct_zero_point_free, "tensor-formats.txt 4, 6",
     "All four schemes are zero-point-free, weight-only signed-integer schemes. ... There is no zero "
     "point, offset, minimum, secondary scale, block exponent, or codebook.",
     ""},
    {rule::grouped_reconstruct_no_bf16_scale, "tensor-formats.txt 6.2",
     "The formula code / scale is wrong: the stored scale is a multiplier. An independent scheme decoder "
     "or exact oracle that introduces a zero point, recenters the code interval, or converts the scale "
     "through BF16 implements a different numerical contract.",
     ""},
    {rule::grouped_group_last_axis, "tensor-formats.txt 4",
     "The last dimension K is always the quantization axis. Every coordinate in the leading dimensions "
     "identifies an independent logical row. ... A group never crosses a row boundary or any leading "
     "dimension.",
     ""},
    {rule::grouped_group_partial, "tensor-formats.txt 4",
     "K need not be divisible by G at the scheme level. The final group of each row contains K - "
     "floor(K / G) * G logical values when that number is nonzero. Its scale and codes are computed "
     "from those logical values only.",
     ""},

    // ---- grouped_absmax (Section 7.2) ----
    {rule::grouped_absmax_source_conversion, "tensor-formats.txt 7.2",
     "Each source value is converted to IEEE-754 binary32 using round-to-nearest, ties-to-even before "
     "group processing. Finite BF16 and binary16 values convert exactly; finite binary32 values are "
     "unchanged.",
     ""},
    {rule::grouped_absmax_nonfinite, "tensor-formats.txt 7.2",
     "If a source value cannot be represented as finite binary32, the encoder fails.", ""},
    {rule::grouped_absmax_scale_rounding, "tensor-formats.txt 7.2",
     "All binary32 and binary16 operations below use round-to-nearest, ties-to-even. No flush-to-zero "
     "is permitted where it would change a specified binary16 scale. ... raw_scale32 = round_f32(amax / "
     "binary32(qmax)) scale16 = round_f16(raw_scale32)",
     ""},
    {rule::grouped_absmax_rescue, "tensor-formats.txt 7.2",
     "If a nonzero raw_scale32 rounds to binary16 zero, the explicit 0x0001 rescue preserves a positive "
     "dequantization scale.",
     ""},
    {rule::grouped_absmax_scale_overflow, "tensor-formats.txt 7.2",
     "If conversion of raw_scale32 to binary16 produces infinity, encoding fails rather than storing it "
     "or silently clipping the scale.",
     ""},
    {rule::grouped_absmax_reciprocal_multiply, "tensor-formats.txt 7.2",
     "The sequence inv32 = round_f32(1 / scale32) followed by normalized32 = round_f32(x * inv32) is "
     "normative for this encoder. Replacing it with round_f32(x / scale32) can select a different "
     "integer code even though the real-number expressions are algebraically equivalent.",
     ""},
    {rule::grouped_absmax_ties_to_even, "tensor-formats.txt 7.2",
     "rounded = round_to_integral_ties_to_even(normalized32) ... The integral rounding examples are: "
     "+0.5 -> 0 -0.5 -> 0 +1.5 -> 2 -1.5 -> -2 +2.5 -> 2 -2.5 -> -2",
     ""},
    {rule::grouped_absmax_clamp_after_rounding, "tensor-formats.txt 7.2",
     "code[i] = clamp(rounded, qmin, qmax) ... The clamp happens after integral rounding.", ""},
    {rule::grouped_absmax_zero_group, "tensor-formats.txt 7.2",
     "An all-zero group is handled before the reciprocal and always produces positive-zero scale and "
     "zero codes.",
     ""},
    {rule::grouped_absmax_refuses_q2_t2, "tensor-formats.txt 2, 7.2",
     "Native q2_g64_fp16 imports trained GSQ Q2_0 codes; grouped_absmax and grouped_search refuse that "
     "target. ... It applies to the four grouped integer formats.",
     ""},
    {rule::grouped_absmax_denominator_qmax, "tensor-formats.txt 7.2",
     "qmax, not abs(qmin), is the scale denominator. Thus Q4 uses 7, Q5 uses 15, Q6 uses 31, and Q8 uses "
     "127.",
     ""},
    {rule::grouped_absmax_bit_exact, "tensor-formats.txt 8, 9",
     "Only a grouped signed-integer encoder claiming canonical-reference parity must reproduce Section 7 "
     "bit for bit. ... Their canonical encode oracle is a bit-level host/software implementation of the "
     "ordered algorithm in Section 7; production converters claiming that profile require parity against "
     "it rather than defining the oracle through their own arithmetic.",
     ""},
    {rule::grouped_absmax_rank2, "tensor-formats.txt 7.2",
     "The implementation accepts positive rank-two matrices, rejects non-finite source values and "
     "unrepresentable scales, and supplies zero tail padding for row_split_k128_v1.",
     ""},

    // ---- grouped_search (Section 7.3) ----
    {rule::grouped_search_strict_improvement, "tensor-formats.txt 7.3",
     "Each group keeps the Section 7.2 result unless a candidate scale has a strictly smaller "
     "importance-weighted squared reconstruction error sum_k imp[k] * (w[k] - s * q[k])^2, with codes "
     "selected by the Section 7.2 reciprocal multiply.",
     ""},
    {rule::grouped_search_candidates, "tensor-formats.txt 7.3",
     "The candidates are 25 multiples (0.70 to 1.18) of the max-abs scale amax / qmax and of the "
     "full-range scale extreme / qmin, which maps the group's largest-magnitude value onto the most "
     "negative code; power-of-two multiples and binary16 neighbours of the max-abs scale; and the "
     "weighted least-squares scale of the max-abs codes and of the winning codes, with their neighbours. "
     "Computed candidates round through binary32 to binary16 as in Section 7.2.",
     "candidate order, arithmetic and ties as oracle/GROUPED.md R3 and R4 read them."},
    {rule::grouped_search_importance, "tensor-formats.txt 7.3",
     "The importance vector, one weight per input channel, comes from an activation importance matrix "
     "(tools/convert/imatrix.py); without it every channel weighs the same.",
     "K finite non-negative binary32 weights, one per column (oracle/GROUPED.md R4)."},
    {rule::grouped_search_negative_scales, "tensor-formats.txt 7.3",
     "Negative candidates compete only when the recipe enables negative_scales.",
     "the flag NINFER_FLAG_NEGATIVE_SCALES enables them; the candidates are oracle/GROUPED.md R3's."},
    {rule::grouped_search_valid_words, "tensor-formats.txt 7.3",
     "An alternative method need not match grouped_absmax bit for bit. It must produce valid words of "
     "the selected format.",
     ""},

    // ---- row_split_k128_v1 (storage-layouts.md Sections 1, 3, 8) ----
    {rule::row_split_registry, "storage-layouts.md 1",
     "| `row_split_k128_v1` | `q4_g64_fp16`, `q5_g64_fp16`, `q6_g64_fp16`, `q8_g32_fp16`; suite "
     "reading: also `q2_g64_fp16`, `t2_g128_fp16` | rank 2 `[N,K]` | 256 |",
     "q2_g64_fp16 and t2_g128_fp16 in row_split_k128_v1, as storage-layouts.md Section 1 marks them."},
    {rule::row_split_geometry, "storage-layouts.md 3",
     "K_pad = align_up(K, 128) groups_per_row = K_pad / G logical_groups = ceil_div(K, G) ... "
     "base_bytes = N * groups_per_row * B base_offset = 0 high_bytes = N * groups_per_row * H "
     "high_offset = align_up(base_bytes, 256) scale_bytes = N * groups_per_row * 2 scale_offset = "
     "high_offset + align_up(high_bytes, 256) payload_bytes = scale_offset + scale_bytes",
     ""},
    {rule::row_split_size, "storage-layouts.md intro, 3",
     "All sizes and offsets are unsigned 64-bit integers; a shape whose size overflows must be rejected, "
     "never wrapped. ... payload_bytes = scale_offset + scale_bytes",
     ""},
    {rule::row_split_plane_order, "storage-layouts.md 3",
     "Planes, in order: base-code plane; zeros to a 256-byte boundary; high-bit plane (may be empty); "
     "zeros to a 256-byte boundary; binary16 scale plane. Inside each plane the order is row 0 group 0, "
     "row 0 group 1, ..., row 1 group 0, ...; the bytes of one group are adjacent.",
     ""},
    {rule::row_split_nibble_order, "storage-layouts.md 3",
     "q4/q5/q6: `u = q mod 2^b` (two's complement word); lane pair `(2j, 2j+1)` shares byte `j`: "
     "`(u[2j] & 0xF) | (u[2j+1] & 0xF) << 4` (even lane in the low nibble).",
     ""},
    {rule::row_split_q8_bytes, "storage-layouts.md 3",
     "q8: lane `i` is byte `i`, its 8-bit two's-complement word (`0x80` never legal).", ""},
    {rule::row_split_high_bit_order, "storage-layouts.md 3",
     "High plane (q5, q6). `high[i] = (u[i] >> 4) & ((1 << (b-4)) - 1)`; the stream is lane-major, bit 4 "
     "first then bit 5 (q6); stream bit `t` is bit `t % 8` of byte `t / 8`.",
     ""},
    {rule::row_split_two_bit_packing, "storage-layouts.md 3",
     "Suite reading for 2-bit codes: lane `i` sits in bits `2*(i%4)` .. `2*(i%4)+1` of byte `i/4` "
     "(least significant first, as ggml's Q2_0 block packs them), the stored word being `u = q + 1` for "
     "q2 (offset code) and `u = q mod 4` for t2 (two's complement; word `0b10` is illegal).",
     "storage-layouts.md marks this packing as the suite's reading: tensor-formats.txt leaves the 2-bit "
     "layout open."},
    {rule::row_split_scale_plane, "storage-layouts.md 3",
     "Scale plane: one little-endian binary16 word per physical group, index `row * groups_per_row + "
     "group`.",
     ""},
    {rule::row_split_padding, "storage-layouts.md 3",
     "Padding: lanes of the last logical group whose column is `>= K` hold code 0 and the group keeps "
     "its logical scale; every whole physical group after `logical_groups` has scale word `0x0000` and "
     "all codes 0.",
     ""},
    {rule::row_split_gaps, "storage-layouts.md 3", "All gap bytes between planes are zero.", ""},
    {rule::row_split_row_view, "storage-layouts.md 3",
     "Row view `[r0, r0+rc)`: three plane spans starting at `plane_offset + r0 * plane_row_bytes` with "
     "`plane_row_bytes = groups_per_row * {B, H, 2}`; the view keeps the parent's K_pad.",
     ""},
    {rule::row_split_slice, "storage-layouts.md 3",
     "A standalone slice, or a gather of arbitrary rows in a given order, concatenates the selected row "
     "spans plane by plane and recomputes offsets and zero padding for the new row count; no code is "
     "decoded or repacked.",
     ""},
    {rule::row_split_gather, "storage-layouts.md 3",
     "A standalone slice, or a gather of arbitrary rows in a given order, concatenates the selected row "
     "spans plane by plane and recomputes offsets and zero padding for the new row count; no code is "
     "decoded or repacked.",
     ""},
    {rule::row_split_decode_boundary, "storage-layouts.md 8",
     "Layout decoding yields persistent logical words only: ... grouped signed codes and binary16 "
     "scales for columns `0..K-1`",
     ""},
};

/// The family of a rule id: its first component ("grouped", "row_split").
std::string family_of(std::string_view id) { return std::string(id.substr(0, id.find('.'))); }

/// The code rule of a grouped format (std::logic_error when no row matches its columns).
Rule code_rule(const ninfer::oracle::GroupedFormat &f) {
    for (const auto &r : kCodeRows)
        if (r.encoding == f.encoding && r.illegal_word == f.illegal_word)
            return make_rule(rule::grouped_code(f), "grouped", std::string(r.section), std::string(r.quote),
                             std::string(r.reading));
    throw std::logic_error("rules_grouped.cpp: no code row for " + std::string(f.name));
}

}  // namespace

std::vector<Rule> grouped_rules() {
    std::vector<Rule> r;
    for (const auto &f : ninfer::oracle::kGroupedFormats) r.push_back(code_rule(f));
    for (const auto &row : kRows)
        r.push_back(make_rule(std::string(row.id), family_of(row.id), std::string(row.section), std::string(row.quote),
                              std::string(row.reading)));
    return r;
}

const CatalogFamily kGroupedCatalog = {.family = abi::Family::grouped, .rules = &grouped_rules, .suites = &grouped_suites};

}  // namespace ninfer::suites
