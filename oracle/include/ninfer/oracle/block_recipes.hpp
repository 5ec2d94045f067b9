// SPDX-License-Identifier: Apache-2.0
// Recipe lattices of block quantizers (issue 34 item 6; suites/RECIPES.md): the choices real
// producers differ in, one axis each, and the exact payload bytes of every point. The MXFP4
// lattice: the E8M0 scale rule (lesson Example 14's floor, ggml's floorf(log2f), torchao's CEIL,
// EVEN and RCEIL) x the E2M1 element rounding. Exact integers and rationals (MPFR for log2f's one
// rounding), never host float arithmetic.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle::recipes {

/// One value of one axis: its name (JSON, CLI), a phrase for the text, and who uses it.
struct Coordinate {
    std::string_view name, text, producers;
};

/// MXFP4 E8M0 scale rules: the exponent s of the scale 2^s from amax (suites/RECIPES.md).
enum Mxfp4Scale : std::size_t { floor_rule, floor_log2f, ceil_rule, even_rule, rceil_rule };
inline constexpr std::array<Coordinate, 5> kMxfp4Scales{{
    {"floor", "floor(log2(amax)) - 2", "the lesson (Example 14, mxfp4_ocp), OCP MX v1.0 6.3, torchao FLOOR"},
    {"floor_log2f", "floorf(log2f(amax)) - 2 (log2 rounded to binary32 first)", "ggml quantize_row_mxfp4_ref"},
    {"ceil", "ceil(log2(amax)) - 2", "torchao CEIL"},
    {"even", "floor(log2(amax rounded half up to 1 mantissa bit)) - 2", "torchao EVEN"},
    {"rceil", "ceil(log2(amax / 6))", "torchao RCEIL, cuDNN/cuBLAS block scale quantize, PTX cvt.rp.ue8m0x2"},
}};

/// E2M1 element roundings of x / 2^s (every one saturates at 6).
enum Fp4Elements : std::size_t { nearest_first, rne, nearest_last };
inline constexpr std::array<Coordinate, 3> kFp4Elements{{
    {"nearest_first", "nearest, ties toward zero, zero as +0 (first code of 0x0..0xF)",
     "the lesson (Example 14), ggml best_index_mxfp4"},
    {"rne", "nearest, ties to even, zero keeps the sign", "OCP MX v1.0, torchao, cuDNN, PTX cvt.rn.satfinite.e2m1x2"},
    {"nearest_last", "nearest, ties away from zero, zero as -0 (last code of 0x0..0xF)", "none known (a seeded bug)"},
}};

/// One point's payload: a gguf_mxfp4 block (E8M0 byte, then 16 bytes of two nibbles: values j
/// and j + 16), or a refusal (NINFER_E_NONFINITE, NINFER_E_SCALE_OVERFLOW: s outside E8M0).
struct RecipeBlock {
    std::int32_t status = NINFER_OK;
    std::vector<std::uint8_t> bytes;
};

/// The largest magnitude of binary32 words as a word (magnitudes order as their words), or
/// nothing when one is not finite (every recipe's NINFER_E_NONFINITE).
std::optional<std::uint32_t> finite_amax_word(std::span<const std::uint32_t> x);

/// The block of 32 binary32 words under (scale rule, element rounding). An all-zero block
/// stores the byte 0 (2^-127) under every rule.
RecipeBlock mxfp4_recipe_block(Mxfp4Scale scale, Fp4Elements elements, std::span<const std::uint32_t> x);

/// The E8M0 exponent s (unbiased) of amax > 0, a finite binary32 word, under a rule.
long mxfp4_scale_exponent(Mxfp4Scale scale, std::uint32_t amax);

/// The E2M1 word of x / 2^s under an element rounding.
std::uint8_t fp4_element(Fp4Elements elements, std::uint32_t x, long s);

/// Grouped integer formats (tensor-formats.txt 7.2, grouped_absmax): how x is normalized by the
/// binary16 scale, and how the normalized binary32 value becomes an integer code.
enum GroupedNormalize : std::size_t { reciprocal, division };
inline constexpr std::array<Coordinate, 2> kGroupedNormalize{{
    {"reciprocal", "round_f32(x * round_f32(1 / scale32))",
     "tensor-formats.txt 7.2 (normative for grouped_absmax); ggml's q8_0 and q4_0 multiply by id = 1/d"},
    {"division", "round_f32(x / scale32)", "the lesson's Example 11 q = round(x / scale)"},
}};
enum GroupedCodes : std::size_t { code_rne, code_rna, code_rtz };
inline constexpr std::array<Coordinate, 3> kGroupedCodes{{
    {"rne", "round to integral, ties to even", "tensor-formats.txt 7.2 (+2.5 -> 2), C nearbyint, numpy round"},
    {"rna", "round to integral, ties away from zero", "C roundf (ggml's quantize_row_q8_0_ref), Java Math.round for positive ties"},
    {"rtz", "truncation toward zero", "a C cast (int)v"},
}};

