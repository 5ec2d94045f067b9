// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 (storage-layouts.md Section 3): canonical zero padding, validating decode,
// row views / standalone slices / gathers. The geometry, byte location and plane packing (nibble
// order, high-bit stream, the 2-bit suite reading) are in row_split_bytes.cpp. Exact unsigned
// 64-bit sizes, overflow refused.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "ninfer/oracle/row_split.hpp"

namespace ninfer::oracle {

std::vector<std::uint8_t> row_split_encode(const GroupedFormat &f, const GroupedMatrix &m) {
    const auto g = row_split_geometry(f, m.rows, m.cols);
    if (!g) throw std::invalid_argument("row_split_encode: shape [" + std::to_string(m.rows) + "," +
                                        std::to_string(m.cols) + "] has no row_split_k128_v1 geometry");
    if (m.codes.size() != m.rows * m.cols || m.scales.size() != m.rows * g->logical_groups)
        throw std::invalid_argument("row_split_encode: codes/scales do not match shape [" + std::to_string(m.rows) +
                                    "," + std::to_string(m.cols) + "]");
    std::vector<std::uint8_t> out(g->payload_bytes, 0);
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    for (std::uint64_t r = 0; r < m.rows; ++r)
        for (std::uint64_t grp = 0; grp < g->groups_per_row; ++grp) {
            // Padding lanes and whole padding groups hold code 0 (GROUPED.md R1 for q2).
            for (std::uint64_t i = 0; i < G; ++i) {
                const std::uint64_t col = grp * G + i;
                row_split_put_lane_word(f, *g, out, r, grp, i, grouped_code_word(f, col < m.cols ? m.codes[r * m.cols + col] : 0));
            }
            row_split_put_scale_word(*g, out, r, grp, grp < g->logical_groups ? m.scales[r * g->logical_groups + grp] : 0);
        }
    return out;
}

RowSplitDecoded row_split_decode(const GroupedFormat &f, std::uint64_t n, std::uint64_t k,
                                 std::span<const std::uint8_t> payload) {
    RowSplitDecoded d;
    const std::string where = std::string(f.name) + " row_split_k128_v1 [" + std::to_string(n) + "," + std::to_string(k) + "]";
    auto refuse = [&](std::int32_t status, std::uint32_t detail, std::string msg) {
        d.status = status;
        d.detail = detail;
        d.message = where + ": " + msg;
        d.m = GroupedMatrix{};
        return d;
    };
    // R2 step 1: geometry and exact size.
    const auto g = row_split_geometry(f, n, k);
    if (!g) return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, "no geometry (zero extent or a size overflows uint64)");
    if (payload.size() != g->payload_bytes)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                      "payload holds " + std::to_string(payload.size()) + " bytes, the geometry needs " +
                          std::to_string(g->payload_bytes) + " (storage-layouts Section 3)");
    // R2 step 2: the gaps between planes are zero.
    for (std::uint64_t o = g->base_bytes; o < g->high_offset; ++o)
        if (payload[o] != 0)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP,
                          "gap byte at offset " + std::to_string(o) + " (between base and high planes) is " +
                              std::to_string(payload[o]) + ", expected 0");
    for (std::uint64_t o = g->high_offset + g->high_bytes; o < g->scale_offset; ++o)
        if (payload[o] != 0)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP,
                          "gap byte at offset " + std::to_string(o) + " (between high and scale planes) is " +
                              std::to_string(payload[o]) + ", expected 0");
    // R2 step 3: physical groups in (row, group) order.
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    const std::uint32_t zero_word = grouped_code_word(f, 0);
    // Q2's scale role accepts every finite word and exempts +0 scales from the zero-scale rule.
    const bool is_q2 = f.scale_role == NINFER_ROLE_q2_fp16_scale;
    d.m.rows = n;
    d.m.cols = k;
    d.m.codes.assign(n * k, 0);
    d.m.scales.assign(n * g->logical_groups, 0);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t grp = 0; grp < g->groups_per_row; ++grp) {
            const std::uint64_t soff = row_split_scale_at(*g, r, grp);
            const std::uint16_t scale = row_split_scale_word(*g, payload, r, grp);
            auto lane_word = [&](std::uint64_t i) { return row_split_lane_word(f, *g, payload, r, grp, i); };
            const std::string at = "row " + std::to_string(r) + " group " + std::to_string(grp);
            if (grp >= g->logical_groups) {
                if (scale != 0)
                    return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING,
                                  "scale plane, " + at + " (padding group), offset " + std::to_string(soff) +
                                      ": scale " + fmt::format("{:#06x}", scale) + ", expected 0x0000");
                for (std::uint64_t i = 0; i < G; ++i)
                    if (lane_word(i) != zero_word)
                        return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING,
                                      "code planes, " + at + " (padding group) lane " + std::to_string(i) +
                                          ": stored word " + std::to_string(lane_word(i)) +
                                          ", expected the word of code 0 (" + std::to_string(zero_word) + ")");
                continue;
            }
            if (grouped_scale_verdict(f, scale) != NINFER_VERDICT_VALID)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                              "scale plane, " + at + ", offset " + std::to_string(soff) + ": scale " + fmt::format("{:#06x}", scale) +
                                  " is not a valid " + (is_q2 ? "q2 scale (finite)" : "grouped scale (+0 or finite nonzero)") +
                                  " (tensor-formats Section 6)");
            bool nonzero_code = false;
            std::uint64_t first_nonzero = 0;
            for (std::uint64_t i = 0; i < G; ++i) {
                const std::uint64_t col = grp * G + i;
                const std::uint32_t u = lane_word(i);
                if (col >= k) {
                    if (u != zero_word)
                        return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING,
                                      "code planes, " + at + " lane " + std::to_string(i) + " (column " +
                                          std::to_string(col) + " >= K): stored word " + std::to_string(u) +
                                          ", expected the word of code 0 (" + std::to_string(zero_word) + ")");
                    continue;
                }
                const auto q = grouped_code_value(f, u);
                if (!q)
                    return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE,
                                  "code planes, " + at + " lane " + std::to_string(i) + " (column " + std::to_string(col) +
                                      "): stored word " + std::to_string(u) + " is outside the artifact language "
                                      "(tensor-formats Section 5)");
                if (*q != 0 && !nonzero_code) {
                    nonzero_code = true;
                    first_nonzero = i;
                }
                d.m.codes[r * k + col] = static_cast<std::int8_t>(*q);
            }
            if (scale == 0 && !is_q2 && nonzero_code)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES,
                              "code planes, " + at + " lane " + std::to_string(first_nonzero) +
                                  ": nonzero code in a group whose scale is +0 (tensor-formats Section 6)");
            d.m.scales[r * g->logical_groups + grp] = scale;
        }
    return d;
}

