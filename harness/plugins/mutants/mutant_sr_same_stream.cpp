// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 34 item 1): fp32 -> e5m2 stochastic rounding whose own random stream restarts
// at every call (a counter-based generator keyed by the lane alone, without a per-call offset):
// each call alone is right, but the same inputs in two calls give the same words lane for lane.
// Given the random plane it is right: only the statistical rule sr_independent can catch it.
#include "mutant_sr_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_same_stream";
    static constexpr const char *breaks = "convert.fp32_to_e5m2_sr_satfinite.sr_independent";
    static constexpr const char *also_fails[] = {"convert.fp32_to_e5m2_sr_satfinite.sr_unbiased"};
    static constexpr int within_top = 2;
    static constexpr std::uint32_t conversion = NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite;
    static constexpr bool restart_stream = true;
    static std::uint64_t sr(std::uint64_t x, std::uint32_t random) { return ninfer::mutants::sr_word(conversion, x, random); }
    static void after(const ninfer_call *c, ninfer_result *r) { ninfer::mutants::sr_after<M>(c, r); }
};
}  // namespace

NINFER_MUTANT(M)
