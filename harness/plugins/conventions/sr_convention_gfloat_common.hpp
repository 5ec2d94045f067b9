// SPDX-License-Identifier: Apache-2.0
// graphcore-research/gfloat `round_float(..., srbits, srnumbits)` (suites/SR.md "Conventions",
// [gfloat]): delta, the fraction of a last place |x| drops, is cut to srnumbits = k bits (the mode
// says how) and rounds up iff that integer plus srbits reaches 2^k. Every sr conversion; srbits
// are the low k bits of the lane's random value.
#pragma once

#include "sr_convention_common.hpp"

namespace ninfer::conventions {

/// Three of its four modes (StochasticFastest is the PTX-style truncation): how delta 2^k becomes an integer.
enum class Gfloat { stochastic, fast, odd };

template <Gfloat mode, int k>
Grid gfloat_round(const Lane &x, std::uint32_t R) {
    const std::uint64_t srbits = low_bits(R, k);
    if constexpr (mode == Gfloat::fast) {  // floor(delta 2^(k+1)) + 2 srbits + 1 >= 2^(k+1)
        const Cut c = cut_at(x, x.q - k - 1);
        const std::uint64_t mask = (1ull << (k + 1)) - 1;
        return {(c.t >> (k + 1)) + ((c.t & mask) + 2 * srbits + 1 >= mask + 1 ? 1 : 0), x.q};
    }
    const Cut c = cut_at(x, x.q - k);
    std::uint64_t t = c.t;
    if constexpr (mode == Gfloat::stochastic) t += c.half > 0 || (c.half == 0 && (t & 1)) ? 1 : 0;  // rnite(delta 2^k)
    if constexpr (mode == Gfloat::odd) t |= c.inexact ? 1 : 0;  // delta 2^k rounded to odd
    const std::uint64_t mask = (1ull << k) - 1;
    return {(t >> k) + ((t & mask) + srbits >= mask + 1 ? 1 : 0), x.q};
}

}  // namespace ninfer::conventions
