// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q8_K quantizer rounds iscale * x with roundf (ties away from zero) instead of
// ggml's nearest_int (ties to even below 2^22); bsums follow the codes it stores.
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f, max = 0.0f;
    for (int j = 0; j < 256; ++j)
        if (amax < std::fabs(x[j])) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    if (amax == 0.0f) return;
    const float iscale = -127.0f / max;
    for (int j = 0; j < 256; ++j) b[4 + j] = static_cast<std::uint8_t>(std::min(127, static_cast<int>(std::round(iscale * x[j]))));  // the bug
    for (int s = 0; s < 16; ++s) {
        int sum = 0;
        for (int i = 0; i < 16; ++i) sum += static_cast<std::int8_t>(b[4 + 16 * s + i]);
        b[260 + 2 * s] = static_cast<std::uint8_t>(sum);
        b[261 + 2 * s] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(sum) >> 8);
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q8_k_roundf";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q8_k>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q8_k>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
