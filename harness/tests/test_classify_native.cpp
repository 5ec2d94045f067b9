// SPDX-License-Identifier: Apache-2.0
// The sweep's native mismatch classifier against the oracle's (issue 32, item 5): the per-word
// class of a sweep asks native::conversion_is_tie (the word's bits), `run` asks the MPFR oracle,
// the definition. Over every conversion of the registry but the stochastic ones: every source
// word of a source of up to 16 bits; of a binary32 source, every exponent and sign with the
// fraction's edges, every tie pattern of 1..23 dropped bits (under zero, one and random kept
// bits) with its neighbours and a seeded spread; each against the oracle's expected word and
// the actual words a subject gets wrong (one and two steps off, the sign, zero, the largest
// finite, infinity, NaN, a random word).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/word_classes.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "ninfer/oracle/scalar.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

/// The source words of the cross-check (see the file comment).
std::vector<std::uint64_t> stratified_sources(const oracle::WordFormat &src) {
    std::vector<std::uint64_t> words;
    if (src.bits <= 16) {
        for (std::uint64_t w = 0; w <= src.mask(); ++w) words.push_back(w);
        return words;
    }
    const std::uint64_t frac = (std::uint64_t{1} << src.man_bits) - 1;
    std::vector<std::uint64_t> fracs = {0, 1, 2, 3, frac - 1, frac};
    std::mt19937_64 rng(20261202);
    for (int d = 1; d <= src.man_bits; ++d) {
        const std::uint64_t half = std::uint64_t{1} << (d - 1), odd = std::uint64_t{1} << d;
        const std::uint64_t high = (rng() << d) | half;  // a tie of d dropped bits under random kept bits
        for (std::uint64_t m : {half - 1, half, half + 1, odd | half, (odd | half) + 1, (odd | half) - 1, frac ^ half, high,
                                high + 1, high - 1})
            fracs.push_back(m & frac);
    }
    for (int i = 0; i < 8; ++i) fracs.push_back(rng() & frac);
    for (std::uint64_t e = 0; e < (std::uint64_t{1} << src.exp_bits); ++e)
        for (const std::uint64_t m : fracs)
            for (std::uint64_t sign = 0; sign < 2; ++sign) words.push_back((sign << (src.bits - 1)) | (e << src.man_bits) | m);
    words.push_back(src.mask() + 1);  // wider than the format
    return words;
}

/// The actual words a subject might return for `expected` (the expected word left out).
std::vector<std::uint64_t> wrong_actuals(const oracle::WordFormat &dst, std::uint64_t expected, std::mt19937_64 &rng) {
    const std::uint64_t sign = abi::word_sign_bit(dst), largest = abi::largest_finite_word(dst);
    std::vector<std::uint64_t> out = {expected + 1, expected - 1, expected + 2, expected - 2, expected ^ sign, 0, sign,
                                      largest,      largest | sign, dst.mask(),  rng() & dst.mask()};
    if (dst.special == oracle::Special::IEEE) {
        const std::uint64_t inf = ((std::uint64_t{1} << dst.exp_bits) - 1) << dst.man_bits;
        out.insert(out.end(), {inf, inf | sign, inf | 1, inf | (std::uint64_t{1} << (dst.man_bits - 1))});
    }
    std::erase_if(out, [&](std::uint64_t a) { return (a & dst.mask()) == expected || a > dst.mask(); });
    return out;
}

/// The oracle's tie, remembered for the last source word: the actual words of one source ask it
/// in turn, and the answer is the oracle's (each source word asked once).
bool oracle_tie_of_last(const oracle::Conversion &c, std::uint64_t src) {
    thread_local std::uint32_t id = 0;
    thread_local std::uint64_t word = ~std::uint64_t{0};
    thread_local bool tie = false;
    if (c.id != id || src != word) {
        id = c.id;
        word = src;
        tie = oracle_tie(c, src);
    }
    return tie;
}

struct Disagreements {
    std::uint64_t triples = 0, ties = 0, wrong_tie_side = 0, classes_differ = 0, ties_differ = 0;
};

