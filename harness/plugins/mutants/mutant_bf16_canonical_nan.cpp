// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> bf16 writes the canonical NaN 0x7FC0 for every NaN, dropping the sign that
// the lesson's word keeps (lesson Example 5): the main rule catches it on negative NaNs (class
// nan_sign); the payload profile convert.fp32_to_bf16_rne.nan_payload fails too (issue 21).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_bf16_canonical_nan";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>;
    // Issue 21: the spec waives the NaN payload in the main rule; the sign stays (lesson Example 5).
    static constexpr const char *also_fails[] = {"convert.fp32_to_bf16_rne.nan_payload"};
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_bf16_rne || (src & 0x7FFFFFFFu) <= 0x7F800000u) return ref;
        return 0x7FC0;
    }
};
}  // namespace

NINFER_MUTANT(M)
