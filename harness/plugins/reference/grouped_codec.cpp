// SPDX-License-Identifier: Apache-2.0
// Native grouped codecs: tensor-formats.txt Sections 5 (codes), 6 (scales, 6.2
// reconstruction), 7.2 (grouped_absmax), 7.3 (grouped_search); storage-layouts.md Section 3
// (row_split_k128_v1). Host binary32 arithmetic is round-to-nearest-even without flush to zero
// on every supported target, which is what Section 7.2 asks for.
#include "grouped_codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "ninfer/abi/bytes.hpp"

namespace ninfer::reference::grouped_codec {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

bool mul_ok(std::uint64_t a, std::uint64_t b, std::uint64_t &r) { return !__builtin_mul_overflow(a, b, &r); }
bool add_ok(std::uint64_t a, std::uint64_t b, std::uint64_t &r) { return !__builtin_add_overflow(a, b, &r); }
bool align_ok(std::uint64_t x, std::uint64_t a, std::uint64_t &r) {
    if (x > kMax - (a - 1)) return false;
    r = (x + a - 1) / a * a;
    return true;
}

float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }
std::uint32_t as_word(float x) { return std::bit_cast<std::uint32_t>(x); }

std::string where(std::uint64_t row, std::uint64_t group, std::uint64_t lane) {
    return "row " + std::to_string(row) + " group " + std::to_string(group) + " lane " + std::to_string(lane);
}

/// Stored word of lane `lane` of a group whose base bytes start at `base` and high bytes at `high`.
std::uint32_t read_lane(const GroupedFormat &f, const std::uint8_t *base, const std::uint8_t *high, int lane) {
    switch (f.packing) {
    case ninfer::abi::Packing::BYTE: return base[lane];
    case ninfer::abi::Packing::TWO_BIT_LSB: return (base[lane / 4] >> (2 * (lane % 4))) & 0x3u;
    case ninfer::abi::Packing::NIBBLE_HIGH: break;
    }
    std::uint32_t u = (base[lane / 2] >> (4 * (lane % 2))) & 0xFu;
    const int hb = f.high_bits();
    for (int j = 0; j < hb; ++j) {
        const int t = lane * hb + j;  // lane-major stream, bit 4 first
        u |= static_cast<std::uint32_t>((high[t / 8] >> (t % 8)) & 1u) << (4 + j);
    }
    return u;
}

void write_lane(const GroupedFormat &f, std::uint8_t *base, std::uint8_t *high, int lane, std::uint32_t u) {
    switch (f.packing) {
    case ninfer::abi::Packing::BYTE: base[lane] = static_cast<std::uint8_t>(u); return;
    case ninfer::abi::Packing::TWO_BIT_LSB: base[lane / 4] |= static_cast<std::uint8_t>((u & 0x3u) << (2 * (lane % 4))); return;
    case ninfer::abi::Packing::NIBBLE_HIGH: break;
    }
    base[lane / 2] |= static_cast<std::uint8_t>((u & 0xFu) << (4 * (lane % 2)));
    const int hb = f.high_bits();
    for (int j = 0; j < hb; ++j) {
        const int t = lane * hb + j;
        high[t / 8] |= static_cast<std::uint8_t>(((u >> (4 + j)) & 1u) << (t % 8));
    }
}

std::uint16_t scale_at(std::span<const std::uint8_t> p, std::uint64_t offset) {
    return abi::load_le16(p.data() + offset);
}

/// Section 7.2 for one group of finite binary32 values; false when the scale overflows.
bool absmax_group(const GroupedFormat &f, const float *x, std::size_t count, std::uint16_t &scale16, std::int8_t *codes) {
    // Step 1: amax over binary32 magnitudes.
    float amax = 0.0f;
    for (std::size_t i = 0; i < count; ++i) amax = std::max(amax, std::fabs(x[i]));
    // Step 2: an all-zero group is +0 and zero codes, before any reciprocal.
    if (amax == 0.0f) {
        scale16 = 0;
        std::fill(codes, codes + count, std::int8_t{0});
        return true;
    }
    // Step 3: raw scale with qmax as denominator, rounded to binary32 then binary16.
    const float raw = amax / static_cast<float>(f.qmax);
    scale16 = f32_to_f16_rne(as_word(raw));
    if (scale16 == 0) scale16 = 0x0001;  // 2^-24 underflow rescue
    if ((scale16 & 0x7C00u) == 0x7C00u) return false;
    // Step 4: reciprocal multiply, ties-to-even integral rounding, clamp after rounding.
    codes_for_scale(f, x, count, scale16, codes);
    return true;
}

}  // namespace

