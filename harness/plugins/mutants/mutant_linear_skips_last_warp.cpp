// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a reduction over K in 32-element chunks (one per warp) that skips the last chunk:
// the products of columns [32 * floor((K - 1) / 32), K) never reach the sum (K > 32).
#include "mutant_linear_common.hpp"

namespace {
std::uint64_t all_but_last_warp(std::uint32_t, std::uint64_t k) { return k > 32 ? (k - 1) / 32 * 32 : k; }
void patch(ninfer::reference::LinearRules &r) { r.summed_columns = all_but_last_warp; }
bool applies(const ninfer_call_v2 *c) { return c->profile == NINFER_PROFILE_f32_accumulate; }
struct M {
    static constexpr const char *name = "mutant_linear_skips_last_warp";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_forward_error_bound>;
    // linear.payload holds computed cases too (a valid negative grouped scale): a bug in this
    // profile's arithmetic shows there.
    static constexpr const char *also_fails[] = {"linear.payload"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
