// SPDX-License-Identifier: Apache-2.0
// Recipe lattices of block quantizers (issue 34 item 6; suites/RECIPES.md): the choices real
// producers differ in, one axis each, and the exact payload bytes of every point. The MXFP4
// lattice: the E8M0 scale rule (lesson Example 14's floor, ggml's floorf(log2f), torchao's CEIL,
// EVEN and RCEIL) x the E2M1 element rounding. Exact integers and rationals (MPFR for log2f's one
// rounding), never host float arithmetic.
#pragma once

#include <array>
#include <cstdint>
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

}  // namespace ninfer::oracle::recipes
