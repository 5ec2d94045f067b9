// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q1_0 quantizer sets an element's bit only for x > 0, so a zero (+0 or -0)
// stores -d instead of ggml's d (quantize_row_q1_0_ref tests x >= 0.0f).
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void clear_zero_bits(const float *x, std::uint8_t *b) {
    for (int j = 0; j < 128; ++j)
        if (x[j] == 0.0f) b[2 + j / 8] = static_cast<std::uint8_t>(b[2 + j / 8] & ~(1u << (j % 8)));  // the bug
}
struct M {
    static constexpr const char *name = "mutant_gguf_q1_0_zero_sign";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q1_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q1_0>(c, clear_zero_bits); }
};
}  // namespace

NINFER_MUTANT_V2(M)
