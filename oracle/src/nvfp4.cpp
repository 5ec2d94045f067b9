// SPDX-License-Identifier: Apache-2.0
// nvfp4 in block_scale_k16_m128x4_v1 (tensor-formats.txt Section 3.3, storage-layouts.md
// Section 4): geometry, the scale swizzle, canonical packing, validating decode and the exact
// divisor-based reconstruction. Exact unsigned 64-bit sizes (overflow refused) and exact rationals.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "scaled_internal.hpp"

namespace ninfer::oracle {

std::string block_scale_shape_error(std::uint64_t n, std::uint64_t k, std::uint64_t divisors) {
    // storage-layouts.md Section 1: rank 2, N % 128 == 0, K % 64 == 0; Section 4 suite reading:
    // divisors >= 1 and N % divisors == 0.
    if (n == 0 || k == 0) return fmt::format("shape [{},{}] has a zero dimension", n, k);
    if (n % kNvfp4TileRows != 0) return fmt::format("N = {} is not a multiple of 128", n);
    if (k % (kNvfp4Group * kNvfp4TileGroups) != 0) return fmt::format("K = {} is not a multiple of 64", k);
    if (divisors == 0) return "divisors is 0 (at least one source matrix)";
    if (n % divisors != 0) return fmt::format("divisors = {} does not divide N = {}", divisors, n);
    return {};
}

std::optional<BlockScaleGeometry> block_scale_geometry(std::uint64_t n, std::uint64_t k, std::uint64_t divisors) {
    if (!block_scale_shape_error(n, k, divisors).empty()) return std::nullopt;
    BlockScaleGeometry g{};
    g.groups_per_row = k / kNvfp4Group;
    std::uint64_t nk = 0, divisor_bytes = 0;
    // 1. code_plane_bytes = N * K / 2
    if (__builtin_mul_overflow(n, k, &nk)) return std::nullopt;
    g.code_plane_bytes = nk / 2;
    // 2. scale_plane_offset = align_up(code_plane_bytes, 256)
    if (!detail::align_up(g.code_plane_bytes, 256, g.scale_plane_offset)) return std::nullopt;
    // 3. scale_plane_bytes = N * K / 16; 4. weight_divisor_offset; 5. payload_bytes
    g.scale_plane_bytes = nk / kNvfp4Group;
    if (__builtin_add_overflow(g.scale_plane_offset, g.scale_plane_bytes, &g.divisor_offset) ||
        __builtin_mul_overflow(divisors, std::uint64_t{4}, &divisor_bytes) ||
        __builtin_add_overflow(g.divisor_offset, divisor_bytes, &g.payload_bytes))
        return std::nullopt;
    g.rows_per_divisor = n / divisors;
    return g;
}

std::uint64_t block_scale_swizzle(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    // storage-layouts.md Section 4, term by term: the 128x4 tile, then the lane inside it.
    const std::uint64_t tile = (n / 128) * (k / 64) + g / 4;
    const std::uint64_t r = n % 128;
    return tile * 512 + (r % 32) * 16 + (r / 32) * 4 + g % 4;
}

std::uint64_t nvfp4_divisor_of_row(const BlockScaleGeometry &g, std::uint64_t n) { return n / g.rows_per_divisor; }

std::vector<std::uint8_t> block_scale_encode(const Nvfp4Matrix &m) {
    const auto g = block_scale_geometry(m.rows, m.cols, m.divisors.size());
    if (!g) throw std::invalid_argument("block_scale_encode: " + block_scale_shape_error(m.rows, m.cols, m.divisors.size()));
    if (m.codes.size() != m.rows * m.cols || m.scales.size() != m.rows * g->groups_per_row)
        throw std::invalid_argument("block_scale_encode: codes or scales do not match the shape");
    std::vector<std::uint8_t> p(g->payload_bytes, 0);
    // Codes: row-major E2M1 nibbles, low nibble = smaller k.
    for (std::uint64_t i = 0; i < m.codes.size(); ++i)
        p[i / 2] = static_cast<std::uint8_t>(p[i / 2] | (m.codes[i] & 0xFu) << (4 * (i % 2)));
    // Scales: the natural [N, K/16] matrix, swizzled.
    for (std::uint64_t n = 0; n < m.rows; ++n)
        for (std::uint64_t gi = 0; gi < g->groups_per_row; ++gi)
            p[g->scale_plane_offset + block_scale_swizzle(m.cols, n, gi)] = m.scales[n * g->groups_per_row + gi];
    // Divisors: consecutive little-endian binary32 words (suite reading for more than one).
    for (std::uint64_t d = 0; d < m.divisors.size(); ++d)
        abi::store_le32(&p[g->divisor_offset + 4 * d], m.divisors[d]);
    return p;
}

Nvfp4Decoded block_scale_decode(std::uint64_t n, std::uint64_t k, std::uint64_t divisors,
                                std::span<const std::uint8_t> payload) {
    Nvfp4Decoded out;
    const auto g = block_scale_geometry(n, k, divisors);
    if (!g) {
        const auto why = block_scale_shape_error(n, k, divisors);
        return detail::refused<Nvfp4Decoded>(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                                              why.empty() ? "shape sizes overflow uint64" : why);
    }
    if (payload.size() != g->payload_bytes)
        return detail::refused<Nvfp4Decoded>(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                                              fmt::format("payload has {} bytes, geometry needs {}", payload.size(), g->payload_bytes));
    // The gap between the planes (always empty: N*K/2 is a multiple of 4096) is checked anyway.
    for (std::uint64_t b = g->code_plane_bytes; b < g->scale_plane_offset; ++b)
        if (payload[b] != 0)
            return detail::refused<Nvfp4Decoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP,
                                                 fmt::format("gap byte at offset {} is 0x{:02x}", b, payload[b]));
    out.m.rows = n;
    out.m.cols = k;
    out.m.codes.resize(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i) out.m.codes[i] = (payload[i / 2] >> (4 * (i % 2))) & 0xFu;
    const auto &scale_role = role(NINFER_ROLE_nvfp4_e4m3_scale);
    out.m.scales.resize(n * g->groups_per_row);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t gi = 0; gi < g->groups_per_row; ++gi) {
            const std::uint64_t at = g->scale_plane_offset + block_scale_swizzle(k, r, gi);
            const std::uint8_t s = payload[at];
            if (role_verdict(scale_role, s) != NINFER_VERDICT_VALID)
                return detail::refused<Nvfp4Decoded>(
                    NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                    fmt::format("scale word 0x{:02x} of row {}, group {} (scale-plane offset {}) is not a valid nvfp4 scale", s, r,
                                gi, at - g->scale_plane_offset));
            out.m.scales[r * g->groups_per_row + gi] = s;
        }
    const auto &divisor_role = role(NINFER_ROLE_fp32_weight_divisor);
    out.m.divisors.resize(divisors);
    for (std::uint64_t d = 0; d < divisors; ++d) {
        const std::uint32_t w = abi::load_le32(&payload[g->divisor_offset + 4 * d]);
        if (role_verdict(divisor_role, w) != NINFER_VERDICT_VALID)
            return detail::refused<Nvfp4Decoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_DIVISOR,
                                                 fmt::format("divisor {} is 0x{:08x}, not finite and strictly positive", d, w));
        out.m.divisors[d] = w;
    }
    return out;
}