/// grouped_absmax on [rows, cols] binary32 words with the point's normalization and code
/// rounding (the Section 7.2 scale, rescue, clamp after rounding), as a row_split_k128_v1
/// payload, or grouped_absmax's refusal.
RecipeBlock grouped_recipe_payload(const GroupedFormat &f, GroupedNormalize normalize, GroupedCodes codes,
                                   std::uint64_t rows, std::uint64_t cols, std::span<const std::uint32_t> x);

/// The code of x under a scale word (nonzero, finite) at a point (before the clamp).
long grouped_recipe_code(GroupedNormalize normalize, GroupedCodes codes, std::uint32_t x, std::uint16_t scale16);

/// nvfp4 two-level recipes (tensor-formats.txt 3.3; lesson Example 15; suites/RECIPES.md): every
/// point shares the global step (d_w = binary32(2688 / tensorAmax), an all-zero tensor d_w = 1,
/// the refusals of nvfp4_two_level); the axes are the block scale's binary32 formula, its E4M3
/// rounding, the element's binary32 normalization and its E2M1 rounding.
enum Nvfp4Scale : std::size_t { scale_lesson, scale_te };
inline constexpr std::array<Coordinate, 2> kNvfp4Scales{{
    {"lesson", "binary32(binary32(amax / 6) / tensorScale), tensorScale = binary32(tensorAmax / 2688)",
     "the lesson (Example 15, nvfp4_two_level)"},
    {"te", "binary32(amax * binary32(S_enc * binary32(1 / 6))), S_enc = binary32(2688 / tensorAmax)",
     "Transformer Engine compute_decoding_scaling_factor (core_nvfp4.cuh)"},
}};
enum Nvfp4ScaleRounding : std::size_t { e4m3_rne, e4m3_rnu };
inline constexpr std::array<Coordinate, 2> kNvfp4ScaleRoundings{{
    {"rne", "E4M3 nearest, ties to even, saturating at 448",
     "the lesson's toE4m3, Transformer Engine's static_cast<fp8e4m3> (satfinite), PTX cvt.rn.satfinite.e4m3x2.f32"},
    {"rnu", "E4M3 nearest, ties up (half up), saturating at 448", "ggml_fp32_to_ue4m3 (ggml-impl.h) in its normal range"},
}};
enum Nvfp4Normalize : std::size_t { nv_division, nv_reciprocal };
inline constexpr std::array<Coordinate, 2> kNvfp4Normalize{{
    {"division", "binary32(x / binary32(e4m3 * tensorScale))", "the lesson (Example 15, nvfp4_two_level)"},
    {"reciprocal", "binary32(x * min(binary32(1 / binary32(e4m3 * binary32(1 / S_enc))), FLT_MAX))",
     "Transformer Engine compute_scaling_coefficient<float> (core_nvfp4.cuh)"},
}};

/// One nvfp4 point: the four coordinates (elements from kFp4Elements, applied at scale 2^0).
struct Nvfp4Point {
    Nvfp4Scale scale = scale_lesson;
    Nvfp4ScaleRounding rounding = e4m3_rne;
    Nvfp4Normalize normalize = nv_division;
    Fp4Elements elements = nearest_first;
};

/// The nvfp4 block_scale_k16_m128x4_v1 payload of [rows, cols] binary32 words (one divisor)
/// under a point, or nvfp4_two_level's refusal (NINFER_E_NONFINITE, NINFER_E_SCALE_OVERFLOW).
RecipeBlock nvfp4_recipe_payload(const Nvfp4Point &p, std::uint64_t rows, std::uint64_t cols, std::span<const std::uint32_t> x);

/// The E4M3FN scale code of one block's amax (a binary32 word) under a point's scale formula
/// and rounding, given the tensor amax (a positive finite binary32 word).
std::uint8_t nvfp4_recipe_scale(const Nvfp4Point &p, std::uint32_t tensor_amax, std::uint32_t block_amax);

/// The binary32 word x normalizes to under a point, given the block's scale code and the tensor
/// amax: what its E2M1 rounding then rounds.
std::uint32_t nvfp4_recipe_normalized(const Nvfp4Point &p, std::uint32_t tensor_amax, std::uint8_t scale, std::uint32_t x);

}  // namespace ninfer::oracle::recipes
