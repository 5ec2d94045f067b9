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
    // A wrong fp8_row_maxabs step also changes the rows that other steps' cases reach
    // (rescued and clamped rows, bit-exact and chunked rows).
    // Division by a rescued BF16 multiplier below 2^-128 gives a finite quotient, neither R2
    // outcome (issue 21's tiny-scale rows): rescue's rows may then carry the most mismatches.
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.rescue fp8_row_maxabs.clamp fp8_row_maxabs.bit_exact"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