Nvfp4Selected block_scale_select_rows(std::uint64_t n, std::uint64_t k, std::uint64_t divisors,
                                      std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows) {
    Nvfp4Selected out;
    auto refuse = [&](std::int32_t status, std::string why) {
        out.status = status;
        out.message = std::move(why);
        out.payload.clear();
        return out;
    };
    const auto g = block_scale_geometry(n, k, divisors);
    if (!g) return refuse(NINFER_E_SIZE, block_scale_shape_error(n, k, divisors));
    if (payload.size() != g->payload_bytes)
        return refuse(NINFER_E_SIZE, fmt::format("payload has {} bytes, geometry needs {}", payload.size(), g->payload_bytes));
    if (rows.empty()) return refuse(NINFER_E_INVALID_ARGUMENT, "no rows selected");
    // Runs of consecutive selected rows owned by one source matrix, in selection order.
    std::vector<std::uint64_t> run_source, run_length;
    for (const auto r : rows) {
        if (r >= n) return refuse(NINFER_E_INVALID_ARGUMENT, fmt::format("row {} outside [0, {})", r, n));
        const auto src = nvfp4_divisor_of_row(*g, r);
        if (run_source.empty() || run_source.back() != src) {
            run_source.push_back(src);
            run_length.push_back(0);
        }
        ++run_length.back();
    }
    for (const auto len : run_length)
        if (len != run_length.front())
            return refuse(NINFER_E_INVALID_ARGUMENT,
                          fmt::format("the selection mixes source matrices in runs of unequal length ({} and {} rows)",
                                      run_length.front(), len));
    const auto og = block_scale_geometry(rows.size(), k, run_source.size());
    if (!og) return refuse(NINFER_E_INVALID_ARGUMENT, "the selection has no geometry: " +
                                                          block_scale_shape_error(rows.size(), k, run_source.size()));
    out.divisors = run_source.size();
    out.payload.assign(og->payload_bytes, 0);
    for (std::uint64_t j = 0; j < rows.size(); ++j) {
        const std::uint64_t r = rows[j];
        // Codes: whole rows of K/2 bytes. Scales: natural (r, gi) moves to swizzled (j, gi).
        std::copy_n(payload.data() + r * (k / 2), k / 2, out.payload.data() + j * (k / 2));
        for (std::uint64_t gi = 0; gi < g->groups_per_row; ++gi)
            out.payload[og->scale_plane_offset + block_scale_swizzle(k, j, gi)] =
                payload[g->scale_plane_offset + block_scale_swizzle(k, r, gi)];
    }
    for (std::uint64_t d = 0; d < run_source.size(); ++d)
        std::copy_n(payload.data() + g->divisor_offset + 4 * run_source[d], 4, out.payload.data() + og->divisor_offset + 4 * d);
    return out;
}

