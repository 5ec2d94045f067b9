// SPDX-License-Identifier: Apache-2.0
// cuda_device's tensor kernels (tensor-formats.txt Sections 3.2-3.4, 6.2, 7 and the gguf_* table;
// suites/LINEAR.md for `linear`): device decoders of every weight family, the grouped_absmax
// and fp8_row_maxabs encoders, and the GEMV of the `linear` op. Every launcher works on device
// memory on the default stream and returns the launch status (cudaGetLastError), not completion.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "weight_decode.cuh"
#include "weight_view.hpp"

namespace ninfer::gpu {

/// ggml's tables (weight_decode.cuh GgmlTables) in device memory: uploaded on the first call, then
/// the same pointers; thread-safe. The launchers below call it themselves.
cudaError_t device_ggml_tables(GgmlTables &out);

/// quant_decode VALUES: the binary32 word of every element of a validated payload, row-major
/// (grouped: binary32(s32 * q); nvfp4: binary32(e2m1 * e4m3 / d_w); FP8 rows: binary32(c32 * s32);
/// GGUF: ggml's dequantize_row_* binary32 words).
cudaError_t launch_weight_values(const WeightView &v, const std::uint8_t *d_payload, float *d_values);

/// linear under f32_accumulate: Y[m, n] = sum_k W_hat[n, k] * X[m, k] for `m_rows` activation
/// rows of `act_format` words (fp32, bf16, fp16), binary32 accumulation, Y binary32 [m_rows, N].
cudaError_t launch_linear_f32(const WeightView &v, const std::uint8_t *d_payload, std::uint32_t act_format,
                              const std::uint8_t *d_act, std::uint64_t m_rows, float *d_out);

/// linear under gguf_q8_1_f32 (GGUF weights, fp32 activation): each activation row quantized in
/// blocks of 32 as ggml's quantize_row_q8_1_ref does (d = amax / 127, id = d ? 1 / d : 0,
/// q = roundf(x * id)), the activation value taken as binary16(d) * q (exact), then the
/// f32_accumulate product. A block holding a non-finite value passes its values through
/// unquantized (ggml's quantizer has no meaning there; the non-finite rule of `linear` holds).
/// `d_scratch` holds m_rows * K binary32 words.
cudaError_t launch_linear_q8_1(const WeightView &v, const std::uint8_t *d_payload, const std::uint8_t *d_act,
                               std::uint64_t m_rows, float *d_scratch, float *d_out);

/// grouped_absmax (Section 7.2) of N*K source words of `source_format` (fp32, bf16, fp16) into a
/// zero-filled row_split_k128_v1 payload of v's geometry; `d_status` gets one byte per logical
/// group, row-major: 0 encoded, 1 a non-finite source value, 2 the binary16 scale overflows.
cudaError_t launch_grouped_absmax(const WeightView &v, std::uint32_t source_format, const std::uint8_t *d_source,
                                  std::uint8_t *d_payload, std::uint8_t *d_status);

/// fp8_row_maxabs (Section 3.4) of N*K source words into a zero-filled FP8 row payload of v's
/// geometry; `d_status` one byte per row: 0 encoded, 1 a non-finite input (or one whose BF16
/// representation is infinite), 2 the scale overflows the scale type.
cudaError_t launch_fp8_row_maxabs(const WeightView &v, std::uint32_t source_format, const std::uint8_t *d_source,
                                  std::uint8_t *d_payload, std::uint8_t *d_status);

/// The arithmetic of the grouped_absmax scale step on the device, for the boundary tests:
/// for each binary32 amax word, scale16 = binary16(binary32(amax / qmax)) with the 0x0001 rescue
/// (0x7C00 when it overflows) and inv32 = binary32(1 / scale32). `count` words.
cudaError_t launch_grouped_scale_probe(const std::uint32_t *d_amax, std::int32_t qmax, std::uint64_t count,
                                       std::uint16_t *d_scale16, std::uint32_t *d_inv32);

}  // namespace ninfer::gpu