/// Classifies every triple of conversion `c` with `tie` and with the oracle's tie; counts where
/// the tie tests or the classes differ (the first few named in the test's output).
Disagreements cross_check(const oracle::Conversion &c, TieTest tie) {
    const auto &src = oracle::word_format(c.src), &dst = oracle::word_format(c.dst);
    std::mt19937_64 rng(c.id);
    Disagreements d;
    for (const std::uint64_t w : stratified_sources(src)) {
        const bool want_tie = oracle_tie_of_last(c, w);
        d.ties += want_tie;
        if (tie(c, w) != want_tie && ++d.ties_differ <= 3)
            UNSCOPED_INFO(c.name << ": tie of source word " << std::hex << w << " differs");
        const std::uint64_t expected = w > src.mask() ? oracle::convert_word(c, src.bits == 32 ? 0x7FC00000u : 0)
                                                      : oracle::convert_word(c, w);
        for (const std::uint64_t a : wrong_actuals(dst, expected, rng)) {
            ++d.triples;
            const auto by_oracle = classify_word_mismatch(dst, &c, w, expected, a, &src, oracle_tie_of_last);
            const auto by_native = classify_word_mismatch(dst, &c, w, expected, a, &src, tie);
            d.wrong_tie_side += by_oracle == MismatchClass::wrong_tie_side;
            if (by_oracle != by_native && ++d.classes_differ <= 3)
                UNSCOPED_INFO(c.name << ": source " << std::hex << w << " expected " << expected << " actual " << a << ": "
                                     << mismatch_class_name(by_oracle) << " by the oracle, " << mismatch_class_name(by_native));
        }
    }
    return d;
}

/// A plausible bug: the nearest rounding with ties away (rna, rnu) taken for a directed one.
bool tie_of_rne_only(const oracle::Conversion &c, std::uint64_t src) {
    return c.rounding == abi::detail::rounding_rne && native::conversion_is_tie(c.id, src);
}

/// Another: a tie read from the target's precision alone (the low 23 - man_bits fraction bits
/// of a binary32 number at half), blind to the subnormal grid below the target's normals.
bool tie_by_precision_alone(const oracle::Conversion &c, std::uint64_t src) {
    const int d = 23 - oracle::word_format(c.dst).man_bits;
    const std::uint64_t e = (src >> 23) & 0xFF;
    return src <= 0xFFFFFFFFu && e != 0 && e != 0xFF && d > 0 && (src & ((std::uint64_t{1} << d) - 1)) == std::uint64_t{1} << (d - 1);
}

}  // namespace

TEST_CASE("the sweep's native classifier is the oracle's on every conversion (issue 32, item 5)", "[compare][native]") {
    std::uint64_t ties = 0, wrong_tie_side = 0, triples = 0;
    for (const auto &c : oracle::kConversions) {
        if (abi::is_stochastic(c)) continue;  // a sweep refuses them (no random plane)
        INFO(c.name);
        const auto d = cross_check(c, native_tie);
        CHECK(d.ties_differ == 0);
        CHECK(d.classes_differ == 0);
        ties += d.ties;
        wrong_tie_side += d.wrong_tie_side;
        triples += d.triples;
    }
    // Not vacuous: ties and the class they decide were met, in a large set of triples.
    CHECK(ties > 10000);
    CHECK(wrong_tie_side > 10000);
    CHECK(triples > 10000000);
}

TEST_CASE("the classifier cross-check catches a wrong native tie test", "[compare][native]") {
    const auto &rna = oracle::conversion(NINFER_CONVERSION_fp32_to_bf16_rna);
    CHECK(cross_check(rna, tie_of_rne_only).classes_differ > 0);
    const auto &fp16 = oracle::conversion(NINFER_CONVERSION_fp32_to_fp16_rne);
    const auto d = cross_check(fp16, tie_by_precision_alone);
    CHECK(d.ties_differ > 0);
    CHECK(d.classes_differ > 0);
}

TEST_CASE("native ties by hand: midpoints of the target's grid under nearest roundings", "[compare][native]") {
    // 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7; 1 + 2^-8 + 2^-23 is not.
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F808000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F808001u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rtz, 0x3F808000u));  // directed: no tie rule
    // 2^-25 is half of fp16's smallest subnormal 2^-24: a tie on the subnormal grid.
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_fp16_rne, 0x33000000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_fp16_rne, 0x32800000u));  // 2^-26: below half
    // 0.25 between E2M1 0 and 0.5 (its subnormal quantum); -0.25 too; ue4m3 takes no negative.
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0x3E800000u));
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite, 0xBE800000u));
    // 2^-10 is half of UE4M3's smallest subnormal 2^-9; UE4M3 takes no negative.
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0x3A800000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, 0xBA800000u));
    // 1.5 between E8M0's 1 and 2; NaN, infinity, zero and widenings never tie.
    CHECK(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_e8m0_rna_satfinite, 0x3FC00000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rne, 0x7FC08000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rne, 0x7F800000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_fp32_to_bf16_rne, 0x80000000u));
    CHECK_FALSE(native::conversion_is_tie(NINFER_CONVERSION_bf16_to_fp32, 0x3F81u));
    CHECK_FALSE(native::conversion_is_tie(9999, 0x3F808000u));
}
