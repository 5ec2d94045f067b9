// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q5_0 takes the fifth bit of element j from qh bit j + 16 and of element j + 16
// from bit j (the two halves of qh swapped).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void q5_0(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    const std::uint32_t qh = g::u32(x + 2);
    for (int j = 0; j < 16; ++j) {
        const std::uint32_t h0 = (qh >> (j + 12)) & 0x10, h1 = ((qh >> j) << 4) & 0x10;  // the bug: swapped
        y[j] = static_cast<float>(static_cast<int>((x[6 + j] & 0xFu) | h0) - 16) * d;
        y[j + 16] = static_cast<float>(static_cast<int>((x[6 + j] >> 4) | h1) - 16) * d;
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q5_high_bits_swapped";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q5_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q5_0>(c, q5_0); }
};
}  // namespace

NINFER_MUTANT_V2(M)
