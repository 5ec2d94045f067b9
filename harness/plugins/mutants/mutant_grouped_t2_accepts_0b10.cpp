// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the t2 decoder and validator accept the word 0b10 (read as -1) although it is
// outside the artifact language (tensor-formats.txt Section 5).
#include "mutant_grouped_common.hpp"

namespace {
void hide_0b10(const ninfer::oracle::GroupedFormat &f, const ninfer::reference::grouped_native::Geometry &g,
               std::vector<std::uint8_t> &p) {
    if (f.code_bits != 2 || f.illegal_word != 0x2) return;
    for (std::uint64_t i = 0; i < g.base_bytes; ++i)
        for (int lane = 0; lane < 4; ++lane)
            if (((p[i] >> (2 * lane)) & 3u) == 2u) p[i] = static_cast<std::uint8_t>(p[i] | 3u << (2 * lane));
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
