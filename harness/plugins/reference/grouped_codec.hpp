// SPDX-License-Identifier: Apache-2.0
// The reference's fast codecs of the grouped signed-integer formats (tensor-formats.txt Sections 3.2,
// 4-7) and of the row_split_k128_v1 layout (storage-layouts.md Section 3). Host binary32
// arithmetic and bit manipulation, written from the spec independently of the oracle; every
// result is cross-checked against it (tests/test_grouped_codec.cpp).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"

namespace ninfer::reference::grouped_codec {

// The grouped codecs compute in host binary32 (float) and read floats bit for bit (std::bit_cast).
static_assert(std::numeric_limits<float>::is_iec559, "the reference's grouped codecs need IEEE 754 binary32 floats");

using ninfer::abi::GroupedFormat;

/// The registered grouped format of an id, or nullptr.
const GroupedFormat *find_grouped(std::uint32_t format_id);

/// storage-layouts.md Section 3 sizes and offsets of an [N,K] payload.
struct Geometry {
    std::uint64_t k_pad = 0, groups_per_row = 0, logical_groups = 0;
    std::uint64_t base_row = 0, high_row = 0, scale_row = 0;  ///< bytes of one row in each plane
    std::uint64_t base_bytes = 0, high_bytes = 0, scale_bytes = 0;
    std::uint64_t high_offset = 0, scale_offset = 0, payload_bytes = 0;
};
/// Geometry of [n,k]; nullopt when n or k is 0 or a size overflows uint64.
std::optional<Geometry> geometry(const GroupedFormat &f, std::uint64_t n, std::uint64_t k);

/// Signed code of a stored word; nullopt for a word outside the artifact language (Section 5).
std::optional<int> code_value(const GroupedFormat &f, std::uint32_t word);
/// Stored word of a legal signed code (the caller guarantees qmin <= q <= qmax).
std::uint32_t code_word(const GroupedFormat &f, int q);
/// Section 6 scale validity (Q2: every finite word).
bool scale_valid(const GroupedFormat &f, std::uint16_t scale);

/// binary16 word to binary32 word, exact.
std::uint32_t f16_to_f32(std::uint16_t h);
/// binary32 word to binary16 word, round to nearest ties to even, overflow to infinity.
std::uint16_t f32_to_f16_rne(std::uint32_t x);
/// Section 6.2: the binary32 word of binary32(s32 * binary32(q)).
std::uint32_t reconstruct(std::uint16_t scale, int q);

/// Section 7.2 step 4 under a given scale word: inv32 = round_f32(1 / s32), round_f32(x * inv32),
/// integral rounding ties to even, clamp to [qmin, qmax] after rounding (all zero for a zero scale).
void codes_for_scale(const GroupedFormat &f, const float *x, std::size_t count, std::uint16_t scale16, std::int8_t *codes);

/// A logical grouped matrix: codes N*K row-major, scales N*ceil(K/G) row-major.
struct Matrix {
    std::uint64_t rows = 0, cols = 0;
    std::vector<std::int8_t> codes;
    std::vector<std::uint16_t> scales;
};

/// The canonical payload of a logical matrix (zero padding and gaps). Codes must be legal.
std::vector<std::uint8_t> encode_payload(const GroupedFormat &f, const Matrix &m);

/// The outcome of decoding, validating, encoding or selecting.
struct Outcome {
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = NINFER_DETAIL_NONE;
    std::string message;
};

/// Decode and validate a payload of [n,k] into `m` (codes, scales); refusals name the plane,
/// row, group and lane.
Outcome decode_payload(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                       Matrix &m);

/// A standalone payload of the selected rows (slice or gather), copied plane by plane.
Outcome select_rows(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                    std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out);

/// Source words (fp32, bf16 or fp16, little-endian) to binary32 words; NINFER_E_NONFINITE on
/// a non-finite value, NINFER_E_INVALID_ARGUMENT for another source format.
Outcome source_to_f32(std::uint32_t source_format, std::span<const std::uint8_t> words, std::uint64_t count,
                      std::vector<float> &out);

/// Section 7.2 grouped_absmax of a [n,k] binary32 matrix.
Outcome absmax(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const float> x, Matrix &m);

/// grouped_search of a [n,k] binary32 matrix (importance: empty or k weights).
Outcome search(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const float> x,
               std::span<const float> importance, bool negative_scales, Matrix &m);

}  // namespace ninfer::reference::grouped_codec
