// SPDX-License-Identifier: Apache-2.0
// The FP8 row formats (tensor-formats.txt Section 3.4 and its fp8_row_maxabs paragraph;
// storage-layouts.md Sections 5 and 6): fp8_e4m3fn_row_bf16 in row_scale_v1 and
// fp8_e4m3fn_row_fp16 in row_interleaved_v1. Geometry, packing, validating decode, the
// row-multiplier reconstruction and the fp8_row_maxabs producer, each rounding done by the
// exact-integer rounding core (round_real / round_quotient), never by host float arithmetic.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "scaled_internal.hpp"

namespace ninfer::oracle {

Rational exact_word_value(const WordFormat &f, std::uint64_t word) {
    const auto info = word_info(f, word);
    if (info.cls != NINFER_CLASS_ZERO && info.cls != NINFER_CLASS_SUBNORMAL && info.cls != NINFER_CLASS_NORMAL &&
        info.cls != NINFER_CLASS_INTEGER)
        throw std::invalid_argument("exact_rational: the word is not finite");
    if (mpfr_zero_p(info.value.backend().data())) return Rational(0);
    detail::Int m;
    const long e = detail::split_dyadic(info.value, m);
    Rational q(m);
    if (e >= 0) return q * Rational(detail::Int(1) << static_cast<unsigned>(e));
    return q / Rational(detail::Int(1) << static_cast<unsigned>(-e));
}

namespace {

constexpr std::uint32_t kRne = 1, kInf = 1, kSatfinite = 2;  // NINFER_ROUNDINGS rne, NINFER_OVERFLOWS inf/satfinite

}  // namespace

std::optional<Fp8RowFormat> fp8_row_format(std::uint32_t format) {
    // The registry's row-scaled formats: the scale word format and role follow from the format.
    if (format == NINFER_FORMAT_fp8_e4m3fn_row_bf16)
        return Fp8RowFormat{format, NINFER_FORMAT_bf16, NINFER_ROLE_bf16_row_multiplier, NINFER_LAYOUT_row_scale_v1};
    if (format == NINFER_FORMAT_fp8_e4m3fn_row_fp16)
        return Fp8RowFormat{format, NINFER_FORMAT_fp16, NINFER_ROLE_fp16_row_multiplier, NINFER_LAYOUT_row_interleaved_v1};
    return std::nullopt;
}

std::optional<Fp8RowGeometry> fp8_row_geometry(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k) {
    if (n == 0 || k == 0) return std::nullopt;
    Fp8RowGeometry g{};
    std::uint64_t nk = 0, scale_bytes = 0;
    if (__builtin_mul_overflow(n, k, &nk) || __builtin_mul_overflow(n, std::uint64_t{2}, &scale_bytes)) return std::nullopt;
    if (f.layout == NINFER_LAYOUT_row_scale_v1) {
        // Section 5: code plane N*K, zeros up to align_up(N*K, 256), then N multipliers.
        g.row_stride = k;
        if (!detail::align_up(nk, 256, g.scale_plane_offset) ||
            __builtin_add_overflow(g.scale_plane_offset, scale_bytes, &g.payload_bytes))
            return std::nullopt;
        return g;
    }
    // Section 6: row n is its K codes then its multiplier; stride K + 2, no padding.
    if (__builtin_add_overflow(k, std::uint64_t{2}, &g.row_stride) || __builtin_mul_overflow(n, g.row_stride, &g.payload_bytes))
        return std::nullopt;
    g.scale_plane_offset = 0;
    return g;
}

std::vector<std::uint8_t> fp8_row_encode(const Fp8RowFormat &f, const Fp8RowMatrix &m) {
    const auto g = fp8_row_geometry(f, m.rows, m.cols);
    if (!g) throw std::invalid_argument("fp8_row_encode: the shape has no geometry");
    if (m.codes.size() != m.rows * m.cols || m.scales.size() != m.rows)
        throw std::invalid_argument("fp8_row_encode: codes or scales do not match the shape");
    std::vector<std::uint8_t> p(g->payload_bytes, 0);
    for (std::uint64_t n = 0; n < m.rows; ++n) {
        const std::uint64_t code_at = n * g->row_stride;
        for (std::uint64_t k = 0; k < m.cols; ++k) p[code_at + k] = m.codes[n * m.cols + k];
        const std::uint64_t scale_at =
            f.layout == NINFER_LAYOUT_row_scale_v1 ? g->scale_plane_offset + 2 * n : code_at + m.cols;
        abi::store_le16(&p[scale_at], m.scales[n]);
    }
    return p;
}

Fp8RowDecoded fp8_row_decode(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload) {
    const auto g = fp8_row_geometry(f, n, k);
    if (!g) return detail::refused<Fp8RowDecoded>(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("shape [{},{}] has no geometry", n, k));
    if (payload.size() != g->payload_bytes)
        return detail::refused<Fp8RowDecoded>(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                                              fmt::format("payload has {} bytes, geometry needs {}", payload.size(), g->payload_bytes));
    if (f.layout == NINFER_LAYOUT_row_scale_v1)
        for (std::uint64_t b = n * k; b < g->scale_plane_offset; ++b)
            if (payload[b] != 0)
                return detail::refused<Fp8RowDecoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP,
                                                      fmt::format("gap byte at offset {} is 0x{:02x}", b, payload[b]));
    const auto &code_role = role(NINFER_ROLE_fp8_weight_code);
    const auto &scale_role = role(f.scale_role);
    Fp8RowDecoded out;
    out.m.rows = n;
    out.m.cols = k;
    out.m.codes.resize(n * k);
    out.m.scales.resize(n);
    for (std::uint64_t r = 0; r < n; ++r) {
        const std::uint64_t code_at = r * g->row_stride;
        const std::uint64_t scale_at = f.layout == NINFER_LAYOUT_row_scale_v1 ? g->scale_plane_offset + 2 * r : code_at + k;
        const std::uint16_t s = abi::load_le16(&payload[scale_at]);
        if (role_verdict(scale_role, s) != NINFER_VERDICT_VALID)
            return detail::refused<Fp8RowDecoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                                                  fmt::format("row {} multiplier 0x{:04x} (offset {}) is not a valid {}", r, s,
                                                              scale_at, scale_role.name));
        // A +0 multiplier admits only the signed-zero codes 0x00 and 0x80.
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint8_t w = payload[code_at + c];
            if (role_verdict(code_role, w) != NINFER_VERDICT_VALID)
                return detail::refused<Fp8RowDecoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE,
                                                      fmt::format("code 0x{:02x} at row {}, column {} is a NaN word", w, r, c));
            if (s == 0 && (w & 0x7Fu) != 0)
                return detail::refused<Fp8RowDecoded>(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES,
                                                      fmt::format("row {} has a +0 multiplier and code 0x{:02x} at column {}", r, w, c));
            out.m.codes[r * k + c] = w;
        }
        out.m.scales[r] = s;
    }
    return out;
}

