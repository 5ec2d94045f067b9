// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> fp16 saturates a finite overflow to +-65504 instead of rounding to
// infinity (lesson Example 3: 65520 and above become Inf under round to nearest).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_fp16_saturate";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_fp16_rne) return ref;
        const bool finite_src = (src & 0x7F800000u) != 0x7F800000u;
        return (finite_src && (ref & 0x7FFF) == 0x7C00) ? ((ref & 0x8000) | 0x7BFF) : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
