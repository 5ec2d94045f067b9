// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3): fp32 -> e2m1 "stochastic rounding" that rounds to nearest even
// everywhere (the random value is ignored).
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_rne";
    static constexpr const char *breaks = ninfer::suites::rule::convert_id<NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite>;
    static constexpr const char *also_fails[] = {"convert.fp32_to_e2m1_sr_satfinite.sr_*"};
    static constexpr int within_top = 3;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t) {
        return ninfer::reference::scalar_convert(NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, x);
    }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
