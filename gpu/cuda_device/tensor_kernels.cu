// SPDX-License-Identifier: Apache-2.0
// cuda_device's tensor kernels (tensor-formats.txt Sections 3.2-3.4, 6.2, 7 and the gguf_* table;
// storage-layouts.md Sections 3-7; suites/LINEAR.md). Every rounding step is an IEEE
// round-to-nearest-even device operation named explicitly (__fmul_rn, __fadd_rn, __fsub_rn,
// __fdiv_rn, __frcp_rn, rintf) and the file is compiled with -fmad=false -prec-div=true
// -ftz=false (gpu/CMakeLists.txt): no contraction, no approximate division, no flush of
// subnormals. The weight decoders are weight_decode.cuh's host-device code (exact bit-level
// widenings, named roundings), the same code the host test runs; ggml's tables live in device
// memory (device_ggml_tables). Activation widenings and the encoders' FP8 / BF16 / binary16
// roundings are NVIDIA's intrinsics.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <mutex>

#include "ggml_table_data.hpp"
#include "ninfer/abi/plugin.h"
#include "tensor_kernels.cuh"
#include "weight_decode.cuh"

namespace ninfer::gpu {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kWarpsPerBlock = kThreads / 32;
constexpr std::uint64_t kMaxBlocks = 1u << 20;
/// Activation rows one warp accumulates at once, each weight element decoded once for all.
constexpr int kBatch = 8;

unsigned blocks_for(std::uint64_t threads) {
    return static_cast<unsigned>(std::min<std::uint64_t>((threads + kThreads - 1) / kThreads, kMaxBlocks));
}

__device__ std::uint32_t load16(const std::uint8_t *p) { return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8; }
__device__ std::uint32_t load32(const std::uint8_t *p) { return load16(p) | load16(p + 2) << 16; }

__device__ float half_value(std::uint32_t w) { return __half2float(__ushort_as_half(static_cast<unsigned short>(w))); }
__device__ float bf16_value(std::uint32_t w) { return __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(w))); }
__device__ bool f32_finite(float x) { return (__float_as_uint(x) & 0x7F800000u) != 0x7F800000u; }

/// Source word i of an fp32 / bf16 / fp16 plane as binary32 (the widenings are exact).
__device__ float source_value(std::uint32_t format, const std::uint8_t *p, std::uint64_t i) {
    switch (format) {
    case NINFER_FORMAT_bf16: return bf16_value(load16(p + 2 * i));
    case NINFER_FORMAT_fp16: return half_value(load16(p + 2 * i));
    default: return __uint_as_float(load32(p + 4 * i));
    }
}

// ---- ggml's tables in device memory (uploaded once; weight_decode.cuh GgmlTables) -----------------

__device__ GgmlTableData g_ggml_tables;

using decode::row_result;
using decode::weight_factor;

__global__ void weight_values_kernel(WeightView v, const std::uint8_t *p, GgmlTables t, float *out) {
    const std::uint64_t total = v.n * v.k, stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
        const std::uint64_t n = i / v.k, k = i % v.k;
        // nvfp4's VALUES plane is binary32(e2m1 * e4m3 / d_w): one rounding, the division.
        out[i] = decode::weight_value(v, p, n, k, t);
    }
}

/// One warp per weight row n (grid-stride over rows); its lanes take k = lane, lane + 32, ...
/// and accumulate up to kBatch activation rows with fmaf (one rounding per product-and-add),
/// then a butterfly reduction of the 32 partial sums.
__global__ void linear_f32_kernel(WeightView v, const std::uint8_t *w, GgmlTables t, std::uint32_t act_format, const std::uint8_t *x,
                                  std::uint64_t m_rows, float *y) {
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * kWarpsPerBlock;
    for (std::uint64_t n = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; n < v.n; n += warps) {
        for (std::uint64_t m0 = 0; m0 < m_rows; m0 += kBatch) {
            const int batch = static_cast<int>(m_rows - m0 < kBatch ? m_rows - m0 : kBatch);
            float acc[kBatch];
#pragma unroll
            for (int j = 0; j < kBatch; ++j) acc[j] = 0.0f;
            for (std::uint64_t k = lane; k < v.k; k += 32) {
                const float f = weight_factor(v, w, n, k, t);
#pragma unroll
                for (int j = 0; j < kBatch; ++j)
                    if (j < batch) acc[j] = fmaf(f, source_value(act_format, x, (m0 + j) * v.k + k), acc[j]);
            }
#pragma unroll
            for (int j = 0; j < kBatch; ++j) {
                float s = acc[j];
                for (int off = 16; off > 0; off /= 2) s = __fadd_rn(s, __shfl_xor_sync(0xFFFFFFFFu, s, off));
                if (lane == 0 && j < batch) y[(m0 + j) * v.n + n] = row_result(v, w, n, s);
            }
        }
    }
}

