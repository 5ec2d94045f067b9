// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq4_nl stores the first scale it tries, d = max / -127, instead of the
// least-squares scale of the chosen codes, sum(w*q*x) / sum(w*q*q) (ggml's
// quantize_row_iq4_nl_impl refines d once before storing it). The codes are ggml's.
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

void restore_scale(const float *x, std::uint8_t *b) {
    float amax = 0.0f, max = 0.0f;
    for (int j = 0; j < 32; ++j)
        if (std::fabs(x[j]) > amax) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    const std::uint16_t h = g::gn::f32_to_fp16(max / -127.0f);  // the bug: no least-squares refinement
    b[0] = static_cast<std::uint8_t>(h);
    b[1] = static_cast<std::uint8_t>(h >> 8);
}
struct M {
    static constexpr const char *name = "mutant_gguf_iq4_nl_no_least_squares";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_iq4_nl>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_iq4_nl>(c, restore_scale); }
};
}  // namespace

NINFER_MUTANT_V2(M)
