// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp8_row_maxabs keeps a row multiplier that rounded to +0 instead of
// replacing it with the smallest positive subnormal of its type (tensor-formats.txt 3.4, the
// fp8_row_maxabs paragraph); the row's products are then infinite and clamp to +-448.
#include "mutant_scaled_common.hpp"

namespace {
std::uint16_t kept(std::uint16_t s) { return s; }
void patch(ninfer::reference::ScaledRules &r) { r.fp8_row_maxabs.rescue = kept; }
struct M {
    static constexpr const char *name = "mutant_scaled_no_rescue";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_maxabs_rescue;
    // A wrong fp8_row_maxabs step also changes the rows that other steps' cases reach
    // (rescued and clamped rows, bit-exact and chunked rows).
    static constexpr const char *also_fails[] = {"fp8_row_maxabs.clamp fp8_row_maxabs.bit_exact"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
