// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> bf16 "round to nearest even" implemented as truncation (lesson Example 5
// rounds; dropping the low half is round toward zero).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_bf16_truncation";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_bf16_rne) return ref;
        return ninfer::reference::scalar_convert(NINFER_CONVERSION_fp32_to_bf16_rtz, src);
    }
};
}  // namespace

NINFER_MUTANT(M)
