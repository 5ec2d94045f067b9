// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq4_nl reads kvalues_iq4nl one entry off (nibble n takes entry (n + 1) mod 16).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void iq4_nl(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    for (int j = 0; j < 16; ++j) {
        y[j] = d * static_cast<float>(g::tables::kvalues_iq4nl[((x[2 + j] & 0xF) + 1) & 0xF]);  // the bug
        y[j + 16] = d * static_cast<float>(g::tables::kvalues_iq4nl[((x[2 + j] >> 4) + 1) & 0xF]);
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_iq4_nl_codebook_shift";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_iq4_nl>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_iq4_nl>(c, iq4_nl); }
};
}  // namespace

NINFER_MUTANT_V2(M)