const GroupedFormat *find_grouped(std::uint32_t format_id) {
    return ninfer::abi::find_id(ninfer::abi::kGroupedFormats, format_id);
}

std::optional<Geometry> geometry(const GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    if (n == 0 || k == 0) return std::nullopt;
    Geometry g;
    if (!align_ok(k, 128, g.k_pad)) return std::nullopt;
    g.groups_per_row = g.k_pad / static_cast<std::uint64_t>(f.group);
    g.logical_groups = k / f.group + (k % f.group != 0);
    g.base_row = g.groups_per_row * static_cast<std::uint64_t>(f.base_bytes);
    g.high_row = g.groups_per_row * static_cast<std::uint64_t>(f.high_bytes);
    g.scale_row = g.groups_per_row * 2;
    std::uint64_t high_span = 0;
    if (!mul_ok(n, g.base_row, g.base_bytes) || !mul_ok(n, g.high_row, g.high_bytes) ||
        !mul_ok(n, g.scale_row, g.scale_bytes) || !align_ok(g.base_bytes, 256, g.high_offset) ||
        !align_ok(g.high_bytes, 256, high_span) || !add_ok(g.high_offset, high_span, g.scale_offset) ||
        !add_ok(g.scale_offset, g.scale_bytes, g.payload_bytes))
        return std::nullopt;
    return g;
}

std::optional<int> code_value(const GroupedFormat &f, std::uint32_t word) {
    const std::uint32_t width = 1u << f.code_bits;
    if (word >= width) return std::nullopt;
    if (f.illegal_word >= 0 && word == static_cast<std::uint32_t>(f.illegal_word)) return std::nullopt;
    if (f.encoding == ninfer::abi::CodeEncoding::OFFSET) return static_cast<int>(word) - 1;
    return word < width / 2 ? static_cast<int>(word) : static_cast<int>(word) - static_cast<int>(width);
}

std::uint32_t code_word(const GroupedFormat &f, int q) {
    if (f.encoding == ninfer::abi::CodeEncoding::OFFSET) return static_cast<std::uint32_t>(q + 1);
    return static_cast<std::uint32_t>(q) & ((1u << f.code_bits) - 1);
}

bool scale_valid(const GroupedFormat &f, std::uint16_t scale) {
    if ((scale & 0x7C00u) == 0x7C00u) return false;  // Inf, NaN
    // What the scale's role accepts is a registry column (registry.h NINFER_ROLES).
    const auto *role = ninfer::abi::find_id(ninfer::abi::kRoles, f.scale_role);
    if (!role) return false;
    if (scale == 0x8000u) return role->accepts_negative_zero;
    if (scale == 0x0000u) return role->accepts_positive_zero;
    return (scale & 0x8000u) == 0 || role->accepts_negative;
}

std::uint32_t f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1Fu;
    std::uint32_t m = h & 0x3FFu;
    if (e == 0x1F) return sign | 0x7F800000u | (m << 13);
    if (e == 0) {
        if (m == 0) return sign;
        std::uint32_t exp32 = 113;  // 2^-14 with the implicit bit at 0x400
        while ((m & 0x400u) == 0) {
            m <<= 1;
            --exp32;
        }
        return sign | (exp32 << 23) | ((m & 0x3FFu) << 13);
    }
    return sign | ((e + 112) << 23) | (m << 13);
}

std::uint16_t f32_to_f16_rne(std::uint32_t x) {
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t exp = (x >> 23) & 0xFFu;
    const std::uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFF) return static_cast<std::uint16_t>(sign | 0x7C00u | (man ? (0x200u | (man >> 13)) : 0u));
    if (exp == 0) return static_cast<std::uint16_t>(sign);  // below 2^-126: far under half of 2^-24
    const std::uint32_t m = man | 0x800000u;
    if (exp >= 143) return static_cast<std::uint16_t>(sign | 0x7C00u);  // >= 2^16
    if (exp >= 113) {
        std::uint32_t r = m >> 13;
        const std::uint32_t rem = m & 0x1FFFu;
        if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
        // A carry out of the significand moves into the exponent, up to 0x7C00 (infinity).
        return static_cast<std::uint16_t>(sign | (((exp - 112) << 10) + (r - 0x400u)));
    }
    const std::uint32_t shift = 126 - exp;  // units of 2^-24
    if (shift >= 25) return static_cast<std::uint16_t>(sign);
    std::uint32_t r = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return static_cast<std::uint16_t>(sign | r);
}

