// SPDX-License-Identifier: Apache-2.0
// Seeded departure (Eigen's float_to_bfloat16_rtne, ml_dtypes): fp32 -> bf16 writes the canonical
// quiet NaN of the input's sign, 0x7FC0 | sign, dropping the payload the lesson's word keeps. The
// spec waives the payload for a compute operation (tensor-formats.txt 3.1), so
// convert.fp32_to_bf16_rne must pass; only the payload profile convert.fp32_to_bf16_rne.nan_payload
// (the lesson's (w >> 16) | 0x0040) refuses it (issue 21).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_bf16_signed_canonical_nan";
    static constexpr const char *breaks = ninfer::suites::rule::convert_nan_payload_id<NINFER_CONVERSION_fp32_to_bf16_rne>;
    // No bound beyond its rule. Eigen / ml_dtypes: 0x7FC0 | sign passes the main rule, fails only
    // the payload profile.
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_bf16_rne || (src & 0x7FFFFFFFu) <= 0x7F800000u) return ref;
        return 0x7FC0u | ((src >> 16) & 0x8000u);
    }
};
}  // namespace

NINFER_MUTANT(M)
