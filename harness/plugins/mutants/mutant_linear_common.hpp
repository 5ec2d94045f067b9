// SPDX-License-Identifier: Apache-2.0
// Helpers of the `linear` mutants (mutant_linear_*.cpp, ABI v2; the contract of issue 13,
// suites/LINEAR.md): the linear calls a mutant selects are served by the reference's own
// linear_call (linear_ops.hpp) under its rules with ONE step replaced (reference::LinearRules);
// every other call, and the linear calls it does not select, are the reference's. Nothing of the
// reference is copied.
#pragma once

#include <cstdint>
#include <optional>

#include "linear_ops.hpp"
#include "mutant_common_v2.hpp"
#include "ninfer/abi/registry.hpp"

namespace ninfer::mutants::linear {

using reference::LinearRules;

/// The reference's `linear` on a (changed) call under `rules`; no C++ exception crosses the C ABI.
inline std::int32_t reference_linear(const ninfer_call_v2 &call, ninfer_result_v2 *r,
                                     const LinearRules &rules = reference::kLinearRules) {
    try {
        return reference::linear_call(&call, r, rules);
    } catch (...) {
        return NINFER_E_INTERNAL;
    }
}

/// Serve a `linear` call that `Applies` selects under the reference's rules patched by `Patch`;
/// other calls: nullopt (the reference serves them).
template <void (*Patch)(LinearRules &), bool (*Applies)(const ninfer_call_v2 *)>
std::optional<std::int32_t> serve_patched(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r || c->op != NINFER_OP_linear || !Applies(c)) return std::nullopt;
    static const LinearRules rules = [] {
        LinearRules x = reference::kLinearRules;
        Patch(x);
        return x;
    }();
    return reference_linear(*c, r, rules);
}

/// Whether the call's weight is of the grouped family.
inline bool grouped_weight(const ninfer_call_v2 *c) {
    const auto *f = abi::find_format(c->format);
    return f && f->family == abi::Family::grouped;
}

/// The group size of a grouped weight format (0 for another format).
inline std::uint64_t group_of(std::uint32_t format) {
    const auto *g = abi::find_id(abi::kGroupedFormats, format);
    return g ? static_cast<std::uint64_t>(g->group) : 0;
}

}  // namespace ninfer::mutants::linear
