// SPDX-License-Identifier: Apache-2.0
// The reference plugin's own codecs of the scaled floating-point formats (tensor-formats.txt
// Sections 3.3, 3.4 and the fp8_row_maxabs paragraph; storage-layouts.md Sections 4-6): nvfp4 in
// block_scale_k16_m128x4_v1 and the FP8 row formats. Host IEEE binary32 arithmetic and bit
// manipulation, written independently of the oracle and cross-checked against it
// (tests/test_scaled_codec.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// The steps of fp8_row_maxabs (tensor-formats.txt 3.4, the fp8_row_maxabs paragraph), one
/// function per step of the paragraph's order; the reference takes kFp8RowMaxabsSteps, a mutant
/// (harness/plugins/mutants/mutant_scaled_*.cpp) replaces exactly one.
struct Fp8RowMaxabsSteps {
    /// 1. An input (finite binary32 of the source word) as its BF16 value, nearest-even.
    float (*bf16_input)(float x);
    /// 2. binary32(amax / 448) rounded to the scale word (conversion `to_scale`), ties to even.
    std::uint16_t (*scale_word)(std::uint32_t to_scale, std::uint32_t from_scale, float raw32);
    /// 3. The smallest-subnormal rescue of a scale word that rounded to +0.
    std::uint16_t (*rescue)(std::uint16_t scale);
    /// 4. The FP32 product of an input with the FP32 reciprocal `inv32` of the stored scale `s32`.
    float (*normalized)(float x, float s32, float inv32);
    /// 5. The clamp to [-448, 448].
    float (*clamp)(float q);
    /// 6. E4M3FN nearest-even of the clamped product.
    std::uint8_t (*e4m3_code)(float q);
};
extern const Fp8RowMaxabsSteps kFp8RowMaxabsSteps;

/// The layout and reconstruction rules the reference's codecs apply, one function each
/// (storage-layouts.md 4-6, tensor-formats.txt 3.3, 3.4); the reference takes kScaledRules.
struct ScaledRules {
    /// Scale-plane offset of the natural nvfp4 scale word (n, g) of a tensor with K columns.
    std::uint64_t (*swizzle)(std::uint64_t k, std::uint64_t n, std::uint64_t g);
    /// The bit position (0 or 4) of E2M1 element i in its code-plane byte.
    unsigned (*code_shift)(std::uint64_t i);
    /// Whether an E4M3FN block-scale word is valid under nvfp4_e4m3_scale.
    bool (*nvfp4_scale_valid)(std::uint8_t scale);
    /// The divisor index that owns row n of an [N, K] tensor with D divisors.
    std::uint64_t (*divisor_of_row)(std::uint64_t n, std::uint64_t rows, std::uint64_t divisors);
    /// The binary32 weight of an E2M1 code, an E4M3 scale and a binary32 divisor.
    std::uint32_t (*nvfp4_weight)(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor);
    /// Whether an FP8 weight code is valid under fp8_weight_code.
    bool (*fp8_code_valid)(std::uint8_t code);
    Fp8RowMaxabsSteps fp8_row_maxabs;
};
extern const ScaledRules kScaledRules;

/// The reference's own step functions (for a mutant that keeps all but one).
std::uint64_t nvfp4_swizzle(std::uint64_t k, std::uint64_t n, std::uint64_t g);
std::uint64_t nvfp4_divisor_of_row(std::uint64_t n, std::uint64_t rows, std::uint64_t divisors);
std::uint32_t nvfp4_weight(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor);

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
/// The number of divisors D of an nvfp4 payload of `bytes` bytes: (bytes - divisor offset) / 4,
/// a positive integer dividing N (E_SIZE, detail size, otherwise; the shape checked first).
ScaledOutcome nvfp4_payload_divisors(std::uint64_t n, std::uint64_t k, std::uint64_t bytes, std::uint64_t &divisors);
/// Unpack and validate a payload (E_SIZE / E_INVALID_PAYLOAD with the detail).
ScaledOutcome nvfp4_unpack(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                           Nvfp4Planes &out, const ScaledRules &rules = kScaledRules);
/// Pack logical planes: E_SIZE for sizes; E_INVALID_ARGUMENT for a code that is not an E2M1
/// word, a scale invalid under nvfp4_e4m3_scale or a divisor invalid under fp32_weight_divisor.
ScaledOutcome nvfp4_pack(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes, std::vector<std::uint8_t> &payload,
                         const ScaledRules &rules = kScaledRules);
/// The binary32 weights e2m1 * e4m3 / d_w of valid planes.
std::vector<std::uint32_t> nvfp4_values(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes,
                                        const ScaledRules &rules = kScaledRules);
/// A row slice or gather of a payload with D divisors (oracle/SCALED.md R3): the result needs a
/// geometry (N' % 128 == 0), consecutive selected rows of one source form a run, all runs of
/// one length, one divisor per run in selection order; else E_INVALID_ARGUMENT. Rows must be
/// below N (E_INVALID_ARGUMENT). Codes move as whole rows, scale words are re-swizzled; nothing
/// is decoded. The parent's size is the caller's check.
ScaledOutcome nvfp4_select_rows(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                                std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out,
                                const ScaledRules &rules = kScaledRules);
/// NVIDIA's two-level recipe (lesson Example 15, oracle/SCALED.md R5) on [N, K] binary32 words:
/// a valid nvfp4 tensor with one divisor d_w = binary32(2688 / amax). E_NONFINITE for a
/// non-finite input, E_SCALE_OVERFLOW when the tensor scale or d_w is not representable.
ScaledOutcome nvfp4_two_level_encode(std::uint64_t n, std::uint64_t k, std::span<const std::uint32_t> x, Nvfp4Planes &out);

/// The logical planes of an FP8 row tensor: codes (row-major), one multiplier word per row.
struct Fp8RowPlanes {
    std::vector<std::uint8_t> codes;
    std::vector<std::uint16_t> scales;
};
/// Whether `format` is an FP8 row format (its layout and scale word follow from it).
bool fp8_row_known(std::uint32_t format);
ScaledOutcome fp8_row_payload_bytes(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t &bytes);
ScaledOutcome fp8_row_unpack(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                             Fp8RowPlanes &out, const ScaledRules &rules = kScaledRules);
/// Pack logical planes: E_SIZE for sizes; E_INVALID_ARGUMENT for a code 0x7F/0xFF, a multiplier
/// invalid under the format's role, a nonzero code in a +0-multiplier row.
ScaledOutcome fp8_row_pack(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes,
                           std::vector<std::uint8_t> &payload, const ScaledRules &rules = kScaledRules);
/// A row slice or gather (storage-layouts.md 5, 6): code rows and their multipliers in selection
/// order, alignment recomputed; rows must be below N and at least one (E_INVALID_ARGUMENT).
ScaledOutcome fp8_row_select_rows(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                                  std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out);
std::vector<std::uint32_t> fp8_row_values(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes);

/// fp8_row_maxabs of [N, K] source words (fp32 as uint32, bf16/fp16 as uint16 in the low bits).
ScaledOutcome fp8_row_maxabs_encode(std::uint32_t format, std::uint32_t source_format, std::uint64_t n, std::uint64_t k,
                                    std::span<const std::uint32_t> source, Fp8RowPlanes &out,
                                    const Fp8RowMaxabsSteps &steps = kFp8RowMaxabsSteps);

}  // namespace ninfer::reference
