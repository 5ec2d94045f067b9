// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 (storage-layouts.md Section 3): geometry, canonical encode, validating
// decode, byte location, row views / standalone slices / gathers.
#pragma once

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
/// Where a payload byte sits: plane ("base","gap","high","scale"), row, group, first lane.
struct RowSplitLocation { std::string plane; std::uint64_t row = 0, group = 0, lane = 0; };
RowSplitLocation row_split_locate(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t byte_offset);
/// Row view / standalone slice / gather: concatenate the selected rows plane by plane, recompute offsets and zero padding (no decode).
std::vector<std::uint8_t> row_split_select_rows(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows);

}  // namespace ninfer::oracle
