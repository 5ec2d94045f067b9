// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an nvfp4 decoder (layout_decode, quant_decode) that checks only the block scale's
// sign bit, so the E4M3 NaN 0x7F passes as a scale (tensor-formats.txt 3.3, role
// nvfp4_e4m3_scale: NaN is invalid); -0 and negatives (0xFF included) are still refused, and
// payload_validate and layout_encode are the reference's.
#include "mutant_scaled_common.hpp"

namespace {
bool sign_clear(std::uint8_t s) { return (s & 0x80) == 0; }
void patch(ninfer::reference::ScaledRules &r) { r.nvfp4_scale_valid = sign_clear; }
struct M {
    static constexpr const char *name = "mutant_scaled_decode_accepts_nan_scale";
    static constexpr const char *breaks = ninfer::suites::rule::nvfp4_scale_validity;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (c->op != NINFER_OP_layout_decode && c->op != NINFER_OP_quant_decode) return std::nullopt;
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
