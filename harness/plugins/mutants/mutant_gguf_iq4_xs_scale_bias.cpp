// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq4_xs stores its 6-bit sub-block scales with bias 31 instead of 32 (ls = l + 31);
// the codes were chosen at ggml's d * l, so every element decodes one sub-block scale step off.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

void rebias(const float *, std::uint8_t *b) {
    unsigned scales_h = g::u16(b + 2);
    for (int ib = 0; ib < 8; ++ib) {
        const unsigned ls = (b[4 + ib / 2] >> (4 * (ib % 2)) & 0xF) | ((scales_h >> (2 * ib)) & 3) << 4;
        const unsigned biased = (ls - 1) & 63;  // the bug: l + 31
        b[4 + ib / 2] = static_cast<std::uint8_t>((b[4 + ib / 2] & ~(0xF << (4 * (ib % 2)))) | (biased & 0xF) << (4 * (ib % 2)));
        scales_h = (scales_h & ~(3u << (2 * ib))) | (biased >> 4) << (2 * ib);
    }
    b[2] = static_cast<std::uint8_t>(scales_h);
    b[3] = static_cast<std::uint8_t>(scales_h >> 8);
}
struct M {
    static constexpr const char *name = "mutant_gguf_iq4_xs_scale_bias";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_iq4_xs>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_iq4_xs>(c, rebias); }
};
}  // namespace

NINFER_MUTANT_V2(M)
