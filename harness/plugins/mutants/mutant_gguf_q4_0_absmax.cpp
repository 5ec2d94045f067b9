// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q4_0 quantizer divides the absolute maximum by -8 instead of the signed
// value of largest magnitude (a block whose extreme is negative gets the opposite scale).
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / -8.0f;  // the bug: |max|
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    const std::uint16_t h = g::gn::f32_to_fp16(d);
    b[0] = static_cast<std::uint8_t>(h);
    b[1] = static_cast<std::uint8_t>(h >> 8);
    for (int j = 0; j < 16; ++j) {
        const int x0 = std::min(15, static_cast<int>(static_cast<std::int8_t>(static_cast<int>(x[j] * id + 8.5f))));
        const int x1 = std::min(15, static_cast<int>(static_cast<std::int8_t>(static_cast<int>(x[j + 16] * id + 8.5f))));
        b[2 + j] = static_cast<std::uint8_t>((x0 & 0xF) | (x1 & 0xF) << 4);
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q4_0_absmax";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q4_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q4_0>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
