// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a grouped GEMV that loops over whole groups only, dropping the products of the last,
// partial group when K % group != 0 (tensor-formats.txt Section 3.2: "K need not be a multiple
// of the group"; storage-layouts.md 3: the last group is padded, its real lanes still count).
#include "mutant_linear_common.hpp"

namespace {
std::uint64_t whole_groups(std::uint32_t format, std::uint64_t k) {
    const std::uint64_t g = ninfer::mutants::linear::group_of(format);
    return g ? k - k % g : k;
}
void patch(ninfer::reference::LinearRules &r) { r.summed_columns = whole_groups; }
bool applies(const ninfer_call_v2 *c) {
    return c->profile == NINFER_PROFILE_f32_sequential && ninfer::mutants::linear::grouped_weight(c);
}
struct M {
    static constexpr const char *name = "mutant_linear_dropped_partial_group";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_bit_exact>;
    // linear.payload holds computed cases too (a valid negative grouped scale): a bug in this
    // profile's arithmetic shows there.
    static constexpr const char *also_fails[] = {"linear.payload"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
