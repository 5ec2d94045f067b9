// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): the factorised counters
// equal the brute-force count of every policy, and subjects written here with real codecs'
// behaviours (ml_dtypes' saturating template, torch, Eigen, NVIDIA's host conversions) are named correctly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <functional>
#include <map>

#include "ninfer/harness/fingerprint.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace fp = ninfer::harness::fingerprint;
namespace lat = ninfer::oracle::lattice;
namespace oracle = ninfer::oracle;

namespace {

/// A registry entry by name (the registry's lookup; a test names only entries that exist).
const oracle::Conversion &conv(std::string_view name) { return *oracle::find_name(oracle::kConversions, name); }
const oracle::WordFormat &format(std::string_view name) { return *oracle::find_name(oracle::kWordFormats, name); }

fp::Target target(const oracle::Conversion &c) { return fp::Target{NINFER_OP_convert, &c, nullptr}; }

/// The words a subject gives the domain's words.
std::vector<std::uint64_t> answers(const fp::Target &t, const fp::Domain &d, const std::function<std::uint64_t(std::uint64_t)> &f) {
    std::vector<std::uint64_t> out(d.size(*t.shape().src));
    for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = f(d.word(i));
    return out;
}

/// Domain indices 0, stride, 2 * stride, ...
std::vector<std::uint64_t> indices(const fp::Target &t, const fp::Domain &d, std::uint64_t stride) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t i = 0; i < d.size(*t.shape().src); i += stride) out.push_back(i);
    return out;
}

/// A subject that follows `p` except on a scattered few inputs, answered with the word of another
/// policy or with a stray word: mismatches in every region and class.
std::uint64_t scrambled(const lat::Shape &s, const lat::Policy &p, std::uint64_t x) {
    const std::uint64_t h = (x * 0x9E3779B97F4A7C15ull) >> 40;
    if (h % 11 == 0) {
        lat::Policy q{lat::rounding_rtz, lat::overflow_satfinite, lat::SubnormalChoice::ftz_daz, lat::NanChoice::constant, 0,
                      lat::signless_choices(s).back(), lat::tiny_choices(s).back()};
        if (s.widening) q.rounding = lat::rounding_exact;
        q.subnormals = lat::subnormal_choices(s).back();
        return lat::policy_word_reference(s, q, x);
    }
    if (h % 17 == 0) return h & s.dst->mask();
    return lat::policy_word_reference(s, p, x);
}

/// Every policy's mismatches counted the brute-force way (each input under each policy, the words
/// of policy_word_reference) against the factorised counters, in total and by input class. The
/// reference words are computed once per (rounding, overflow, subnormals) for a number and once
/// per NaN choice for a NaN: the definition of policy_word_reference reads no other coordinate.
void require_factorised_equals_brute_force(const fp::Target &t, const fp::Domain &d, std::uint64_t stride = 1) {
    const auto s = t.shape();
    const auto at = indices(t, d, stride);
    std::vector<std::uint64_t> actual;
    for (auto i : at) actual.push_back(scrambled(s, t.named_policy(), d.word(i)));
    fp::Tally tally(t);
    for (std::uint64_t i = 0; i < actual.size(); ++i) tally.add(i, d.word(at[i]), actual[i]);
    const auto policies = tally.policies();
    // the distinct number and NaN coordinates of the policies, and each policy's pair of them
    std::vector<lat::Policy> numbers, nans;
    std::vector<std::pair<std::size_t, std::size_t>> coords;
    const auto slot = [](std::vector<lat::Policy> &v, const lat::Policy &p) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i] == p) return i;
        v.push_back(p);
        return v.size() - 1;
    };
    for (const auto &p : policies) {
        lat::Policy number = p, nan = policies[0];
        number.nan = policies[0].nan;
        number.nan_word = policies[0].nan_word;
        nan.nan = p.nan;
        nan.nan_word = p.nan_word;
        coords.emplace_back(slot(numbers, number), slot(nans, nan));
    }
    std::vector<std::map<lat::InputClass, std::uint64_t>> brute(policies.size());
    std::vector<std::uint64_t> words;
    for (std::uint64_t i = 0; i < actual.size(); ++i) {
        const std::uint64_t x = d.word(at[i]);
        const auto cls = lat::decompose(s, x).cls;
        const bool nan = cls == lat::InputClass::nan;
        if (nan && tally.nan_inputs_out()) continue;  // a target without NaN: out of the domain
        words.clear();
        for (const auto &p : nan ? nans : numbers) words.push_back(lat::policy_word_reference(s, p, x));
        for (std::size_t k = 0; k < policies.size(); ++k)
            if (words[nan ? coords[k].second : coords[k].first] != actual[i]) ++brute[k][cls];
    }
    for (std::size_t k = 0; k < policies.size(); ++k) {
        INFO(t.name() << ": " << lat::policy_text(s, policies[k]));
        std::uint64_t total = 0;
        for (int c = 0; c < lat::kInputClasses; ++c) {
            const auto cls = static_cast<lat::InputClass>(c);
            INFO("class " << lat::class_name(cls));
            CHECK(tally.mismatches(policies[k], cls).mismatches == brute[k][cls]);
            total += brute[k][cls];
        }
        CHECK(tally.mismatches(policies[k]) == total);
    }
}

