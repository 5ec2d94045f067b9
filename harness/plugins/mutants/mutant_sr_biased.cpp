// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3): fp32 -> e4m3fn stochastic rounding with >= for >: it rounds up
// when R >= 2^r - f - 1, so P(up) = (f + 1) / 2^r and an exact value moves up when R = 2^r - 1.
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_biased";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_e4m3fn_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) {
        constexpr std::uint32_t all = (1u << ninfer::mutants::r_of<M>()) - 1u;
        const bool finite = (x & 0x7F800000u) != 0x7F800000u;
        if (!finite || (random & all) != all) return ninfer::mutants::sr_word(conversion, x, (random & all) + 1u);
        // R + 1 = 2^r: one last place above the truncation, saturating at 448 (0x7E)
        const std::uint64_t down = ninfer::mutants::sr_word(conversion, x, 0);
        return (down & 0x7Fu) < 0x7Eu ? down + 1 : down;
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
