// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs uses the source's binary32 values directly instead of
// their BF16 representation (nearest-even) for the row maximum and the products (tensor-formats.txt
// 3.4, the fp8_row_maxabs paragraph: the inputs are BF16).
#include "mutant_scaled_common.hpp"

namespace {
float as_is(float x) { return x; }
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.bf16_input = as_is; }
struct M {
    static constexpr const char *name = "mutant_scaled_fp32_inputs";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_bf16_inputs;
    // A wrong fp8_row_maxabs step also changes the rows that other steps' cases reach
    // (rescued and clamped rows, bit-exact and chunked rows).
    // FP32 inputs also lose the refusal of a source infinite in BF16 (oracle/SCALED.md R2).
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.nonfinite fp8_row_maxabs.bit_exact"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
