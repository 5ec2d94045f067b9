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

std::vector<Test> tests() {
    std::vector<Test> out;
    for (const auto &s : abi::kStochastic) {
        const auto &c = oracle::conversion(s.conversion);
        const int r = s.random_bits;
        const std::uint64_t half = 1ull << (r - 1);
        // x = 1 + f 2^-23 (or its negative): the target keeps 1.0, f is the r dropped bits, p = f / 2^r.
        const auto make = [&](const char *slug, Kind kind, std::uint32_t sign, std::uint64_t f, std::uint64_t draws) {
            Test t;
            t.rule = kind == Kind::unbiased ? unbiased_rule(c) : independent_rule(c);
            t.input = slug;
            t.kind = kind;
            t.conversion = c.id;
            t.x = sign | 0x3F800000u | static_cast<std::uint32_t>(f);
            t.down = oracle::convert_word_sr(c, t.x, 0);
            t.up = t.down + 1;  // the next magnitude, away from zero (sign-magnitude words)
            t.p = kind == Kind::unbiased ? Dyadic{f, r} : Dyadic{f * f, 2 * r};
            t.draws = draws;
            out.push_back(t);
        };
        make("tie", Kind::unbiased, 0, half, 16384);
        make("tie_negative", Kind::unbiased, 0x80000000u, half, 16384);
        make("quarter", Kind::unbiased, 0, half / 2, 16384);
        make("near_tie", Kind::unbiased, 0, half + (half >> 4), 16384);  // 1/32 ulp above the midpoint
        make("low_bits", Kind::unbiased, 0, 255, 1ull << (r - 2));       // about 64 ups expected
        // an exact value: never up (2^(r + 2) draws, at most 2^22, see a bias of 2^-r: suites/SR.md)
        make("grid", Kind::unbiased, 0, 0, 1ull << std::min(r + 2, 22));
        make("tie_pairs", Kind::independent, 0, half, 16384);
    }
    return out;
}

Tally tally(const Test &t, const std::vector<std::uint64_t> &words) {
    Tally out;
    for (const auto w : words) out.strays += (w != t.up && w != t.down) ? 1 : 0;
    if (t.kind == Kind::unbiased) {
        out.trials = words.size();
        for (const auto w : words) out.count += w == t.up ? 1 : 0;
    } else {
        out.trials = words.size() / 2;
        for (std::size_t i = 0; i + 1 < words.size(); i += 2) out.count += (words[i] == t.up && words[i + 1] == t.up) ? 1 : 0;
    }
    return out;
}

}  // namespace ninfer::suites::sr
