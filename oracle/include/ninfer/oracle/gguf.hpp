// SPDX-License-Identifier: Apache-2.0
// The GGUF block formats (tensor-formats.txt, the gguf_* table and the paragraph "A gguf_* weight
// is a row-major [N,K] matrix ..."; storage-layouts.md Section 7): what ggml's dequantize_row_*
// computes for one block, reproduced with every binary32 operation in ggml's evaluation order
// rounded once by the exact oracle (nearest-even, IEEE specials; no contraction into FMA), and
// the exact real value of the block's formula. ggml's grids, sign tables and code books come
// from ../shared/data/ggml-tables.json (cmake/ggml_tables.cmake).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace ninfer::oracle {

/// The GGUF block types are the registry's (abi/registry.h NINFER_GGUF_TYPES).
using abi::GgufType;
using abi::kGgufTypes;

/// The type of a gguf_* name, or nullptr.
const GgufType *find_gguf_type(std::string_view name);

/// One block's elements: ggml's binary32 words, and the exact real value of the formula
/// (nullopt where an infinite or NaN scale makes the element non-finite).
struct GgufBlock {
    std::vector<std::uint32_t> ggml;
    std::vector<std::optional<Rational>> exact;
};

/// Dequantize one block (`block.size()` must equal the type's block bytes; throws otherwise).
GgufBlock gguf_dequantize_block(const GgufType &t, std::span<const std::uint8_t> block);

/// ggml_blocks_v1 (storage-layouts.md Section 7): shape [..., K], rows in C order of the leading
/// coordinates, each row K / block_values blocks.
struct GgmlBlocksGeometry {
    std::uint64_t rows, blocks_per_row, row_bytes, payload_bytes;
};
/// Why a shape has no ggml_blocks_v1 geometry for the type (rank outside 1..16, a zero
/// dimension, K not divisible by the block values, a size overflowing uint64), or "".
std::string ggml_blocks_shape_error(const GgufType &t, std::span<const std::uint64_t> shape);
std::optional<GgmlBlocksGeometry> ggml_blocks_geometry(const GgufType &t, std::span<const std::uint64_t> shape);
/// A row slice or gather: whole rows copied as byte ranges, nothing decoded. Throws
/// std::invalid_argument for a payload of the wrong size, no rows, or a row out of range.
std::vector<std::uint8_t> ggml_blocks_select_rows(const GgufType &t, std::span<const std::uint64_t> shape,
                                                  std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows);

/// A block produced by one of ggml's reference quantizers.
struct GgufQuantized {
    std::int32_t status = NINFER_OK;  ///< NINFER_E_NONFINITE (the suite's domain: finite inputs),
                                      ///< NINFER_E_UNSUPPORTED (no reference quantizer for the type),
                                      ///< NINFER_E_METHOD (iq4_nl below GROUP_MAX_EPS: ggml's bytes undefined)
    std::string message;
    std::vector<std::uint8_t> block;  ///< the block's bytes, as ggml writes them
    /// NINFER_E_METHOD where ggml writes a block part of which is undefined: the block's bytes
    /// (`partial`) and which bits of them ggml defines (`partial_mask`, 1 bits). iq4_nl below
    /// GROUP_MAX_EPS: d a zero of either sign (every value decodes to a zero), every code free.
    std::vector<std::uint8_t> partial, partial_mask;
};

/// Whether the oracle reproduces ggml's quantize_row_<type>_ref for the type.
bool gguf_has_reference_quantizer(const GgufType &t);

/// ggml's reference quantizer for one block of binary32 words (`x.size()` = block values):
/// quantize_row_q8_0_ref, q4_0, q4_1, q5_0, q5_1, q8_1 (with its sum), q8_K (with its bsums),
/// every binary32 operation in ggml's order rounded once by the exact oracle, roundf as ties
/// away from zero, nearest_int through ggml's 12582912.f addition, float-to-integer
/// conversions truncating. oracle/GGUF.md lists the suite's readings at the edges.
GgufQuantized gguf_quantize_block_ref(const GgufType &t, std::span<const std::uint32_t> x);

}  // namespace ninfer::oracle
