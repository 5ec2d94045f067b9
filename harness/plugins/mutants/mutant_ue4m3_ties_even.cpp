// SPDX-License-Identifier: Apache-2.0
// Seeded bug: ggml's UE4M3 scale encoder rounds half up (lesson Example 15, ggml_fp32_to_ue4m3);
// this mutant rounds ties to even instead.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_ue4m3_ties_even";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        using namespace ninfer::mutants;
        if (conversion != NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite) return ref;
        if ((src & 0x7F800000u) == 0x7F800000u || (src >> 31) || ref == 0 || ref >= 0x7E) return ref;
        // Half up landed on the upper neighbour; ties to even keeps the lower one when it is even.
        return (is_tie(NINFER_FORMAT_ue4m3, src, ref - 1) && (ref & 1)) ? ref - 1 : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