void codes_for_scale(const GroupedFormat &f, const float *x, std::size_t count, std::uint16_t scale16, std::int8_t *codes) {
    const float s = as_float(f16_to_f32(scale16));
    if (s == 0.0f) {
        std::fill(codes, codes + count, std::int8_t{0});
        return;
    }
    const float inv = 1.0f / s;
    for (std::size_t i = 0; i < count; ++i) {
        const float r = std::nearbyint(x[i] * inv);
        codes[i] = static_cast<std::int8_t>(std::clamp(r, static_cast<float>(f.qmin), static_cast<float>(f.qmax)));
    }
}

std::uint32_t reconstruct(std::uint16_t scale, int q) {
    return as_word(as_float(f16_to_f32(scale)) * static_cast<float>(q));
}

std::vector<std::uint8_t> encode_payload(const GroupedFormat &f, const Matrix &m) {
    const auto g = geometry(f, m.rows, m.cols);
    if (!g) return {};
    std::vector<std::uint8_t> p(g->payload_bytes, 0);
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    const std::uint32_t zero_word = code_word(f, 0);  // Q2 stores signed code 0 as word 1
    for (std::uint64_t r = 0; r < m.rows; ++r) {
        for (std::uint64_t gi = 0; gi < g->groups_per_row; ++gi) {
            std::uint8_t *base = p.data() + r * g->base_row + gi * f.base_bytes;
            std::uint8_t *high = p.data() + g->high_offset + r * g->high_row + gi * f.high_bytes;
            for (std::uint64_t lane = 0; lane < G; ++lane) {
                const std::uint64_t k = gi * G + lane;
                const std::uint32_t u = k < m.cols ? code_word(f, m.codes[r * m.cols + k]) : zero_word;
                if (u) write_lane(f, base, high, static_cast<int>(lane), u);
            }
            if (gi >= g->logical_groups) continue;
            const std::uint16_t s = m.scales[r * g->logical_groups + gi];
            const std::uint64_t at = g->scale_offset + r * g->scale_row + gi * 2;
            p[at] = static_cast<std::uint8_t>(s);
            p[at + 1] = static_cast<std::uint8_t>(s >> 8);
        }
    }
    return p;
}

Outcome decode_payload(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                       Matrix &m) {
    const auto g = geometry(f, n, k);
    if (!g) return {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "shape [" + std::to_string(n) + "," + std::to_string(k) +
                                                           "] has no row_split_k128_v1 geometry"};
    if (payload.size() != g->payload_bytes)
        return {NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                "payload is " + std::to_string(payload.size()) + " bytes, geometry needs " +
                    std::to_string(g->payload_bytes)};
    // Gaps between planes are zero.
    for (std::uint64_t at = g->base_bytes; at < g->high_offset; ++at)
        if (payload[at]) return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP, "gap after base plane, byte " + std::to_string(at)};
    for (std::uint64_t at = g->high_offset + g->high_bytes; at < g->scale_offset; ++at)
        if (payload[at]) return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP, "gap after high plane, byte " + std::to_string(at)};
    m.rows = n;
    m.cols = k;
    m.codes.assign(n * k, 0);
    m.scales.assign(n * g->logical_groups, 0);
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    const bool offset = f.encoding == ninfer::abi::CodeEncoding::OFFSET;
    for (std::uint64_t r = 0; r < n; ++r) {
        for (std::uint64_t gi = 0; gi < g->groups_per_row; ++gi) {
            const std::uint8_t *base = payload.data() + r * g->base_row + gi * f.base_bytes;
            const std::uint8_t *high = payload.data() + g->high_offset + r * g->high_row + gi * f.high_bytes;
            const std::uint16_t s = scale_at(payload, g->scale_offset + r * g->scale_row + gi * 2);
            const bool logical = gi < g->logical_groups;
            if (!logical && s != 0)
                return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING, "scale plane: padding " + where(r, gi, 0) + " scale not 0x0000"};
            if (logical && !scale_valid(f, s))
                return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE, "scale plane: invalid scale at " + where(r, gi, 0)};
            int first_nonzero = -1;
            for (int lane = 0; lane < f.group; ++lane) {
                const std::uint64_t col = gi * G + static_cast<std::uint64_t>(lane);
                const std::uint32_t u = read_lane(f, base, high, lane);
                if (col >= k) {
                    // Padding lanes hold code 0: the word 0, or Q2's offset word of q = 0.
                    if (u != code_word(f, 0))
                        return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING, "padding code at " + where(r, gi, lane)};
                    continue;
                }
                const auto q = code_value(f, u);
                if (!q) return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE, "illegal code word at " + where(r, gi, lane)};
                if (*q != 0 && first_nonzero < 0) first_nonzero = lane;
                m.codes[r * k + col] = static_cast<std::int8_t>(*q);
            }
            // Zero-scale groups are judged after every lane is known to be legal.
            if (!offset && logical && s == 0 && first_nonzero >= 0)
                return {NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES, "nonzero code under +0 scale at " + where(r, gi, static_cast<std::uint64_t>(first_nonzero))};
            if (logical) m.scales[r * g->logical_groups + gi] = s;
        }
    }
    return {};
}