/// Shapes of narrowing conversions from 8- and 16-bit sources, which the registry does not name:
/// every word of their source through the proof.
const oracle::Conversion kSynthetic[] = {
    {900, "bf16_to_e4m3fn_test", 2, 5, 1, 2, oracle::NanRule::ANY},
    {901, "fp16_to_e5m2_test", 3, 6, 1, 1, oracle::NanRule::ANY_SIGNED},
    {902, "bf16_to_e8m0_test", 2, 8, 2, 2, oracle::NanRule::ANY},
    {903, "fp16_to_e2m1_test", 3, 7, 1, 2, oracle::NanRule::UNDEFINED},
    {904, "e5m2_to_ue4m3_test", 6, 9, 4, 2, oracle::NanRule::ZERO},
    {905, "fp16_to_bf16_test", 3, 2, 1, 1, oracle::NanRule::QUIET_TRUNC},
};

fp::Domain sparse() { return fp::Domain{fp::Domain::Kind::sparse}; }

}  // namespace

TEST_CASE("fingerprint: the factorised count equals the brute-force count, 8- and 16-bit narrowing", "[fingerprint]") {
    for (const auto &c : kSynthetic) require_factorised_equals_brute_force(target(c), fp::Domain{});
}

TEST_CASE("fingerprint: the factorised count equals the brute-force count, widening and decode", "[fingerprint]") {
    require_factorised_equals_brute_force(target(conv("bf16_to_fp32")), fp::Domain{});
    require_factorised_equals_brute_force(target(conv("e4m3fn_to_fp32")), fp::Domain{});
    require_factorised_equals_brute_force(fp::Target{NINFER_OP_decode, nullptr, &format("fp16")}, fp::Domain{});
}

TEST_CASE("fingerprint: the factorised count equals the brute-force count, sampled fp32 sources", "[fingerprint]") {
    for (const auto &c : oracle::kConversions)
        if (c.src == format("fp32").id && fp::fingerprintable(c)) require_factorised_equals_brute_force(target(c), sparse(), 31);
}

