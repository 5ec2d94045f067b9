// SPDX-License-Identifier: Apache-2.0
// NVIDIA's host conversions behind the registry's conversion ids (tensor-formats.txt 3.1, 3.3;
// OCP FP8 and MX rules as NVIDIA implements them). Host code only: the CUDA headers' host paths.
#include "cuda_host_codecs.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <bit>
#include <limits>

#include "ninfer/abi/plugin.h"
#include "nv_words.hpp"

namespace ninfer::gpu {
namespace {

// NVIDIA's conversions take and return host floats, read here bit for bit (std::bit_cast).
static_assert(std::numeric_limits<float>::is_iec559, "the cuda_host codecs need IEEE 754 binary32 floats");
static_assert(std::numeric_limits<double>::is_iec559, "the cuda_host codecs need IEEE 754 binary64 doubles");

float f32(std::uint64_t w) { return std::bit_cast<float>(static_cast<std::uint32_t>(w)); }
std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

using nv::bf16_bits;
using nv::from_bf16;
using nv::from_half;
using nv::half_bits;

/// Widening to float of a word of a format NVIDIA offers; false when it offers none.
bool to_float(std::uint32_t format, std::uint64_t w, float &out) {
    switch (format) {
    case NINFER_FORMAT_bf16: out = from_bf16(static_cast<unsigned short>(w)); return true;
    case NINFER_FORMAT_fp16: out = from_half(static_cast<unsigned short>(w)); return true;
    case NINFER_FORMAT_e4m3fn:
        out = from_half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(w), __NV_E4M3).x);
        return true;
    case NINFER_FORMAT_e5m2:
        out = from_half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(w), __NV_E5M2).x);
        return true;
    case NINFER_FORMAT_e2m1:
        out = from_half(__nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(w), __NV_E2M1).x);
        return true;
    case NINFER_FORMAT_e8m0: out = from_bf16(__nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(w)).x); return true;
    default: return false;
    }
}

}  // namespace

bool cuda_host_has_conversion(std::uint32_t id) {
    switch (id) {
    case NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite:
    case NINFER_CONVERSION_ue4m3_to_fp32: return false;  // NVIDIA offers no unsigned E4M3
    // The opt-in directions NVIDIA's host headers offer (cuda_bf16.h, cuda_fp16.h _rz/_ru/_rd;
    // cuda_fp4.h cudaRoundZero); no _rna, and the FP8 and E8M0 conversions take no such rounding.
    case NINFER_CONVERSION_fp32_to_bf16_rup:
    case NINFER_CONVERSION_fp32_to_bf16_rdn:
    case NINFER_CONVERSION_fp32_to_fp16_rtz:
    case NINFER_CONVERSION_fp32_to_fp16_rup:
    case NINFER_CONVERSION_fp32_to_fp16_rdn:
    case NINFER_CONVERSION_fp32_to_e2m1_rtz_satfinite: return true;
    default: return id >= NINFER_CONVERSION_fp32_to_bf16_rne && id <= NINFER_CONVERSION_ue4m3_to_fp32;
    }
}

std::uint64_t cuda_host_convert(std::uint32_t id, std::uint64_t src) {
    const float x = f32(src);
    float wide = 0;
    switch (id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: return bf16_bits(__float2bfloat16_rn(x));
    case NINFER_CONVERSION_fp32_to_bf16_rtz: return bf16_bits(__float2bfloat16_rz(x));
    case NINFER_CONVERSION_fp32_to_bf16_rup: return bf16_bits(__float2bfloat16_ru(x));
    case NINFER_CONVERSION_fp32_to_bf16_rdn: return bf16_bits(__float2bfloat16_rd(x));
    case NINFER_CONVERSION_fp32_to_fp16_rne: return half_bits(__float2half_rn(x));
    case NINFER_CONVERSION_fp32_to_fp16_rtz: return half_bits(__float2half_rz(x));
    case NINFER_CONVERSION_fp32_to_fp16_rup: return half_bits(__float2half_ru(x));
    case NINFER_CONVERSION_fp32_to_fp16_rdn: return half_bits(__float2half_rd(x));
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    case NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
    case NINFER_CONVERSION_fp32_to_e5m2_rne_inf: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite: return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
    case NINFER_CONVERSION_fp32_to_e2m1_rtz_satfinite: return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundZero);
    case NINFER_CONVERSION_fp32_to_e8m0_rtz_satfinite: return __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero);
    case NINFER_CONVERSION_fp32_to_e8m0_rup_satfinite: return __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf);
    case NINFER_CONVERSION_bf16_to_fp32: to_float(NINFER_FORMAT_bf16, src, wide); return bits(wide);
    case NINFER_CONVERSION_fp16_to_fp32: to_float(NINFER_FORMAT_fp16, src, wide); return bits(wide);
    case NINFER_CONVERSION_e4m3fn_to_fp32: to_float(NINFER_FORMAT_e4m3fn, src, wide); return bits(wide);
    case NINFER_CONVERSION_e5m2_to_fp32: to_float(NINFER_FORMAT_e5m2, src, wide); return bits(wide);
    case NINFER_CONVERSION_e2m1_to_fp32: to_float(NINFER_FORMAT_e2m1, src, wide); return bits(wide);
    case NINFER_CONVERSION_e8m0_to_fp32: to_float(NINFER_FORMAT_e8m0, src, wide); return bits(wide);
    default: return 0;
    }
}

bool cuda_host_has_decode(std::uint32_t format) {
    float unused = 0;
    return to_float(format, 0, unused);
}

std::uint64_t cuda_host_decode(std::uint32_t format, std::uint64_t word) {
    float x = 0;
    to_float(format, word, x);
    return std::bit_cast<std::uint64_t>(static_cast<double>(x));
}

}  // namespace ninfer::gpu
