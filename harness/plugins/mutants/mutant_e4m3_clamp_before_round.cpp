// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the OCP non-saturating fp32 -> E4M3FN conversion clamps finite values to +-448
// before rounding, so values that round beyond 448 (above 464) give 448 instead of NaN.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_e4m3_clamp_before_round";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan) return ref;
        const bool finite_src = (src & 0x7F800000u) != 0x7F800000u;
        return (finite_src && (ref & 0x7F) == 0x7F) ? ((ref & 0x80) | 0x7E) : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
