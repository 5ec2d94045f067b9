// SPDX-License-Identifier: Apache-2.0
// The scaled weight formats through NVIDIA's host conversions (tensor-formats.txt 3.3, 3.4 and
// the fp8_row_maxabs paragraph): every E2M1, E4M3 and BF16/FP16 word goes through cuda_fp4.h /
// cuda_fp8.h / cuda_bf16.h / cuda_fp16.h (the fp4x2 and fp8x2 pair helpers where NVIDIA offers
// them), the products and quotients are host binary32 operations. The payloads are unpacked and
// packed by the reference plugin's codecs; what the suite measures here is NVIDIA's arithmetic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ninfer::gpu {

/// binary32 words e2m1 * e4m3 / d_w of an nvfp4 tensor [N, K] (codes one E2M1 word per byte,
/// natural scales [N, K/16], D divisors): the pair of codes of a byte through
/// __nv_cvt_fp4x2_to_halfraw2, the scale through __nv_cvt_fp8_to_halfraw, then binary32
/// (code * scale) / divisor.
std::vector<std::uint32_t> nvidia_nvfp4_values(std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> codes,
                                               std::span<const std::uint8_t> scales, std::span<const std::uint32_t> divisors);

/// binary32(c32 * s32) of an FP8 row tensor: codes through __nv_cvt_fp8x2_to_halfraw2, the row
/// multiplier through __bfloat162float / __half2float (`bf16_scales` selects which).
std::vector<std::uint32_t> nvidia_fp8_row_values(std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> codes,
                                                 std::span<const std::uint16_t> scales, bool bf16_scales);

/// fp8_row_maxabs of one row with NVIDIA's conversions: BF16 inputs by __float2bfloat16_rn, the
/// scale by __float2bfloat16_rn / __float2half_rn with the smallest-subnormal rescue, the FP32
/// reciprocal and product, the clamp, E4M3 by __nv_cvt_float2_to_fp8x2 (satfinite). Returns
/// NINFER_OK, NINFER_E_NONFINITE or NINFER_E_SCALE_OVERFLOW.
struct NvidiaRow {
    std::int32_t status = 0;
    std::uint16_t scale = 0;
    std::vector<std::uint8_t> codes;
};
/// `source` holds the row's words of `source_format` (fp32 in 32 bits, bf16/fp16 in the low 16).
NvidiaRow nvidia_fp8_row_maxabs(std::uint32_t source_format, std::span<const std::uint32_t> source, bool bf16_scale);

}  // namespace ninfer::gpu
