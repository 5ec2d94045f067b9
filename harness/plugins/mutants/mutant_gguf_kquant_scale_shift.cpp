// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q4_K unpacks the high two bits of its 6-bit sub-block scales 4..7 one place too
// high (<< 5 instead of << 4); the mins are unpacked right.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void scale_min(const std::uint8_t *q, int j, int &sc, int &mn) {
    if (j < 4) {
        sc = q[j] & 63;
        mn = q[j + 4] & 63;
    } else {
        sc = ((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 5)) & 0xFF;  // the bug: << 5
        mn = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}
void q4_k(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x), dmin = g::half_at(x + 2);
    const std::uint8_t *q = x + 16;
    for (int is = 0; is < 8; is += 2, q += 32) {
        int sc = 0, mn = 0;
        scale_min(x + 4, is, sc, mn);
        const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(mn);
        scale_min(x + 4, is + 1, sc, mn);
        const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(mn);
        for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0xF) - m1;
        for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_kquant_scale_shift";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q4_k>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q4_k>(c, q4_k); }
};
}  // namespace

NINFER_MUTANT_V2(M)
