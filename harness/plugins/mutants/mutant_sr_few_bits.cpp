// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3): fp32 -> bf16 stochastic rounding with r - 8 = 8 random bits
// instead of 16: R's low 8 bits added at 2^(q - 8), the low 8 dropped bits of x ignored, so
// P(up) = floor(f / 256) / 256. It is gfloat's StochasticFastest with srnumbits = 8 (suites/SR.md,
// "Conventions"), a convention no source documents for bf16 (PTX gives bf16x2 16 bits a lane).
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_few_bits";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_bf16_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_bf16_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) {
        const bool finite = (x & 0x7F800000u) != 0x7F800000u;
        return ninfer::mutants::sr_word(conversion, finite ? x & ~0xFFull : x, (random & 0xFFu) << 8);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
