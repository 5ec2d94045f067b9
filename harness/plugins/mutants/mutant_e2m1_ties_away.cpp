// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> E2M1 rounds ties away from zero instead of to even (2.5 -> 3.0, 0.25 -> 0.5).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_e2m1_ties_away";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        using namespace ninfer::mutants;
        if (conversion != NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite) return ref;
        if ((src & 0x7F800000u) == 0x7F800000u || (ref & 0x7) >= 0x7) return ref;
        return is_tie(NINFER_FORMAT_e2m1, src, ref) ? ref + 1 : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
