// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3): fp32 -> fp16 stochastic rounding that reuses one random value for
// every lane of a call (lane 0's): each lane alone is unbiased, but lanes of the same x round
// together.
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_shared_bits";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_fp16_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_fp16_sr_satfinite;
    static constexpr bool shared_random = true;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) { return ninfer::mutants::sr_word(conversion, x, random); }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