Outcome select_rows(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                    std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out) {
    const auto g = geometry(f, n, k);
    if (!g) return {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "parent shape has no row_split_k128_v1 geometry"};
    if (payload.size() != g->payload_bytes)
        return {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "parent payload is " + std::to_string(payload.size()) + " bytes, geometry needs " + std::to_string(g->payload_bytes)};
    if (rows.empty()) return {NINFER_E_INVALID_ARGUMENT, 0, "no rows selected"};
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i] >= n)
            return {NINFER_E_INVALID_ARGUMENT, 0, "selected row " + std::to_string(rows[i]) + " (index " + std::to_string(i) + ") is past N=" + std::to_string(n)};
    const auto h = geometry(f, rows.size(), k);
    if (!h) return {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "selection has no geometry"};
    out.assign(h->payload_bytes, 0);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::uint64_t r = rows[i];
        std::copy_n(payload.data() + r * g->base_row, g->base_row, out.data() + i * h->base_row);
        std::copy_n(payload.data() + g->high_offset + r * g->high_row, g->high_row, out.data() + h->high_offset + i * h->high_row);
        std::copy_n(payload.data() + g->scale_offset + r * g->scale_row, g->scale_row, out.data() + h->scale_offset + i * h->scale_row);
    }
    return {};
}

Outcome source_to_f32(std::uint32_t source_format, std::span<const std::uint8_t> words, std::uint64_t count,
                      std::vector<float> &out) {
    const std::uint64_t width = source_format == NINFER_FORMAT_fp32 ? 4 : 2;
    if (source_format != NINFER_FORMAT_fp32 && source_format != NINFER_FORMAT_bf16 && source_format != NINFER_FORMAT_fp16)
        return {NINFER_E_INVALID_ARGUMENT, 0, "source type must be fp32, bf16 or fp16"};
    std::uint64_t need = 0;
    if (__builtin_mul_overflow(count, width, &need))
        return {NINFER_E_SIZE, 0, "source of " + std::to_string(count) + " words overflows uint64 sizes"};
    if (words.size() != need)
        return {NINFER_E_SIZE, 0, "source holds " + std::to_string(words.size()) + " bytes, shape needs " + std::to_string(need)};
    out.resize(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint8_t *b = words.data() + i * width;
        std::uint32_t w32 = 0;
        bool finite = true;
        if (source_format == NINFER_FORMAT_fp32) {
            w32 = abi::load_le32(b);
            finite = (w32 & 0x7F800000u) != 0x7F800000u;
        } else {
            const auto h = abi::load_le16(b);
            if (source_format == NINFER_FORMAT_bf16) {
                w32 = static_cast<std::uint32_t>(h) << 16;
                finite = (h & 0x7F80u) != 0x7F80u;
            } else {
                w32 = f16_to_f32(h);
                finite = (h & 0x7C00u) != 0x7C00u;
            }
        }
        if (!finite) return {NINFER_E_NONFINITE, 0, "non-finite source value at element " + std::to_string(i)};
        out[i] = as_float(w32);
    }
    return {};
}

Outcome absmax(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const float> x, Matrix &m) {
    if (!f.canonical_encoders)
        return {NINFER_E_METHOD, 0, std::string("grouped_absmax refuses target ") + std::string(f.name)};
    const auto g = geometry(f, n, k);
    if (!g) return {NINFER_E_INVALID_ARGUMENT, 0, "grouped_absmax needs a positive rank-two [N,K]"};
    std::uint64_t elements = 0;
    if (__builtin_mul_overflow(n, k, &elements) || x.size() != elements)
        return {NINFER_E_INVALID_ARGUMENT, 0, "source holds " + std::to_string(x.size()) + " values, not N*K"};
    m.rows = n;
    m.cols = k;
    m.codes.assign(n * k, 0);
    m.scales.assign(n * g->logical_groups, 0);
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t gi = 0; gi < g->logical_groups; ++gi) {
            const std::uint64_t first = gi * G, count = std::min(k, first + G) - first;
            if (!absmax_group(f, x.data() + r * k + first, count, m.scales[r * g->logical_groups + gi],
                              m.codes.data() + r * k + first))
                return {NINFER_E_SCALE_OVERFLOW, 0, "binary16 scale overflows at " + where(r, gi, 0)};
        }
    return {};
}

}  // namespace ninfer::reference::grouped_codec
