// SPDX-License-Identifier: Apache-2.0
// Seeded bug: rows_select of a GGUF tensor with GATHER returns the selected rows in ascending
// row order instead of the given order (storage-layouts.md Section 7: gathers of whole rows).
#include <algorithm>
#include <cstring>
#include <vector>

#include "mutant_gguf_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_gguf_gather_sorted";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_rows_gather;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (c->op != NINFER_OP_rows_select || c->layout != NINFER_LAYOUT_ggml_blocks_v1 || !(c->flags & NINFER_FLAG_GATHER))
            return std::nullopt;
        const auto rows_in = ninfer::mutants::v2::input_bytes(c, NINFER_PLANE_ROWS);
        if (rows_in.size() % 8) return std::nullopt;
        std::vector<std::uint64_t> rows(rows_in.size() / 8);
        if (!rows.empty()) std::memcpy(rows.data(), rows_in.data(), rows_in.size());
        std::sort(rows.begin(), rows.end());
        std::vector<ninfer_input_plane> inputs(c->inputs, c->inputs + c->input_count);
        for (auto &p : inputs)
            if (p.name == NINFER_PLANE_ROWS) p.data = rows.data();
        ninfer_call_v2 sorted = *c;
        sorted.inputs = inputs.data();
        return ninfer::mutants::v2::reference_call(&sorted, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
