// SPDX-License-Identifier: Apache-2.0
// The reference plugin's `linear` operator (the contract of issue 13, suites/LINEAR.md;
// tensor-formats.txt Sections 8-9): Y[m, n] = sum_k W_hat[n, k] * X[m, k] for a weight of every
// format whose elements decode to reals, under the compute profiles f32_sequential,
// correctly_rounded, f32_accumulate and gguf_q8_1_f32. Weights are decoded by the reference's own
// family decoders; the arithmetic is linear_arithmetic.hpp's. What reference_table.cpp dispatches to.
#pragma once

#include <cstdint>
#include <span>

#include "scaled_codec.hpp"
#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// The steps of the reference's evaluation a mutant may replace, one function each (the
/// reference takes kLinearRules; harness/plugins/mutants/mutant_linear_*.cpp replace one).
struct LinearRules {
    /// The binary32 running-sum step of the sequential profiles: s + p.
    float (*accumulate)(float s, float p);
    /// How many leading columns of K a row's reduction covers (the reference: all K).
    std::uint64_t (*summed_columns)(std::uint32_t format, std::uint64_t k);
    /// A weight's scale applied to its code value (grouped: s * q; FP8 rows: c * s), exact in binary64.
    double (*apply_scale)(double code, double scale);
    /// The nvfp4 divisor word a row is divided by, from its stored d_w word (the reference: d_w).
    std::uint32_t (*nvfp4_divisor)(std::uint32_t stored);
    /// The integral rounding of x * id in ggml's q8_1 quantizer (roundf: ties away from zero).
    float (*q8_1_round)(float v);
    /// The scaled family's layout rules (nvfp4 scale swizzle, code nibbles, ...).
    const ScaledRules *scaled;
};
extern const LinearRules kLinearRules;

/// Whether `format` is a weight format of `linear` (direct float words, grouped, scaled, GGUF).
bool linear_weight_format(std::uint32_t format);
/// The one layout a weight format is read in (0 for a format that is not a weight format).
std::uint32_t linear_weight_layout(std::uint32_t format);
/// Whether the reference meets `profile` for weights of `format` (every weight format: the three
/// general profiles; gguf_q8_1_f32: the GGUF block types).
bool linear_profile_met(std::uint32_t format, std::uint32_t profile);

/// The capabilities of `linear` (appended to the plugin's table): each weight format in its
/// layout with each profile met, and the calls it refuses by the contract's check order.
std::span<const ninfer_capability_v2> linear_capabilities();

/// Serve one `linear` call in the contract's check order (registry, shape, profile, plane sizes,
/// payload, compute) under `rules`; returns an NINFER_* status.
std::int32_t linear_call(const ninfer_call_v2 *call, ninfer_result_v2 *result, const LinearRules &rules = kLinearRules);

}  // namespace ninfer::reference
