// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV whose profile switch falls through to its default (the contract's step 3,
// NINFER_E_UNSUPPORTED): a compute profile the registry does not name, 0 included, is served
// as f32_accumulate instead of refused.
#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_unknown_profile";
    static constexpr const char *breaks = ninfer::suites::rule::linear_profile;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear || ninfer::abi::find_id(ninfer::abi::kProfiles, c->profile)) return std::nullopt;
        // The bug: the default branch.
        ninfer_call_v2 defaulted = *c;
        defaulted.profile = NINFER_PROFILE_f32_accumulate;
        try {
            return ninfer::reference::linear_call(&defaulted, r);
        } catch (...) {
            return NINFER_E_INTERNAL;
        }
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
