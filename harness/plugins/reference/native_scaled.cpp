// SPDX-License-Identifier: Apache-2.0
// nvfp4 in block_scale_k16_m128x4_v1 and the FP8 row formats in row_scale_v1 /
// row_interleaved_v1 (tensor-formats.txt Sections 3.3, 3.4 and the fp8_row_maxabs paragraph;
// storage-layouts.md Sections 4-6), the reference plugin's own way: host binary32 arithmetic
// and the plugin's native word conversions (native.hpp), never the oracle.
#include "native_scaled.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "native.hpp"

namespace ninfer::reference {

static_assert(std::numeric_limits<float>::is_iec559, "the native codecs rely on IEEE binary32");

namespace {

ScaledOutcome refuse(std::int32_t status, std::uint32_t detail, std::string message) {
    return {status, detail, std::move(message)};
}

float f32(std::uint32_t w) { return std::bit_cast<float>(w); }
std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
float word_value(std::uint32_t conversion, std::uint64_t w) { return f32(static_cast<std::uint32_t>(native_convert(conversion, w))); }

std::uint64_t align256(std::uint64_t x) { return (x + 255) / 256 * 256; }

/// The nvfp4 scale-plane offset of natural scale word (n, g) (storage-layouts.md Section 4).
std::uint64_t swizzled(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    const std::uint64_t row_in_tile = n % 128;
    return ((n / 128) * (k / 64) + g / 4) * 512 + (row_in_tile % 32) * 16 + (row_in_tile / 32) * 4 + g % 4;
}

struct Fp8Row {
    bool interleaved;
    std::uint32_t scale_role, scale_to_f32, f32_to_scale;
};
Fp8Row fp8_row(std::uint32_t format) {
    if (format == NINFER_FORMAT_fp8_e4m3fn_row_fp16)
        return {true, NINFER_ROLE_fp16_row_multiplier, NINFER_CONVERSION_fp16_to_fp32, NINFER_CONVERSION_fp32_to_fp16_rne};
    return {false, NINFER_ROLE_bf16_row_multiplier, NINFER_CONVERSION_bf16_to_fp32, NINFER_CONVERSION_fp32_to_bf16_rne};
}

}  // namespace

ScaledOutcome nvfp4_payload_bytes(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::uint64_t &bytes) {
    if (n == 0 || k == 0 || n % 128 != 0 || k % 64 != 0)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] needs N % 128 == 0 and K % 64 == 0", n, k));
    if (divisors == 0 || n % divisors != 0)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("{} divisors do not split {} rows evenly", divisors, n));
    std::uint64_t nk = 0, tail = 0;
    if (__builtin_mul_overflow(n, k, &nk) || __builtin_mul_overflow(divisors, std::uint64_t{4}, &tail) ||
        __builtin_add_overflow(nk / 2 + nk / 16, tail, &bytes))
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] overflows uint64 sizes", n, k));
    return {};  // N*K/2 is a multiple of 4096: the scale plane needs no alignment gap
}

ScaledOutcome nvfp4_unpack(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                           Nvfp4Planes &out) {
    std::uint64_t bytes = 0;
    if (auto o = nvfp4_payload_bytes(n, k, divisors, bytes); o.status != NINFER_OK) return o;
    if (payload.size() != bytes)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("payload is {} bytes, not {}", payload.size(), bytes));
    const std::uint64_t scales_at = n * k / 2, divisors_at = scales_at + n * k / 16, groups = k / 16;
    out.codes.resize(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i) out.codes[i] = static_cast<std::uint8_t>(payload[i / 2] >> (i % 2 ? 4 : 0) & 0xF);
    out.scales.resize(n * groups);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < groups; ++g) {
            const std::uint8_t s = payload[scales_at + swizzled(k, r, g)];
            if (native_verdict(NINFER_ROLE_nvfp4_e4m3_scale, s) != NINFER_VERDICT_VALID)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                              fmt::format("scale 0x{:02x} at row {}, group {}", s, r, g));
            out.scales[r * groups + g] = s;
        }
    out.divisors.resize(divisors);
    for (std::uint64_t d = 0; d < divisors; ++d) {
        std::uint32_t w = 0;
        for (int b = 3; b >= 0; --b) w = w << 8 | payload[divisors_at + 4 * d + static_cast<std::uint64_t>(b)];
        if (native_verdict(NINFER_ROLE_fp32_weight_divisor, w) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_DIVISOR, fmt::format("divisor {} is 0x{:08x}", d, w));
        out.divisors[d] = w;
    }
    return {};
}

