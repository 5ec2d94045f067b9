// SPDX-License-Identifier: Apache-2.0
// Seeded bug: E4M3FN subnormals decoded with the exponent of the normal formula, m/8 * 2^(0-7)
// = m * 2^-10, instead of m * 2^-9 (tensor-formats.txt Section 3.3: e == 0 gives m * 2^-9).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_e4m3_decode_subnormal";
    static constexpr const char *breaks = ninfer::suites::rule::decode_id<NINFER_FORMAT_e4m3fn>;
    static std::uint64_t decode(std::uint32_t format, std::uint64_t word, std::uint64_t ref) {
        if (format != NINFER_FORMAT_e4m3fn || (word & 0x78) != 0 || (word & 0x07) == 0) return ref;
        return std::bit_cast<std::uint64_t>(std::bit_cast<double>(ref) / 2);
    }
};
}  // namespace

NINFER_MUTANT(M)