std::vector<std::uint8_t> fp8_row_select_rows(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k,
                                              std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows) {
    const auto g = fp8_row_geometry(f, n, k);
    if (!g || payload.size() != g->payload_bytes)
        throw std::invalid_argument(fmt::format("fp8_row_select_rows: payload of {} bytes does not match [{},{}]", payload.size(), n, k));
    const auto og = fp8_row_geometry(f, rows.size(), k);
    if (!og) throw std::invalid_argument("fp8_row_select_rows: no rows selected");
    std::vector<std::uint8_t> out(og->payload_bytes, 0);
    for (std::uint64_t j = 0; j < rows.size(); ++j) {
        const std::uint64_t r = rows[j];
        if (r >= n) throw std::invalid_argument(fmt::format("fp8_row_select_rows: row {} outside [0, {})", r, n));
        if (f.layout == NINFER_LAYOUT_row_interleaved_v1) {
            // Whole row records: K codes and the multiplier.
            std::copy_n(payload.data() + r * g->row_stride, g->row_stride, out.data() + j * og->row_stride);
        } else {
            std::copy_n(payload.data() + r * k, k, out.data() + j * k);
            std::copy_n(payload.data() + g->scale_plane_offset + 2 * r, 2, out.data() + og->scale_plane_offset + 2 * j);
        }
    }
    return out;
}

std::uint32_t fp8_row_weight_binary32(const Fp8RowFormat &f, std::uint8_t code, std::uint16_t scale) {
    // c32 = exact(c), s32 = exact(s), w = binary32(c32 * s32): one rounding of the exact product.
    const auto c = word_info(word_format(NINFER_FORMAT_e4m3fn), code);
    const auto s = word_info(word_format(f.scale_format), scale);
    if (!abi::class_is_finite(c.cls) || !abi::class_is_finite(s.cls)) throw std::invalid_argument("fp8_row_weight_binary32: non-finite word");
    Real product = exact_zero();
    product = c.value * s.value;
    if (mpfr_zero_p(product.backend().data())) return (c.negative != s.negative) ? 0x80000000u : 0u;
    return static_cast<std::uint32_t>(round_real(product, word_format(NINFER_FORMAT_fp32), kRne, kInf));
}

