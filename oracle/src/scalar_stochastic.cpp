// SPDX-License-Identifier: Apache-2.0
// Stochastic rounding, exact given the random bits (issue 24 item 3; registry.h
// NINFER_STOCHASTIC; oracle/README.md "Stochastic rounding"). Exact integer arithmetic on
// m * 2^e; the grid is round_dyadic's (grid_quantum), the final encoding and the overflow rule
// are round_dyadic's too (the sum truncated to the grid is exact there, so `rtz` only encodes).
#include <algorithm>

#include "scalar_internal.hpp"

namespace ninfer::oracle::detail {

Rounded round_stochastic(bool negative, const Int &m, long e, const WordFormat &f, int r, std::uint32_t random,
                         std::uint32_t overflow) {
    // 1. The result's last place 2^qe at |x|, and the place 2^(qe - r) of R's lowest bit.
    const long qe = grid_quantum(m, e, f);
    const long low = qe - r;
    // 2. t = |x| / 2^low truncated (r-bit hardware sees no bit of |x| below R's lowest).
    Int t = e >= low ? Int(m << static_cast<unsigned>(e - low)) : Int(m >> static_cast<unsigned>(low - e));
    // 3. Add R (its low r bits) and truncate r bits: n * 2^qe is the result before overflow.
    const std::uint32_t mask = r >= 32 ? ~0u : (1u << r) - 1u;
    t += random & mask;
    const Int n = t >> static_cast<unsigned>(r);
    Rounded out = round_dyadic(negative, n, qe, f, rounding_rtz, overflow);
    // exact iff n * 2^qe == m * 2^e (both scaled to the smaller exponent)
    const long base = std::min(qe, e);
    out.inexact = Int(n << static_cast<unsigned>(qe - base)) != Int(m << static_cast<unsigned>(e - base));
    out.tie = false;
    return out;
}

}  // namespace ninfer::oracle::detail
