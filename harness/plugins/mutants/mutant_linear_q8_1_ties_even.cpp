// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q8_1 activation quantizer of gguf_q8_1_f32 rounds x * id with ties to even
// (nearbyint) instead of ggml's roundf (ties away from zero) in quantize_row_q8_1_ref.
#include <cmath>

#include "mutant_linear_common.hpp"

namespace {
float ties_even(float v) { return std::nearbyint(v); }
void patch(ninfer::reference::LinearRules &r) { r.q8_1_round = ties_even; }
bool applies(const ninfer_call_v2 *c) { return c->profile == NINFER_PROFILE_gguf_q8_1_f32; }
struct M {
    static constexpr const char *name = "mutant_linear_q8_1_ties_even";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_gguf_q8_1_product>;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
