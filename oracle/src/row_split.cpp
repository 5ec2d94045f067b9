// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 (storage-layouts.md Section 3): geometry, plane packing (nibble order,
// high-bit stream, the 2-bit suite reading), canonical zero padding, validating decode, byte
// location, row views / standalone slices / gathers. Exact unsigned 64-bit sizes, overflow refused.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ninfer/oracle/row_split.hpp"

namespace ninfer::oracle {

namespace {

bool align_up(std::uint64_t x, std::uint64_t a, std::uint64_t &out) {
    std::uint64_t t = 0;
    if (__builtin_add_overflow(x, a - 1, &t)) return false;
    out = t / a * a;
    return true;
}

/// Pack one physical group of stored words u[0..G) into its base and high bytes.
void pack_group(const GroupedFormat &f, const std::vector<std::uint32_t> &u, std::uint8_t *base, std::uint8_t *high) {
    const int hb = f.high_bits();
    for (int i = 0; i < f.group; ++i) {
        if (f.packing == Packing::BYTE) {
            base[i] = static_cast<std::uint8_t>(u[i]);
        } else if (f.packing == Packing::TWO_BIT_LSB) {
            // Suite reading: lane i in bits 2*(i%4)..2*(i%4)+1 of byte i/4.
            base[i / 4] = static_cast<std::uint8_t>(base[i / 4] | (u[i] & 0x3u) << (2 * (i % 4)));
        } else {
            // Lane pair (2j, 2j+1) shares byte j, even lane in the low nibble.
            base[i / 2] = static_cast<std::uint8_t>(base[i / 2] | (u[i] & 0xFu) << (4 * (i % 2)));
            // High stream, lane-major, bit 4 first then bit 5; stream bit t is bit t%8 of byte t/8.
            for (int j = 0; j < hb; ++j) {
                const int t = i * hb + j;
                high[t / 8] = static_cast<std::uint8_t>(high[t / 8] | ((u[i] >> (4 + j)) & 1u) << (t % 8));
            }
        }
    }
}

/// The stored word of lane i of a physical group (the inverse of pack_group).
std::uint32_t lane_word(const GroupedFormat &f, const std::uint8_t *base, const std::uint8_t *high, int i) {
    const int hb = f.high_bits();
    if (f.packing == Packing::BYTE) return base[i];
    if (f.packing == Packing::TWO_BIT_LSB) return (base[i / 4] >> (2 * (i % 4))) & 0x3u;
    std::uint32_t u = (base[i / 2] >> (4 * (i % 2))) & 0xFu;
    for (int j = 0; j < hb; ++j) {
        const int t = i * hb + j;
        u |= static_cast<std::uint32_t>((high[t / 8] >> (t % 8)) & 1u) << (4 + j);
    }
    return u;
}

std::string hex16(std::uint16_t w) {
    static const char *digits = "0123456789abcdef";
    std::string s = "0x";
    for (int sh = 12; sh >= 0; sh -= 4) s += digits[(w >> sh) & 0xF];
    return s;
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

std::vector<std::uint8_t> row_split_encode(const GroupedFormat &f, const GroupedMatrix &m) {
    const auto g = row_split_geometry(f, m.rows, m.cols);
    if (!g) throw std::invalid_argument("row_split_encode: shape [" + std::to_string(m.rows) + "," +
                                        std::to_string(m.cols) + "] has no row_split_k128_v1 geometry");
    if (m.codes.size() != m.rows * m.cols || m.scales.size() != m.rows * g->logical_groups)
        throw std::invalid_argument("row_split_encode: codes/scales do not match shape [" + std::to_string(m.rows) +
                                    "," + std::to_string(m.cols) + "]");
    std::vector<std::uint8_t> out(g->payload_bytes, 0);
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    std::vector<std::uint32_t> u(G);
    for (std::uint64_t r = 0; r < m.rows; ++r)
        for (std::uint64_t grp = 0; grp < g->groups_per_row; ++grp) {
            // Padding lanes and whole padding groups hold code 0 (GROUPED.md R1 for q2).
            for (std::uint64_t i = 0; i < G; ++i) {
                const std::uint64_t col = grp * G + i;
                u[i] = grouped_code_word(f, col < m.cols ? m.codes[r * m.cols + col] : 0);
            }
            const std::uint64_t phys = r * g->groups_per_row + grp;
            pack_group(f, u, out.data() + g->base_offset + phys * f.base_bytes,
                       out.data() + g->high_offset + phys * f.high_bytes);
            const std::uint16_t s = grp < g->logical_groups ? m.scales[r * g->logical_groups + grp] : 0;
            out[g->scale_offset + 2 * phys] = static_cast<std::uint8_t>(s & 0xFF);
            out[g->scale_offset + 2 * phys + 1] = static_cast<std::uint8_t>(s >> 8);
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
            const std::uint64_t phys = r * g->groups_per_row + grp;
            const std::uint8_t *base = payload.data() + g->base_offset + phys * f.base_bytes;
            const std::uint8_t *high = payload.data() + g->high_offset + phys * f.high_bytes;
            const std::uint64_t soff = g->scale_offset + 2 * phys;
            const auto scale = static_cast<std::uint16_t>(payload[soff] | payload[soff + 1] << 8);
            const std::string at = "row " + std::to_string(r) + " group " + std::to_string(grp);
            if (grp >= g->logical_groups) {
                if (scale != 0)
                    return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING,
                                  "scale plane, " + at + " (padding group), offset " + std::to_string(soff) +
                                      ": scale " + hex16(scale) + ", expected 0x0000");
                for (std::uint64_t i = 0; i < G; ++i)
                    if (lane_word(f, base, high, static_cast<int>(i)) != zero_word)
                        return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING,
                                      "code planes, " + at + " (padding group) lane " + std::to_string(i) +
                                          ": stored word " + std::to_string(lane_word(f, base, high, static_cast<int>(i))) +
                                          ", expected the word of code 0 (" + std::to_string(zero_word) + ")");
                continue;
            }
            if (grouped_scale_verdict(f, scale) != NINFER_VERDICT_VALID)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                              "scale plane, " + at + ", offset " + std::to_string(soff) + ": scale " + hex16(scale) +
                                  " is not a valid " + (is_q2 ? "q2 scale (finite)" : "grouped scale (+0 or finite nonzero)") +
                                  " (tensor-formats Section 6)");
            bool nonzero_code = false;
            std::uint64_t first_nonzero = 0;
            for (std::uint64_t i = 0; i < G; ++i) {
                const std::uint64_t col = grp * G + i;
                const std::uint32_t u = lane_word(f, base, high, static_cast<int>(i));
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