/// quantize_row_q8_1_ref of one block of 32 binary32 activations, as activation values
/// binary16(d) * q; a block with a non-finite value is passed through.
__global__ void quantize_q8_1_kernel(const std::uint8_t *x, std::uint64_t blocks, float *xq) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; b < blocks; b += stride) {
        float amax = 0.0f;
        bool finite = true;
        for (int j = 0; j < 32; ++j) {
            const float v = source_value(NINFER_FORMAT_fp32, x, 32 * b + j);
            finite = finite && f32_finite(v);
            amax = fmaxf(amax, fabsf(v));
        }
        if (!finite) {
            for (int j = 0; j < 32; ++j) xq[32 * b + j] = source_value(NINFER_FORMAT_fp32, x, 32 * b + j);
            continue;
        }
        const float d = __fdiv_rn(amax, 127.0f);
        const float id = d != 0.0f ? __frcp_rn(d) : 0.0f;
        const float d16 = __half2float(__float2half_rn(d));
        for (int j = 0; j < 32; ++j) {
            const float q = roundf(__fmul_rn(source_value(NINFER_FORMAT_fp32, x, 32 * b + j), id));  // ties away from zero
            xq[32 * b + j] = __fmul_rn(d16, q);  // exact: 11 x 8 significant bits
        }
    }
}

// ---- Encoders ----------------------------------------------------------------------------------------

/// grouped_absmax's scale step: scale16 (0x7C00: overflow) and inv32 from amax (> 0).
__device__ std::uint32_t grouped_scale16(float amax, std::int32_t qmax) {
    const float raw_scale32 = __fdiv_rn(amax, static_cast<float>(qmax));
    std::uint32_t scale16 = __half_as_ushort(__float2half_rn(raw_scale32));
    if ((scale16 & 0x7FFFu) == 0x7C00u) return 0x7C00u;
    if (scale16 == 0) scale16 = 0x0001u;  // 2^-24 underflow rescue
    return scale16;
}

/// One thread per logical group (Section 7.2 in its order).
__global__ void grouped_absmax_kernel(WeightView v, std::uint32_t source_format, const std::uint8_t *src, std::uint8_t *p,
                                      std::uint8_t *status) {
    const std::uint64_t total = v.n * v.logical_groups, stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
        const std::uint64_t n = i / v.logical_groups, g = i % v.logical_groups, col0 = g * v.group;
        const std::uint32_t lanes = static_cast<std::uint32_t>(v.k - col0 < v.group ? v.k - col0 : v.group);
        // 1. amax over the group's binary32 values; a non-finite value fails the encoder.
        float amax = 0.0f;
        bool finite = true;
        for (std::uint32_t lane = 0; lane < lanes; ++lane) {
            const float x = source_value(source_format, src, n * v.k + col0 + lane);
            finite = finite && f32_finite(x);
            amax = fmaxf(amax, fabsf(x));
        }
        status[i] = 0;
        if (!finite) {
            status[i] = 1;
            continue;
        }
        // 2. An all-zero group keeps the zero-filled +0 scale and zero codes.
        if (amax == 0.0f) continue;
        // 3. raw_scale32, scale16 with the rescue, refusal of an overflow.
        const std::uint32_t scale16 = grouped_scale16(amax, v.qmax);
        if (scale16 == 0x7C00u) {
            status[i] = 2;
            continue;
        }
        const std::uint64_t idx = n * v.groups_per_row + g;
        p[v.scale_offset + 2 * idx] = static_cast<std::uint8_t>(scale16);
        p[v.scale_offset + 2 * idx + 1] = static_cast<std::uint8_t>(scale16 >> 8);
        // 4. inv32 = round_f32(1 / scale32); codes by the reciprocal multiply, ties-to-even
        //    integral rounding, clamp after rounding.
        const float inv32 = __frcp_rn(half_value(scale16));
        std::uint8_t *base = p + idx * v.base_bytes, *high = p + v.high_offset + idx * v.high_bytes;
        for (std::uint32_t lane = 0; lane < lanes; ++lane) {
            const float normalized32 = __fmul_rn(source_value(source_format, src, n * v.k + col0 + lane), inv32);
            const float rounded = fminf(fmaxf(rintf(normalized32), static_cast<float>(v.qmin)), static_cast<float>(v.qmax));
            const std::uint32_t u = static_cast<std::uint32_t>(static_cast<int>(rounded)) & ((1u << v.code_bits) - 1);
            if (v.code_bits == 8) {
                base[lane] = static_cast<std::uint8_t>(u);
                continue;
            }
            base[lane / 2] |= static_cast<std::uint8_t>((u & 0xFu) << (4 * (lane % 2)));
            const std::uint32_t hb = v.code_bits - 4;
            for (std::uint32_t j = 0; j < hb; ++j) {
                const std::uint32_t t = lane * hb + j;
                high[t / 8] |= static_cast<std::uint8_t>(((u >> (4 + j)) & 1u) << (t % 8));
            }
        }
    }
}

