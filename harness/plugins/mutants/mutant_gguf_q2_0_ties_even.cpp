// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q2_0 quantizer rounds x * id with nearbyint (ties to even) instead of roundf
// (ties away from zero): x = +-d/2 gets the code of 0 instead of +-d.
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 64; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float id = amax > 0.0f ? 1.0f / amax : 0.0f;
    for (int j = 0; j < 16; ++j) b[2 + j] = 0;
    for (int j = 0; j < 64; ++j) {
        const long long q = std::clamp(static_cast<long long>(g::gn::trunc_int(std::nearbyint(x[j] * id))) + 1, 0LL, 3LL);  // the bug
        b[2 + j / 4] = static_cast<std::uint8_t>(b[2 + j / 4] | q << (2 * (j % 4)));
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q2_0_ties_even";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q2_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q2_0>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
