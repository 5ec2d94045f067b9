// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q4_0 reads byte j's nibbles as elements 2j and 2j + 1 (interleaved) instead of
// j and j + 16 (split halves, ggml's order).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void q4_0(const std::uint8_t *x, float *y) {
    const float d = g::half_at(x);
    for (int j = 0; j < 16; ++j) {
        y[2 * j] = static_cast<float>((x[2 + j] & 0xF) - 8) * d;
        y[2 * j + 1] = static_cast<float>((x[2 + j] >> 4) - 8) * d;
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q4_0_interleaved";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q4_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q4_0>(c, q4_0); }
};
}  // namespace

NINFER_MUTANT_V2(M)