TEST_CASE("fingerprint: the stratified domain holds every tie and near-tie of every fp32 target", "[fingerprint]") {
    const fp::Domain d{fp::Domain::Kind::stratified};
    REQUIRE(d.size(format("fp32")) == (std::uint64_t{1} << 20) * 6);
    REQUIRE(d.word(0) == 0x000);
    REQUIRE(d.word(6 * 0x3FC00 + 3) == 0x3FC00800);  // 1.5: the E8M0 tie
    REQUIRE(d.word(d.size(format("fp32")) - 1) == 0xFFFFFFFF);
    // the tests' sample: both infinities, words increasing
    const fp::Domain small = sparse();
    std::vector<std::uint64_t> words;
    for (std::uint64_t i = 0; i < small.size(format("fp32")); ++i) words.push_back(small.word(i));
    CHECK(std::is_sorted(words.begin(), words.end()));
    CHECK(std::binary_search(words.begin(), words.end(), 0x7F800000));
    CHECK(std::binary_search(words.begin(), words.end(), 0xFF800000));
    // Every target has at most 11 fraction bits, so a tie's low 12 bits are 0 or 0x800 and the
    // words next to it end in 0x001, 0xFFF, 0x801 or 0x7FF; checked on every low pattern of a
    // spread of high parts (normal, subnormal and overflowing ranges of every target).
    const std::uint64_t highs[] = {0x00000, 0x00012, 0x1F000, 0x30000, 0x3B3F5, 0x3F800, 0x3FC00, 0x43000,
                                   0x437FF, 0x47000, 0x477FF, 0x7F7FF, 0xBF800, 0xC37FF, 0x3E800, 0x38000};
    for (const auto &c : oracle::kConversions) {
        if (c.src != format("fp32").id || c.rounding == 6 || !fp::fingerprintable(c)) continue;
        const auto t = target(c);
        for (auto h : highs)
            for (std::uint64_t low = 0; low < 0x1000; ++low) {
                const std::uint64_t x = (h << 12) | low;
                if (lat::decompose(t.shape(), x).cls != lat::InputClass::tie) continue;
                INFO(c.name << " tie 0x" << std::hex << x);
                CHECK((low == 0 || low == 0x800));
            }
    }
}

TEST_CASE("fingerprint: the reference conversions are named as their registry conversion", "[fingerprint]") {
    for (const auto &c : oracle::kConversions) {
        if (!fp::fingerprintable(c)) continue;
        const auto t = target(c);
        const bool small = t.shape().src->bits <= 16;
        const fp::Domain d = small ? fp::Domain{} : sparse();
        const auto f = fp::fingerprint_words(t, d, answers(t, d, [&](std::uint64_t x) { return oracle::convert_word(c, x); }));
        INFO(f.sentence);
        CHECK(f.named == c.name);
        CHECK(f.matched == f.inputs);
        CHECK(f.residue.empty());
        CHECK(f.sentence.starts_with("convert " + std::string(c.name) + " (" + d.text() + "): matches " + std::string(c.name) + ": "));
    }
}

