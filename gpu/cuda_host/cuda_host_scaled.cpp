// SPDX-License-Identifier: Apache-2.0
// nvfp4 and the FP8 row formats through NVIDIA's host conversions (tensor-formats.txt 3.3, 3.4,
// the fp8_row_maxabs paragraph). Host code only: the CUDA headers' host paths.
#include "cuda_host_scaled.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "ninfer/abi/plugin.h"
#include "nv_words.hpp"

namespace ninfer::gpu {
namespace {

using nv::bf16_bits;
using nv::from_bf16;
using nv::from_half;
using nv::half_bits;

/// A source word as the BF16 value the paragraph starts from ("first represents inputs as BF16").
float bf16_input(std::uint32_t source_format, std::uint32_t w) {
    switch (source_format) {
    case NINFER_FORMAT_bf16: return from_bf16(static_cast<unsigned short>(w));
    case NINFER_FORMAT_fp16: return __bfloat162float(__float2bfloat16_rn(from_half(static_cast<unsigned short>(w))));
    default: return __bfloat162float(__float2bfloat16_rn(std::bit_cast<float>(w)));
    }
}

}  // namespace

std::vector<std::uint32_t> nvidia_nvfp4_values(std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> codes,
                                               std::span<const std::uint8_t> scales, std::span<const std::uint32_t> divisors) {
    std::vector<std::uint32_t> out(n * k);
    const std::uint64_t gpr = k / 16, rows_per_divisor = n / divisors.size();
    for (std::uint64_t r = 0; r < n; ++r) {
        const float d = std::bit_cast<float>(divisors[r / rows_per_divisor]);
        for (std::uint64_t c = 0; c < k; c += 2) {
            const std::uint64_t i = r * k + c;
            // Two E2M1 words of one row, as the payload's byte holds them (low nibble first).
            const auto pair = static_cast<__nv_fp4x2_storage_t>((codes[i] & 0xF) | (codes[i + 1] & 0xF) << 4);
            const __half2_raw h = __nv_cvt_fp4x2_to_halfraw2(pair, __NV_E2M1);
            const float s = from_half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(scales[r * gpr + c / 16]), __NV_E4M3).x);
            out[i] = std::bit_cast<std::uint32_t>(from_half(h.x) * s / d);
            out[i + 1] = std::bit_cast<std::uint32_t>(from_half(h.y) * s / d);
        }
    }
    return out;
}

std::vector<std::uint32_t> nvidia_fp8_row_values(std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> codes,
                                                 std::span<const std::uint16_t> scales, bool bf16_scales) {
    std::vector<std::uint32_t> out(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        const float s = bf16_scales ? from_bf16(scales[r]) : from_half(scales[r]);
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint64_t i = r * k + c;
            const float x = from_half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(codes[i]), __NV_E4M3).x);
            out[i] = std::bit_cast<std::uint32_t>(x * s);
        }
    }
    return out;
}

NvidiaRow nvidia_fp8_row_maxabs(std::uint32_t source_format, std::span<const std::uint32_t> source, bool bf16_scale) {
    NvidiaRow row;
    std::vector<float> x(source.size());
    float amax = 0.0f;
    for (std::size_t i = 0; i < source.size(); ++i) {
        x[i] = bf16_input(source_format, source[i]);
        if (!std::isfinite(x[i])) {
            row.status = NINFER_E_NONFINITE;
            return row;
        }
        amax = std::max(amax, std::fabs(x[i]));
    }
    row.codes.assign(source.size(), 0);
    if (amax == 0.0f) return row;  // positive-zero codes and scale
    const float scale32 = amax / 448.0f;
    row.scale = bf16_scale ? bf16_bits(__float2bfloat16_rn(scale32)) : half_bits(__float2half_rn(scale32));
    if ((row.scale & 0x7FFF) == 0) row.scale = 0x0001;  // the smallest subnormal of the scale type
    const float stored = bf16_scale ? from_bf16(row.scale) : from_half(row.scale);
    if (std::isinf(stored)) {
        row.status = NINFER_E_SCALE_OVERFLOW;
        row.codes.clear();
        return row;
    }
    const float inv = 1.0f / stored;
    for (std::size_t i = 0; i < x.size(); i += 2) {
        float2 y;
        y.x = std::clamp(x[i] * inv, -448.0f, 448.0f);
        y.y = i + 1 < x.size() ? std::clamp(x[i + 1] * inv, -448.0f, 448.0f) : 0.0f;
        const __nv_fp8x2_storage_t pair = __nv_cvt_float2_to_fp8x2(y, __NV_SATFINITE, __NV_E4M3);
        row.codes[i] = static_cast<std::uint8_t>(pair & 0xFF);
        if (i + 1 < x.size()) row.codes[i + 1] = static_cast<std::uint8_t>(pair >> 8);
    }
    return row;
}

}  // namespace ninfer::gpu
