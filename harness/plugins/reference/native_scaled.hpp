// SPDX-License-Identifier: Apache-2.0
// The reference plugin's own codecs of the scaled floating-point formats (tensor-formats.txt
// Sections 3.3, 3.4 and the fp8_row_maxabs paragraph; storage-layouts.md Sections 4-6): nvfp4 in
// block_scale_k16_m128x4_v1 and the FP8 row formats. Host IEEE binary32 arithmetic and bit
// manipulation, written independently of the oracle and cross-checked against it
// (tests/test_scaled_native.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// A status, a payload detail and a one-line message.
struct ScaledOutcome {
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = 0;
    std::string message;
};

/// The logical planes of an nvfp4 tensor: codes (one E2M1 word per byte, row-major), natural
/// scale matrix [N, K/16], divisors.
struct Nvfp4Planes {
    std::vector<std::uint8_t> codes, scales;
    std::vector<std::uint32_t> divisors;
};

/// payload_bytes of block_scale_k16_m128x4_v1, or the refusal (E_SIZE) of the shape.
ScaledOutcome nvfp4_payload_bytes(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::uint64_t &bytes);
/// Unpack and validate a payload (E_SIZE / E_INVALID_PAYLOAD with the detail).
ScaledOutcome nvfp4_unpack(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                           Nvfp4Planes &out);
/// Pack logical planes (codes must be E2M1 words; E_INVALID_ARGUMENT otherwise; E_SIZE for sizes).
ScaledOutcome nvfp4_pack(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes, std::vector<std::uint8_t> &payload);
/// The binary32 weights e2m1 * e4m3 / d_w of valid planes.
std::vector<std::uint32_t> nvfp4_values(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes);

/// The logical planes of an FP8 row tensor: codes (row-major), one multiplier word per row.
struct Fp8RowPlanes {
    std::vector<std::uint8_t> codes;
    std::vector<std::uint16_t> scales;
};
/// Whether `format` is an FP8 row format (its layout and scale word follow from it).
bool fp8_row_known(std::uint32_t format);
ScaledOutcome fp8_row_payload_bytes(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t &bytes);
ScaledOutcome fp8_row_unpack(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                             Fp8RowPlanes &out);
ScaledOutcome fp8_row_pack(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes,
                           std::vector<std::uint8_t> &payload);
std::vector<std::uint32_t> fp8_row_values(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes);

/// fp8_row_maxabs of [N, K] source words (fp32 as uint32, bf16/fp16 as uint16 in the low bits).
ScaledOutcome fp8_row_maxabs_native(std::uint32_t format, std::uint32_t source_format, std::uint64_t n, std::uint64_t k,
                                    std::span<const std::uint32_t> source, Fp8RowPlanes &out);

}  // namespace ninfer::reference
