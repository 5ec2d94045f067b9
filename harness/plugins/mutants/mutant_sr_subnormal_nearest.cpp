// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 34 item 1): fp32 -> e4m3fn stochastic rounding with a different rule for
// subnormal results: where the result is subnormal (or zero) it rounds to nearest, ties away,
// whatever the random bits (a separate subnormal path that forgot the random value).
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_subnormal_nearest";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_e4m3fn_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) {
        const auto down = ninfer::mutants::sr_word(conversion, x, 0);
        const bool finite = (x & 0x7F800000u) != 0x7F800000u;
        if (!finite || (down & 0x78u) != 0) return ninfer::mutants::sr_word(conversion, x, random);
        // R = 2^(r-1): half a last place added, then truncated
        return ninfer::mutants::sr_word(conversion, x, 1u << (ninfer::mutants::r_of<M>() - 1));
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
