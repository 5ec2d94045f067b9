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
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
