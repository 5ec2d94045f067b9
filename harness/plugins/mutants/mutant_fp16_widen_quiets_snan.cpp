// SPDX-License-Identifier: Apache-2.0
// Seeded departure (torch 1.13, F16C, V8): fp16 -> fp32 quiets a signalling NaN (sign and
// payload kept, quiet bit set). IEEE 754 requires it, so convert.fp16_to_fp32 must pass; only
// the stricter payload profile convert.fp16_to_fp32.nan_payload (signalling kept) refuses it.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_fp16_widen_quiets_snan";
    static constexpr const char *breaks = ninfer::suites::rule::convert_nan_payload_id<NINFER_CONVERSION_fp16_to_fp32>;
    // No bound beyond its rule. IEEE 754 requires the quieting: convert.fp16_to_fp32 itself must pass.
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp16_to_fp32 || (src & 0x7C00u) != 0x7C00u || (src & 0x3FFu) == 0) return ref;
        return ref | 0x00400000u;
    }
};
}  // namespace

NINFER_MUTANT(M)