ScaledOutcome nvfp4_pack(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes, std::vector<std::uint8_t> &payload) {
    std::uint64_t bytes = 0;
    if (auto o = nvfp4_payload_bytes(n, k, planes.divisors.size(), bytes); o.status != NINFER_OK) return o;
    if (planes.codes.size() != n * k || planes.scales.size() != n * k / 16)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, "codes or scales do not match the shape");
    payload.assign(bytes, 0);
    for (std::uint64_t i = 0; i < n * k; ++i) {
        if (planes.codes[i] > 0xF)
            return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("code 0x{:02x} at element {} is not an E2M1 word", planes.codes[i], i));
        payload[i / 2] = static_cast<std::uint8_t>(payload[i / 2] | planes.codes[i] << (i % 2 ? 4 : 0));
    }
    const std::uint64_t scales_at = n * k / 2, divisors_at = scales_at + n * k / 16, groups = k / 16;
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < groups; ++g) payload[scales_at + swizzled(k, r, g)] = planes.scales[r * groups + g];
    for (std::size_t d = 0; d < planes.divisors.size(); ++d)
        for (int b = 0; b < 4; ++b) payload[divisors_at + 4 * d + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(planes.divisors[d] >> (8 * b));
    return {};
}

std::vector<std::uint32_t> nvfp4_values(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes) {
    std::vector<std::uint32_t> v(n * k);
    const std::uint64_t rows_per_divisor = n / planes.divisors.size(), groups = k / 16;
    for (std::uint64_t r = 0; r < n; ++r) {
        const float d = f32(planes.divisors[r / rows_per_divisor]);
        for (std::uint64_t c = 0; c < k; ++c) {
            // e2m1 * e4m3 is exact in binary32; the one rounding is the division.
            const float w = word_value(NINFER_CONVERSION_e2m1_to_fp32, planes.codes[r * k + c]) *
                            word_value(NINFER_CONVERSION_e4m3fn_to_fp32, planes.scales[r * groups + c / 16]);
            v[r * k + c] = bits(w / d);
        }
    }
    return v;
}

bool fp8_row_known(std::uint32_t format) {
    return format == NINFER_FORMAT_fp8_e4m3fn_row_bf16 || format == NINFER_FORMAT_fp8_e4m3fn_row_fp16;
}

ScaledOutcome fp8_row_payload_bytes(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t &bytes) {
    std::uint64_t nk = 0;
    if (n == 0 || k == 0 || __builtin_mul_overflow(n, k, &nk) || nk > (std::uint64_t{1} << 62) || n > (std::uint64_t{1} << 61))
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] has no FP8 row geometry", n, k));
    bytes = fp8_row(format).interleaved ? nk + 2 * n : align256(nk) + 2 * n;
    return {};
}

ScaledOutcome fp8_row_unpack(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                             Fp8RowPlanes &out) {
    const Fp8Row f = fp8_row(format);
    std::uint64_t bytes = 0;
    if (auto o = fp8_row_payload_bytes(format, n, k, bytes); o.status != NINFER_OK) return o;
    if (payload.size() != bytes)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("payload is {} bytes, not {}", payload.size(), bytes));
    const std::uint64_t stride = f.interleaved ? k + 2 : k, scales_at = f.interleaved ? 0 : align256(n * k);
    if (!f.interleaved)
        for (std::uint64_t b = n * k; b < scales_at; ++b)
            if (payload[b] != 0) return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP, fmt::format("gap byte {} is not zero", b));
    out.codes.resize(n * k);
    out.scales.resize(n);
    for (std::uint64_t r = 0; r < n; ++r) {
        const std::uint64_t at = f.interleaved ? r * stride + k : scales_at + 2 * r;
        const auto s = static_cast<std::uint16_t>(payload[at] | payload[at + 1] << 8);
        if (native_verdict(f.scale_role, s) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE, fmt::format("row {} multiplier 0x{:04x}", r, s));
        out.scales[r] = s;
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint8_t w = payload[r * stride + c];
            if (native_verdict(NINFER_ROLE_fp8_weight_code, w) != NINFER_VERDICT_VALID)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE, fmt::format("code 0x{:02x} at row {}, column {}", w, r, c));
            if (s == 0 && (w & 0x7F) != 0)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES,
                              fmt::format("row {} has a +0 multiplier and code 0x{:02x} at column {}", r, w, c));
            out.codes[r * k + c] = w;
        }
    }
    return {};
}

