// SPDX-License-Identifier: Apache-2.0
// Seeded bug (recipe point reciprocal/rna, suites/RECIPES.md): grouped_absmax rounds normalized
// values to the nearest integer with ties away from zero (C roundf, as ggml's q8_0 does) instead
// of ties to even (tensor-formats.txt Section 7.2: +2.5 -> 2, -0.5 -> 0).
#include "mutant_grouped_common.hpp"

namespace {
using Steps = ninfer::mutants::grouped::TiesAwaySteps<ninfer::mutants::grouped::AbsmaxSteps>;
struct M {
    static constexpr const char *name = "mutant_grouped_ties_away";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_ties_to_even;
    // ties away also send -127.5 to -128, the one code q8 never emits
    static constexpr const char *also_fails[] = {
        "grouped.absmax.* grouped.group.* row_split.padding grouped.code.q8_never_emitted"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
