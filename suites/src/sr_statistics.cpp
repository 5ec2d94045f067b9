// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding (issue 24 item 3; suites/SR.md): inputs, draws
// and exact binomial acceptance regions.
#include "ninfer/suites/sr_statistics.hpp"

#include <algorithm>
#include <boost/multiprecision/gmp.hpp>
#include <stdexcept>

#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::suites::sr {

namespace {
using Int = boost::multiprecision::mpz_int;
}  // namespace

Dyadic reduced(Dyadic p) {
    while (p.bits > 0 && p.num % 2 == 0) {
        p.num /= 2;
        --p.bits;
    }
    return p;
}

Region acceptance(std::uint64_t n, Dyadic p, Level alpha) {
    p = reduced(p);
    if (p.bits > 62 || p.num > (1ull << p.bits)) throw std::invalid_argument("acceptance: p outside [0, 1]");
    if (p.num == 0) return {0, 0};
    if (p.num == 1ull << p.bits) return {n, n};
    // Every probability is an integer over total = 2^(bits n): term_c = C(n, c) a^c b^(n - c).
    const Int a = p.num, b = (Int(1) << p.bits) - a;
    const Int total = Int(1) << static_cast<unsigned>(p.bits * n);
    // A tail t/total exceeds alpha/2 = num/(2 den) iff t * 2 den > num * total.
    const Int bound = Int(alpha.num) * total;
    const Int twice_den = Int(alpha.den) * 2;
    Region r{0, n};
    bool lo_found = false;
    Int term = pow(b, static_cast<unsigned>(n));
    Int below = 0;  // P(X <= c - 1) * total
    for (std::uint64_t c = 0; c <= n; ++c) {
        if ((total - below) * twice_den <= bound) {  // P(X >= c) <= alpha/2: c is past the region
            r.hi = c - 1;
            break;
        }
        below += term;
        if (!lo_found && below * twice_den > bound) {
            r.lo = c;
            lo_found = true;
        }
        if (c < n) term = term * (n - c) * a / (Int(c + 1) * b);  // exact: the next term is an integer
    }
    return r;
}

Level per_test(Level run, std::uint64_t count) { return {run.num, run.den * count}; }

std::string unbiased_rule(const oracle::Conversion &c) { return rule::convert(c) + ".sr_unbiased"; }
std::string independent_rule(const oracle::Conversion &c) { return rule::convert(c) + ".sr_independent"; }