TEST_CASE("fingerprint: real codecs' behaviours are named", "[fingerprint]") {
    const fp::Domain d = sparse();
    const auto run = [&](std::string_view conversion, const std::function<std::uint64_t(std::uint64_t)> &subject) {
        const auto t = target(conv(conversion));
        return fp::fingerprint_words(t, d, answers(t, d, subject));
    };
    const auto &fp32 = format("fp32");
    const auto is_nan = [&](std::uint64_t x) { return ninfer::abi::word_is_nan(fp32, x); };
    const auto is_inf = [&](std::uint64_t x) { return ninfer::abi::word_is_inf(fp32, x); };
    const auto negative = [](std::uint64_t x) { return (x >> 31) != 0; };

    // ml_dtypes' C++ ConvertFrom<kSaturate = true> (float8.h; its astype is kSaturate = false: exactly
    // fp32_to_e4m3fn_rne_nan and fp32_to_e5m2_rne_inf, which the registry names).
    SECTION("ml_dtypes' saturating template fp32 -> e4m3fn: nearest-even, saturate finite only (+-Inf -> NaN)") {
        const auto &c = conv("fp32_to_e4m3fn_rne_satfinite");
        const auto f = run(c.name, [&](std::uint64_t x) -> std::uint64_t {
            if (is_inf(x)) return negative(x) ? 0xFFull : 0x7Full;
            return oracle::convert_word(c, x);
        });
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.rounding == "rne");
        CHECK(f.overflow == "satfinite_finite_only");
        CHECK(f.policy_text.find("saturate finite only") != std::string::npos);
    }
    SECTION("ml_dtypes' saturating template fp32 -> e5m2: saturate finite only, Inf kept") {
        const auto &c = conv("fp32_to_e5m2_rne_satfinite");
        const auto f = run(c.name, [&](std::uint64_t x) -> std::uint64_t {
            if (is_inf(x)) return negative(x) ? 0xFCull : 0x7Cull;
            return oracle::convert_word(c, x);
        });
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.overflow == "satfinite_finite_only");
    }
    SECTION("an E5M2 whose NaN is all ones of the input's sign (0x7f, 0xff): its own lattice point") {
        const auto &c = conv("fp32_to_e5m2_rne_inf");
        const auto f = run(c.name, [&](std::uint64_t x) -> std::uint64_t {
            if (is_nan(x)) return negative(x) ? 0xFFull : 0x7Full;
            return oracle::convert_word(c, x);
        });
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.nan == "signed_all_ones");
        CHECK(f.policy_text.ends_with("NaN all-ones of the input's sign (0x7f, 0xff)"));
        // the registry's own E5M2 NaN (0x7e / 0xfe) is not that point
        const auto own = run(c.name, [&](std::uint64_t x) { return oracle::convert_word(c, x); });
        CHECK(own.nan != "signed_all_ones");
    }
    SECTION("a half-up fp32 -> e8m0 (1.5 -> 0x80, 3 -> 0x81), equivalent to nearest-even and -away") {
        const auto &up = conv("fp32_to_e8m0_rup_satfinite");
        const auto &down = conv("fp32_to_e8m0_rtz_satfinite");
        // half up on the power-of-two grid: the ceiling when x >= 1.5 * 2^k (by hand: the top
        // fraction bit of an fp32 normal), else the floor
        const auto half_up = [&](std::uint64_t x) {
            const bool normal = ((x >> 23) & 0xFF) != 0 && ((x >> 23) & 0xFF) != 0xFF;
            if (!is_nan(x) && !negative(x) && normal && (x & 0x400000)) return oracle::convert_word(up, x);
            return oracle::convert_word(down, x);
        };
        CHECK(half_up(0x3FC00000) == 0x80);  // 1.5
        CHECK(half_up(0x40400000) == 0x81);  // 3
        const auto f = run(down.name, half_up);
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.rounding == "rne");
        bool half_up_named = false;
        for (const auto &e : f.equivalent) half_up_named = half_up_named || e.starts_with("half-up, saturate, ");
        CHECK(half_up_named);
    }
    const auto &bf16 = conv("fp32_to_bf16_rne");
    const auto with_nan = [&](std::uint64_t nan_word) {
        return [&bf16, is_nan, nan_word](std::uint64_t x) { return is_nan(x) ? nan_word : oracle::convert_word(bf16, x); };
    };
    SECTION("torch fp32 -> bf16: every NaN -> 0xFFFF") {
        const auto f = run(bf16.name, with_nan(0xFFFF));
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.nan == "all_ones");
        CHECK(f.policy_text.ends_with("NaN all-ones (0xffff)"));
    }
    SECTION("Eigen fp32 -> bf16: NaN -> 0x7FC0") {
        const auto f = run(bf16.name, with_nan(0x7FC0));
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.nan == "canonical_positive");
        CHECK(f.policy_text.ends_with("NaN canonical positive (0x7fc0)"));
    }
    SECTION("NVIDIA host fp32 -> bf16: NaN -> 0x7FFF") {
        const auto f = run(bf16.name, with_nan(0x7FFF));
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.nan == "constant");
        CHECK(f.policy_text.ends_with("NaN constant 0x7fff"));
    }
}

