// SPDX-License-Identifier: Apache-2.0
// cuda_device's view of a weight payload (storage-layouts.md Sections 3, 4, 5, 6, 7; tensor-formats.txt
// Sections 3.2-3.4 and the gguf_* table): the geometry the host derives from the shape and the
// payload size, the host-side validation of the decode boundary (storage-layouts.md Section 8),
// and the unpacking of the logical code, scale and divisor planes. The element decoders
// (weight_decode.cuh, run on the device by tensor_kernels.cu and on the host by the host test)
// read payloads through the same WeightView. The plugin's own code: neither
// the oracle nor the reference plugin is linked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"

#if defined(__CUDACC__)
#define NINFER_HOST_DEVICE __host__ __device__
#else
#define NINFER_HOST_DEVICE
#endif

namespace ninfer::gpu {

/// Which decoder family reads the payload.
enum class WeightKind : std::uint8_t { none, grouped, nvfp4, fp8_rows, gguf };

/// Everything a device decoder needs to find element (n, k) of a payload; trivially copyable,
/// passed to kernels by value. Rows n < n_rows, columns k < k_cols.
struct WeightView {
    std::uint32_t format = 0;
    WeightKind kind = WeightKind::none;
    std::uint64_t n = 0, k = 0;
    std::uint64_t payload_bytes = 0;
    // grouped, row_split_k128_v1 (Section 3)
    std::uint32_t group = 0, code_bits = 0, base_bytes = 0, high_bytes = 0;
    std::int32_t qmin = 0, qmax = 0;
    std::int32_t illegal_word = -1;  ///< the stored word outside the artifact language (q8 0x80, t2 0b10), or -1
    bool offset_codes = false;       ///< q2: stored word u = q + 1 (OFFSET); else two's complement
    bool q2_scales = false;          ///< scale role q2_fp16_scale: every finite word, no zero-scale rule
    std::uint64_t groups_per_row = 0, logical_groups = 0, high_offset = 0, scale_offset = 0;
    // nvfp4, block_scale_k16_m128x4_v1 (Section 4)
    std::uint64_t scales_at = 0, divisors_at = 0, divisors = 0;
    // FP8 rows, row_scale_v1 / row_interleaved_v1 (Sections 5, 6)
    bool interleaved = false, bf16_scale = false;
    std::uint64_t row_stride = 0, row_scales_at = 0;
    // GGUF, ggml_blocks_v1 (Section 7)
    std::uint32_t ggml_type = 0, block_values = 0, block_bytes = 0;
    std::uint64_t row_bytes = 0;
};

/// A refusal: status, payload detail (NINFER_DETAIL_*, 0 for none) and one line; status 0: none.
struct Refusal {
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = 0;
    std::string message;
    explicit operator bool() const { return status != NINFER_OK; }
};

/// Whether cuda_device decodes `format` on the device (quant_decode, linear): every weight format
/// of a tensor family: the six row-split grouped formats (q2, q4, q5, q6, q8, t2), nvfp4, both
/// FP8 row formats and the 27 GGUF types.
bool device_weight_format(std::uint32_t format);

/// The one layout that stores `format`, or 0 when it is no tensor format of a family above.
std::uint32_t weight_layout(std::uint32_t format);

/// Step "shape" of a weight: [N, K] (GGUF: rank 1..16, rows = product of the leading dims) and
/// the format's geometry, sizes checked against uint64 overflow. NINFER_E_SIZE with detail size
/// when refused. `rank` is checked by the caller (rank 2 for grouped, scaled and linear).
Refusal weight_geometry(std::uint32_t format, const std::uint64_t *shape, std::uint32_t rank, WeightView &v);

/// Step "payload size": the payload's bytes for the geometry (nvfp4: D = (bytes - divisor
/// offset) / 4, a positive integer dividing N). NINFER_E_SIZE with detail size when refused.
Refusal weight_payload_size(WeightView &v, std::uint64_t payload_bytes);

/// The decode boundary (storage-layouts.md Section 8): gaps, padding, scales, divisors and
/// codes of a payload of the right size; NINFER_E_INVALID_PAYLOAD with the detail, or none.
/// GGUF payloads: nothing beyond the size (ggml's NaN / Inf scales pass).
Refusal weight_validate(const WeightView &v, const std::uint8_t *payload);

/// The logical planes of a validated payload as quant_decode gives them: CODES one byte per
/// element (grouped: int8 signed code; nvfp4: E2M1 word; FP8: E4M3FN byte), SCALES (grouped: N x
/// logical groups binary16 LE; nvfp4: natural [N, K/16] E4M3FN bytes; FP8: N multipliers LE),
/// DIVISORS (nvfp4: D binary32 LE).
void weight_unpack(const WeightView &v, const std::uint8_t *payload, std::vector<std::uint8_t> &codes,
                   std::vector<std::uint8_t> &scales, std::vector<std::uint8_t> &divisors);

/// nvfp4: byte offset of natural scale word (n, g) in the scale plane (storage-layouts.md Section 4).
NINFER_HOST_DEVICE inline constexpr std::uint64_t nvfp4_scale_offset(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    return ((n / 128) * (k / 64) + g / 4) * 512 + (n % 128 % 32) * 16 + ((n % 128) / 32) * 4 + g % 4;
}

}  // namespace ninfer::gpu
