// SPDX-License-Identifier: Apache-2.0
// Seeded bug: tq2_0 forgets the offset of its 2-bit codes: q * d instead of (q - 1) * d.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void tq2_0(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x + 64);
    for (int j = 0; j < 64; j += 32)
        for (int l = 0; l < 4; ++l)
            for (int m = 0; m < 32; ++m) *y++ = static_cast<float>((x[j + m] >> (2 * l)) & 3) * d;  // the bug
}
struct M {
    static constexpr const char *name = "mutant_gguf_tq2_0_no_offset";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_tq2_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_tq2_0>(c, tq2_0); }
};
}  // namespace

NINFER_MUTANT_V2(M)
