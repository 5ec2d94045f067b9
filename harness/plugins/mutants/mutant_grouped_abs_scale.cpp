// SPDX-License-Identifier: Apache-2.0
// Seeded bug: quant_decode reconstructs with the magnitude of the stored scale (sign bit
// masked), so a negative scale is taken as positive (tensor-formats.txt Section 6: no absolute
// value, sign mask or unsigned reinterpretation of a stored grouped scale).
#include "mutant_grouped_common.hpp"

namespace {

struct M {
    static constexpr const char *name = "mutant_grouped_abs_scale";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_scale_signed_multiply;
    static constexpr const char *also_fails[] = {"grouped.code.q8_g32_fp16 grouped.reconstruct* grouped.scale.*"};
    static void after(const ninfer_call *c, ninfer_result *r) {
        ninfer::mutants::grouped::rewrite_values(c, r, [](const auto &, std::uint16_t s, int q) {
            return ninfer::reference::grouped_codec::reconstruct(static_cast<std::uint16_t>(s & 0x7FFFu), q);
        });
    }
};
}  // namespace

NINFER_MUTANT(M)
