// SPDX-License-Identifier: Apache-2.0
// Seeded bug: rows_select with GATHER returns the selected rows in ascending row order instead
// of the given order (storage-layouts.md Section 3: a gather of arbitrary rows in a given order).
#include "mutant_grouped_common.hpp"

namespace {

struct M {
    static constexpr const char *name = "mutant_grouped_gather_sorted";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_gather;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if (c->op != NINFER_OP_rows_select || c->layout != NINFER_LAYOUT_row_split_k128_v1 || !(c->flags & NINFER_FLAG_GATHER) ||
            c->aux_bytes % 8)
            return std::nullopt;
        std::vector<std::uint64_t> rows(c->aux_bytes / 8);
        std::memcpy(rows.data(), c->aux, c->aux_bytes);
        std::sort(rows.begin(), rows.end());
        ninfer_call sorted = *c;
        sorted.aux = rows.data();
        return ninfer::mutants::reference_call(&sorted, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
