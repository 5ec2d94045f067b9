// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the grouped binary16 scale validity accepts -0 (tensor-formats.txt Section 6: a
// scale is +0 or a finite nonzero number; -0 is invalid).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_scale_accepts_negative_zero";
    static constexpr const char *breaks = ninfer::suites::rule::validity_id<NINFER_ROLE_grouped_fp16_scale>;
    static std::uint8_t verdict(std::uint32_t role, std::uint64_t word, std::uint8_t ref) {
        return (role == NINFER_ROLE_grouped_fp16_scale && word == 0x8000) ? std::uint8_t{NINFER_VERDICT_VALID} : ref;
    }
};
}  // namespace

NINFER_MUTANT(M)
