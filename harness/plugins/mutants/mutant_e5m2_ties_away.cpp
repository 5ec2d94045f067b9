// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> E5M2 (saturating) rounds ties away from zero (C roundf) instead of to even.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_e5m2_ties_away";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        using namespace ninfer::mutants;
        if (conversion != NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite) return ref;
        if ((src & 0x7F800000u) == 0x7F800000u || (ref & 0x7F) >= 0x7B) return ref;
        return is_tie(NINFER_FORMAT_e5m2, src, ref) ? ref + 1 : ref;  // even side kept below: take the far one
    }
};
}  // namespace

NINFER_MUTANT(M)
