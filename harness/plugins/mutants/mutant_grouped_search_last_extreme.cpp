// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_search takes the LAST lane of largest magnitude as the extreme when +amax
// and -amax both occur in a group (oracle/GROUPED.md R3 reads the first), so its full-range
// candidates -m/qmin take the other sign.
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::SearchSteps {
    static bool extreme_is_last() { return true; }
};
struct M {
    static constexpr const char *name = "mutant_grouped_search_last_extreme";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_search_negative_scales;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::search_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
