// SPDX-License-Identifier: Apache-2.0
// Seeded bug: row_split_k128_v1 encoders fill the padding lanes of a partial last group with
// code 1 instead of code 0 (storage-layouts.md Section 3: padding lanes hold code 0).
#include "mutant_grouped_common.hpp"

namespace {
void pad_with_one(const ninfer::oracle::GroupedFormat &f, const ninfer::oracle::RowSplitGeometry &g,
                  std::vector<std::uint8_t> &p, std::uint64_t rows, std::uint64_t k) {
    if (k % static_cast<std::uint64_t>(f.group) == 0) return;
    const auto G = static_cast<std::uint64_t>(f.group), last = k / G;
    const std::uint32_t one = ninfer::reference::grouped_codec::code_word(f, 1);
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t lane = k % G; lane < G; ++lane) ninfer::oracle::corrupt_padding_lane(f, g, k, p, r, last, lane, one);
}
struct M {
    static constexpr const char *name = "mutant_grouped_nonzero_padding";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_padding;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.group.partial grouped.search.* row_split.*"};
    static void after(const ninfer_call *c, ninfer_result *r) {
        if (c->op == NINFER_OP_rows_select) return;
        ninfer::mutants::grouped::on_output_payload(c, r, [c](const auto &f, const auto &g, auto &p) {
            pad_with_one(f, g, p, c->shape[0], c->shape[1]);
        });
    }
};
}  // namespace

NINFER_MUTANT(M)
