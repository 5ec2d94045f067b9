// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs skips the clamp of the scaled input to [-448, 448] before
// the E4M3FN nearest-even conversion, so a product past 464 (a scale that rounded down in the
// subnormal range, an infinite reciprocal) becomes the NaN word 0x7F/0xFF (tensor-formats.txt
// 3.4, the fp8_row_maxabs paragraph).
#include "mutant_scaled_common.hpp"

namespace {
float unclamped(float q) { return q; }
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.clamp = unclamped; }
struct M {
    static constexpr const char *name = "mutant_scaled_no_clamp";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_clamp;
    // A wrong fp8_row_maxabs step also changes the rows that other steps' cases reach
    // (rescued and clamped rows, bit-exact and chunked rows).
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.rescue fp8_row_maxabs.chunking"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
