// SPDX-License-Identifier: Apache-2.0
// The reference plugin's own GGUF block codecs (tensor-formats.txt, the gguf_* table and its
// paragraph; storage-layouts.md Section 7): ggml's dequantize_row_<type> for the 27 block types
// of abi::kGgufTypes and ggml's deterministic quantize_row_<type>_ref for q8_0, q4_0, q4_1, q5_0,
// q5_1, q8_1, q8_K and the K-quants q2_K .. q6_K (no importance matrix), plus the MXFP4 recipe
// for gguf_mxfp4 blocks. Host binary32 arithmetic in
// ggml's evaluation order, compiled without FMA contraction (gguf.cmake: -ffp-contract=off);
// written from ggml's public sources independently of the oracle, and checked against it
// (tests/test_gguf_blocks.cpp). A NaN produced by an operation is stored as 0x7FC00000.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.h"

namespace ninfer::reference::gguf_blocks {

/// Decode `blocks` consecutive blocks at `in` into blocks * block_values binary32 words
/// (little-endian bytes) at `out`. One function per type: a row loop, no per-element dispatch.
using RowDecoder = void (*)(const std::uint8_t *in, std::uint64_t blocks, std::uint8_t *out);

/// The reference's row decoder of a ggml type id (GGML_TYPE_*), or nullptr.
RowDecoder row_decoder(std::uint32_t ggml_type);

/// binary16 word -> binary32 value (exact; NaN payload and sign kept), as GGML_FP16_TO_FP32.
float fp16_to_f32(std::uint16_t h);
/// binary32 -> binary16 word, nearest-even with IEEE overflow, as GGML_FP32_TO_FP16.
std::uint16_t f32_to_fp16(float f);

/// ggml's nearest_int: f + 12582912.f in binary32, the low mantissa bits minus 2^22.
int nearest_int(float f);

/// The integer a C float-to-int conversion yields for an in-range value (truncation); out of
/// range (a NaN or infinite product of a tiny block) as x86's cvttss2si: INT_MIN.
inline int trunc_int(float v) {
    if (!(v > -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
    return static_cast<int>(v);
}

/// ggml's best_index_mxfp4: the index of the nearest of kvalues_mxfp4 * e to x, the first on ties.
int best_index_mxfp4(float x, float e);

/// The outcome of an encoder: an NINFER_* status and a one-line message.
struct EncodeOutcome {
    std::int32_t status = 0;
    std::string message;
};

/// ggml's quantize_row_<type>_ref of one block of finite values `x` into `b` (the block's bytes,
/// zeroed before), named by the registry's type name; false where ggml's bytes are undefined
/// (iq4_nl below GROUP_MAX_EPS). Declared for every registry row, defined where its
/// ref_quantizer column is 1: gguf_quantize.cpp (q4_0 .. q8_K, iq4_nl, iq4_xs),
/// gguf_quantize_kquants.cpp (q2_K .. q6_K), gguf_quantize_small.cpp (q1_0, q2_0, tq1_0,
/// tq2_0, mxfp4, nvfp4).
using BlockQuantizer = bool (*)(const float *x, std::uint8_t *b);
namespace quantize_block {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) bool name(const float *x, std::uint8_t *b);
NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
}  // namespace quantize_block

/// Whether the reference implements ggml's quantize_row_<type>_ref for the ggml type (the
/// registry's ref_quantizer column).
bool has_reference_quantizer(std::uint32_t ggml_type);

/// quantize_row_<type>_ref over `x.size() / block_values` blocks into `out` (blocks * block
/// bytes). Refuses a non-finite input (NINFER_E_NONFINITE); nothing beyond the refusal is valid.
EncodeOutcome quantize_row_ref(std::uint32_t ggml_type, std::span<const float> x, std::uint8_t *out);

/// One 256-value block of ggml's tq1_0 quantizer with the trit of x * id given
/// (lroundf(v) + 1 as x86-64 glibc gives it in the reference; a seeded bug's variant in a mutant).
void tq1_0_block_with(const float *x, std::uint8_t *b, int (*trit_of)(float));
/// One 64-value block of ggml's nvfp4 quantizer with the UE4M3 rounding of amax / 6 given
/// (ggml_fp32_to_ue4m3 in the reference; a seeded bug's variant in a mutant).
void nvfp4_block_with(const float *x, std::uint8_t *b, std::uint8_t (*scale_of)(float));

/// The MXFP4 recipe (lesson Example 14, ggml's quantize_row_mxfp4_ref with an exact
/// floor(log2(amax))) over 32-value blocks into block_mxfp4 bytes (e, then qs[16]). Refuses a
/// non-finite input (NINFER_E_NONFINITE) and a scale exponent outside E8M0 (NINFER_E_SCALE_OVERFLOW).
EncodeOutcome mxfp4_encode_row(std::span<const float> x, std::uint8_t *out);

}  // namespace ninfer::reference::gguf_blocks
