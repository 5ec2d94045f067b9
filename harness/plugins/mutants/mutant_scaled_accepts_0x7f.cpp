// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an FP8 weight code 0x7F (E4M3FN NaN) is accepted as valid (tensor-formats.txt
// 3.4: 0x7F and 0xFF are not weight codes), on decode and encode.
#include "mutant_scaled_common.hpp"

namespace {
bool accepts_nan(std::uint8_t c) { return c == 0x7F || ninfer::reference::kScaledRules.fp8_code_valid(c); }
void patch(ninfer::reference::ScaledRules &r) { r.fp8_code_valid = accepts_nan; }
struct M {
    static constexpr const char *name = "mutant_scaled_accepts_0x7f";
    static constexpr const char *breaks = ninfer::suites::rule::fp8_row_code_validity;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
