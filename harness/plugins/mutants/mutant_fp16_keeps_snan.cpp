// SPDX-License-Identifier: Apache-2.0
// Seeded bug (numpy 1.24's npy_floatbits_to_halfbits): fp32 -> fp16 keeps a signalling NaN
// signalling, 0x7F800001 -> 0x7C01 (payload shifted, quiet bit not set). IEEE 754 Section 6.2
// makes a converted NaN quiet; the suite's NaN principle (oracle/README.md) follows it.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_fp16_keeps_snan";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_fp16_rne.nan_payload"};
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_fp16_rne || (src & 0x7F800000u) != 0x7F800000u || (src & 0x7FFFFFu) == 0)
            return ref;
        std::uint64_t h = 0x7C00u | ((src & 0x7FFFFFu) >> 13);
        if (h == 0x7C00u) ++h;
        return h | ((src >> 16) & 0x8000u);
    }
};
}  // namespace

NINFER_MUTANT(M)
