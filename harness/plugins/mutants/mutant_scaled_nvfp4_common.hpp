// SPDX-License-Identifier: Apache-2.0
// The nvfp4 recipe mutants (mutant_scaled_nvfp4_te_*.cpp; suites/RECIPES.md, "nvfp4"): the reference's
// quant_encode nvfp4_two_level on nvfp4 re-encoded by Transformer Engine's NVFP4 recipe
// (transformer_engine/common/cast/nvfp4/core_nvfp4.cuh: compute_global_encode_scaling_factor_FP4,
// compute_decoding_scaling_factor, compute_scaling_coefficient<float>, then nearest-even E2M1 as
// PTX cvt.rn.satfinite.e2m1x2.f32), the E4M3 conversion of the block scale a parameter. Each a
// point of the nvfp4 recipe lattice. Host float arithmetic: the way a producer writes it.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "mutant_common_v2.hpp"
#include "scalar_codec.hpp"
#include "scaled_codec.hpp"

namespace ninfer::mutants::nvfp4 {

/// The word a registry conversion gives for a binary32 value (the reference's scalar codec).
inline std::uint32_t converted(std::uint32_t conversion, float v) {
    return static_cast<std::uint32_t>(reference::scalar_convert(conversion, std::bit_cast<std::uint32_t>(v)));
}

/// Transformer Engine's planes of [n, k] binary32 values: S_enc = min(448 * 6 / amax, FLT_MAX)
/// (1 for a zero amax) is the stored d_w; per block the E4M3 code of amax * (S_enc * (1 / 6))
/// under `ScaleConversion`; each element the nearest-even E2M1 of x * min(1 / (e4m3 * (1 /
/// S_enc)), FLT_MAX).
template <std::uint32_t ScaleConversion>
reference::Nvfp4Planes te_planes(std::uint64_t n, std::uint64_t k, const std::vector<float> &x) {
    float amax = 0.0f;
    for (const float v : x) amax = std::fmax(amax, std::fabs(v));
    float s_enc = std::fmin(448.0f * 6.0f / amax, FLT_MAX);
    if (amax == 0.0f || s_enc == 0.0f) s_enc = 1.0f;
    const float s_dec = 1.0f / s_enc, sixth = 1.0f / 6.0f;
    reference::Nvfp4Planes p;
    p.codes.assign(n * k, 0);
    p.scales.assign(n * k / 16, 0);
    p.divisors = {std::bit_cast<std::uint32_t>(s_enc)};
    for (std::uint64_t b = 0; b < n * k / 16; ++b) {
        float bamax = 0.0f;
        for (std::uint64_t i = 0; i < 16; ++i) bamax = std::fmax(bamax, std::fabs(x[b * 16 + i]));
        const auto code = static_cast<std::uint8_t>(converted(ScaleConversion, bamax * (s_enc * sixth)));
        p.scales[b] = code;
        const auto scale = std::bit_cast<float>(static_cast<std::uint32_t>(reference::scalar_convert(NINFER_CONVERSION_e4m3fn_to_fp32, code)));
        const float rcp = std::fmin(1.0f / (scale * s_dec), FLT_MAX);
        for (std::uint64_t i = 0; i < 16; ++i)
            p.codes[b * 16 + i] = static_cast<std::uint8_t>(converted(NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, x[b * 16 + i] * rcp));
    }
    return p;
}

/// After the reference served quant_encode nvfp4_two_level on nvfp4: the payload re-encoded by
/// te_planes (a refused call keeps the reference's refusal).
template <std::uint32_t ScaleConversion>
void te_reencode(const ninfer_call_v2 *c) {
    if (c->op != NINFER_OP_quant_encode || c->format != NINFER_FORMAT_nvfp4 || c->method != NINFER_ENCODER_nvfp4_two_level || c->rank != 2)
        return;
    const auto src = v2::input_bytes(c, NINFER_PLANE_SOURCE);
    const auto out = v2::output_bytes(c, NINFER_PLANE_PAYLOAD);
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    if (out.empty() || k % 16 != 0 || src.size() != n * k * 4) return;
    std::vector<float> x(n * k);
    std::memcpy(x.data(), src.data(), src.size());
    std::vector<std::uint8_t> payload;
    if (reference::nvfp4_pack(n, k, te_planes<ScaleConversion>(n, k, x), payload).status == NINFER_OK && payload.size() == out.size())
        std::memcpy(out.data(), payload.data(), out.size());
}

}  // namespace ninfer::mutants::nvfp4
