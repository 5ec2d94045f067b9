// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the MXFP4 recipe (mxfp4_ocp on gguf_mxfp4) sends a value exactly between two
// E2M1 values times the scale to the later code word instead of the first (lesson Example 14,
// ggml's best_index_mxfp4: strict `<`, the first code wins a tie).
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
int last_best(float x, float e) {
    int best = 0;
    float best_err = std::fabs(static_cast<float>(g::tables::kvalues_fp4[0]) * e - x);
    for (int i = 1; i < 16; ++i) {
        const float err = std::fabs(static_cast<float>(g::tables::kvalues_fp4[i]) * e - x);
        if (err <= best_err) {  // the bug: a tie moves on
            best = i;
            best_err = err;
        }
    }
    return best;
}
void recode(const float *x, std::uint8_t *b) {
    if (b[0] == 0 && std::all_of(b + 1, b + 17, [](std::uint8_t v) { return v == 0; })) return;  // all-zero block
    const float d = b[0] < 2 ? std::bit_cast<float>(0x00200000u << b[0]) : std::bit_cast<float>(static_cast<std::uint32_t>(b[0] - 1) << 23);
    for (int j = 0; j < 16; ++j) b[1 + j] = static_cast<std::uint8_t>(last_best(x[j], d) | last_best(x[j + 16], d) << 4);
}
struct M {
    static constexpr const char *name = "mutant_gguf_mxfp4_ties_up";
    static constexpr const char *breaks = ninfer::suites::rule::lesson_mxfp4;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        if (c->method == NINFER_ENCODER_mxfp4_ocp) g::repatch_encoded<NINFER_FORMAT_gguf_mxfp4>(c, recode);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