__global__ void grouped_scale_probe_kernel(const std::uint32_t *amax, std::int32_t qmax, std::uint64_t count,
                                           std::uint16_t *scale16, std::uint32_t *inv32) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
        const std::uint32_t s = grouped_scale16(__uint_as_float(amax[i]), qmax);
        scale16[i] = static_cast<std::uint16_t>(s);
        inv32[i] = s == 0x7C00u ? 0u : __float_as_uint(__frcp_rn(half_value(s)));
    }
}

/// An input of fp8_row_maxabs represented as BF16 (nearest-even), as binary32.
__device__ float fp8_row_input(std::uint32_t source_format, const std::uint8_t *src, std::uint64_t i, bool &finite) {
    const float x = source_value(source_format, src, i);
    finite = f32_finite(x);
    const float b = source_format == NINFER_FORMAT_bf16 ? x : __bfloat162float(__float2bfloat16_rn(x));
    finite = finite && f32_finite(b);
    return b;
}

/// One warp per row (Section 3.4's fp8_row_maxabs paragraph in its order).
__global__ void fp8_row_maxabs_kernel(WeightView v, std::uint32_t source_format, const std::uint8_t *src, std::uint8_t *p,
                                      std::uint8_t *status) {
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * kWarpsPerBlock;
    for (std::uint64_t n = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; n < v.n; n += warps) {
        // 1. Inputs as BF16; amax of their magnitudes; a non-finite one refuses the row.
        float amax = 0.0f;
        bool finite = true;
        for (std::uint64_t k = lane; k < v.k; k += 32) {
            bool ok = true;
            amax = fmaxf(amax, fabsf(fp8_row_input(source_format, src, n * v.k + k, ok)));
            finite = finite && ok;
        }
        for (int off = 16; off > 0; off /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xFFFFFFFFu, amax, off));
        finite = __all_sync(0xFFFFFFFFu, finite);
        if (lane == 0) status[n] = finite ? 0 : 1;
        // 2. An all-zero row keeps the zero-filled codes and +0 scale.
        if (!finite || amax == 0.0f) continue;
        // 3. binary32(amax / 448), 4. rounded to the scale type (overflow refused, +0 rescued).
        const float scale32 = __fdiv_rn(amax, 448.0f);
        std::uint32_t scale = v.bf16_scale ? __bfloat16_as_ushort(__float2bfloat16_rn(scale32))
                                           : __half_as_ushort(__float2half_rn(scale32));
        const std::uint32_t inf = v.bf16_scale ? 0x7F80u : 0x7C00u;
        if ((scale & 0x7FFFu) == inf) {
            if (lane == 0) status[n] = 2;
            continue;
        }
        if (scale == 0) scale = 0x0001u;
        const std::uint64_t at = v.interleaved ? n * v.row_stride + v.k : v.row_scales_at + 2 * n;
        if (lane == 0) {
            p[at] = static_cast<std::uint8_t>(scale);
            p[at + 1] = static_cast<std::uint8_t>(scale >> 8);
        }
        // 5. The FP32 reciprocal of the stored scale; 6. product, 7. clamp, 8. E4M3FN nearest-even.
        const float inv = __frcp_rn(v.bf16_scale ? bf16_value(scale) : half_value(scale));
        const bool inv_infinite = !f32_finite(inv);
        for (std::uint64_t k = lane; k < v.k; k += 32) {
            bool ok = true;
            const float x = fp8_row_input(source_format, src, n * v.k + k, ok);
            const bool negative = (__float_as_uint(x) >> 31) != 0;
            std::uint8_t code;
            if (inv_infinite && x == 0.0f) {
                code = negative ? 0x80 : 0x00;  // 0 * inf: the suite's reading keeps a zero code (oracle/SCALED.md R2)
            } else {
                float q = __fmul_rn(x, inv);
                if (!f32_finite(q)) q = negative ? -448.0f : 448.0f;
                q = fminf(fmaxf(q, -448.0f), 448.0f);
                code = static_cast<std::uint8_t>(__nv_cvt_float_to_fp8(q, __NV_SATFINITE, __NV_E4M3));
            }
            p[n * v.row_stride + k] = code;
        }
    }
}

}  // namespace

