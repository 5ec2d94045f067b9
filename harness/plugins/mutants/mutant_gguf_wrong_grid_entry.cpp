// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq2_xxs looks up one grid entry wrong (index 5 reads entry 6 of iq2xxs_grid);
// ggml-tables.json's grid is the data the decoder must use entry for entry.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void iq2_xxs(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint32_t a0 = g::u32(x + 2 + 8 * ib), a1 = g::u32(x + 6 + 8 * ib);
        const float db = d * (0.5f + static_cast<float>(a1 >> 28)) * 0.25f;
        for (int l = 0; l < 4; ++l) {
            std::uint32_t idx = (a0 >> (8 * l)) & 0xFF;
            if (idx == 5) idx = 6;  // the bug
            const std::uint64_t grid = g::tables::iq2xxs_grid[idx];
            const std::uint8_t signs = g::tables::ksigns_iq2xs[(a1 >> (7 * l)) & 127];
            for (int j = 0; j < 8; ++j)
                *y++ = db * static_cast<float>(static_cast<std::uint8_t>(grid >> (8 * j))) * (signs & g::tables::kmask_iq2xs[j] ? -1.0f : 1.0f);
        }
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_wrong_grid_entry";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_iq2_xxs>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_iq2_xxs>(c, iq2_xxs); }
};
}  // namespace

NINFER_MUTANT_V2(M)