TEST_CASE("fingerprint: a behaviour off the lattice leaves a residue named by input class", "[fingerprint]") {
    // fp32 -> bf16 nearest-even that turns the smallest positive normal's neighbourhood wrong: an
    // input class with mismatches, the first one named
    const auto &c = conv("fp32_to_bf16_rne");
    const auto t = target(c);
    const fp::Domain d = sparse();
    const auto f = fp::fingerprint_words(t, d, answers(t, d, [&](std::uint64_t x) {
        const auto w = oracle::convert_word(c, x);
        return x == 0x3F800800 ? w ^ 1 : w;  // 1 + 2^-12 (inexact, below half) answered one ulp up
    }));
    INFO(f.sentence);
    CHECK(f.named == "fp32_to_bf16_rne");
    CHECK(f.matched + 1 == f.inputs);
    REQUIRE(f.residue.size() == 1);
    CHECK(f.residue[0].cls == "inexact");
    CHECK(f.residue[0].mismatches == 1);
    CHECK(f.residue[0].input == "3f800800");
    CHECK(f.residue[0].expected == "3f80");
    CHECK(f.residue[0].actual == "3f81");
    CHECK(f.sentence.starts_with("convert fp32_to_bf16_rne (sparse domain): nearest fp32_to_bf16_rne: nearest-even, to infinity, "
                                 "subnormals kept, "));
    CHECK(f.sentence.ends_with("; residue: inexact 1 of " + fp::grouped(f.residue[0].inputs) +
                               " (first 0x3f800800 -> 0x3f81, policy 0x3f80)"));
}

TEST_CASE("fingerprint: grouped counts", "[fingerprint]") {
    CHECK(fp::grouped(0) == "0");
    CHECK(fp::grouped(999) == "999");
    CHECK(fp::grouped(65536) == "65 536");
    CHECK(fp::grouped(4294967296ull) == "4 294 967 296");
}

namespace {

/// |x| of a nonzero finite fp32 word on the power-of-two grid, read from its fields: |x| in
/// [2^k, 2^(k+1)), whether anything lies below 2^k and whether |x| >= 1.5 * 2^k.
struct PowerOfTwo {
    long k = 0;
    bool rest = false, half_or_more = false;
};

PowerOfTwo power_of_two(std::uint32_t x) {
    const std::uint32_t exp = (x >> 23) & 0xFF, frac = x & 0x7FFFFF;
    if (exp != 0) return {static_cast<long>(exp) - 127, frac != 0, (frac & 0x400000) != 0};
    const int top = std::bit_width(frac) - 1;  // a subnormal: frac * 2^-149
    const std::uint32_t below = frac & ((1u << top) - 1);
    return {top - 149L, below != 0, top > 0 && (below >> (top - 1)) != 0};
}

/// A half-up fp32 -> E8M0 with NaN for what it cannot hold: every tie up, zero and negatives ->
/// 0xFF, tiny -> 0x00, beyond 2^127 -> NaN. A model of the policy, not of a library: ml_dtypes'
/// float8_e8m0fnu was once named here, but its source rounds the fp32 subnormals above 2^-127
/// otherwise (docs/ECOSYSTEM.md says what is known of it).
std::uint64_t half_up_nan_e8m0(std::uint64_t x) {
    const auto w = static_cast<std::uint32_t>(x);
    if ((w & 0x7FFFFFFF) >= 0x7F800000 || (w >> 31) != 0 || w == 0) return 0xFF;
    const auto p = power_of_two(w);
    if (p.k < -127) return 0x00;
    const long k = p.k + (p.half_or_more ? 1 : 0);
    return k > 127 ? 0xFF : static_cast<std::uint64_t>(k + 127);
}

/// NVIDIA's host __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf), what the
/// __nv_fp8_e8m0 constructor uses (CUDA Math API, struct __nv_fp8_e8m0): |x| rounded up to a
/// power of two, saturating at 0xFE; zero and tiny -> 0x00 (2^-127); NaN -> 0xFF.
std::uint64_t nvidia_host_e8m0(std::uint64_t x) {
    const auto w = static_cast<std::uint32_t>(x) & 0x7FFFFFFF;
    if (w > 0x7F800000) return 0xFF;
    if (w == 0x7F800000) return 0xFE;
    if (w == 0) return 0x00;
    const auto p = power_of_two(w);
    const long k = p.k + (p.rest ? 1 : 0);
    if (k < -127) return 0x00;
    return k > 127 ? 0xFE : static_cast<std::uint64_t>(k + 127);
}

/// oneDNN's float8_e8m0_t from float (src/common/float8.cpp: "we keep exponent bits and discard
/// sign bit", round toward zero): the fp32 exponent field, so Inf and NaN -> 0xFF, zero and
/// subnormals -> 0x00.
std::uint64_t onednn_e8m0(std::uint64_t x) { return (x >> 23) & 0xFF; }

}  // namespace

