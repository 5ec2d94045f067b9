// SPDX-License-Identifier: Apache-2.0
// The scaled floating-point weight formats (tensor-formats.txt Sections 3.3 and 3.4, the
// fp8_row_maxabs paragraph; storage-layouts.md Sections 4, 5, 6): nvfp4 in
// block_scale_k16_m128x4_v1, fp8_e4m3fn_row_bf16 in row_scale_v1 and fp8_e4m3fn_row_fp16 in
// row_interleaved_v1. Geometry, canonical packing, validating decode, the exact reconstruction
// (and its binary32 rounding) and the fp8_row_maxabs producer, all from the spec's words with
// exact integers and MPFR; never host float arithmetic.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

/// An exact rational (the nvfp4 weight divides by an arbitrary binary32 divisor).
using Rational = boost::multiprecision::mpq_rational;

// ---- nvfp4 in block_scale_k16_m128x4_v1 -------------------------------------------------------

/// E2M1 code words per K-axis group, rows per swizzle tile, groups per swizzle tile.
inline constexpr std::uint64_t kNvfp4Group = 16, kNvfp4TileRows = 128, kNvfp4TileGroups = 4;

/// The logical words of an nvfp4 tensor [N, K] (storage-layouts.md Section 8: codes, natural
/// scale matrix, divisors).
struct Nvfp4Matrix {
    std::uint64_t rows = 0, cols = 0;
    std::vector<std::uint8_t> codes;      ///< N*K E2M1 words (low 4 bits), row-major
    std::vector<std::uint8_t> scales;     ///< N*(K/16) E4M3FN words, natural row-major [N, K/16]
    std::vector<std::uint32_t> divisors;  ///< binary32 words, one per stacked source matrix
};

/// storage-layouts.md Section 4 geometry.
struct BlockScaleGeometry {
    std::uint64_t groups_per_row;         ///< K / 16
    std::uint64_t code_plane_bytes;       ///< N * K / 2
    std::uint64_t scale_plane_offset;     ///< align_up(code_plane_bytes, 256)
    std::uint64_t scale_plane_bytes;      ///< N * K / 16
    std::uint64_t divisor_offset;         ///< scale_plane_offset + scale_plane_bytes
    std::uint64_t payload_bytes;          ///< divisor_offset + 4 * divisors
    std::uint64_t rows_per_divisor;       ///< N / divisors
};

/// Why a shape has no block_scale_k16_m128x4_v1 geometry, or "" when it has one.
std::string block_scale_shape_error(std::uint64_t n, std::uint64_t k, std::uint64_t divisors);

/// Geometry of [N, K] with `divisors` source matrices; nullopt when block_scale_shape_error says why.
std::optional<BlockScaleGeometry> block_scale_geometry(std::uint64_t n, std::uint64_t k, std::uint64_t divisors);

/// Scale-plane offset of the natural scale word (n, g) of a tensor with K columns:
/// (floor(n/128) * (K/64) + floor(g/4)) * 512 + (n%128 % 32) * 16 + floor((n%128) / 32) * 4 + g % 4.
std::uint64_t block_scale_swizzle(std::uint64_t k, std::uint64_t n, std::uint64_t g);

/// The divisor index that owns row n: floor(n / (N / divisors)).
std::uint64_t nvfp4_divisor_of_row(const BlockScaleGeometry &g, std::uint64_t n);

/// The canonical payload of the logical words (shape checked by the caller through geometry;
/// throws std::invalid_argument on a shape or word-count mismatch).
std::vector<std::uint8_t> block_scale_encode(const Nvfp4Matrix &m);

/// A validating decode: status, the broken rule's detail and where, and the logical words.
struct ScaledDecoded {
    std::int32_t status = NINFER_OK;  ///< NINFER_OK, NINFER_E_SIZE or NINFER_E_INVALID_PAYLOAD
    std::uint32_t detail = 0;         ///< NINFER_DETAIL_* when refused
    std::string message;              ///< names the plane, row, group or byte offset
};
struct Nvfp4Decoded : ScaledDecoded {
    Nvfp4Matrix m;
};

/// Decode a payload: size exact, every scale valid under nvfp4_e4m3_scale, every divisor valid
/// under fp32_weight_divisor (all 16 E2M1 words are valid codes).
Nvfp4Decoded block_scale_decode(std::uint64_t n, std::uint64_t k, std::uint64_t divisors,
                                std::span<const std::uint8_t> payload);