std::vector<std::uint8_t> row_split_select_rows(const GroupedFormat &f, std::uint64_t n, std::uint64_t k,
                                                std::span<const std::uint8_t> payload,
                                                std::span<const std::uint64_t> rows) {
    const auto g = row_split_geometry(f, n, k);
    if (!g || payload.size() != g->payload_bytes)
        throw std::invalid_argument("row_split_select_rows: payload of " + std::to_string(payload.size()) +
                                    " bytes does not match [" + std::to_string(n) + "," + std::to_string(k) + "]");
    const auto out_g = row_split_geometry(f, rows.size(), k);
    if (!out_g) throw std::invalid_argument("row_split_select_rows: no rows selected");
    std::vector<std::uint8_t> out(out_g->payload_bytes, 0);
    for (std::size_t j = 0; j < rows.size(); ++j) {
        const std::uint64_t r = rows[j];
        if (r >= n)
            throw std::invalid_argument("row_split_select_rows: row " + std::to_string(r) + " outside [0, " +
                                        std::to_string(n) + ")");
        // Whole row spans, plane by plane; nothing is decoded or repacked.
        auto copy = [&](std::uint64_t src_off, std::uint64_t dst_off, std::uint64_t bytes) {
            std::copy_n(payload.data() + src_off + r * bytes, bytes, out.data() + dst_off + j * bytes);
        };
        copy(g->base_offset, out_g->base_offset, g->base_row_bytes);
        copy(g->high_offset, out_g->high_offset, g->high_row_bytes);
        copy(g->scale_offset, out_g->scale_offset, g->scale_row_bytes);
    }
    return out;
}

}  // namespace ninfer::oracle
