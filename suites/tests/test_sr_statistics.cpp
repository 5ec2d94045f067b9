// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding (issue 24 item 3; suites/SR.md): the exact
// binomial acceptance regions against tails worked by hand, and the tests' inputs against the
// oracle (p is the fraction of random values that round up).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <tuple>
#include <string>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/sr_statistics.hpp"

using namespace ninfer::suites;
using ninfer::suites::sr::Dyadic;
using ninfer::suites::sr::Level;

TEST_CASE("sr statistics: acceptance regions equal binomial tails worked by hand", "[sr]") {
    // n = 10, p = 1/2, alpha = 1/10: P(X <= 1) = 11/1024 <= 1/20 < P(X <= 2) = 56/1024, and by
    // symmetry P(X >= 9) = 11/1024, P(X >= 8) = 56/1024: the region is [2, 8].
    CHECK(sr::acceptance(10, {1, 1}, {1, 10}).lo == 2);
    CHECK(sr::acceptance(10, {1, 1}, {1, 10}).hi == 8);
    CHECK(sr::acceptance(10, {512, 10}, {1, 10}).hi == 8);  // 512/1024 is 1/2: reduced first
    // n = 10, p = 1/4, alpha = 1/10: P(X = 0) = 3^10/4^10 = 59049/1048576 > 1/20, so lo = 0;
    // P(X >= 6) = 20686/1048576 <= 1/20 < P(X >= 5) = 81922/1048576, so hi = 5.
    CHECK(sr::acceptance(10, {1, 2}, {1, 10}).lo == 0);
    CHECK(sr::acceptance(10, {1, 2}, {1, 10}).hi == 5);
    // n = 4, p = 1/2, alpha = 1/4: P(X = 0) = 1/16 <= 1/8 < P(X <= 1) = 5/16: [1, 3]
    CHECK(sr::acceptance(4, {1, 1}, {1, 4}).lo == 1);
    CHECK(sr::acceptance(4, {1, 1}, {1, 4}).hi == 3);
    // p = 0 and p = 1 leave no room: any other count is impossible
    CHECK(sr::acceptance(1000, {0, 16}, {1, 1000}).hi == 0);
    CHECK(sr::acceptance(1000, {1 << 16, 16}, {1, 1000}).lo == 1000);
    CHECK(sr::acceptance(10, {1, 1}, {1, 10}).accepts(2));
    CHECK_FALSE(sr::acceptance(10, {1, 1}, {1, 10}).accepts(9));
}

// acceptance() walks the tails in outward-rounded MPFR bounds and falls back to exact integers
// where a decision is open: on every region a run asks for, and on small cases where a tail can
// equal alpha / 2 exactly, the bounded walk must agree with the exact one or leave it the decision.
TEST_CASE("sr statistics: the bounded walk takes the exact walk's decisions on every region a run uses", "[sr]") {
    const auto all = sr::tests();
    std::set<std::tuple<std::uint64_t, std::uint64_t, int>> seen;
    for (const std::size_t count : {all.size(), all.size() / 5}) {  // every sr conversion, or one
        const Level level = sr::per_test({1, 1000000000}, count);
        for (const auto &t : all) {
            const std::uint64_t n = t.kind == sr::Kind::unbiased ? t.draws : t.draws / 2;
            const Dyadic p = sr::reduced(t.p);
            if (p.num == 0 || p.num == (std::uint64_t{1} << p.bits)) continue;
            if (!seen.insert({n * 1000 + count, p.num, p.bits}).second) continue;
            INFO(t.rule << " " << t.input << " n " << n << " p " << p.num << "/2^" << p.bits);
            const auto bounded = sr::detail::acceptance_bounded(n, p, level);
            REQUIRE(bounded.has_value());  // the bounds settle every decision of a real run
            const auto exact = sr::detail::acceptance_exact(n, p, level);
            CHECK(bounded->lo == exact.lo);
            CHECK(bounded->hi == exact.hi);
        }
    }
    CHECK(seen.size() >= 10);
    // small n: every p of 1 to 4 bits, levels including tails that equal alpha / 2 exactly
    std::size_t decided = 0, open = 0;
    for (std::uint64_t n = 1; n <= 24; ++n)
        for (int bits = 1; bits <= 4; ++bits)
            for (std::uint64_t num = 1; num < (std::uint64_t{1} << bits); num += 2)
                for (const Level alpha : {Level{1, 2}, Level{1, 4}, Level{1, 10}, Level{1, 64}, Level{3, 1024}, Level{1, 1000}}) {
                    INFO("n " << n << " p " << num << "/2^" << bits << " alpha " << alpha.num << "/" << alpha.den);
                    const auto exact = sr::detail::acceptance_exact(n, {num, bits}, alpha);
                    const auto bounded = sr::detail::acceptance_bounded(n, {num, bits}, alpha);
                    if (bounded) {
                        ++decided;
                        CHECK(bounded->lo == exact.lo);
                        CHECK(bounded->hi == exact.hi);
                    } else {
                        ++open;
                    }
                    const auto r = sr::acceptance(n, {num, bits}, alpha);
                    CHECK(r.lo == exact.lo);
                    CHECK(r.hi == exact.hi);
                }
    CHECK(decided > 0);
    INFO("decided " << decided << " open " << open);
    CHECK(decided > open);
}