namespace {

/// The binary32 word of sign * 2^e * (1 + f 2^-r) (f < 2^r, r <= 23), exact: a normal binary32
/// when e >= -126, else a subnormal one whose last place must not lie below 2^-149.
std::uint32_t binary32_word(std::uint32_t sign, int e, std::uint64_t f, int r) {
    if (e >= -126) return sign | static_cast<std::uint32_t>(e + 127) << 23 | static_cast<std::uint32_t>(f << (23 - r));
    const int shift = e + 149 - r;  // the place of f's last bit above 2^-149
    if (shift < 0) throw std::logic_error("binary32_word: below the binary32 grid");
    return sign | static_cast<std::uint32_t>(((1ull << r) + f) << shift);
}

/// The statistical tests of one sr conversion (suites/SR.md lists them).
void tests_of(const abi::Stochastic &s, std::vector<Test> &out) {
    const auto &c = oracle::conversion(s.conversion);
    const auto &dst = oracle::word_format(c.dst);
    const int r = s.random_bits;
    const std::uint64_t half = 1ull << (r - 1), quarter = half / 2;
    const int emin = 1 - dst.bias;
    // the top binade: the largest finite's exponent (satfinite maps +inf to it)
    const auto max_word = oracle::convert_word_sr(c, 0x7F800000u, 0);
    const int emax = static_cast<int>((max_word >> dst.man_bits) & ((1ull << dst.exp_bits) - 1)) - dst.bias;
    const auto add = [&](std::string slug, Kind kind, std::uint32_t x, Dyadic p, std::uint64_t draws,
                         std::uint64_t lag = 0) {
        Test t;
        t.rule = kind == Kind::unbiased ? unbiased_rule(c) : independent_rule(c);
        t.input = std::move(slug);
        t.kind = kind;
        t.conversion = c.id;
        t.x = x;
        t.down = oracle::convert_word_sr(c, x, 0);
        t.up = t.down + 1;  // the next magnitude, away from zero (sign-magnitude words)
        t.p = p;
        t.draws = draws;
        t.lag = lag;
        out.push_back(std::move(t));
    };
    // x = sign 2^e (1 + f 2^-23) in a binade where the target keeps 2^e: f is the r dropped bits, p = f / 2^r
    const auto binade = [&](const std::string &slug, int e, std::uint32_t sign, std::uint64_t f, std::uint64_t draws) {
        add(slug, Kind::unbiased, sign | static_cast<std::uint32_t>(e + 127) << 23 | static_cast<std::uint32_t>(f), {f, r},
            draws);
    };
    for (const std::uint32_t sign : {0u, 0x80000000u}) {
        const std::string neg = sign ? "_negative" : "";
        binade("tie" + neg, 0, sign, half, 16384);
        binade("quarter" + neg, 0, sign, quarter, 16384);
        binade("near_tie" + neg, 0, sign, half + (half >> 4), 16384);  // 1/32 ulp above the midpoint
        binade("low_bits" + neg, 0, sign, 255, 1ull << (r - 2));       // about 64 ups expected
        binade("min_normal_quarter" + neg, emin, sign, quarter, 16384);
        binade("top_three_quarters" + neg, emax, sign, 3 * quarter, 16384);
        // a subnormal result: x = Q (1 + 1/4) with Q the subnormal quantum, between Q and 2Q
        add("subnormal_quarter" + neg, Kind::unbiased, binary32_word(sign, emin - dst.man_bits, quarter, r),
            {quarter, r}, 16384);
        // the satfinite band: between the largest finite and the next binade, always the largest finite
        const std::uint64_t band = ((1ull << dst.man_bits) - 1) << r | half;
        add("overflow_band" + neg, Kind::unbiased, sign | static_cast<std::uint32_t>(emax + 127) << 23 |
            static_cast<std::uint32_t>(band), {0, r}, 16384);
    }
    // an exact value: never up (2^(r + 2) draws, at most 2^22, see a bias of 2^-r: suites/SR.md)
    binade("grid", 0, 0, 0, 1ull << std::min(r + 2, 22));
    // independence: (up, up) pairs of the tie at lag 1 and 64 in a call, and lane i of two calls
    const std::uint32_t tie = 0x3F800000u | static_cast<std::uint32_t>(half);
    add("tie_pairs", Kind::independent, tie, {half * half, 2 * r}, 16384, 1);
    add("tie_lag_64", Kind::independent, tie, {half * half, 2 * r}, 16384, 64);
    add("tie_across_calls", Kind::independent, tie, {half * half, 2 * r}, 2 * kCallLanes, kCallLanes);
}

}  // namespace

std::vector<Test> tests() {
    std::vector<Test> out;
    for (const auto &s : abi::kStochastic) tests_of(s, out);
    return out;
}

Tally tally(const Test &t, const std::vector<std::uint64_t> &words) {
    Tally out;
    for (const auto w : words) out.strays += (w != t.up && w != t.down) ? 1 : 0;
    if (t.kind == Kind::unbiased) {
        out.trials = words.size();
        for (const auto w : words) out.count += w == t.up ? 1 : 0;
        return out;
    }
    // pairs (i, i + lag) with i in the first half of each block of 2 lag lanes
    const std::uint64_t lag = std::max<std::uint64_t>(t.lag, 1);
    for (std::size_t i = 0; i + lag < words.size(); ++i) {
        if ((i / lag) % 2 != 0) continue;
        ++out.trials;
        out.count += (words[i] == t.up && words[i + lag] == t.up) ? 1 : 0;
    }
    return out;
}

}  // namespace ninfer::suites::sr
