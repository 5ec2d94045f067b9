// SPDX-License-Identifier: Apache-2.0
// The MXFP4 recipe mutants (mutant_gguf_mxfp4_scale_*.cpp, mutant_gguf_mxfp4_elements_rne.cpp;
// suites/RECIPES.md): the lesson's recipe (quant_encode mxfp4_ocp on gguf_mxfp4) with another
// producer's E8M0 scale rule and nearest-even E2M1 elements, each a point of the recipe lattice
// that `fingerprint --op quant_encode` names. Host float arithmetic: the way a producer writes it.
#pragma once

#include <cmath>

#include "mutant_gguf_common.hpp"

namespace ninfer::mutants::gguf::mxfp4 {

/// Nearest-even E2M1 word of v (saturating at 6), the sign of v kept, zero included: a midpoint
/// (0.25, 0.75, ..., 5) goes up only from an odd code.
inline std::uint8_t e2m1_rne(float v) {
    static constexpr float kMid[7] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    const float a = std::fabs(v);
    std::uint8_t c = 0;
    while (c < 7 && (a > kMid[c] || (a == kMid[c] && c % 2 == 1))) ++c;
    return static_cast<std::uint8_t>((std::signbit(v) ? 8 : 0) | c);
}

/// The block (E8M0 byte, 16 bytes of nibbles j | j + 16) of 32 values under the scale exponent
/// `rule(amax)` and nearest-even elements of x * 2^-s; an all-zero block keeps the reference's.
template <class Rule>
void encode_block(const float *x, std::uint8_t *b, Rule rule) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(x[j]));
    if (amax == 0.0f) return;
    const int s = rule(amax);
    if (s + 127 < 0 || s + 127 > 254) return;  // the reference refused it
    b[0] = static_cast<std::uint8_t>(s + 127);
    for (int j = 0; j < 16; ++j)
        b[1 + j] = static_cast<std::uint8_t>(e2m1_rne(std::ldexp(x[j], -s)) | e2m1_rne(std::ldexp(x[j + 16], -s)) << 4);
}

/// After the reference served quant_encode mxfp4_ocp on gguf_mxfp4: every block re-encoded under
/// the scale exponent `rule(amax)` and nearest-even elements.
template <class Rule>
void reencode(const ninfer_call_v2 *c, Rule rule) {
    if (c->method != NINFER_ENCODER_mxfp4_ocp) return;
    repatch_encoded<NINFER_FORMAT_gguf_mxfp4>(c, [rule](const float *x, std::uint8_t *b) { encode_block(x, b, rule); });
}

/// amax = m * 2^f with m in [1, 2): f (frexp's exponent minus one) and m.
inline int binade(float amax, float &m) {
    int e = 0;
    m = 2.0f * std::frexp(amax, &e);
    return e - 1;
}

}  // namespace ninfer::mutants::gguf::mxfp4
