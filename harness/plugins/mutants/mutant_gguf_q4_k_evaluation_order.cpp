// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q4_K evaluates d*sc*q - dmin*m in another order, d1 * (q - m1 / d1), so that one
// binary32 rounding differs from ggml's (d1 * q) - m1. (ggml's products of a binary16 scale and
// small integers are exact in binary32, so reordering products alone changes no word: the
// rounding that moves is the one of the subtraction, now a division and a subtraction.)
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
/// d_sc * (code - dmin_m / d_sc) instead of d_sc * code - dmin_m.
float element(float d_sc, float code, float dmin_m) { return d_sc * (code - dmin_m / d_sc); }  // the bug
void q4_k(const std::uint8_t *x, float *y) { g::q4_k_block(x, y, g::scale_min_k4, element); }
struct M {
    static constexpr const char *name = "mutant_gguf_q4_k_evaluation_order";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q4_k>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q4_k>(c, q4_k); }
};
}  // namespace

NINFER_MUTANT_V2(M)