TEST_CASE("sr statistics: Bonferroni divides the run's level by the tests", "[sr]") {
    const Level l = sr::per_test({1, 1000000000}, 35);
    CHECK(l.num == 1);
    CHECK(l.den == 35000000000ull);
}

TEST_CASE("sr statistics: every test's p is the oracle's fraction of random values that round up", "[sr]") {
    const auto tests = sr::tests();
    CHECK(tests.size() == 20 * ninfer::abi::kStochastic.size());
    for (const auto &t : tests) {
        INFO(t.rule << "/" << t.input);
        CHECK(find_rule(t.rule) != nullptr);
        const auto &c = ninfer::oracle::conversion(t.conversion);
        const int r = ninfer::abi::sr_random_bits(c.id);
        const std::uint64_t span = 1ull << r;
        // SR(x, R) is down below a threshold T and up from T on: P(up) = (2^r - T) / 2^r
        std::uint64_t lo = 0, hi = span;
        while (hi - lo > 1) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            (ninfer::oracle::convert_word_sr(c, t.x, static_cast<std::uint32_t>(mid)) == t.down ? lo : hi) = mid;
        }
        CHECK(ninfer::oracle::convert_word_sr(c, t.x, 0) == t.down);
        if (hi < span) CHECK(ninfer::oracle::convert_word_sr(c, t.x, static_cast<std::uint32_t>(hi)) == t.up);
        const std::uint64_t ups = span - hi;
        if (t.kind == sr::Kind::unbiased) {
            CHECK(t.p.num == ups);
            CHECK(t.p.bits == r);
        } else {
            CHECK(t.p.num == ups * ups);
            CHECK(t.p.bits == 2 * r);
        }
    }
}

TEST_CASE("sr statistics: a tally counts ups, (up, up) pairs and stray words", "[sr]") {
    sr::Test t;
    t.down = 0x3F80;
    t.up = 0x3F81;
    t.kind = sr::Kind::unbiased;
    const std::vector<std::uint64_t> words = {0x3F80, 0x3F81, 0x3F81, 0x3F81, 0x7FC0, 0x3F80};
    CHECK(sr::tally(t, words).count == 3);
    CHECK(sr::tally(t, words).strays == 1);
    CHECK(sr::tally(t, words).trials == 6);
    t.kind = sr::Kind::independent;
    CHECK(sr::tally(t, words).count == 1);  // pairs (0x3F80, 0x3F81), (0x3F81, 0x3F81), (0x7FC0, 0x3F80)
    CHECK(sr::tally(t, words).trials == 3);
}

TEST_CASE("sr statistics: a tally at lag L pairs lane i with lane i + L in blocks of 2 L", "[sr]") {
    sr::Test t;
    t.down = 0x3F80;
    t.up = 0x3F81;
    t.kind = sr::Kind::independent;
    t.lag = 2;
    const std::vector<std::uint64_t> words = {0x3F80, 0x3F81, 0x3F81, 0x3F81, 0x3F81, 0x3F80, 0x3F81, 0x3F81};
    // pairs (0, 2), (1, 3), (4, 6), (5, 7): only (1, 3) and (4, 6) are (up, up)
    CHECK(sr::tally(t, words).trials == 4);
    CHECK(sr::tally(t, words).count == 2);
}

