// SPDX-License-Identifier: Apache-2.0
// Seeded bug: rows_select accepts an empty gather or a slice of zero rows and returns an empty
// payload (storage-layouts.md Section 3: a row_split_k128_v1 tensor has N >= 1 rows).
#include "mutant_grouped_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_grouped_select_empty";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_gather;
    static constexpr const char *also_fails[] = {"row_split.slice"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if (c->op != NINFER_OP_rows_select || !ninfer::mutants::grouped::payload_format(c)) return std::nullopt;
        const bool gather = (c->flags & NINFER_FLAG_GATHER) != 0;
        const bool empty_slice = !gather && c->aux_bytes == 16 && ninfer::mutants::load_word(c->aux, 1, 8) == 0 &&
                                 ninfer::mutants::load_word(c->aux, 0, 8) <= c->shape[0];
        if (!(gather && c->aux_bytes == 0) && !empty_slice) return std::nullopt;
        r->out_written = 0;
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
