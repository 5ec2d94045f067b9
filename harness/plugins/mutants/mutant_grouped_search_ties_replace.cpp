// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_search lets a candidate replace the incumbent on an EQUAL error (<=), so
// the later of two candidates of equal error wins (tensor-formats.txt Section 7: a candidate
// replaces the incumbent only when its error is strictly smaller).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::SearchSteps {
    template <class W>
    static bool replaces(W error, W best) { return error <= best; }
};
struct M {
    static constexpr const char *name = "mutant_grouped_search_ties_replace";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_search_strict_improvement;
    static constexpr const char *also_fails[] = {"grouped.search.*"};
    static constexpr int within_top = 3;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::search_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
