// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 bytes (storage-layouts.md Section 3): the geometry (plane sizes and offsets),
// where a payload byte sits, the stored word of one lane under the registry's packing, and the
// payload corruptions that case generators and mutants build. The one copy of the layout's byte
// arithmetic outside the reference plugin: compare.cpp, the generators and the mutants call it.
// Depends on the registry only (no MPFR), so that a mutant links this file and nothing else.
#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/row_split.hpp"

namespace ninfer::oracle {

namespace {

bool align_up(std::uint64_t x, std::uint64_t a, std::uint64_t &out) {
    std::uint64_t t = 0;
    if (__builtin_add_overflow(x, a - 1, &t)) return false;
    out = t / a * a;
    return true;
}

/// Rows of a geometry (every plane holds the same number of rows; a scale row is never empty).
std::uint64_t rows_of(const RowSplitGeometry &g) { return g.scale_bytes / g.scale_row_bytes; }

/// The payload must hold the geometry and (row, group, lane) must name a lane of it.
void check_lane(const char *what, const GroupedFormat &f, const RowSplitGeometry &g, std::size_t payload_size,
                std::uint64_t row, std::uint64_t group, std::uint64_t lane) {
    if (payload_size < g.payload_bytes)
        throw std::out_of_range(std::string(what) + ": payload of " + std::to_string(payload_size) + " bytes, the geometry needs " +
                                std::to_string(g.payload_bytes));
    if (row >= rows_of(g) || group >= g.groups_per_row || lane >= static_cast<std::uint64_t>(f.group))
        throw std::out_of_range(std::string(what) + ": row " + std::to_string(row) + " group " + std::to_string(group) +
                                " lane " + std::to_string(lane) + " is outside [" + std::to_string(rows_of(g)) + " rows, " +
                                std::to_string(g.groups_per_row) + " groups, " + std::to_string(f.group) + " lanes]");
}

/// The base-plane bits of a lane: byte offset, shift and width (the registry's packing).
struct BaseBits {
    std::uint64_t byte;
    int shift, width;
};
BaseBits base_bits(const GroupedFormat &f, const RowSplitGeometry &g, std::uint64_t row, std::uint64_t group,
                   std::uint64_t lane) {
    const std::uint64_t at = g.base_offset + row * g.base_row_bytes + group * static_cast<std::uint64_t>(f.base_bytes);
    switch (f.packing) {
    case Packing::BYTE: return {at + lane, 0, 8};
    // Suite reading: lane i in bits 2*(i%4)..2*(i%4)+1 of byte i/4.
    case Packing::TWO_BIT_LSB: return {at + lane / 4, static_cast<int>(2 * (lane % 4)), 2};
    // Lane pair (2j, 2j+1) shares byte j, even lane in the low nibble.
    case Packing::NIBBLE_HIGH: break;
    }
    return {at + lane / 2, static_cast<int>(4 * (lane % 2)), 4};
}

/// Byte offset of the high-stream byte holding stream bit t of a physical group.
std::uint64_t high_byte(const GroupedFormat &f, const RowSplitGeometry &g, std::uint64_t row, std::uint64_t group,
                        std::uint64_t t) {
    return g.high_offset + row * g.high_row_bytes + group * static_cast<std::uint64_t>(f.high_bytes) + t / 8;
}

}  // namespace

std::optional<RowSplitGeometry> row_split_geometry(const GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    if (n == 0 || k == 0) return std::nullopt;
    RowSplitGeometry g{};
    if (!align_up(k, 128, g.k_pad)) return std::nullopt;
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    g.groups_per_row = g.k_pad / G;
    g.logical_groups = k / G + (k % G != 0 ? 1 : 0);
    const std::uint64_t B = static_cast<std::uint64_t>(f.base_bytes), H = static_cast<std::uint64_t>(f.high_bytes);
    if (__builtin_mul_overflow(g.groups_per_row, B, &g.base_row_bytes) ||
        __builtin_mul_overflow(g.groups_per_row, H, &g.high_row_bytes) ||
        __builtin_mul_overflow(g.groups_per_row, std::uint64_t{2}, &g.scale_row_bytes) ||
        __builtin_mul_overflow(n, g.base_row_bytes, &g.base_bytes) ||
        __builtin_mul_overflow(n, g.high_row_bytes, &g.high_bytes) ||
        __builtin_mul_overflow(n, g.scale_row_bytes, &g.scale_bytes))
        return std::nullopt;
    g.base_offset = 0;
    std::uint64_t high_span = 0;
    if (!align_up(g.base_bytes, 256, g.high_offset) || !align_up(g.high_bytes, 256, high_span) ||
        __builtin_add_overflow(g.high_offset, high_span, &g.scale_offset) ||
        __builtin_add_overflow(g.scale_offset, g.scale_bytes, &g.payload_bytes))
        return std::nullopt;
    return g;
}

RowSplitLocation row_split_locate(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t byte_offset) {
    RowSplitLocation loc;
    const auto g = row_split_geometry(f, n, k);
    if (!g || byte_offset >= g->payload_bytes) {
        loc.plane = "outside";
        return loc;
    }
    auto place = [&](const char *plane, std::uint64_t rel, std::uint64_t row_bytes, std::uint64_t group_bytes,
                     std::uint64_t lanes_per_byte) {
        loc.plane = plane;
        loc.row = rel / row_bytes;
        loc.group = (rel % row_bytes) / group_bytes;
        loc.lane = (rel % group_bytes) * lanes_per_byte;
    };
    const std::uint64_t lanes_per_base_byte =
        f.packing == Packing::BYTE ? 1 : f.packing == Packing::TWO_BIT_LSB ? 4 : 2;
    if (byte_offset < g->base_bytes) {
        place("base", byte_offset, g->base_row_bytes, f.base_bytes, lanes_per_base_byte);
    } else if (byte_offset >= g->high_offset && byte_offset < g->high_offset + g->high_bytes) {
        place("high", byte_offset - g->high_offset, g->high_row_bytes, f.high_bytes,
              static_cast<std::uint64_t>(8 / f.high_bits()));
    } else if (byte_offset >= g->scale_offset) {
        place("scale", byte_offset - g->scale_offset, g->scale_row_bytes, 2, 0);
    } else {
        loc.plane = "gap";
    }
    return loc;
}

std::array<RowSplitGap, 2> row_split_gaps(const RowSplitGeometry &g) {
    return {RowSplitGap{g.base_offset + g.base_bytes, g.high_offset},
            RowSplitGap{g.high_offset + g.high_bytes, g.scale_offset}};
}

std::uint32_t row_split_lane_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<const std::uint8_t> payload,
                                  std::uint64_t row, std::uint64_t group, std::uint64_t lane) {
    check_lane("row_split_lane_word", f, g, payload.size(), row, group, lane);
    const BaseBits b = base_bits(f, g, row, group, lane);
    std::uint32_t u = (payload[b.byte] >> b.shift) & ((1u << b.width) - 1);
    // High stream, lane-major, bit 4 first then bit 5; stream bit t is bit t%8 of byte t/8.
    const auto hb = static_cast<std::uint64_t>(f.high_bits());
    for (std::uint64_t j = 0; j < hb; ++j) {
        const std::uint64_t t = lane * hb + j;
        u |= static_cast<std::uint32_t>((payload[high_byte(f, g, row, group, t)] >> (t % 8)) & 1u) << (4 + j);
    }
    return u;
}

