// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that never looks at the call's layout (the contract's step 1,
// NINFER_E_LAYOUT): a weight of any layout, 0 included, is read as if it were stored in its
// format's own layout (contiguous_le_v1, row_split_k128_v1, ggml_blocks_v1, ...).
#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_layout_ignored";
    static constexpr const char *breaks = ninfer::suites::rule::linear_registry;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear || !ninfer::reference::linear_weight_format(c->format)) return std::nullopt;
        const std::uint32_t own = ninfer::reference::linear_weight_layout(c->format);
        if (c->layout == own) return std::nullopt;
        // The bug: the stored layout is assumed.
        ninfer_call_v2 assumed = *c;
        assumed.layout = own;
        return ninfer::mutants::linear::reference_linear(assumed, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
