// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq2_xs reads its sign pattern one entry further in ksigns_iq2xs (index + 1).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void iq2_xs(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint8_t s = x[66 + ib];
        const float db[2] = {d * (0.5f + static_cast<float>(s & 0xF)) * 0.25f, d * (0.5f + static_cast<float>(s >> 4)) * 0.25f};
        for (int l = 0; l < 4; ++l) {
            const std::uint16_t q = g::u16(x + 2 + 2 * (4 * ib + l));
            const std::uint64_t grid = g::tables::iq2xs_grid[q & 511];
            const std::uint8_t signs = g::tables::ksigns_iq2xs[((q >> 9) + 1) & 127];  // the bug: off by one
            for (int j = 0; j < 8; ++j)
                *y++ = db[l / 2] * static_cast<float>(static_cast<std::uint8_t>(grid >> (8 * j))) *
                       (signs & g::tables::kmask_iq2xs[j] ? -1.0f : 1.0f);
        }
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_sign_table_off_by_one";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_iq2_xs>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_iq2_xs>(c, iq2_xs); }
};
}  // namespace

NINFER_MUTANT_V2(M)
