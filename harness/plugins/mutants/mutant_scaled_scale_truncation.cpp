// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs rounds binary32(amax / 448) to the row multiplier's
// type toward zero (truncation) instead of to nearest, ties to even (tensor-formats.txt 3.4, the
// fp8_row_maxabs paragraph).
#include "mutant_scaled_common.hpp"

namespace {
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.scale_word = ninfer::mutants::scaled::scale_word_truncated; }
struct M {
    static constexpr const char *name = "mutant_scaled_scale_truncation";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_scale_rounding;
    // A truncated multiplier changes nearly every encoded row: the bit-exact rows outnumber its own cases.
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.*"};
    static constexpr int within_top = 5;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
