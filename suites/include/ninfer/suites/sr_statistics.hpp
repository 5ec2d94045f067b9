// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding (issue 24 item 3; suites/SR.md): the inputs x
// between grid neighbours lo < x < hi with P(up) = (x - lo) / (hi - lo) exact in r bits, the
// draws per input, and the exact two-sided binomial acceptance region of a count of ups (or of
// (up, up) lane pairs) at a level alpha, Bonferroni-divided over the run's tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/sr_conventions.hpp"

namespace ninfer::suites::sr {

/// A probability num / 2^bits (num <= 2^bits), exact.
struct Dyadic {
    std::uint64_t num = 0;
    int bits = 0;
};

/// p with its common factors of two removed (1/2 for 32768/2^16).
Dyadic reduced(Dyadic p);

/// A level alpha = num / den, exact.
struct Level {
    std::uint64_t num = 1, den = 1;
};

/// The acceptance region [lo, hi] of a count X ~ Binomial(n, p): lo the smallest c with
/// P(X <= c) > alpha / 2, hi the largest c with P(X >= c) > alpha / 2, so that
/// P(X outside [lo, hi]) <= alpha. Exact integer arithmetic (GMP): each tail is a sum of
/// C(n, i) a^i b^(n-i) over 2^(bits n), compared with alpha / 2 without rounding.
struct Region {
    std::uint64_t lo = 0, hi = 0;
    bool accepts(std::uint64_t count) const { return lo <= count && count <= hi; }
};
Region acceptance(std::uint64_t n, Dyadic p, Level alpha);

namespace detail {
/// acceptance()'s two ways, for p reduced with 0 < p < 1 (the tests hold one to the other): the
/// walk over exact integer tails, and the same walk over tails enclosed in outward-rounded MPFR
/// bounds, which takes each decision the bounds settle and gives nullopt where one is open
/// (a tail within about 2^-140 of alpha / 2); acceptance() then takes the exact walk.
Region acceptance_exact(std::uint64_t n, Dyadic p, Level alpha);
std::optional<Region> acceptance_bounded(std::uint64_t n, Dyadic p, Level alpha);
}  // namespace detail

/// What a statistical test counts.
enum class Kind : std::uint8_t {
    unbiased,    ///< ups among n lanes of the same x: p = P(up)
    independent  ///< (up, up) among the pairs (i, i + lag) of lanes of the same x: p = P(up)^2
};

/// The lanes of one convert call of the statistical rules (the harness's default; a test whose
/// pairs span two calls has lag = kCallLanes and 2 kCallLanes draws).
inline constexpr std::uint64_t kCallLanes = 16384;

/// One statistical test of an sr conversion: `draws` lanes of the source word x (draws / 2
/// pairs for `independent`), whose result is `up` (hi's word) or `down` (lo's word).
struct Test {
    std::string rule;   ///< convert.<name>.sr_unbiased or convert.<name>.sr_independent
    std::string input;  ///< the slug of x ("tie", "quarter", ...)
    Kind kind = Kind::unbiased;
    std::uint32_t conversion = 0;
    std::uint32_t x = 0;            ///< the binary32 source word
    std::uint64_t down = 0, up = 0; ///< lo's and hi's target words
    Dyadic p;                       ///< P(up) for unbiased, P(up)^2 for independent
    std::uint64_t draws = 0;        ///< lanes of x (independent: 2 x the pairs)
    /// independent: lane i pairs with lane i + lag, for i in the first half of each block of
    /// 2 lag lanes (1: neighbours; kCallLanes: the same lane of two calls)
    std::uint64_t lag = 0;
    std::string convention;  ///< the pinned convention ("NAME" or "NAME:K"), "" for the suite's own
};

/// The rule ids of the statistical rules of an sr conversion.
std::string unbiased_rule(const oracle::Conversion &c);
std::string independent_rule(const oracle::Conversion &c);

/// The statistical tests of every sr conversion (suites/SR.md lists the inputs and draws).
std::vector<Test> tests();

/// The test as it judges a subject pinned to convention `v` (k: the pin's K, else 0; suites/SR.md
/// "Judging a subject by its convention"): p = P(up) under v (oracle::sr_up_fraction_as); an
/// (up, up) pair whose two lanes read one random value (lag < v.shared_lanes) has p = P(up),
/// any other pair P(up)^2.
Test pinned(Test t, const oracle::SrConvention &v, int k);

/// The per-test level of a run of `count` tests at run level `run` (Bonferroni: run / count).
Level per_test(Level run, std::uint64_t count);

/// The count a test judges, from the target words of its lanes (in lane order); words that are
/// neither `down` nor `up` are counted in `strays` (each one a failure of the test).
struct Tally {
    std::uint64_t count = 0, trials = 0, strays = 0;
};
Tally tally(const Test &t, const std::vector<std::uint64_t> &words);

}  // namespace ninfer::suites::sr
