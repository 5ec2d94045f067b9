// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3): fp32 -> e5m2 stochastic rounding that rounds to nearest even when
// x lies within 2^-4 of a last place from a midpoint (the 21 dropped bits within 2^17 of 2^20).
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_nearest_near_ties";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_e5m2_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) {
        const std::uint64_t f = x & 0x1FFFFFu, half = 0x100000u;
        const bool finite = (x & 0x7F800000u) != 0x7F800000u;
        const bool near = (f > half ? f - half : half - f) < (half >> 3);
        if (finite && near) return ninfer::reference::scalar_convert(NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite, x);
        return ninfer::mutants::sr_word(conversion, x, random);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
