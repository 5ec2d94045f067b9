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

#include "ninfer/oracle/scaled.hpp"

namespace ninfer::oracle {

/// One ggml block type: its gguf_* name, ggml type id, values and bytes per block, and whether
/// the .ninfer registry holds it (tensor-formats.txt's table) or only the GGUF suites.
struct GgufType {
    std::string_view name;
    std::uint32_t ggml_type;
    std::uint32_t block_values, block_bytes;
    bool in_ninfer_registry;
};

/// Every block type ggml dequantizes (ggml.h GGML_TYPE_*, snapshot of the tables' JSON), the 18
/// of tensor-formats.txt first, in its order. (Moves into abi/registry.h with the GGUF family.)
inline constexpr std::array kGgufTypes = {
    GgufType{"gguf_q8_0", 8, 32, 34, true},       GgufType{"gguf_q4_0", 2, 32, 18, true},
    GgufType{"gguf_q5_0", 6, 32, 22, true},       GgufType{"gguf_q2_0", 42, 64, 18, true},
    GgufType{"gguf_q2_k", 10, 256, 84, true},     GgufType{"gguf_q3_k", 11, 256, 110, true},
    GgufType{"gguf_q4_k", 12, 256, 144, true},    GgufType{"gguf_q5_k", 13, 256, 176, true},
    GgufType{"gguf_q6_k", 14, 256, 210, true},    GgufType{"gguf_iq2_xxs", 16, 256, 66, true},
    GgufType{"gguf_iq2_xs", 17, 256, 74, true},   GgufType{"gguf_iq3_xxs", 18, 256, 98, true},
    GgufType{"gguf_iq1_s", 19, 256, 50, true},    GgufType{"gguf_iq4_nl", 20, 32, 18, true},
    GgufType{"gguf_iq3_s", 21, 256, 110, true},   GgufType{"gguf_iq2_s", 22, 256, 82, true},
    GgufType{"gguf_iq4_xs", 23, 256, 136, true},  GgufType{"gguf_iq1_m", 29, 256, 56, true},
    // Outside the .ninfer registry: accepted by the GGUF suites only.
    GgufType{"gguf_q4_1", 3, 32, 20, false},      GgufType{"gguf_q5_1", 7, 32, 24, false},
    GgufType{"gguf_q8_1", 9, 32, 36, false},      GgufType{"gguf_q8_k", 15, 256, 292, false},
    GgufType{"gguf_tq1_0", 34, 256, 54, false},   GgufType{"gguf_tq2_0", 35, 256, 66, false},
    GgufType{"gguf_mxfp4", 39, 32, 17, false},    GgufType{"gguf_nvfp4", 40, 64, 36, false},
    GgufType{"gguf_q1_0", 41, 128, 18, false},
};

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
                                      ///< NINFER_E_UNSUPPORTED (no reference quantizer for the type)
    std::string message;
    std::vector<std::uint8_t> block;  ///< the block's bytes, as ggml writes them
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
