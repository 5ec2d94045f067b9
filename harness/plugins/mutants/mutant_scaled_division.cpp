// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs divides each BF16 input by the stored scale, round_f32(x / s32),
// instead of multiplying by the scale's FP32 reciprocal, round_f32(x * round_f32(1 / s32))
// (tensor-formats.txt 3.4, the fp8_row_maxabs paragraph).
#include "mutant_scaled_common.hpp"

namespace {
float divided(float x, float s32, float) { return x / s32; }
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.normalized = divided; }
struct M {
    static constexpr const char *name = "mutant_scaled_division";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_reciprocal_multiply;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
