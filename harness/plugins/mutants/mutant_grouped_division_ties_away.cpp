// SPDX-License-Identifier: Apache-2.0
// Recipe point division/rna (suites/RECIPES.md): grouped_absmax normalizes with
// round_f32(x / scale32) and rounds ties away from zero (C roundf), the lesson's Example 11
// q = round(x / scale) written with roundf, instead of the reciprocal multiply and ties to even
// of tensor-formats.txt Section 7.2.
#include "mutant_grouped_common.hpp"

namespace {
using Steps = ninfer::mutants::grouped::TiesAwaySteps<ninfer::mutants::grouped::DivisionSteps>;
struct M {
    static constexpr const char *name = "mutant_grouped_division_ties_away";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_ties_to_even;
    // the division shows too, and ties away send -127.5 to -128, the one code q8 never emits
    static constexpr const char *also_fails[] = {
        "grouped.absmax.* grouped.group.* row_split.padding grouped.code.q8_never_emitted"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
