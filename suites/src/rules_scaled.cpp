// SPDX-License-Identifier: Apache-2.0
// The scaled rules table: tensor-formats.txt Sections 3.3 (nvfp4), 3.4 (the FP8 row formats and
// the fp8_row_maxabs paragraph), 8; storage-layouts.md Sections 1, 4, 5, 6, 8; the lesson's
// Example 15 (NVIDIA's two-level NVFP4 recipe). One rule per id of NINFER_SCALED_RULES
// (rule_ids.hpp), in that order: the spec text copied verbatim (`quote`, tested against
// the spec in NINFER_SPEC_DIR) and the suite's reading kept apart (`reading`, "" when the quote says it all;
// the readings are those of oracle/SCALED.md and suites/SCALED.md).
#include <string>
#include <string_view>

#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

struct Row {
    RuleId id;
    std::string_view section, quote, reading;
};

constexpr std::string_view kSliceQuote =
    "a plane assembled from several matrices that were quantized apart holds one for each, covering N / "
    "divisors consecutive rows in the order the sources are stacked.";
constexpr std::string_view kSliceReading =
    "The format fixes per-row divisor ownership, not how a selection carries divisors. The result of a "
    "row slice or gather must itself have a geometry (a multiple of 128 rows); consecutive selected rows "
    "owned by one source form a run, all runs must have the same length, and the result holds one "
    "divisor per run, in selection order. Any other selection (and an empty one, or a row past N) is "
    "refused with NINFER_E_INVALID_ARGUMENT. Codes move as whole rows, scale words are re-swizzled for "
    "their new row, nothing is decoded (oracle/SCALED.md R3).";
constexpr std::string_view kFp8SelectQuote =
    "Slices and gathers concatenate code rows, recompute the alignment, and append the chosen scale words "
    "in the same order.";
constexpr std::string_view kFp8SelectReading =
    "row_interleaved_v1 has no separate planes: its selection concatenates whole rows (codes and "
    "multiplier). An empty selection or a row past N is refused with NINFER_E_INVALID_ARGUMENT.";
constexpr std::string_view kMaxabsParagraph =
    "The fp8_row_maxabs producer first represents inputs as BF16. For FP16 scales it computes "
    "binary32(max(abs(row)) / 448), rounds to binary16 with ties to even, and rescues a positive scale "
    "rounded to zero as the smallest binary16 subnormal. An overflowing scale is refused. It rounds the "
    "reciprocal of the stored scale to FP32, multiplies each BF16 input by that reciprocal with an FP32 "
    "result, clamps to [-448,448], then rounds to E4M3FN with ties to even. All-zero rows use "
    "positive-zero codes and scale. Each row is independent of chunk boundaries.";
constexpr std::string_view kBf16ScaleReading =
    "The paragraph spells out FP16 scales; for the BF16 multiplier of fp8_e4m3fn_row_bf16 the suite "
    "takes the same steps with BF16 in place of binary16 (ties to even, the smallest BF16 subnormal "
    "0x0001 as the rescue).";

