// SPDX-License-Identifier: Apache-2.0
// Seeded bug: FP16 subnormals with mantissa 32..127 decode one step too large, (m + 1) * 2^-24
// instead of m * 2^-24 (tensor-formats.txt Section 6: exponent 0 gives mantissa * 2^-24): a
// decoder wrong only away from the binade boundaries, caught by the whole 16-bit domain.
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_fp16_decode_subnormal_mid";
    static constexpr const char *breaks = ninfer::suites::rule::decode_id<NINFER_FORMAT_fp16>;
    static std::uint64_t decode(std::uint32_t format, std::uint64_t word, std::uint64_t ref) {
        const std::uint64_t m = word & 0x3FF;
        if (format != NINFER_FORMAT_fp16 || (word & 0x7C00) != 0 || m < 32 || m > 127) return ref;
        const double step = (word & 0x8000) ? -0x1p-24 : 0x1p-24;
        return std::bit_cast<std::uint64_t>(std::bit_cast<double>(ref) + step);
    }
};
}  // namespace

NINFER_MUTANT(M)
