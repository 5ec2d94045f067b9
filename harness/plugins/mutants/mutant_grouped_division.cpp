// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax normalizes with round_f32(x / scale32) instead of the normative
// reciprocal multiply round_f32(x * round_f32(1 / scale32)) (tensor-formats.txt Section 7.2).
#include "mutant_grouped_common.hpp"

namespace {
using Steps = ninfer::mutants::grouped::DivisionSteps;
struct M {
    static constexpr const char *name = "mutant_grouped_division";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_reciprocal_multiply;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
