// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q4_K unpacks the high two bits of its 6-bit sub-block scales 4..7 one place too
// high (<< 5 instead of << 4); the mins are unpacked right.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
/// ggml's get_scale_min_k4 with the scales' high bits one place too high.
void scale_min(const std::uint8_t *q, int j, int &sc, int &mn) {
    g::scale_min_k4(q, j, sc, mn);
    if (j >= 4) sc = ((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 5)) & 0xFF;  // the bug: << 5
}
void q4_k(const std::uint8_t *x, float *y) { g::q4_k_block(x, y, scale_min, g::kquant_element); }
struct M {
    static constexpr const char *name = "mutant_gguf_kquant_scale_shift";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q4_k>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q4_k>(c, q4_k); }
};
}  // namespace

NINFER_MUTANT_V2(M)
