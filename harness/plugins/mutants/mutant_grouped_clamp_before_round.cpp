// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax clamps the normalized value before rounding, to the rounding cells
// of the end codes [qmin - 1/2, qmax + 1/2], and not after: a tie at qmax + 1/2 rounds to qmax + 1
// (Section 7.2: the clamp happens after integral rounding). Clamping to [qmin, qmax] before
// rounding is observably the same as after (integers are fixed points of rounding), so this is
// the form of the bug that the suite can see.
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static int code(const ninfer::oracle::GroupedFormat &f, float v) {
        return static_cast<int>(std::nearbyint(std::clamp(v, static_cast<float>(f.qmin) - 0.5f, static_cast<float>(f.qmax) + 0.5f)));
    }
};
struct M {
    static constexpr const char *name = "mutant_grouped_clamp_before_round";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_clamp_after_rounding;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.code.q8_never_emitted grouped.group.*"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
