// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q5/q6 high-bit stream fills each byte from its most significant bit (stream
// bit t at bit 7 - t % 8), on encode and decode alike (storage-layouts.md Section 3: stream bit
// t is bit t % 8 of byte t / 8).
#include "mutant_grouped_common.hpp"

namespace {
void reverse_high(const ninfer::oracle::GroupedFormat &, const ninfer::oracle::RowSplitGeometry &g,
                  std::vector<std::uint8_t> &p) {
    for (std::uint64_t i = g.high_offset; i < g.high_offset + g.high_bytes; ++i) {
        std::uint8_t b = p[i], v = 0;
        for (int j = 0; j < 8; ++j) v = static_cast<std::uint8_t>(v | ((b >> j) & 1u) << (7 - j));
        p[i] = v;
    }
}
struct M {
    static constexpr const char *name = "mutant_grouped_high_bits_msb_first";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_high_bit_order;
    static constexpr const char *also_fails[] = {
        ninfer::mutants::grouped::kLayoutWide,
        "grouped.code.q5_g64_fp16 grouped.code.q6_g64_fp16"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::on_input_payload(c, r, reverse_high);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::grouped::on_output_payload(c, r, reverse_high); }
};
}  // namespace

NINFER_MUTANT(M)
