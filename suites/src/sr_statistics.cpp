// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding (issue 24 item 3; suites/SR.md): inputs, draws
// and exact binomial acceptance regions.
#include "ninfer/suites/sr_statistics.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <boost/multiprecision/gmp.hpp>
#include <mpfr.h>
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

Region detail::acceptance_exact(std::uint64_t n, Dyadic p, Level alpha) {
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

namespace {

/// Rigorous bounds [lo, hi] of a positive real, each rounded outward at a fixed precision.
struct Bounds {
    static constexpr mpfr_prec_t kPrecision = 160;
    mpfr_t lo, hi;
    Bounds() { mpfr_inits2(kPrecision, lo, hi, static_cast<mpfr_ptr>(nullptr)); }
    ~Bounds() { mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr)); }
    Bounds(const Bounds &) = delete;
    Bounds &operator=(const Bounds &) = delete;
};

/// Whether x * k <= num holds for every x in [x.lo, x.hi]: true, false, or unknown (nullopt).
std::optional<bool> times_at_most(const Bounds &x, std::uint64_t k, std::uint64_t num, mpfr_ptr scratch) {
    mpfr_mul_ui(scratch, x.hi, k, MPFR_RNDU);
    if (mpfr_cmp_ui(scratch, num) <= 0) return true;
    mpfr_mul_ui(scratch, x.lo, k, MPFR_RNDD);
    if (mpfr_cmp_ui(scratch, num) > 0) return false;
    return std::nullopt;
}

}  // namespace

std::optional<Region> detail::acceptance_bounded(std::uint64_t n, Dyadic p, Level alpha) {
    if (alpha.den > (std::uint64_t{1} << 62) || n >= (std::uint64_t{1} << 62)) return std::nullopt;
    const std::uint64_t a = p.num, b = (std::uint64_t{1} << p.bits) - a, twice_den = 2 * alpha.den;
    Bounds term, below, above;
    mpfr_t scratch;
    mpfr_init2(scratch, Bounds::kPrecision);
    // term_0 = (b / 2^bits)^n: b / 2^bits is exact at this precision (bits <= 62)
    mpfr_set_ui_2exp(term.lo, b, -p.bits, MPFR_RNDN);
    mpfr_pow_ui(term.hi, term.lo, n, MPFR_RNDU);
    mpfr_pow_ui(term.lo, term.lo, n, MPFR_RNDD);
    mpfr_set_zero(below.lo, 1);
    mpfr_set_zero(below.hi, 1);
    Region r{0, n};
    bool lo_found = false;
    std::optional<Region> out;
    for (std::uint64_t c = 0; c <= n; ++c) {
        mpfr_ui_sub(above.hi, 1, below.lo, MPFR_RNDU);  // P(X >= c) = 1 - P(X <= c - 1)
        mpfr_ui_sub(above.lo, 1, below.hi, MPFR_RNDD);
        const auto past = times_at_most(above, twice_den, alpha.num, scratch);
        if (!past) break;
        if (*past) {
            r.hi = c - 1;
            out = r;
            break;
        }
        mpfr_add(below.lo, below.lo, term.lo, MPFR_RNDD);
        mpfr_add(below.hi, below.hi, term.hi, MPFR_RNDU);
        if (!lo_found) {
            const auto within = times_at_most(below, twice_den, alpha.num, scratch);
            if (!within) break;
            if (!*within) {
                r.lo = c;
                lo_found = true;
            }
        }
        if (c == n) {
            out = r;
            break;
        }
        // term_(c+1) = term_c (n - c) a / ((c + 1) b)
        for (const auto &[t, rnd] : {std::pair{term.lo, MPFR_RNDD}, std::pair{term.hi, MPFR_RNDU}}) {
            mpfr_mul_ui(t, t, n - c, rnd);
            mpfr_mul_ui(t, t, a, rnd);
            mpfr_div_ui(t, t, c + 1, rnd);
            mpfr_div_ui(t, t, b, rnd);
        }
    }
    mpfr_clear(scratch);
    return out;
}

Region acceptance(std::uint64_t n, Dyadic p, Level alpha) {
    p = reduced(p);
    if (p.bits > 62 || p.num > (1ull << p.bits)) throw std::invalid_argument("acceptance: p outside [0, 1]");
    if (p.num == 0) return {0, 0};
    if (p.num == 1ull << p.bits) return {n, n};
    // A run asks for the same region many times (both signs, several binades share p): each is
    // computed once per process, the exact sums being of integers of n * bits bits.
    using Key = std::array<std::uint64_t, 5>;
    static std::mutex mutex;
    static std::map<Key, Region> known;
    const Key key{n, p.num, static_cast<std::uint64_t>(p.bits), alpha.num, alpha.den};
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = known.find(key); it != known.end()) return it->second;
    }
    const auto bounded = detail::acceptance_bounded(n, p, alpha);
    const Region r = bounded ? *bounded : detail::acceptance_exact(n, p, alpha);
    const std::lock_guard<std::mutex> lock(mutex);
    known.emplace(key, r);
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

Test pinned(Test t, const oracle::SrConvention &v, int k) {
    const auto &c = oracle::conversion(t.conversion);
    const auto f = oracle::sr_up_fraction_as(c, t.x, v, k);
    const Dyadic p = reduced({f.num, f.bits});
    t.down = oracle::convert_word_sr_as(c, t.x, 0, v, k);
    t.up = t.down + 1;
    t.convention = std::string(v.name) + (k ? ":" + std::to_string(k) : "");
    if (t.kind == Kind::unbiased || t.lag < static_cast<std::uint64_t>(v.shared_lanes)) {
        t.p = p;
    } else {
        if (p.bits > 31) throw std::invalid_argument("pinned: P(up) of more than 31 bits cannot be squared exactly");
        t.p = {p.num * p.num, 2 * p.bits};
    }
    return t;
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
