// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the t2 decoder and validator accept the word 0b10 (read as -1) although it is
// outside the artifact language (tensor-formats.txt Section 5).
#include "mutant_grouped_common.hpp"

namespace {
/// The illegal word of a 2-bit two's-complement format (T2's 0b10) rewritten as code -1 (0b11).
void hide_0b10(const ninfer::oracle::GroupedFormat &f, const ninfer::oracle::RowSplitGeometry &g,
               std::vector<std::uint8_t> &p) {
    if (f.packing != ninfer::oracle::Packing::TWO_BIT_LSB || f.illegal_word < 0) return;
    const auto illegal = static_cast<std::uint32_t>(f.illegal_word);
    const std::uint32_t minus_one = ninfer::reference::grouped_codec::code_word(f, -1);
    const std::uint64_t rows = g.scale_bytes / g.scale_row_bytes;
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t grp = 0; grp < g.groups_per_row; ++grp)
            for (std::uint64_t lane = 0; lane < static_cast<std::uint64_t>(f.group); ++lane)
                if (ninfer::oracle::row_split_lane_word(f, g, p, r, grp, lane) == illegal)
                    ninfer::oracle::corrupt_code_word(f, g, p, r, grp, lane, minus_one);
}
struct M {
    static constexpr const char *name = "mutant_grouped_t2_accepts_0b10";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_code_t2_0b10_illegal;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::on_input_payload(c, r, hide_0b10);
    }
};
}  // namespace

NINFER_MUTANT(M)
