// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 (storage-layouts.md Section 3): geometry, canonical encode, validating
// decode, byte location, row views / standalone slices / gathers; the stored word of a lane and
// the payload corruptions (the one copy of the layout's byte arithmetic outside the reference plugin).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/grouped.hpp"

namespace ninfer::oracle {

struct RowSplitGeometry {
    std::uint64_t k_pad, groups_per_row, logical_groups;
    std::uint64_t base_bytes, high_bytes, scale_bytes;
    std::uint64_t base_offset /*0*/, high_offset, scale_offset, payload_bytes;
    std::uint64_t base_row_bytes, high_row_bytes, scale_row_bytes;
};
/// storage-layouts.md Section 3 geometry; nullopt when any size overflows uint64 or N/K == 0.
std::optional<RowSplitGeometry> row_split_geometry(const GroupedFormat &f, std::uint64_t n, std::uint64_t k);
/// Canonical payload of a logical matrix (padding lanes 0, padding groups scale 0 and codes 0, gaps 0).
std::vector<std::uint8_t> row_split_encode(const GroupedFormat &f, const GroupedMatrix &m);
struct RowSplitDecoded {
    std::int32_t status = NINFER_OK;   ///< NINFER_OK or NINFER_E_INVALID_PAYLOAD / NINFER_E_SIZE
    std::uint32_t detail = 0;          ///< NINFER_DETAIL_* when refused
    std::string message;               ///< names plane, row, group, lane / byte offset
    GroupedMatrix m;
};
/// Decode and validate a payload (codes legal, scales valid, zero-scale groups all-zero codes
/// (not for Q2), padding lanes/groups/scales zero, gaps zero, size exact).
RowSplitDecoded row_split_decode(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload);
/// Where a payload byte sits: plane ("base","gap","high","scale", or "outside" past the payload or
/// without a geometry), row, group, first lane.
struct RowSplitLocation { std::string plane; std::uint64_t row = 0, group = 0, lane = 0; };
RowSplitLocation row_split_locate(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t byte_offset);

// ---- Payload bytes (src/row_split_bytes.cpp; registry only, no MPFR) ---------------------------
// Positions are (row, physical group of the row, lane of the group); the packing is the registry's
// `packing` column. Each function throws std::out_of_range when the payload is shorter than the
// geometry or the position lies outside it.

/// A gap between two planes: bytes [begin, end), empty when begin == end.
struct RowSplitGap { std::uint64_t begin = 0, end = 0; };
/// The two gaps: after the base plane (up to high_offset) and after the high plane (up to scale_offset).
std::array<RowSplitGap, 2> row_split_gaps(const RowSplitGeometry &g);
/// The stored word of a lane: its base-plane bits and, for NIBBLE_HIGH, its high-stream bits.
std::uint32_t row_split_lane_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<const std::uint8_t> payload,
                                  std::uint64_t row, std::uint64_t group, std::uint64_t lane);
/// Write the low code_bits of `word` as the stored word of a lane (other lanes' bits untouched).
void row_split_put_lane_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<std::uint8_t> payload,
                             std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word);
/// Byte offset of the scale word of (row, physical group).
std::uint64_t row_split_scale_at(const RowSplitGeometry &g, std::uint64_t row, std::uint64_t group);
/// The binary16 scale word of (row, physical group), little-endian.
std::uint16_t row_split_scale_word(const RowSplitGeometry &g, std::span<const std::uint8_t> payload, std::uint64_t row,
                                   std::uint64_t group);
void row_split_put_scale_word(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t row,
                              std::uint64_t group, std::uint16_t word);

// ---- Payload corruptions (case generators, mutants): one broken field at a located position ----
/// Set the stored word of a lane (any word of the width: an illegal word, a code under a +0 scale, ...).
void corrupt_code_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<std::uint8_t> payload,
                       std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word);
/// Set the scale word of (row, physical group), a padding group's included.
void corrupt_scale_word(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t row,
                        std::uint64_t group, std::uint16_t word);
/// Set the stored word of a padding lane (column >= K, or a lane of a padding group); throws
/// std::invalid_argument when the lane holds a column < K.
void corrupt_padding_lane(const GroupedFormat &f, const RowSplitGeometry &g, std::uint64_t k, std::span<std::uint8_t> payload,
                          std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word);
/// Set a byte of a gap between planes; throws std::invalid_argument when `offset` lies in no gap.
void corrupt_gap_byte(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t offset, std::uint8_t value);
/// Row view / standalone slice / gather: concatenate the selected rows plane by plane, recompute offsets and zero padding (no decode).
std::vector<std::uint8_t> row_split_select_rows(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows);

}  // namespace ninfer::oracle
