// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq1_s takes the delta's sign the other way round (qh bit 15 set: +IQ1S_DELTA).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void iq1_s(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint16_t qh = g::u16(x + 34 + 2 * ib);
        const float dl = d * static_cast<float>(2 * ((qh >> 12) & 7) + 1);
        const float delta = qh & 0x8000 ? 0.125f : -0.125f;  // the bug: sign flipped
        for (int l = 0; l < 4; ++l) {
            const std::uint64_t grid = g::tables::iq1s_grid[x[2 + 4 * ib + l] | (((qh >> (3 * l)) & 7) << 8)];
            for (int j = 0; j < 8; ++j) *y++ = dl * (static_cast<float>(static_cast<std::int8_t>(grid >> (8 * j))) + delta);
        }
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_iq1_delta_sign";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_iq1_s>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_iq1_s>(c, iq1_s); }
};
}  // namespace

NINFER_MUTANT_V2(M)
