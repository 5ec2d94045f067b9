// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 34 item 1): fp32 -> fp16 stochastic rounding that rounds a negative input's
// magnitude up with probability 1 - p (the signed value floored, as x + R on a signed integer
// would): P(up) = (2^r - f) / 2^r for f > 0 dropped bits. At the tie (p = 1/2) it is right.
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_negative_complement";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_fp16_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_fp16_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) {
        constexpr std::uint64_t mask = (1ull << ninfer::mutants::r_of<M>()) - 1;
        const bool finite = (x & 0x7F800000u) != 0x7F800000u;
        const std::uint64_t f = x & mask;  // the dropped bits of a normal result
        if (!(x & 0x80000000u) || !finite || f == 0) return ninfer::mutants::sr_word(conversion, x, random);
        return ninfer::mutants::sr_word(conversion, (x & ~mask) | ((mask + 1 - f) & mask), random);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
