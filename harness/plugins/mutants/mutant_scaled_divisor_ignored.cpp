// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the nvfp4 weight is reconstructed as e2m1 * e4m3 without the division by
// the row's weight divisor d_w (tensor-formats.txt 3.3: W = e2m1 * e4m3 / d_w).
#include "mutant_scaled_common.hpp"

namespace {
std::uint32_t undivided(std::uint8_t code, std::uint8_t scale, std::uint32_t) {
    return ninfer::reference::nvfp4_weight(code, scale, 0x3F800000u);  // the reference's weight with d_w = 1
}
void patch(ninfer::reference::ScaledRules &r) { r.nvfp4_weight = undivided; }
struct M {
    static constexpr const char *name = "mutant_scaled_divisor_ignored";
    static constexpr const char *breaks = ninfer::suites::rule::nvfp4_reconstruct;
    // A wrong weight shows on every decoded nvfp4 value, zero-scale blocks and owned rows included
    // (the row-ownership cases decode the most values).
    static constexpr const char *also_fails[] = {"nvfp4.scale.zero nvfp4.divisor.row_owner"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
