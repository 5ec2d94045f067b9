// SPDX-License-Identifier: Apache-2.0
// NVIDIA's device conversions as kernels (tensor-formats.txt 3.1, 3.3; OCP FP8 and MX rules as
// NVIDIA implements them): one thread per word, each word through one device intrinsic of
// cuda_bf16.h, cuda_fp16.h, cuda_fp8.h or cuda_fp4.h. Built for sm_90 (H200).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <algorithm>

#include "kernels.cuh"
#include "ninfer/abi/plugin.h"

namespace ninfer::gpu {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint64_t kMaxBlocks = 65535;

__device__ float from_half_bits(unsigned short w) { return __half2float(__ushort_as_half(w)); }
__device__ float from_bf16_bits(unsigned short w) { return __bfloat162float(__ushort_as_bfloat16(w)); }

/// Widening of one word to float through NVIDIA's device path (FP8 and FP4 go through binary16,
/// which holds every value of theirs); 0 for a format without one.
__device__ float widen(std::uint32_t format, std::uint64_t w) {
    switch (format) {
    case NINFER_FORMAT_bf16: return from_bf16_bits(static_cast<unsigned short>(w));
    case NINFER_FORMAT_fp16: return from_half_bits(static_cast<unsigned short>(w));
    case NINFER_FORMAT_e4m3fn:
        return from_half_bits(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(w), __NV_E4M3).x);
    case NINFER_FORMAT_e5m2:
        return from_half_bits(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(w), __NV_E5M2).x);
    case NINFER_FORMAT_e2m1:
        return from_half_bits(__nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(w), __NV_E2M1).x);
    default: return 0.0f;
    }
}

/// One source word through the named conversion's device intrinsic.
__device__ std::uint64_t convert_one(std::uint32_t id, std::uint64_t w) {
    const float x = __uint_as_float(static_cast<unsigned>(w));
    switch (id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: return __bfloat16_as_ushort(__float2bfloat16_rn(x));
    case NINFER_CONVERSION_fp32_to_bf16_rtz: return __bfloat16_as_ushort(__float2bfloat16_rz(x));
    case NINFER_CONVERSION_fp32_to_fp16_rne: return __half_as_ushort(__float2half_rn(x));
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    case NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
    case NINFER_CONVERSION_fp32_to_e5m2_rne_inf: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite: return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
    case NINFER_CONVERSION_bf16_to_fp32: return __float_as_uint(widen(NINFER_FORMAT_bf16, w));
    case NINFER_CONVERSION_fp16_to_fp32: return __float_as_uint(widen(NINFER_FORMAT_fp16, w));
    case NINFER_CONVERSION_e4m3fn_to_fp32: return __float_as_uint(widen(NINFER_FORMAT_e4m3fn, w));
    case NINFER_CONVERSION_e5m2_to_fp32: return __float_as_uint(widen(NINFER_FORMAT_e5m2, w));
    case NINFER_CONVERSION_e2m1_to_fp32: return __float_as_uint(widen(NINFER_FORMAT_e2m1, w));
    default: return 0;
    }
}

__global__ void convert_kernel(std::uint32_t id, const std::uint8_t *in, int in_bytes, std::uint8_t *out,
                               int out_bytes, std::uint64_t n) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        store_word(out, i, out_bytes, convert_one(id, load_word(in, i, in_bytes)));
}

/// decode: the device widening to float, then the device float -> double conversion.
__global__ void decode_kernel(std::uint32_t format, const std::uint8_t *in, int in_bytes, std::uint8_t *out,
                              std::uint64_t n) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        const double d = static_cast<double>(widen(format, load_word(in, i, in_bytes)));
        store_word(out, i, 8, static_cast<std::uint64_t>(__double_as_longlong(d)));
    }
}

unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>(std::min((n + kThreads - 1) / kThreads, kMaxBlocks)); }

}  // namespace

bool cuda_device_has_conversion(std::uint32_t id) {
    switch (id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne:
    case NINFER_CONVERSION_fp32_to_bf16_rtz:
    case NINFER_CONVERSION_fp32_to_fp16_rne:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan:
    case NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite:
    case NINFER_CONVERSION_fp32_to_e5m2_rne_inf:
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite:
    case NINFER_CONVERSION_bf16_to_fp32:
    case NINFER_CONVERSION_fp16_to_fp32:
    case NINFER_CONVERSION_e4m3fn_to_fp32:
    case NINFER_CONVERSION_e5m2_to_fp32:
    case NINFER_CONVERSION_e2m1_to_fp32: return true;
    default: return false;
    }
}

bool cuda_device_has_decode(std::uint32_t format) {
    switch (format) {
    case NINFER_FORMAT_bf16:
    case NINFER_FORMAT_fp16:
    case NINFER_FORMAT_e4m3fn:
    case NINFER_FORMAT_e5m2:
    case NINFER_FORMAT_e2m1: return true;
    default: return false;
    }
}

cudaError_t cuda_device_launch_convert(std::uint32_t id, const std::uint8_t *d_in, int in_bytes, std::uint8_t *d_out,
                                       int out_bytes, std::uint64_t n) {
    if (!cuda_device_has_conversion(id)) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    convert_kernel<<<blocks_for(n), kThreads>>>(id, d_in, in_bytes, d_out, out_bytes, n);
    return cudaGetLastError();
}

cudaError_t cuda_device_launch_decode(std::uint32_t format, const std::uint8_t *d_in, int in_bytes,
                                      std::uint8_t *d_out, std::uint64_t n) {
    if (!cuda_device_has_decode(format)) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    decode_kernel<<<blocks_for(n), kThreads>>>(format, d_in, in_bytes, d_out, n);
    return cudaGetLastError();
}

}  // namespace ninfer::gpu
