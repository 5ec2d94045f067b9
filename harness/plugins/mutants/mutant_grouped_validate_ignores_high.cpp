// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q5/q6 payload_validate never reads the high-bit plane: it validates the base
// nibbles only, so a padding lane or a zero-scale group holding q5 -16 or q6 -32, -16, 16 (base
// nibble 0, a high bit set) passes (storage-layouts.md Section 3: padding lanes hold code 0).
#include "mutant_grouped_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_grouped_validate_ignores_high";
    static constexpr const char *breaks = ninfer::suites::rule::row_split_padding;
    static constexpr const char *also_fails[] = {"grouped.scale.zero_group_codes"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if (c->op != NINFER_OP_payload_validate) return std::nullopt;
        return ninfer::mutants::grouped::on_input_payload(c, r, [](const auto &f, const auto &g, auto &p) {
            if (f.high_bytes) std::fill(p.begin() + static_cast<std::ptrdiff_t>(g.high_offset),
                                        p.begin() + static_cast<std::ptrdiff_t>(g.high_offset + g.high_bytes), std::uint8_t{0});
        });
    }
};
}  // namespace

NINFER_MUTANT(M)