TEST_CASE("fingerprint: unsigned targets' zero, negative and tiny inputs are named (half-up to NaN, NVIDIA, oneDNN e8m0)",
          "[fingerprint]") {
    const fp::Domain d = sparse();
    const auto run = [&](std::string_view conversion, std::uint64_t (*subject)(std::uint64_t)) {
        const auto t = target(conv(conversion));
        return fp::fingerprint_words(t, d, answers(t, d, subject));
    };
    CHECK(half_up_nan_e8m0(0x3FC00000) == 0x80);  // 1.5: the tie up
    CHECK(nvidia_host_e8m0(0xC0400000) == 0x81);  // -3 -> |x| up: 4
    SECTION("half-up to NaN: nearest, ties up, to NaN, zero and negatives to NaN, tiny to 0x00") {
        const auto f = run("fp32_to_e8m0_rna_satfinite", half_up_nan_e8m0);
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.rounding == "rna");
        CHECK(f.overflow == "nan");
        CHECK(f.policy_text.ends_with("zero and negatives to NaN (0xff), tiny to 0x00"));
    }
    SECTION("NVIDIA host: up, saturate, |x|") {
        const auto f = run("fp32_to_e8m0_rup_satfinite", nvidia_host_e8m0);
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.rounding == "rup");
        CHECK(f.overflow == "satfinite");
        CHECK(f.policy_text.ends_with("zero and negatives as |x|, tiny to 0x00"));
    }
    SECTION("oneDNN: toward zero, |x|, Inf to NaN") {
        const auto f = run("fp32_to_e8m0_rtz_satfinite", onednn_e8m0);
        INFO(f.sentence);
        CHECK(f.matched == f.inputs);
        CHECK(f.rounding == "rtz");
        CHECK(f.overflow == "satfinite_finite_only");
        CHECK(f.policy_text.ends_with("zero and negatives as |x|, tiny to 0x00"));
    }
    SECTION("the registry's e8m0: one NaN name, no canonical-positive twin of the canonical NaN") {
        const auto &c = conv("fp32_to_e8m0_rna_satfinite");
        const auto t = target(c);
        const auto f = fp::fingerprint_words(t, d, answers(t, d, [&c](std::uint64_t x) { return oracle::convert_word(c, x); }));
        INFO(f.sentence);
        CHECK(f.named == c.name);
        CHECK(f.policy_text.find("NaN canonical (0xff)") != std::string::npos);
        for (const auto &e : f.equivalent) CHECK(e.find("canonical positive") == std::string::npos);
    }
}

TEST_CASE("fingerprint: rounding away from zero is named", "[fingerprint]") {
    // up for a positive input, down for a negative: the registry's rup and rdn conversions
    const auto &up = conv("fp32_to_fp16_rup"), &down = conv("fp32_to_fp16_rdn");
    const auto t = target(conv("fp32_to_fp16_rne"));
    const fp::Domain d = sparse();
    const auto f = fp::fingerprint_words(t, d, answers(t, d, [&](std::uint64_t x) {
        return oracle::convert_word((x >> 31) != 0 ? down : up, x);
    }));
    INFO(f.sentence);
    CHECK(f.matched == f.inputs);
    CHECK(f.rounding == "raz");
    CHECK(f.policy_text.starts_with("away from zero, to infinity, "));
}

