// SPDX-License-Identifier: Apache-2.0
// A mutant's bound, read by the kill test (harness/tests/test_mutants_killed.cpp): the rules it may
// fail besides the one it breaks, and how far down the summary's specificity order that rule may
// stand. A mutant struct M declares them beside its `breaks` (both optional):
//   static constexpr const char *also_fails[] = {"rule.a rule.b*", ...};
//       groups of space-separated rule ids; a trailing '*' matches any rest of the id
//   static constexpr int within_top = N;   (default 1: its rule ranks first)
// A mutant without them may fail only its own rule, listed first. NINFER_MUTANT_BOUND(M) exports
// ninfer_mutant_also_fails (the groups joined by spaces) and ninfer_mutant_within_top.
#pragma once

#include <string>

namespace ninfer::mutants {

/// M::also_fails joined by single spaces, or "" when M declares none.
template <class M>
const char *also_fails_text() {
    static const std::string text = [] {
        std::string t;
        if constexpr (requires { M::also_fails[0]; })
            for (const char *group : M::also_fails) t += (t.empty() ? "" : " ") + std::string(group);
        return t;
    }();
    return text.c_str();
}

/// M::within_top, or 1 when M declares none.
template <class M>
constexpr int within_top_of() {
    if constexpr (requires { M::within_top; })
        return M::within_top;
    else
        return 1;
}

}  // namespace ninfer::mutants

#define NINFER_MUTANT_BOUND(M)                                                                                            \
    extern "C" NINFER_EXPORT const char *ninfer_mutant_also_fails(void) { return ninfer::mutants::also_fails_text<M>(); } \
    extern "C" NINFER_EXPORT int ninfer_mutant_within_top(void) { return ninfer::mutants::within_top_of<M>(); }