Rational nvfp4_exact_weight(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor) {
    // W[n,k] = decode_e2m1(c) * decode_e4m3fn(s) / d_w
    const Rational c = exact_word_value(word_format(NINFER_FORMAT_e2m1), code & 0xFu);
    const Rational s = exact_word_value(word_format(NINFER_FORMAT_e4m3fn), scale);
    const Rational d = exact_word_value(word_format(NINFER_FORMAT_fp32), divisor);
    if (d <= 0) throw std::invalid_argument("nvfp4_exact_weight: the divisor must be finite and strictly positive");
    return c * s / d;
}

std::uint32_t nvfp4_weight_binary32(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor) {
    const auto &e2m1 = word_format(NINFER_FORMAT_e2m1), &e4m3 = word_format(NINFER_FORMAT_e4m3fn);
    const auto &fp32 = word_format(NINFER_FORMAT_fp32);
    const auto c = word_info(e2m1, code & 0xFu), s = word_info(e4m3, scale), d = word_info(fp32, divisor);
    if (d.cls != NINFER_CLASS_NORMAL && d.cls != NINFER_CLASS_SUBNORMAL)
        throw std::invalid_argument("nvfp4_weight_binary32: the divisor must be finite and nonzero");
    Real num = exact_zero();
    num = c.value * s.value;  // exact: 2 + 4 significant bits
    // A product of zero keeps its sign: -0 * s / d is -0 (IEEE sign rule of the exact zero).
    if (num == 0) return (c.negative != s.negative) ? 0x80000000u : 0u;
    return static_cast<std::uint32_t>(round_quotient(num, d.value, fp32, 1 /*rne*/, 1 /*inf*/));
}

std::string rational_text(const Rational &q) {
    using boost::multiprecision::denominator;
    using boost::multiprecision::numerator;
    const detail::Int num = numerator(q), den = denominator(q);
    // A dyadic denominator prints as an exact decimal, anything else as num/den.
    if ((den & (den - 1)) == 0) {
        unsigned e = 0;
        for (detail::Int t = den; t > 1; t >>= 1) ++e;
        detail::Int m = num < 0 ? detail::Int(-num) : num;
        for (unsigned i = 0; i < e; ++i) m *= 5;
        std::string digits = m.str();
        if (e > 0) {
            if (digits.size() <= e) digits.insert(0, e - digits.size() + 1, '0');
            digits.insert(digits.size() - e, 1, '.');
            while (digits.back() == '0') digits.pop_back();
            if (digits.back() == '.') digits.pop_back();
        }
        return (num < 0 ? "-" : "") + digits;
    }
    return num.str() + "/" + den.str();
}

}  // namespace ninfer::oracle
