// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs converts the clamped product to E4M3FN with ties away
// from zero instead of ties to even (tensor-formats.txt 3.4, the fp8_row_maxabs paragraph).
#include "mutant_scaled_common.hpp"

namespace {
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.e4m3_code = ninfer::mutants::scaled::e4m3_ties_away; }
struct M {
    static constexpr const char *name = "mutant_scaled_e4m3_ties_away";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_ties_to_even;
    // A wrong fp8_row_maxabs step also changes the rows that other steps' cases reach
    // (rescued and clamped rows, bit-exact and chunked rows).
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.bit_exact fp8_row_maxabs.chunking"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
