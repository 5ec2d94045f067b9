// SPDX-License-Identifier: Apache-2.0
// Stochastic rounding, exact given the random bits (issue 24 item 3; registry.h
// NINFER_STOCHASTIC; oracle/README.md "Stochastic rounding"), and its conventions (issue 34
// item 2; sr_conventions.hpp). Exact integer arithmetic on m * 2^e; the grid is round_dyadic's
// (grid_quantum), the final encoding and the overflow rule are round_dyadic's too (the sum
// truncated to the grid is exact there, so `rtz` only encodes).
#include <algorithm>
#include <stdexcept>

#include "ninfer/oracle/sr_conventions.hpp"
#include "scalar_stochastic.hpp"

namespace ninfer::oracle::detail {

namespace {

/// floor(m 2^e / 2^low) reduced by the rule's SrReduce from the bits below 2^low (m >= 0).
Int reduced_at(const Int &m, long e, long low, SrReduce reduce) {
    if (e >= low) return Int(m << static_cast<unsigned>(e - low));
    const auto shift = static_cast<unsigned>(low - e);
    Int t = m >> shift;
    const Int rem = m - (t << shift);
    if (rem == 0) return t;
    switch (reduce) {
    case SrReduce::truncate: break;
    case SrReduce::odd: t |= 1; break;
    case SrReduce::nearest_even: {
        const Int half = Int(1) << (shift - 1);
        if (rem > half || (rem == half && (t & 1) != 0)) t += 1;
        break;
    }
    case SrReduce::half_offset: throw std::logic_error("reduced_at: half_offset keeps one more bit");
    }
    return t;
}

}  // namespace

int sr_bits_read(const Int &m, long e, const WordFormat &f, const SrRule &rule) {
    // input_lsb: every dropped bit, at most 32 (then R's lowest place moves up); else k
    if (static_cast<SrPlace>(rule.place) != SrPlace::input_lsb) return rule.k;
    return static_cast<int>(std::clamp<long>(grid_quantum(m, e, f) - rule.input_lsb, 0, 32));
}

Rounded round_stochastic_as(bool negative, const Int &m, long e, const WordFormat &f, const SrRule &rule,
                            std::uint32_t random, std::uint32_t overflow) {
    // 1. The result's last place 2^qe at |x|; R's lowest place 2^low and how many bits of R count.
    const long qe = grid_quantum(m, e, f);
    const auto place = static_cast<SrPlace>(rule.place);
    const auto reduce = static_cast<SrReduce>(rule.reduce);
    const int bits = sr_bits_read(m, e, f, rule);
    long low = qe - bits;
    if (place == SrPlace::input_lsb_r) low = std::min(rule.input_lsb, qe);  // r bits at the input's last place
    // 2. t = |x| / 2^low reduced (half_offset: at 2^(low - 1), R then counts twice, plus one).
    const std::uint64_t mask = bits >= 32 ? 0xFFFFFFFFull : (1ull << bits) - 1;
    const bool offset = reduce == SrReduce::half_offset;
    Int t = reduced_at(m, e, offset ? low - 1 : low, offset ? SrReduce::truncate : reduce);
    t += offset ? Int(2 * (random & mask) + 1) : Int(random & mask);
    // 3. Truncate to the grid: n * 2^qe is the result before overflow.
    const Int n = t >> static_cast<unsigned>(qe - low + (offset ? 1 : 0));
    Rounded out = round_dyadic(negative, n, qe, f, rounding_rtz, overflow);
    // exact iff n * 2^qe == m * 2^e (both scaled to the smaller exponent)
    const long base = std::min(qe, e);
    out.inexact = Int(n << static_cast<unsigned>(qe - base)) != Int(m << static_cast<unsigned>(e - base));
    out.tie = false;
    return out;
}

Rounded round_stochastic(bool negative, const Int &m, long e, const WordFormat &f, int r, std::uint32_t random,
                         std::uint32_t overflow) {
    // the suite's rule: r bits at 2^(q - r), the bits of |x| below dropped (r-bit hardware sees none)
    SrRule rule;
    rule.k = r;
    return round_stochastic_as(negative, m, e, f, rule, random, overflow);
}

}  // namespace ninfer::oracle::detail