/// A row slice or gather of an nvfp4 payload. The result must itself have a geometry (N' % 128
/// == 0). Suite reading for the divisors (the format fixes per-row ownership only): consecutive
/// selected rows of one source form a run; the runs must have equal lengths, and the result
/// holds one divisor per run, in selection order. Otherwise the selection is refused
/// (status NINFER_E_INVALID_ARGUMENT with the reason). Nothing is decoded; scales are re-swizzled.
struct Nvfp4Selected {
    std::int32_t status = NINFER_OK;
    std::string message;
    std::uint64_t divisors = 0;          ///< divisors of the result
    std::vector<std::uint8_t> payload;
};
Nvfp4Selected block_scale_select_rows(std::uint64_t n, std::uint64_t k, std::uint64_t divisors,
                                      std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows);

/// tensor-formats.txt 3.3: W[n,k] = decode_e2m1(c) * decode_e4m3fn(s) / d_w, exactly; and its
/// binary32 rounding (nearest-even, IEEE overflow). Words must be valid (scale and divisor).
Rational nvfp4_exact_weight(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor);
std::uint32_t nvfp4_weight_binary32(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor);

/// The exact value of a finite word as a rational (zero for both zeros); throws for Inf/NaN.
Rational exact_word_value(const WordFormat &f, std::uint64_t word);

/// Exact decimal-or-fraction text of a rational ("0.375", "1/3" style for non-dyadic values).
std::string rational_text(const Rational &q);

// ---- fp8_e4m3fn_row_bf16 (row_scale_v1) and fp8_e4m3fn_row_fp16 (row_interleaved_v1) ----------

/// The logical words of an FP8 row tensor [N, K].
struct Fp8RowMatrix {
    std::uint64_t rows = 0, cols = 0;
    std::vector<std::uint8_t> codes;    ///< N*K E4M3FN words, row-major
    std::vector<std::uint16_t> scales;  ///< N row multipliers (BF16 or binary16 words)
};

/// The row format's scale word format (bf16 or fp16) and its layout, from the registry name.
struct Fp8RowFormat {
    std::uint32_t format;        ///< NINFER_FORMAT_fp8_e4m3fn_row_bf16 / _fp16
    std::uint32_t scale_format;  ///< NINFER_FORMAT_bf16 / fp16
    std::uint32_t scale_role;    ///< NINFER_ROLE_bf16_row_multiplier / fp16_row_multiplier
    std::uint32_t layout;        ///< row_scale_v1 / row_interleaved_v1
};
/// The row format of a format id; nullopt for other formats.
std::optional<Fp8RowFormat> fp8_row_format(std::uint32_t format);

struct Fp8RowGeometry {
    std::uint64_t row_stride;          ///< row_interleaved_v1: K + 2; row_scale_v1: K (code rows)
    std::uint64_t scale_plane_offset;  ///< row_scale_v1: align_up(N*K, 256); row_interleaved_v1: 0 (interleaved)
    std::uint64_t payload_bytes;
};
/// Geometry of [N, K]; nullopt when N or K is 0 or a size overflows uint64.
std::optional<Fp8RowGeometry> fp8_row_geometry(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k);

/// Canonical payload of the logical words (zero gap in row_scale_v1). Throws on a word-count mismatch.
std::vector<std::uint8_t> fp8_row_encode(const Fp8RowFormat &f, const Fp8RowMatrix &m);

struct Fp8RowDecoded : ScaledDecoded {
    Fp8RowMatrix m;
};
/// Decode a payload: size exact, gap zero, codes not 0x7F/0xFF, multipliers valid under the
/// format's role, a +0 multiplier's row holding only 0x00/0x80 codes.
Fp8RowDecoded fp8_row_decode(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload);

/// A row slice or gather (storage-layouts.md Sections 5, 6): code rows concatenated, the
/// alignment recomputed, the chosen multipliers in the same order; nothing decoded. Throws
/// std::invalid_argument for a payload of the wrong size, no rows, or a row outside [0, N).
std::vector<std::uint8_t> fp8_row_select_rows(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k,
                                              std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows);

