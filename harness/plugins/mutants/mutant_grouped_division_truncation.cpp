// SPDX-License-Identifier: Apache-2.0
// Recipe point division/rtz (suites/RECIPES.md): grouped_absmax normalizes with
// round_f32(x / scale32) and truncates (a C cast (int)(x / d)) instead of the reciprocal multiply
// and round-to-nearest-even of tensor-formats.txt Section 7.2.
#include "mutant_grouped_common.hpp"

namespace {
using Steps = ninfer::mutants::grouped::TruncationSteps<ninfer::mutants::grouped::DivisionSteps>;
struct M {
    static constexpr const char *name = "mutant_grouped_division_truncation";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_ties_to_even;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.group.* row_split.padding"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
