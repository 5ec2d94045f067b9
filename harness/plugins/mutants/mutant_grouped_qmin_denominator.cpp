// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax divides amax by abs(qmin) instead of qmax (8 for Q4, 16 for Q5,
// 32 for Q6; tensor-formats.txt Section 7.2: qmax, not abs(qmin), is the scale denominator).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static float denominator(const ninfer::oracle::GroupedFormat &f) { return static_cast<float>(-f.qmin); }
};
struct M {
    static constexpr const char *name = "mutant_grouped_qmin_denominator";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_denominator_qmax;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.group.* row_split.padding"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