void row_split_put_lane_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<std::uint8_t> payload,
                             std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word) {
    check_lane("row_split_put_lane_word", f, g, payload.size(), row, group, lane);
    const BaseBits b = base_bits(f, g, row, group, lane);
    const auto mask = static_cast<std::uint8_t>(((1u << b.width) - 1) << b.shift);
    payload[b.byte] = static_cast<std::uint8_t>((payload[b.byte] & ~mask) | ((word << b.shift) & mask));
    const auto hb = static_cast<std::uint64_t>(f.high_bits());
    for (std::uint64_t j = 0; j < hb; ++j) {
        const std::uint64_t t = lane * hb + j;
        std::uint8_t &byte = payload[high_byte(f, g, row, group, t)];
        byte = static_cast<std::uint8_t>((byte & ~(1u << (t % 8))) | (((word >> (4 + j)) & 1u) << (t % 8)));
    }
}

std::uint64_t row_split_scale_at(const RowSplitGeometry &g, std::uint64_t row, std::uint64_t group) {
    return g.scale_offset + row * g.scale_row_bytes + 2 * group;
}

std::uint16_t row_split_scale_word(const RowSplitGeometry &g, std::span<const std::uint8_t> payload, std::uint64_t row,
                                   std::uint64_t group) {
    const std::uint64_t at = row_split_scale_at(g, row, group);
    if (row >= rows_of(g) || group >= g.groups_per_row || at + 2 > payload.size())
        throw std::out_of_range("row_split_scale_word: row " + std::to_string(row) + " group " + std::to_string(group) +
                                " is outside the payload");
    return abi::load_le16(&payload[at]);
}

void row_split_put_scale_word(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t row,
                              std::uint64_t group, std::uint16_t word) {
    const std::uint64_t at = row_split_scale_at(g, row, group);
    if (row >= rows_of(g) || group >= g.groups_per_row || at + 2 > payload.size())
        throw std::out_of_range("row_split_put_scale_word: row " + std::to_string(row) + " group " + std::to_string(group) +
                                " is outside the payload");
    abi::store_le16(&payload[at], word);
}

void corrupt_code_word(const GroupedFormat &f, const RowSplitGeometry &g, std::span<std::uint8_t> payload,
                       std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word) {
    row_split_put_lane_word(f, g, payload, row, group, lane, word);
}

void corrupt_scale_word(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t row,
                        std::uint64_t group, std::uint16_t word) {
    row_split_put_scale_word(g, payload, row, group, word);
}

void corrupt_padding_lane(const GroupedFormat &f, const RowSplitGeometry &g, std::uint64_t k, std::span<std::uint8_t> payload,
                          std::uint64_t row, std::uint64_t group, std::uint64_t lane, std::uint32_t word) {
    const std::uint64_t col = group * static_cast<std::uint64_t>(f.group) + lane;
    if (group < g.logical_groups && col < k)
        throw std::invalid_argument("corrupt_padding_lane: row " + std::to_string(row) + " group " + std::to_string(group) +
                                    " lane " + std::to_string(lane) + " is column " + std::to_string(col) + " < K = " +
                                    std::to_string(k) + ", not a padding lane");
    row_split_put_lane_word(f, g, payload, row, group, lane, word);
}

void corrupt_gap_byte(const RowSplitGeometry &g, std::span<std::uint8_t> payload, std::uint64_t offset, std::uint8_t value) {
    for (const auto &gap : row_split_gaps(g))
        if (offset >= gap.begin && offset < gap.end) {
            if (offset >= payload.size())
                throw std::out_of_range("corrupt_gap_byte: offset " + std::to_string(offset) + " is outside the payload of " +
                                        std::to_string(payload.size()) + " bytes");
            payload[offset] = value;
            return;
        }
    throw std::invalid_argument("corrupt_gap_byte: offset " + std::to_string(offset) + " lies in no gap between planes");
}

}  // namespace ninfer::oracle
