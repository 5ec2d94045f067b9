// SPDX-License-Identifier: Apache-2.0
// Seeded bug: row_split_k128_v1 puts the even lane of a q4/q5/q6 pair in the high nibble,
// on encode and on decode alike (storage-layouts.md Section 3: even lane in the low nibble).
#include "mutant_grouped_common.hpp"

namespace {
void swap_nibbles(const ninfer::oracle::GroupedFormat &f, const ninfer::oracle::RowSplitGeometry &g,
                  std::vector<std::uint8_t> &p) {
    if (f.packing != ninfer::oracle::Packing::NIBBLE_HIGH) return;
    for (std::uint64_t i = 0; i < g.base_bytes; ++i) p[i] = static_cast<std::uint8_t>(p[i] << 4 | p[i] >> 4);
}
struct M {
    static constexpr const char *name = "mutant_grouped_swapped_nibbles";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_nibble_order;
    static constexpr const char *also_fails[] = {
        ninfer::mutants::grouped::kLayoutWide,
        "grouped.code.q4_g64_fp16 grouped.code.q5_g64_fp16 grouped.code.q6_g64_fp16"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::on_input_payload(c, r, swap_nibbles);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::grouped::on_output_payload(c, r, swap_nibbles); }
};
}  // namespace

NINFER_MUTANT(M)