namespace {

/// Aligned fp32 blocks (their first words) around every boundary of a target: the blocks of the
/// fp32 values of its words 0, 1, 2, the smallest normal and its predecessor, the largest finite
/// and its predecessor (both signs, and the block after each), the infinity and NaN blocks, and
/// 24 blocks drawn from a fixed seed.
std::vector<std::uint64_t> boundary_blocks(const oracle::Conversion &c) {
    const auto &dst = oracle::word_format(c.dst);
    const oracle::Conversion *widen = nullptr;
    for (const auto &w : oracle::kConversions)
        if (w.src == c.dst && w.dst == format("fp32").id) widen = &w;
    REQUIRE(widen);
    const std::uint64_t min_normal = std::uint64_t{1} << dst.man_bits, top = dst.has_sign ? dst.mask() >> 1 : dst.mask();
    std::uint64_t largest = top;
    while (largest > 0 && lat::decompose(lat::conversion_shape(*widen), largest).cls != lat::InputClass::exact) --largest;
    std::vector<std::uint64_t> out = {0x7F800000u, 0x7FC00000u, 0xFF800000u};
    for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, min_normal, min_normal - 1, largest, largest - 1}) {
        const std::uint64_t x = oracle::convert_word(*widen, t) & ~std::uint64_t{fp::kBlock - 1};
        for (std::uint64_t b : {x, x + fp::kBlock}) {
            out.push_back(b & 0xFFFFFFFFu);
            out.push_back((b | 0x80000000u) & 0xFFFFFFFFu);
        }
    }
    std::uint64_t h = 34;
    for (int i = 0; i < 24; ++i) out.push_back(((h = h * 6364136223846793005ull + 1442695040888963407ull) >> 32) & ~(fp::kBlock - 1));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

TEST_CASE("fingerprint: block counting equals the per-input count on boundary blocks of every fp32 target (issue 34)",
          "[fingerprint]") {
    std::size_t counted = 0;
    for (const auto &c : oracle::kConversions) {
        if (c.src != format("fp32").id || !fp::fingerprintable(c)) continue;
        const auto t = target(c);
        if (!fp::block_counting(t)) continue;
        ++counted;
        const auto s = t.shape();
        fp::Tally by_block(t), by_input(t);
        std::vector<std::uint64_t> actual(fp::kBlock);
        std::uint64_t n = 0;
        for (const auto base : boundary_blocks(c)) {
            // a subject off its policy in every other block, and one stray word in every third
            for (std::uint64_t i = 0; i < fp::kBlock; ++i)
                actual[i] = n % 2 ? scrambled(s, t.named_policy(), base | i) : lat::policy_word(s, lat::decompose(s, base | i), t.named_policy());
            if (n % 3 == 0) actual[fp::kBlock / 2 + n] ^= 1;
            by_block.add_block(base, base, actual.data());
            for (std::uint64_t i = 0; i < fp::kBlock; ++i) by_input.add(base | i, base | i, actual[i]);
            ++n;
        }
        INFO(c.name);
        CHECK(by_block.inputs() == by_input.inputs());
        for (const auto &p : by_input.policies())
            for (int k = 0; k < lat::kInputClasses; ++k) {
                const auto cls = static_cast<lat::InputClass>(k);
                const auto a = by_block.mismatches(p, cls), b = by_input.mismatches(p, cls);
                INFO(lat::policy_text(s, p) << ", class " << lat::class_name(cls));
                CHECK(by_block.inputs(cls) == by_input.inputs(cls));
                CHECK(a.mismatches == b.mismatches);
                CHECK(a.first_index == b.first_index);
                CHECK(a.input == b.input);
                CHECK(a.expected == b.expected);
                CHECK(a.actual == b.actual);
            }
    }
    CHECK(counted >= 10);  // bf16, fp16, the FP8s, FP6s, FP4 and E8M0 targets under their roundings
}
