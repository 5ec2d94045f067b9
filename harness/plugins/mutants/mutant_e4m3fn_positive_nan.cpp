// SPDX-License-Identifier: Apache-2.0
// Seeded departure: fp32 -> e4m3fn (saturating) writes the one positive NaN word 0x7F for every
// NaN input, dropping its sign. IEEE 754-2019 6.3 leaves the sign of a NaN result unspecified,
// so convert.fp32_to_e4m3fn_rne_satfinite must pass; only the sign profile
// convert.fp32_to_e4m3fn_rne_satfinite.nan_sign refuses it (issue 21, section 4).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_e4m3fn_positive_nan";
    static constexpr const char *breaks = ninfer::suites::rule::convert_nan_sign_id<NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite>;
    // No bound beyond its rule. IEEE 754 6.3 leaves a NaN's sign open: only the sign profile
    // (issue 21, section 4) fails.
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite || (src & 0x7FFFFFFFu) <= 0x7F800000u) return ref;
        return 0x7Fu;
    }
};
}  // namespace

NINFER_MUTANT(M)
