// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an nvfp4 block scale of -0 (0x80) is accepted as valid (tensor-formats.txt
// 3.3: nvfp4_e4m3_scale takes sign-zero words only; +0 is valid, -0 is not), on decode and encode.
#include "mutant_scaled_common.hpp"

namespace {
bool accepts_minus_zero(std::uint8_t s) { return s == 0x80 || ninfer::reference::kScaledRules.nvfp4_scale_valid(s); }
void patch(ninfer::reference::ScaledRules &r) { r.nvfp4_scale_valid = accepts_minus_zero; }
struct M {
    static constexpr const char *name = "mutant_scaled_negative_zero_scale";
    static constexpr const char *breaks = ninfer::suites::rule::nvfp4_scale_validity;
    static constexpr const char *also_fails[] = {"block_scale.decode_boundary"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