TEST_CASE("sr statistics: the inputs cover both signs, binades, subnormal results and the satfinite band", "[sr]") {
    const auto tests = sr::tests();
    for (const auto &s : ninfer::abi::kStochastic) {
        const auto &c = ninfer::oracle::conversion(s.conversion);
        const auto &dst = ninfer::oracle::word_format(c.dst);
        const auto sign = 1ull << (dst.bits - 1);
        const auto field = [&](std::uint64_t w) { return (w >> dst.man_bits) & ((1ull << dst.exp_bits) - 1); };
        std::map<std::string, const sr::Test *> by;
        for (const auto &t : tests)
            if (t.conversion == c.id) by[t.input] = &t;
        INFO(c.name);
        for (const char *slug : {"tie", "quarter", "near_tie", "low_bits", "min_normal_quarter", "top_three_quarters",
                                 "subnormal_quarter", "overflow_band"}) {
            INFO(slug);
            REQUIRE(by.count(slug) == 1);
            REQUIRE(by.count(std::string(slug) + "_negative") == 1);
            const auto *neg = by[std::string(slug) + "_negative"];
            CHECK(neg->x == (by[slug]->x | 0x80000000u));
            CHECK(neg->down == (by[slug]->down | sign));
        }
        CHECK(field(by["subnormal_quarter"]->down) == 0);                      // a subnormal result
        CHECK(field(by["min_normal_quarter"]->down) == 1);                     // the smallest normal binade
        CHECK(by["overflow_band"]->down == ninfer::oracle::convert_word_sr(c, 0x7F800000u, 0));  // the largest finite
        CHECK(by["overflow_band"]->p.num == 0);
        CHECK(by["top_three_quarters"]->up < by["overflow_band"]->down + 1);   // the top binade, below the largest
        CHECK(by["tie_across_calls"]->lag == sr::kCallLanes);
        CHECK(by["tie_across_calls"]->draws == 2 * sr::kCallLanes);
    }
}

TEST_CASE("sr statistics: pinned to the suite's own convention, every test keeps its law", "[sr]") {
    const auto ninfer_convention = *ninfer::oracle::find_sr_convention("ninfer");
    for (const auto &t : sr::tests()) {
        INFO(t.rule << "/" << t.input);
        const auto p = sr::pinned(t, ninfer_convention, 0);
        CHECK(sr::reduced(p.p).num == sr::reduced(t.p).num);
        CHECK(sr::reduced(p.p).bits == sr::reduced(t.p).bits);
        CHECK(p.down == t.down);
        CHECK(p.up == t.up);
        CHECK(p.convention == "ninfer");
    }
}

TEST_CASE("sr statistics: a pinned convention's laws, worked by hand", "[sr]") {
    const auto of = [](std::uint32_t conversion, const std::string &input) {
        for (const auto &t : sr::tests())
            if (t.conversion == conversion && t.input == input) return t;
        FAIL("no test " << input);
        return sr::Test{};
    };
    const auto law = [](const sr::Test &t) { return std::pair{sr::reduced(t.p).num, sr::reduced(t.p).bits}; };
    using P = std::pair<std::uint64_t, int>;
    // gfloat StochasticFastest with k = 8 on bf16 (r = 16): P(up) = floor(f / 2^8) / 2^8.
    const auto fastest = *ninfer::oracle::find_sr_convention("gfloat_stochastic_fastest");
    const auto bf16 = NINFER_CONVERSION_fp32_to_bf16_sr_satfinite;
    CHECK(law(sr::pinned(of(bf16, "low_bits"), fastest, 8)) == P{0, 0});         // f = 255 < 256: never up
    CHECK(law(sr::pinned(of(bf16, "tie"), fastest, 8)) == P{1, 1});              // 128 / 256
    CHECK(law(sr::pinned(of(bf16, "near_tie"), fastest, 8)) == P{17, 5});        // f = 2^15 + 2^11: 136 / 256
    CHECK(law(sr::pinned(of(bf16, "tie_pairs"), fastest, 8)) == P{1, 2});        // lanes apart: (1/2)^2
    CHECK(sr::pinned(of(bf16, "tie"), fastest, 8).convention == "gfloat_stochastic_fastest:8");
    // PTX cvt.rs e4m3x4 (k = 16 of r = 20): low_bits f = 255 gives floor(255 / 16) / 2^16; the
    // lanes a, b share rbits[31:16], so the neighbour pairs (0, 1), (2, 3) round up together.
    const auto ptx = *ninfer::oracle::find_sr_convention("ptx_rs_f8x4");
    const auto e4m3 = NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite;
    CHECK(law(sr::pinned(of(e4m3, "low_bits"), ptx, 0)) == P{15, 16});
    CHECK(law(sr::pinned(of(e4m3, "tie_pairs"), ptx, 0)) == P{1, 1});            // P(up) itself
    CHECK(law(sr::pinned(of(e4m3, "tie_lag_64"), ptx, 0)) == P{1, 2});           // lanes 64 apart: independent
    CHECK(law(sr::pinned(of(e4m3, "tie_across_calls"), ptx, 0)) == P{1, 2});
    CHECK(law(sr::pinned(of(e4m3, "overflow_band"), ptx, 0)) == P{0, 0});        // always the largest finite
}