/// tensor-formats.txt 3.4: binary32(c32 * s32) (nearest-even; a product beyond binary32's range
/// is infinity). Words must be valid.
std::uint32_t fp8_row_weight_binary32(const Fp8RowFormat &f, std::uint8_t code, std::uint16_t scale);

/// The outcome of fp8_row_maxabs for one row.
struct Fp8RowEncoded {
    std::int32_t status = NINFER_OK;  ///< NINFER_OK, NINFER_E_NONFINITE or NINFER_E_SCALE_OVERFLOW
    std::string message;
    bool suite_reading = false;       ///< the result rests on a documented suite reading
    std::vector<std::uint8_t> codes;  ///< K E4M3FN words
    std::uint16_t scale = 0;          ///< the row multiplier word
    // The steps, for traces: the BF16 inputs' absolute maximum, binary32(amax / 448), the FP32
    // reciprocal of the stored scale.
    std::uint16_t amax_bf16 = 0;
    std::uint32_t scale32 = 0, reciprocal32 = 0;
};

/// fp8_row_maxabs of one row of source words of `source_format` (fp32, bf16 or fp16), in the
/// paragraph's order: BF16 inputs, binary32(max|row| / 448), rounding to the scale type (ties
/// to even) with the smallest-subnormal rescue, refusal of an overflowing scale, the FP32
/// reciprocal of the stored scale, the FP32 product, the clamp to [-448, 448], E4M3FN
/// nearest-even; an all-zero row gives positive-zero codes and scale.
Fp8RowEncoded fp8_row_maxabs(const Fp8RowFormat &f, std::uint32_t source_format, std::span<const std::uint64_t> row);

// ---- The lesson's FP4 recipes (number-formats-lesson.txt Examples 14, 15; informative) ---------

/// MXFP4 block (OCP MX; lesson Example 14): 32 E2M1 codes and one E8M0 scale byte.
inline constexpr std::size_t kMxfp4Block = 32;
struct Mxfp4Block {
    std::int32_t status = NINFER_OK;  ///< NINFER_E_NONFINITE, NINFER_E_SCALE_OVERFLOW (exponent outside E8M0)
    std::string message;
    std::uint8_t scale = 0;           ///< E8M0 byte: floor(log2(amax)) - 2 + 127 (0 for an all-zero block)
    std::vector<std::uint8_t> codes;  ///< E2M1 words
};
/// Encode one block of binary32 words: the scale exponent floor(log2(amax)) - 2, then each value
/// takes the nearest of the 16 E2M1 values times the scale, the first code in word order
/// (0x0..0xF) winning a tie, exactly as the lesson's program and ggml's reference order them.
Mxfp4Block mxfp4_encode_block(std::span<const std::uint32_t> x);
/// The exact value of an MXFP4 element: decode_e2m1(code) * 2^(scale - 127) (scale 0xFF: NaN, refused).
Rational mxfp4_exact_value(std::uint8_t code, std::uint8_t scale);

/// NVIDIA's two-level NVFP4 recipe (lesson Example 15), as a named encoder profile.
struct Nvfp4Recipe {
    std::int32_t status = NINFER_OK;  ///< NINFER_E_NONFINITE for a non-finite input
    std::string message;
    std::uint32_t tensor_scale = 0;   ///< binary32(tensorAmax / (448 * 6))
    std::uint32_t divisor = 0;        ///< binary32(448 * 6 / tensorAmax): the nvfp4 d_w (suite reading)
    Nvfp4Matrix m;                    ///< codes, natural scales, the one divisor: a valid nvfp4 tensor
    std::vector<std::uint32_t> block_scale;  ///< per group: binary32(e4m3(code) * tensor_scale)
};
/// Encode [N, K] binary32 words (K % 16 == 0): per 16-value block, the E4M3 code nearest (ties
/// to even, saturating at 448) to binary32(binary32(amax / 6) / tensor_scale); the block scale
/// binary32(e4m3 * tensor_scale); each element the E2M1 value nearest to binary32(x / block
/// scale), the first in the lesson's table order winning a tie (so ties go toward zero). A
/// block whose scale code is 0 stores +0 codes. Every operation is a binary32 operation of the
/// lesson's program, each rounded once by the oracle's exact rounding.
Nvfp4Recipe nvfp4_two_level_encode(std::uint64_t n, std::uint64_t k, std::span<const std::uint32_t> x);

}  // namespace ninfer::oracle
