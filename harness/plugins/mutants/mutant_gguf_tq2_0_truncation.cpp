// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the tq2_0 quantizer converts x * id by truncation ((int)) instead of lroundf:
// |x| >= d/2 below d becomes 0 instead of +-1.
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 256; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float id = amax != 0.0f ? 1.0f / amax : 0.0f;
    for (int j = 0; j < 64; j += 32)
        for (int m = 0; m < 32; ++m) {
            int q = 0;
            for (int n = 0; n < 4; ++n) {
                const float v = x[4 * j + m + 32 * n] * id;
                const int xi = std::isfinite(v) ? static_cast<int>(v) + 1 : 1;  // the bug: truncation
                q += (xi & 3) << (2 * n);
            }
            b[j + m] = static_cast<std::uint8_t>(q);
        }
}
struct M {
    static constexpr const char *name = "mutant_gguf_tq2_0_truncation";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_tq2_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_tq2_0>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
