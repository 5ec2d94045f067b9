// SPDX-License-Identifier: Apache-2.0
// Helpers of the scaled-family mutants (mutant_scaled_*.cpp, ABI v2): every call of the scaled
// half is served by the reference's own code (scaled_ops.hpp) under its rules with ONE rule or
// step replaced (reference::ScaledRules, scaled_codec.hpp); nothing of the reference is copied.
// The replacement steps that take more than a line live here, each one function.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>

#include "grouped.hpp"
#include "mutant_common_v2.hpp"
#include "scalar_codec.hpp"
#include "scaled_ops.hpp"

namespace ninfer::mutants::scaled {

using reference::ScaledRules;

/// A bound group (mutant_bound.hpp): the nvfp4 layout's placement bugs show in every rule whose
/// cases carry an nvfp4 payload.
inline constexpr const char *kBlockScaleWide = "nvfp4.* block_scale.* lesson.nvfp4_two_level";

/// Serve a call of the scaled half under the reference's rules patched by `Patch`; other calls:
/// nullopt (the reference serves them). No C++ exception crosses the C ABI.
template <void (*Patch)(ScaledRules &)>
std::optional<std::int32_t> serve_patched(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r || reference::is_grouped_call(c) || !reference::is_scaled_call(c)) return std::nullopt;
    static const ScaledRules rules = [] {
        ScaledRules x = reference::kScaledRules;
        Patch(x);
        return x;
    }();
    try {
        return reference::scaled_call(c, r, rules);
    } catch (...) {
        return NINFER_E_INTERNAL;
    }
}

inline float f32_of(std::uint64_t w) { return std::bit_cast<float>(static_cast<std::uint32_t>(w)); }

/// E4M3FN conversion with ties away from zero: the nearest-even word, except that an input
/// exactly halfway between two E4M3FN neighbours (|q| <= 448) takes the one farther from zero.
inline std::uint8_t e4m3_ties_away(float q) {
    const auto even = static_cast<std::uint8_t>(
        reference::scalar_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, std::bit_cast<std::uint32_t>(q)));
    const double a = std::fabs(static_cast<double>(q));
    if (!(a > 0.0 && a <= 448.0)) return even;
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(a), -6) - 3);  // 3 fraction bits, subnormals below 2^-6
    const double m = a / ulp;                                              // exact: a power-of-two scaling
    if (m - std::floor(m) != 0.5) return even;
    const auto away = static_cast<float>(std::copysign((std::floor(m) + 1.0) * ulp, static_cast<double>(q)));
    return static_cast<std::uint8_t>(
        reference::scalar_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, std::bit_cast<std::uint32_t>(away)));
}

/// The row multiplier rounded toward zero (truncation) instead of to nearest-even: the
/// nearest-even word, one word lower when it lies above the positive raw value (an infinite
/// word, the overflow the encoder refuses, is kept).
inline std::uint16_t scale_word_truncated(std::uint32_t to_scale, std::uint32_t from_scale, float raw32) {
    auto w = static_cast<std::uint16_t>(reference::scalar_convert(to_scale, std::bit_cast<std::uint32_t>(raw32)));
    const float v = f32_of(reference::scalar_convert(from_scale, w));
    if (!std::isinf(v) && v > raw32) --w;
    return w;
}

}  // namespace ninfer::mutants::scaled