cudaError_t device_ggml_tables(GgmlTables &out) {
    static std::mutex mutex;
    static bool uploaded = false;
    static GgmlTables tables;
    std::lock_guard<std::mutex> lock(mutex);
    if (!uploaded) {
        static GgmlTableData host;  // 32 KiB: not on the stack
        fill_ggml_tables(host);
        if (cudaError_t e = cudaMemcpyToSymbol(g_ggml_tables, &host, sizeof host); e != cudaSuccess) return e;
        void *d = nullptr;
        if (cudaError_t e = cudaGetSymbolAddress(&d, g_ggml_tables); e != cudaSuccess) return e;
        tables = ggml_tables_of(*static_cast<const GgmlTableData *>(d));
        uploaded = true;
    }
    out = tables;
    return cudaSuccess;
}

cudaError_t launch_weight_values(const WeightView &v, const std::uint8_t *d_payload, float *d_values) {
    if (v.n * v.k == 0) return cudaSuccess;
    GgmlTables t;
    if (cudaError_t e = device_ggml_tables(t); e != cudaSuccess) return e;
    weight_values_kernel<<<blocks_for(v.n * v.k), kThreads>>>(v, d_payload, t, d_values);
    return cudaGetLastError();
}

cudaError_t launch_linear_f32(const WeightView &v, const std::uint8_t *d_payload, std::uint32_t act_format,
                              const std::uint8_t *d_act, std::uint64_t m_rows, float *d_out) {
    if (v.n == 0 || m_rows == 0) return cudaSuccess;
    GgmlTables t;
    if (cudaError_t e = device_ggml_tables(t); e != cudaSuccess) return e;
    linear_f32_kernel<<<blocks_for(v.n * 32), kThreads>>>(v, d_payload, t, act_format, d_act, m_rows, d_out);
    return cudaGetLastError();
}

cudaError_t launch_linear_q8_1(const WeightView &v, const std::uint8_t *d_payload, const std::uint8_t *d_act,
                               std::uint64_t m_rows, float *d_scratch, float *d_out) {
    if (v.n == 0 || m_rows == 0) return cudaSuccess;
    const std::uint64_t blocks = m_rows * v.k / 32;
    quantize_q8_1_kernel<<<blocks_for(blocks), kThreads>>>(d_act, blocks, d_scratch);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    return launch_linear_f32(v, d_payload, NINFER_FORMAT_fp32, reinterpret_cast<const std::uint8_t *>(d_scratch), m_rows, d_out);
}

cudaError_t launch_grouped_absmax(const WeightView &v, std::uint32_t source_format, const std::uint8_t *d_source,
                                  std::uint8_t *d_payload, std::uint8_t *d_status) {
    if (v.n * v.logical_groups == 0) return cudaSuccess;
    grouped_absmax_kernel<<<blocks_for(v.n * v.logical_groups), kThreads>>>(v, source_format, d_source, d_payload, d_status);
    return cudaGetLastError();
}

cudaError_t launch_fp8_row_maxabs(const WeightView &v, std::uint32_t source_format, const std::uint8_t *d_source,
                                  std::uint8_t *d_payload, std::uint8_t *d_status) {
    if (v.n == 0) return cudaSuccess;
    fp8_row_maxabs_kernel<<<blocks_for(v.n * 32), kThreads>>>(v, source_format, d_source, d_payload, d_status);
    return cudaGetLastError();
}

cudaError_t launch_grouped_scale_probe(const std::uint32_t *d_amax, std::int32_t qmax, std::uint64_t count,
                                       std::uint16_t *d_scale16, std::uint32_t *d_inv32) {
    if (count == 0) return cudaSuccess;
    grouped_scale_probe_kernel<<<blocks_for(count), kThreads>>>(d_amax, qmax, count, d_scale16, d_inv32);
    return cudaGetLastError();
}

}  // namespace ninfer::gpu