Fp8RowEncoded fp8_row_maxabs(const Fp8RowFormat &f, std::uint32_t source_format, std::span<const std::uint64_t> row) {
    Fp8RowEncoded out;
    const auto &src = word_format(source_format);
    const auto &bf16 = word_format(NINFER_FORMAT_bf16), &fp32 = word_format(NINFER_FORMAT_fp32);
    const auto &e4m3 = word_format(NINFER_FORMAT_e4m3fn), &scale_fmt = word_format(f.scale_format);
    if (source_format != NINFER_FORMAT_fp32 && source_format != NINFER_FORMAT_bf16 && source_format != NINFER_FORMAT_fp16)
        throw std::invalid_argument("fp8_row_maxabs: the source must be fp32, bf16 or fp16");
    // 1. Represent every input as BF16 (nearest-even); a non-finite input, or one whose BF16
    //    representation is infinite (suite reading: the represented input is non-finite), is refused.
    std::vector<std::uint16_t> x(row.size());
    Real amax = exact_zero();
    for (std::size_t i = 0; i < row.size(); ++i) {
        const auto info = word_info(src, row[i]);
        if (!abi::class_is_finite(info.cls)) {
            out.status = NINFER_E_NONFINITE;
            out.message = fmt::format("element {} is not finite", i);
            return out;
        }
        x[i] = static_cast<std::uint16_t>(round_real(info.value, bf16, kRne, kInf));
        const auto xi = word_info(bf16, x[i]);
        if (!abi::class_is_finite(xi.cls)) {
            out.status = NINFER_E_NONFINITE;
            out.suite_reading = true;
            out.message = fmt::format("element {} rounds to an infinite BF16 input", i);
            return out;
        }
        const Real a = abs(xi.value);
        if (a > amax) {
            amax = a;
            out.amax_bf16 = static_cast<std::uint16_t>(x[i] & 0x7FFFu);
        }
    }
    out.codes.assign(row.size(), 0);
    // 2. An all-zero row (both zeros) uses positive-zero codes and a positive-zero scale.
    if (mpfr_zero_p(amax.backend().data())) return out;
    // 3. binary32(max|row| / 448).
    Real d448 = exact_zero();
    d448 = 448;
    out.scale32 = static_cast<std::uint32_t>(round_quotient(amax, d448, fp32, kRne, kInf));
    // 4. Round to the scale type with ties to even; refuse an overflow; rescue a positive scale
    //    rounded to zero as the smallest subnormal of the scale type.
    const auto s32 = word_info(fp32, out.scale32);
    out.scale = static_cast<std::uint16_t>(round_real(s32.value, scale_fmt, kRne, kInf));
    const auto s = word_info(scale_fmt, out.scale);
    if (s.cls == NINFER_CLASS_INFINITE) {
        out.status = NINFER_E_SCALE_OVERFLOW;
        out.message = fmt::format("scale binary32 0x{:08x} overflows {}", out.scale32, scale_fmt.name);
        out.codes.clear();
        return out;
    }
    if (s.cls == NINFER_CLASS_ZERO) out.scale = 0x0001;
    // 5. The FP32 reciprocal of the stored scale.
    const auto stored = word_info(scale_fmt, out.scale);
    Real one = exact_zero();
    one = 1;
    out.reciprocal32 = static_cast<std::uint32_t>(round_quotient(one, stored.value, fp32, kRne, kInf));
    const auto inv = word_info(fp32, out.reciprocal32);
    // 6. Each BF16 input times the reciprocal, an FP32 result; 7. clamp to [-448, 448];
    //    8. E4M3FN nearest-even.
    for (std::size_t i = 0; i < row.size(); ++i) {
        const auto xi = word_info(bf16, x[i]);
        if (inv.cls == NINFER_CLASS_INFINITE) {
            // The reciprocal of a scale below 2^-128 is binary32 infinity: a nonzero input's
            // product is an infinity that the clamp takes to +-448; a zero input's product is
            // NaN, which the spec leaves open (suite reading: it stays a zero code of its sign).
            if (mpfr_zero_p(xi.value.backend().data())) {
                out.codes[i] = xi.negative ? 0x80 : 0x00;
                out.suite_reading = true;
            } else {
                out.codes[i] = xi.negative ? 0xFE : 0x7E;
            }
            continue;
        }
        Real p = exact_zero();
        p = xi.value * inv.value;
        std::uint32_t q = 0;
        if (mpfr_zero_p(p.backend().data()))
            q = xi.negative ? 0x80000000u : 0u;
        else
            q = static_cast<std::uint32_t>(round_real(p, fp32, kRne, kInf));
        const auto qi = word_info(fp32, q);
        Real v = exact_zero();
        if (qi.cls == NINFER_CLASS_INFINITE)
            v = qi.negative ? -448 : 448;
        else
            v = qi.value;
        if (v > 448) v = 448;
        if (v < -448) v = -448;
        if (mpfr_zero_p(v.backend().data()))
            out.codes[i] = qi.negative ? 0x80 : 0x00;
        else
            out.codes[i] = static_cast<std::uint8_t>(round_real(v, e4m3, kRne, kSatfinite));
    }
    return out;
}

}  // namespace ninfer::oracle
