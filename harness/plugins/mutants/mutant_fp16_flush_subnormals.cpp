// SPDX-License-Identifier: Apache-2.0
// Seeded bug: fp32 -> fp16 flushes subnormal results to signed zero (lesson Example 4 keeps
// gradual underflow down to 2^-24).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_fp16_flush_subnormals";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>;
    static std::uint64_t convert(std::uint32_t conversion, std::uint64_t, std::uint64_t ref) {
        if (conversion != NINFER_CONVERSION_fp32_to_fp16_rne) return ref;
        const std::uint64_t mag = ref & 0x7FFF;
        return (mag != 0 && mag < 0x0400) ? (ref & 0x8000) : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