/// Every scaled rule, in the order of NINFER_SCALED_RULES.
constexpr Row kRows[] = {
    // ---- nvfp4 (tensor-formats.txt 3.3) ----
    {rule::nvfp4_code_e2m1, "tensor-formats.txt 3.3",
     "An E2M1 word has sign bit 3, exponent bits 2:1, and mantissa bit 0. Positive code words 0..7 decode "
     "to: 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0 Bit 3 negates that value. Words 0x0 and 0x8 are distinct "
     "positive and negative zero words; all 16 code words are valid and must remain bit-exact.",
     ""},
    {rule::nvfp4_scale_validity, "tensor-formats.txt 3.3",
     "Stored NVFP4 weight scales admit only sign-zero finite words, including positive zero. Negative "
     "values, negative zero, and both NaN words are invalid.",
     ""},
    {rule::nvfp4_scale_zero, "tensor-formats.txt 3.3",
     "Stored NVFP4 weight scales admit only sign-zero finite words, including positive zero. ... W[n,k] = "
     "decode_e2m1(c[n,k]) * decode_e4m3fn(s[n,g]) / d_w[floor(n / (N / divisors))]",
     "A block whose scale is +0 is valid whatever its codes; its binary32 weights are zeros carrying the "
     "sign of their code (the IEEE product e2m1 * (+0) / d_w)."},
    {rule::nvfp4_divisor_validity, "tensor-formats.txt 3.3",
     "Every serialized binary32 word of d_w must be finite and strictly positive.",
     ""},
    {rule::nvfp4_divisor_row_owner, "tensor-formats.txt 3.3; storage-layouts.md 4",
     "The representation also contains one FP32 serialized weight divisor d_w per source matrix stacked "
     "into the plane: a plane quantized as one matrix holds one, and a plane assembled from several "
     "matrices that were quantized apart holds one for each, covering N / divisors consecutive rows in the "
     "order the sources are stacked. ... row `n` uses divisor `floor(n / (N / divisors))`.",
     ""},
    {rule::nvfp4_reconstruct, "tensor-formats.txt 3.3",
     "For code c[n,k], scale word s[n,g], and g=floor(k/16), the exact represented weight is: W[n,k] = "
     "decode_e2m1(c[n,k]) * decode_e4m3fn(s[n,g]) / d_w[floor(n / (N / divisors))]",
     "quant_decode's VALUES are the exact weight rounded once to binary32 (nearest-even, overflow to "
     "infinity, gradual underflow); the exact rational comes from the oracle (GMP)."},

    // ---- block_scale_k16_m128x4_v1 (storage-layouts.md 1, 4, 8) ----
    {rule::block_scale_registry, "storage-layouts.md 1",
     "`block_scale_k16_m128x4_v1` | `nvfp4` | rank 2, `N % 128 == 0`, `K % 64 == 0` | 256 | ... Any other "
     "format/layout pair is unsupported and must be refused, by name, before any byte is read.",
     ""},
    {rule::block_scale_geometry, "storage-layouts.md 1, 4",
     "`block_scale_k16_m128x4_v1` | `nvfp4` | rank 2, `N % 128 == 0`, `K % 64 == 0` | 256 | ... "
     "code_plane_bytes = N * K / 2 scale_plane_offset = align_up(code_plane_bytes, 256) scale_plane_bytes "
     "= N * K / 16 weight_divisor_offset = scale_plane_offset + scale_plane_bytes payload_bytes = "
     "weight_divisor_offset + 4 * divisors",
     ""},
    {rule::block_scale_size, "storage-layouts.md 4",
     "All sizes and offsets are unsigned 64-bit integers; a shape whose size overflows must be rejected, "
     "never wrapped. ... payload_bytes = weight_divisor_offset + 4 * divisors",
     ""},
    {rule::block_scale_code_plane, "storage-layouts.md 4",
     "code_plane_bytes = N * K / 2 ... Codes: row-major E2M1 nibbles, low nibble = smaller k.", ""},
    {rule::block_scale_swizzle, "storage-layouts.md 4",
     "Scales: the natural `[N, K/16]` E4M3FN matrix is swizzled; word `(n, g)` lives at scale-plane offset "
     "... (floor(n/128) * (K/64) + floor(g/4)) * 512 + (n%128 % 32) * 16 + floor((n%128) / 32) * 4 + g % 4",
     ""},
    {rule::block_scale_divisor_plane, "storage-layouts.md 4",
     "Divisors: `divisors` little-endian FP32 words (1 for a plane quantized as one matrix); row `n` uses "
     "divisor `floor(n / (N / divisors))`. Suite reading: `divisors >= 1` and `N % divisors == 0`; the "
     "format reference fixes the per-row ownership, not the byte placement of more than one word, which "
     "the suite takes as consecutive words.",
     "storage-layouts.md marks the placement of more than one divisor as the suite's reading: consecutive "
     "little-endian words after the scale plane, in source order."},
    {rule::block_scale_slice, "tensor-formats.txt 3.3", kSliceQuote, kSliceReading},
    {rule::block_scale_gather, "tensor-formats.txt 3.3", kSliceQuote, kSliceReading},
    {rule::block_scale_decode_boundary, "storage-layouts.md 4, 8",
     "Decoding recovers packed codes, natural scale matrix and divisor words exactly. ... Layout decoding "
     "yields persistent logical words only: ... nvfp4 codes, natural scale matrix and divisors",
     ""},

    // ---- the FP8 row formats (tensor-formats.txt 3.4; storage-layouts.md 1, 5, 6, 8) ----
    {rule::fp8_row_code_validity, "tensor-formats.txt 3.4",
     "The E4M3FN code meaning is the one defined in Section 3.3. Both signed-zero words and every finite "
     "subnormal or normal word are valid. The positive and negative NaN words 0x7f and 0xff are invalid; "
     "E4M3FN has no infinity words.",
     ""},
    {rule::fp8_row_scale_validity, "tensor-formats.txt 3.4",
     "A valid row scale has sign bit zero and is finite, including positive zero and positive subnormals. "
     "Negative values, negative zero, infinity, and NaN are invalid. ... Scale sign must be positive, "
     "including positive zero; subnormals are admitted, negative zero and non-finite scales are refused.",
     ""},
    {rule::fp8_row_zero_row, "tensor-formats.txt 3.4",
     "If a row scale is positive zero, every code in that row must be either positive zero 0x00 or "
     "negative zero 0x80. The converse is not required. ... A zero scale requires only signed-zero codes.",
     ""},
    {rule::fp8_row_reconstruct, "tensor-formats.txt 3.4",
     "For code word c[n,k] and row-scale word s[n], the exact represented weight is: c32 = "
     "exact_e4m3fn_to_binary32(c[n,k]) s32 = exact_bfloat16_to_binary32(s[n]) w_hat[n,k] = binary32(c32 * "
     "s32) The scale is a multiplier. ... Its exact reconstruction uses exact_binary16_to_binary32(s[n]) in "
     "the equation above.",
     ""},
    {rule::fp8_row_size, "tensor-formats.txt 3.4; storage-layouts.md 5, 6",
     "fp8_e4m3fn_row_bf16 is a rank-two weight matrix [N,K] with positive dimensions. ... `payload_bytes = "
     "scale_plane_offset + 2*N`. ... `payload_bytes = N * (K + 2)`",
     ""},
    {rule::fp8_row_decode_boundary, "storage-layouts.md 8",
     "Layout decoding yields persistent logical words only: ... fp8 codes and row multipliers",
     ""},
    {rule::fp8_row_slice, "storage-layouts.md 5", kFp8SelectQuote, kFp8SelectReading},
    {rule::fp8_row_gather, "storage-layouts.md 5", kFp8SelectQuote, kFp8SelectReading},
    {rule::row_scale_layout, "storage-layouts.md 1, 5",
     "`row_scale_v1` | `fp8_e4m3fn_row_bf16` | rank 2 | 256 | ... Any other format/layout pair is "
     "unsupported and must be refused, by name, before any byte is read. ... Code plane: `N*K` E4M3FN "
     "bytes, coordinate `[n,k]` at `n*K + k`; zeros up to `scale_plane_offset = align_up(N*K, 256)`; then "
     "`N` little-endian BF16 row multipliers. `payload_bytes = scale_plane_offset + 2*N`.",
     ""},
    {rule::row_scale_gap, "storage-layouts.md 5",
     "Code plane: `N*K` E4M3FN bytes, coordinate `[n,k]` at `n*K + k`; zeros up to `scale_plane_offset = "
     "align_up(N*K, 256)`",
     ""},
    {rule::row_interleaved_layout, "storage-layouts.md 1, 6",
     "`row_interleaved_v1` | `fp8_e4m3fn_row_fp16` | rank 2 | 256 | ... Any other format/layout pair is "
     "unsupported and must be refused, by name, before any byte is read. ... Row `n` is its `K` E4M3FN "
     "code bytes followed by its little-endian binary16 multiplier: row stride `K + 2`, `payload_bytes = N "
     "* (K + 2)`, no padding anywhere.",
     ""},

    // ---- fp8_row_maxabs (tensor-formats.txt 3.4, 8) ----
    {rule::fp8_row_maxabs_bf16_inputs, "tensor-formats.txt 3.4",
     "The fp8_row_maxabs producer first represents inputs as BF16.",
     "FP32 and binary16 sources round to BF16 with ties to even before the maximum is taken; every later "
     "step reads the BF16 inputs."},
    {rule::fp8_row_maxabs_scale_rounding, "tensor-formats.txt 3.4",
     "For FP16 scales it computes binary32(max(abs(row)) / 448), rounds to binary16 with ties to even,",
     kBf16ScaleReading},
    {rule::fp8_row_maxabs_rescue, "tensor-formats.txt 3.4",
     "and rescues a positive scale rounded to zero as the smallest binary16 subnormal.",
     "BF16 scales are rescued as 0x0001. A BF16 multiplier below 2^-128 has a binary32 reciprocal of "
     "infinity: a nonzero input's product is then infinite and the clamp takes it to +-448, and a zero "
     "input keeps a zero code of its sign (oracle/SCALED.md R2)."},
    {rule::fp8_row_maxabs_scale_overflow, "tensor-formats.txt 3.4", "An overflowing scale is refused.", ""},
    {rule::fp8_row_maxabs_nonfinite, "tensor-formats.txt 8",
     "when an encoder converts floating-point source values, fail rather than silently quantize non-finite "
     "source data or emit an unrepresentable scale.",
     "A row holding an infinity or a NaN refuses the call (NINFER_E_NONFINITE); so does a finite FP32 "
     "source whose BF16 representation is infinite (above BF16's largest finite value; oracle/SCALED.md "
     "R2)."},
    {rule::fp8_row_maxabs_reciprocal_multiply, "tensor-formats.txt 3.4",
     "It rounds the reciprocal of the stored scale to FP32, multiplies each BF16 input by that reciprocal "
     "with an FP32 result,",
     ""},
    {rule::fp8_row_maxabs_clamp, "tensor-formats.txt 3.4",
     "multiplies each BF16 input by that reciprocal with an FP32 result, clamps to [-448,448],", ""},
    {rule::fp8_row_maxabs_ties_to_even, "tensor-formats.txt 3.4", "then rounds to E4M3FN with ties to even.", ""},
    {rule::fp8_row_maxabs_zero_row, "tensor-formats.txt 3.4", "All-zero rows use positive-zero codes and scale.",
     "A row of +0 and -0 inputs is an all-zero row: 0x00 codes and a +0 multiplier."},
    {rule::fp8_row_maxabs_chunking, "tensor-formats.txt 3.4", "Each row is independent of chunk boundaries.", ""},
    {rule::fp8_row_maxabs_bit_exact, "tensor-formats.txt 3.4", kMaxabsParagraph, kBf16ScaleReading},

    // ---- the lesson's two-level NVFP4 recipe (informative) ----
    {rule::lesson_nvfp4_two_level, "lesson Example 15",
     "The whole tensor has one more FP32 scale. The per-tensor scale moves the block scales into E4M3's "
     "range: tensorScale = tensorAmax / (448 * 6).",
     "The recipe multiplies by the tensor scale binary32(amax / 2688); an nvfp4 tensor divides by d_w, so "
     "the payload stores d_w = binary32(2688 / amax) (one divisor). E2M1 ties go to the first value of the "
     "lesson's table (toward zero), E4M3 block scales round to even and saturate at 448, a block whose "
     "scale code is +0 keeps +0 codes, an all-zero tensor stores +0 scales and d_w = 1 "
     "(oracle/SCALED.md R5)."},
};

/// The family of a rule id: its first component ("nvfp4", "block_scale", "fp8_row_maxabs").
std::string family_of(std::string_view id) { return std::string(id.substr(0, id.find('.'))); }

}  // namespace

std::vector<Rule> scaled_rules() {
    std::vector<Rule> r;
    for (const auto &row : kRows)
        r.push_back(make_rule(std::string(row.id), family_of(row.id), std::string(row.section), std::string(row.quote),
                              std::string(row.reading)));
    return r;
}

const CatalogFamily kScaledCatalog = {.family = abi::Family::scaled, .rules = &scaled_rules, .suites = &scaled_suites};

}  // namespace ninfer::suites