ScaledOutcome fp8_row_pack(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes,
                           std::vector<std::uint8_t> &payload) {
    const Fp8Row f = fp8_row(format);
    std::uint64_t bytes = 0;
    if (auto o = fp8_row_payload_bytes(format, n, k, bytes); o.status != NINFER_OK) return o;
    if (planes.codes.size() != n * k || planes.scales.size() != n)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, "codes or multipliers do not match the shape");
    payload.assign(bytes, 0);
    const std::uint64_t stride = f.interleaved ? k + 2 : k, scales_at = f.interleaved ? 0 : align256(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        for (std::uint64_t c = 0; c < k; ++c) payload[r * stride + c] = planes.codes[r * k + c];
        const std::uint64_t at = f.interleaved ? r * stride + k : scales_at + 2 * r;
        payload[at] = static_cast<std::uint8_t>(planes.scales[r]);
        payload[at + 1] = static_cast<std::uint8_t>(planes.scales[r] >> 8);
    }
    return {};
}

std::vector<std::uint32_t> fp8_row_values(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes) {
    const Fp8Row f = fp8_row(format);
    std::vector<std::uint32_t> v(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        const float s = word_value(f.scale_to_f32, planes.scales[r]);
        for (std::uint64_t c = 0; c < k; ++c)
            v[r * k + c] = bits(word_value(NINFER_CONVERSION_e4m3fn_to_fp32, planes.codes[r * k + c]) * s);
    }
    return v;
}

ScaledOutcome fp8_row_maxabs_native(std::uint32_t format, std::uint32_t source_format, std::uint64_t n, std::uint64_t k,
                                    std::span<const std::uint32_t> source, Fp8RowPlanes &out) {
    const Fp8Row f = fp8_row(format);
    if (source.size() != n * k) return refuse(NINFER_E_SIZE, 0, "source does not match the shape");
    out.codes.assign(n * k, 0);
    out.scales.assign(n, 0);
    std::vector<float> x(k);
    for (std::uint64_t r = 0; r < n; ++r) {
        float amax = 0.0f;
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint32_t w = source[r * k + c];
            // The input as binary32, exactly; then its BF16 representation (nearest-even).
            const float in = source_format == NINFER_FORMAT_fp32   ? f32(w)
                             : source_format == NINFER_FORMAT_bf16 ? f32(w << 16)
                                                                   : word_value(NINFER_CONVERSION_fp16_to_fp32, w);
            if (!std::isfinite(in)) return refuse(NINFER_E_NONFINITE, 0, fmt::format("row {} column {} is not finite", r, c));
            x[c] = word_value(NINFER_CONVERSION_bf16_to_fp32, native_convert(NINFER_CONVERSION_fp32_to_bf16_rne, bits(in)));
            if (!std::isfinite(x[c])) return refuse(NINFER_E_NONFINITE, 0, fmt::format("row {} column {} is infinite in BF16", r, c));
            amax = std::fmax(amax, std::fabs(x[c]));
        }
        if (amax == 0.0f) continue;  // all-zero row: +0 codes and multiplier
        auto scale = static_cast<std::uint16_t>(native_convert(f.f32_to_scale, bits(amax / 448.0f)));
        if (std::isinf(word_value(f.scale_to_f32, scale)))
            return refuse(NINFER_E_SCALE_OVERFLOW, 0, fmt::format("row {} multiplier overflows", r));
        if (scale == 0) scale = 1;  // the smallest-subnormal rescue
        out.scales[r] = scale;
        const float inv = 1.0f / word_value(f.scale_to_f32, scale);
        for (std::uint64_t c = 0; c < k; ++c) {
            float q = x[c] * inv;
            if (std::isnan(q)) q = x[c];  // zero times an infinite reciprocal: the zero stays (suite reading)
            q = std::fmin(std::fmax(q, -448.0f), 448.0f);
            out.codes[r * k + c] = static_cast<std::uint8_t>(native_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, bits(q)));
        }
    }
    return {};
}

}  // namespace ninfer::reference
