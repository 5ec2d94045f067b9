// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): subjects through the
// harness's subject machinery: every word-family mutant named by its seeded bug, the reference
// named as its registry conversions, a failing subject reported, and the command's exit codes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <sys/wait.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/fingerprint.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/suites/suites.hpp"
#include "cli_support.hpp"
#include "ninfer/oracle/scalar.hpp"

using namespace ninfer::harness;
namespace fp = ninfer::harness::fingerprint;
namespace oracle = ninfer::oracle;

namespace {

SubjectOptions worker_options() {
    SubjectOptions o;
    o.worker_executable = NINFER_CONFORM_EXE;
    return o;
}

std::unique_ptr<Subject> plugin(const std::string &name) {
    return open_plugin(std::string(NINFER_PLUGIN_DIR) + "/" + name + ".so", worker_options());
}

/// A registry entry by name (the registry's lookup; a test names only entries that exist).
const oracle::Conversion &conv(std::string_view name) { return *oracle::find_name(oracle::kConversions, name); }
const oracle::WordFormat &format(std::string_view name) { return *oracle::find_name(oracle::kWordFormats, name); }

/// The fingerprint of a plugin's conversion: every word of a small source, a stratified sample
/// (205 824 words) of fp32.
ninfer::reports::Fingerprint of_conversion(const std::string &plugin_name, std::string_view conversion) {
    auto s = plugin(plugin_name);
    const fp::Target t{NINFER_OP_convert, &conv(conversion), nullptr};
    const auto &src = *t.shape().src;
    return fp::fingerprint_subject(*s, t, src.bits <= 16 ? fp::Domain{} : fp::Domain{fp::Domain::Kind::sparse}, 2);
}

ninfer::reports::Fingerprint of_decode(const std::string &plugin_name, std::string_view f) {
    auto s = plugin(plugin_name);
    return fp::fingerprint_subject(*s, fp::Target{NINFER_OP_decode, nullptr, &format(f)}, fp::Domain{}, 2);
}

/// What a seeded bug changes, written from the mutant's comment: the policy's coordinates that
/// differ from the registry conversion's ("" where the conversion's own is expected), or the
/// residue class the bug lands in when no policy of the lattice has it.
struct Expected {
    std::string mutant, conversion, rounding, overflow, subnormals, nan, residue;
};

const Expected kMutants[] = {
    {"mutant_bf16_canonical_nan", "fp32_to_bf16_rne", "", "", "", "canonical_positive", ""},
    {"mutant_bf16_signed_canonical_nan", "fp32_to_bf16_rne", "", "", "", "signed_canonical", ""},
    {"mutant_bf16_truncation", "fp32_to_bf16_rne", "rtz", "", "", "", ""},
    {"mutant_e2m1_ties_away", "fp32_to_e2m1_rne_satfinite", "rna", "", "", "", ""},
    {"mutant_e4m3_clamp_before_round", "fp32_to_e4m3fn_rne_nan", "", "satfinite_finite_only", "", "", ""},
    {"mutant_e4m3fn_positive_nan", "fp32_to_e4m3fn_rne_satfinite", "", "", "", "canonical_positive", ""},
    {"mutant_e5m2_ties_away", "fp32_to_e5m2_rne_satfinite", "rna", "", "", "", ""},
    {"mutant_fp16_flush_subnormals", "fp32_to_fp16_rne", "", "", "ftz", "", ""},
    {"mutant_fp16_keeps_snan", "fp32_to_fp16_rne", "", "", "", "kept", ""},
    {"mutant_fp16_saturate", "fp32_to_fp16_rne", "", "satfinite_finite_only", "", "", ""},
    {"mutant_fp16_widen_quiets_snan", "fp16_to_fp32", "", "", "", "quieted", ""},
    {"mutant_ue4m3_ties_even", "fp32_to_ue4m3_rnu_satfinite", "rne", "", "", "", ""},
};

}  // namespace

TEST_CASE("fingerprint: every word-family mutant of a conversion is named by its seeded bug", "[fingerprint]") {
    for (const auto &m : kMutants) {
        const auto f = of_conversion(m.mutant, m.conversion);
        const auto named = fp::Target{NINFER_OP_convert, &conv(m.conversion), nullptr}.named_policy();
        const auto s = fp::Target{NINFER_OP_convert, &conv(m.conversion), nullptr}.shape();
        INFO(m.mutant << ": " << f.sentence);
        CHECK(f.rounding == (m.rounding.empty() ? oracle::lattice::rounding_name(named.rounding) : m.rounding));
        CHECK(f.overflow == (m.overflow.empty() ? oracle::lattice::overflow_name(named.overflow) : m.overflow));
        CHECK(f.subnormals == (m.subnormals.empty() ? oracle::lattice::subnormal_name(named.subnormals) : m.subnormals));
        CHECK(f.nan == (m.nan.empty() ? oracle::lattice::nan_name(s, named) : m.nan));
        CHECK(f.matched == f.inputs);  // each seeded bug is a policy of the lattice
        CHECK(f.named != m.conversion);
    }
}

TEST_CASE("fingerprint: the decode mutants leave a subnormal_input residue", "[fingerprint]") {
    // m * 2^-10 for an E4M3FN subnormal, (m + 1) * 2^-24 for fp16 mantissas 32..127: no policy
    // has them, so the decode's own policy stays nearest, with the residue in subnormal inputs
    const auto e4m3 = of_decode("mutant_e4m3_decode_subnormal", "e4m3fn");
    INFO(e4m3.sentence);
    CHECK(e4m3.named == "e4m3fn decode");
    REQUIRE(e4m3.residue.size() == 1);
    CHECK(e4m3.residue[0].cls == "subnormal_input");
    CHECK(e4m3.residue[0].mismatches == 14);  // the 7 nonzero subnormals of each sign
    CHECK(e4m3.residue[0].input == "01");
    CHECK(e4m3.residue[0].expected == "3f60000000000000");  // 2^-9
    const auto fp16 = of_decode("mutant_fp16_decode_subnormal_mid", "fp16");
    INFO(fp16.sentence);
    CHECK(fp16.rounding == "exact");
    CHECK(fp16.nan == "kept");  // the reference decode it mutates keeps payloads
    REQUIRE(fp16.residue.size() == 1);
    CHECK(fp16.residue[0].cls == "subnormal_input");
    CHECK(fp16.residue[0].mismatches == 2 * 96);
    CHECK(fp16.residue[0].input == "0020");
}

TEST_CASE("fingerprint: the reference plugin is named as each registry conversion, no residue", "[fingerprint]") {
    auto s = plugin("reference");
    for (const auto &c : oracle::kConversions) {
        if (!fp::fingerprintable(c)) continue;
        const fp::Target t{NINFER_OP_convert, &c, nullptr};
        const auto f = fp::fingerprint_subject(*s, t, t.shape().src->bits <= 16 ? fp::Domain{} : fp::Domain{fp::Domain::Kind::sparse}, 2);
        INFO(f.sentence);
        CHECK(f.named == c.name);
        CHECK(f.matched == f.inputs);
        CHECK(f.residue.empty());
    }
}

namespace {

/// A subject whose every call dies, as a crashed worker's reply says.
class DeadSubject : public Subject {
public:
    DeadSubject() { info_.capabilities = {{NINFER_OP_convert, 0, 0, 0, 0, 0}}; }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return error_; }
    Reply call(const Call &) override {
        Reply r;
        r.outcome = Outcome::crash;
        r.message = "worker killed by signal 11";
        return r;
    }

private:
    SubjectInfo info_;
    std::string error_;
};

int run_cli(const std::string &args, std::string &out) {
    const std::string path = (ninfer::harness::test::scratch_root() / "fingerprint-out.txt").string();
    const int rc = std::system((std::string(NINFER_CONFORM_EXE) + " fingerprint " + args + " >" + path + " 2>&1").c_str());
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST_CASE("fingerprint: a subject that crashes is a reported error, not a dead harness", "[fingerprint]") {
    DeadSubject s;
    const fp::Target t{NINFER_OP_convert, &conv("fp32_to_bf16_rne"), nullptr};
    CHECK_THROWS_AS(fp::fingerprint_subject(s, t, fp::Domain{fp::Domain::Kind::sparse}), fp::SubjectFailed);
    try {
        fp::fingerprint_subject(s, t, fp::Domain{fp::Domain::Kind::sparse});
    } catch (const fp::SubjectFailed &e) {
        CHECK(std::string(e.what()) == "crash at input 0x00000000: worker killed by signal 11");
    }
}

TEST_CASE("fingerprint: the command's blocks and exit codes", "[fingerprint]") {
    std::string out;
    const std::string plugins = NINFER_PLUGIN_DIR;
    CHECK(run_cli("--plugin " + plugins + "/mutant_fp16_widen_quiets_snan.so --conversion fp16_to_fp32 --jobs 1", out) == 0);
    CHECK(out.find("convert fp16_to_fp32 (all domain): matches exact, to infinity, subnormals kept, NaN payload and sign "
                   "kept, quieted on 65 536 of 65 536 inputs\n") != std::string::npos);
    // bad arguments: 2
    CHECK(run_cli("--plugin " + plugins + "/reference.so", out) == 2);
    CHECK(out.find("give one of --conversion NAME, --format F or --all") != std::string::npos);
    CHECK(run_cli("--plugin " + plugins + "/reference.so --conversion no_such", out) == 2);
    CHECK(run_cli("--plugin " + plugins + "/reference.so --all --domain some", out) == 2);
    // a subject that does not declare the conversion (this fixture declares the decode of bf16 only): 3
    const std::string fixture = std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_crash.so";
    CHECK(run_cli("--plugin " + fixture + " --conversion fp32_to_bf16_rne", out) == 3);
    CHECK(out.find("does not declare convert of fp32_to_bf16_rne") != std::string::npos);
}

TEST_CASE("fingerprint: run fingerprints the conversions whose convert rules failed, or every declared one", "[fingerprint]") {
    auto s = plugin("mutant_fp16_saturate");
    ninfer::reports::Report r;
    ninfer::reports::CaseResult failed, passed;
    failed.rule = "convert.fp32_to_fp16_rne";
    failed.status = ninfer::reports::Status::fail;
    passed.rule = "convert.fp32_to_bf16_rne";
    r.cases = {failed, passed};
    std::vector<std::string> errors;
    fp::add_run_fingerprints(*s, r, fp::RunFingerprints::failing, {}, 2, errors);
    CHECK(errors.empty());
    REQUIRE(r.fingerprints.size() == 1);
    CHECK(r.fingerprints[0].conversion == "fp32_to_fp16_rne");
    CHECK(r.fingerprints[0].domain == "budget");
    CHECK(r.fingerprints[0].overflow == "satfinite_finite_only");
    // --fingerprint all: every conversion the subject declares (the mutant declares the reference's)
    const auto every = fp::run_targets(*s, r, fp::RunFingerprints::all);
    auto reference = plugin("reference");
    CHECK(every.size() == fp::run_targets(*reference, r, fp::RunFingerprints::all).size());
    const auto deterministic = std::count_if(std::begin(oracle::kConversions), std::end(oracle::kConversions),
                                             [](const auto &c) { return fp::fingerprintable(c); });
    CHECK(every.size() == static_cast<std::size_t>(deterministic));
    // --fingerprint none: nothing, however much failed
    CHECK(fp::run_targets(*s, r, fp::RunFingerprints::none).empty());
    fp::RunFingerprints which{};
    CHECK(fp::parse_run_fingerprints("failing", which));
    CHECK(which == fp::RunFingerprints::failing);
    CHECK_FALSE(fp::parse_run_fingerprints("some", which));
}

TEST_CASE("fingerprint: run's domain is bounded by its cases' inputs and holds every one of them", "[fingerprint]") {
    const auto &c = conv("fp32_to_bf16_rne");
    const auto &fp32 = oracle::word_format(c.src);
    ninfer::reports::Report none;
    // No case: the floor, 65 536 words, as 21 whole fraction tops of 512 x 6 words (64 512).
    const auto floor = fp::run_domain(c, none, {});
    CHECK(floor.kind == fp::Domain::Kind::budget);
    CHECK(floor.tops == 21);
    CHECK(floor.size(fp32) == 64512);
    CHECK(floor.text() == "budget domain (21 of 2 048 fraction tops)");
    // The graded order: every top with no bit set, then one (11), then two: 21 tops = 0, the 11 single bits, 9 pairs.
    std::set<std::uint64_t> tops;
    for (std::uint64_t i = 0; i < floor.size(fp32); i += 6) tops.insert((floor.word(i) >> 12) & 0x7FF);
    CHECK(tops.size() == 21);
    CHECK(std::count_if(tops.begin(), tops.end(), [](std::uint64_t t) { return std::popcount(t) <= 1; }) == 12);
    for (std::uint64_t i = 0; i < floor.size(fp32); i += 997) CHECK(floor.holds(fp32, floor.word(i)));
    // W case words: max(65 536, 4 W) of the sample plus every case word it lacks.
    for (const std::uint64_t w : {1000ull, 100000ull, 2000000ull}) {
        fp::CaseInputs in;
        std::mt19937_64 rng(w);
        for (std::uint64_t i = 0; i < w; ++i) in["fp32_to_bf16_rne"].push_back(rng() & 0xFFFFFFFFu);
        const auto d = fp::run_domain(c, none, in);
        INFO(w << " words: " << d.text());
        CHECK(d.size(fp32) <= std::max<std::uint64_t>(65536, 4 * w) + w);
        CHECK(d.extra_are_case_inputs);
        std::set<std::uint64_t> seen;
        for (std::uint64_t i = d.size(fp32) - d.extra.size(); i < d.size(fp32); ++i) seen.insert(d.word(i));
        for (const auto x : in["fp32_to_bf16_rne"]) CHECK((seen.count(x) || d.holds(fp32, x)));
        CHECK(d.kind == (w == 2000000 ? fp::Domain::Kind::stratified : fp::Domain::Kind::budget));
    }
    // A source up to 16 bits: every word, whatever the cases.
    CHECK(fp::run_domain(conv("bf16_to_fp32"), none, {}).kind == fp::Domain::Kind::all);
}

namespace {

/// An in-process subject answering the convert calls of one conversion with `f`.
class WordSubject : public Subject {
public:
    WordSubject(const oracle::Conversion &c, std::function<std::uint64_t(std::uint64_t)> f) : c_(c), f_(std::move(f)) {
        info_.capabilities = {{NINFER_OP_convert, c.dst, c.src, 0, c.id, 0}};
    }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return error_; }
    Reply call(const Call &call) override {
        const int ib = format_of(c_.src).bytes(), ob = format_of(c_.dst).bytes();
        std::vector<std::uint8_t> out(call.count * static_cast<std::uint64_t>(ob));
        const auto &in = call.inputs[0].bytes;
        for (std::uint64_t i = 0; i < call.count; ++i)
            ninfer::abi::store_le(out.data() + i * ob, f_(ninfer::abi::load_le(in.data() + i * ib, ib)), ob);
        return Reply{.outcome = Outcome::returned, .status = NINFER_OK, .detail = 0, .message = {},
                     .outputs = {{NINFER_PLANE_WORDS, 0, std::move(out)}}};
    }

private:
    static const oracle::WordFormat &format_of(std::uint32_t id) { return oracle::word_format(id); }
    const oracle::Conversion &c_;
    std::function<std::uint64_t(std::uint64_t)> f_;
    SubjectInfo info_;
    std::string error_;
};

/// Whether an fp32 word's top 11 fraction bits are all ones: outside the sparse sample (at most two
/// of them set), inside the stratified one.
bool top_fraction_ones(std::uint64_t x) { return ((x >> 12) & 0x7FF) == 0x7FF; }

/// A report that fails `conversion`'s rule on `inputs`.
ninfer::reports::Report failing(std::string_view conversion, const std::vector<std::string> &inputs) {
    ninfer::reports::Report r;
    ninfer::reports::CaseResult c;
    c.rule = "convert." + std::string(conversion);
    c.status = ninfer::reports::Status::fail;
    for (const auto &i : inputs) {
        ninfer::reports::Mismatch m;
        m.inputs = {i};
        c.first.push_back(m);
    }
    r.cases = {c};
    return r;
}

}  // namespace

TEST_CASE("fingerprint: run's fingerprint sees the failed inputs outside its sample and never says matches for a failed conversion",
          "[fingerprint]") {
    // e8m0 nearest-away whose carry is lost when the top 11 fraction bits are all ones (1.999.. * 2^k
    // -> 2^k), and fp16 nearest-even that flushes those inputs' subnormal results: faults the
    // 205 824-word sparse sample cannot see
    const auto &e8m0 = conv("fp32_to_e8m0_rna_satfinite"), &fp16 = conv("fp32_to_fp16_rne");
    WordSubject lost_carry(e8m0, [&](std::uint64_t x) {
        const auto w = oracle::convert_word(e8m0, x);
        return top_fraction_ones(x) && (x >> 23) != 0 && (x >> 23) < 0xFE ? (x >> 23) & 0xFF : w;
    });
    WordSubject flush(fp16, [&](std::uint64_t x) {
        const auto w = oracle::convert_word(fp16, x);
        return top_fraction_ones(x) && ninfer::abi::word_is_subnormal(format("fp16"), w) ? w & 0x8000 : w;
    });
    for (auto *s : {static_cast<Subject *>(&lost_carry), static_cast<Subject *>(&flush)}) {
        const auto &c = s == &flush ? fp16 : e8m0;
        const fp::Target t{NINFER_OP_convert, &c, nullptr};
        const auto blind = fp::fingerprint_subject(*s, t, fp::Domain{fp::Domain::Kind::sparse}, 2);
        INFO(blind.sentence);
        REQUIRE(blind.matched == blind.inputs);  // the premise: the sparse sample holds no fault
        // the report fails an input where the fault shows, which the budget sample lacks (top fraction
        // bits all ones, low bits 0x123; fp16: 2^-16 after rounding, a subnormal result), beside one it holds
        auto r = failing(c.name, {s == &flush ? "377ff123" : "3ffff123", "3f800000", "not hex"});
        std::vector<std::string> errors;
        fp::add_run_fingerprints(*s, r, fp::RunFingerprints::failing, {}, 2, errors);
        CHECK(errors.empty());
        REQUIRE(r.fingerprints.size() == 1);
        const auto &f = r.fingerprints[0];
        INFO(f.sentence);
        CHECK(f.domain == "budget");
        CHECK(f.inputs == 512 * 21 * 6 + 1);  // the sample holds 3f800000, not the other
        CHECK(f.sentence.starts_with("convert " + std::string(c.name) + " (budget domain (21 of 2 048 fraction tops) + 1 failed input): "));
        CHECK(f.matched < f.inputs);
        CHECK(f.sentence.find("): matches") == std::string::npos);
    }
}

TEST_CASE("fingerprint: run says a failed conversion's fingerprint agrees, not matches, when the lattice cannot see the failure",
          "[fingerprint]") {
    const auto &c = conv("fp32_to_fp16_rne");
    WordSubject right(c, [&](std::uint64_t x) { return oracle::convert_word(c, x); });
    auto r = failing(c.name, {});
    std::vector<std::string> errors;
    fp::add_run_fingerprints(right, r, fp::RunFingerprints::failing, {}, 2, errors);
    REQUIRE(r.fingerprints.size() == 1);
    const auto &f = r.fingerprints[0];
    INFO(f.sentence);
    CHECK(f.matched == f.inputs);
    CHECK(f.sentence.starts_with("convert fp32_to_fp16_rne (budget domain (21 of 2 048 fraction tops)): agrees with fp32_to_fp16_rne: "));
    CHECK(f.sentence.ends_with("; yet this report fails convert.fp32_to_fp16_rne on cases the lattice does not see"));
    // A failed case whose input the fingerprint holds and answers right: the subject changed its answer.
    auto again = failing(c.name, {"3f800000"});
    fp::add_run_fingerprints(right, again, fp::RunFingerprints::failing, {}, 2, errors);
    REQUIRE(again.fingerprints.size() == 1);
    INFO(again.fingerprints[0].sentence);
    CHECK(again.fingerprints[0].sentence.ends_with("; yet its cases of convert.fp32_to_fp16_rne got other words for inputs it "
                                                   "answers here with the policy's: the subject is not deterministic"));
}

TEST_CASE("fingerprint: run says a subject implements another conversion's policy, not that the lattice misses its failures",
          "[fingerprint]") {
    const auto &rne = conv("fp32_to_bf16_rne"), &rtz = conv("fp32_to_bf16_rtz");
    WordSubject truncating(rne, [&](std::uint64_t x) { return oracle::convert_word(rtz, x); });
    // 0x3dcccccd: the lesson's 0.1, whose bf16 is 0x3dcd to nearest and 0x3dcc toward zero.
    auto r = failing(rne.name, {"3dcccccd"});
    std::vector<std::string> errors;
    fp::add_run_fingerprints(truncating, r, fp::RunFingerprints::failing, {}, 2, errors);
    REQUIRE(r.fingerprints.size() == 1);
    const auto &f = r.fingerprints[0];
    INFO(f.sentence);
    CHECK(f.matched == f.inputs);
    CHECK(f.named == "fp32_to_bf16_rtz");
    CHECK(f.sentence.starts_with("convert fp32_to_bf16_rne (budget domain (21 of 2 048 fraction tops) + 1 failed input): implements "
                                 "fp32_to_bf16_rtz: toward zero, "));
    CHECK(f.sentence.ends_with(", not convert.fp32_to_bf16_rne's nearest-even"));
    CHECK(f.sentence.find("does not see") == std::string::npos);
    // A failure no word shows besides (a status): said too.
    auto both = failing(rne.name, {"3dcccccd"});
    both.cases.push_back(failing(rne.name, {}).cases[0]);
    fp::add_run_fingerprints(truncating, both, fp::RunFingerprints::failing, {}, 2, errors);
    REQUIRE(both.fingerprints.size() == 1);
    CHECK(both.fingerprints[0].sentence.ends_with(
        ", not convert.fp32_to_bf16_rne's nearest-even; this report also fails convert.fp32_to_bf16_rne on cases the lattice does not see"));
}

TEST_CASE("fingerprint: a target without NaN leaves NaN inputs out of the domain, as run does", "[fingerprint]") {
    auto reference = plugin("reference");
    const auto &c = conv("fp32_to_e2m1_rne_satfinite");
    const fp::Target t{NINFER_OP_convert, &c, nullptr};
    const auto f = fp::fingerprint_subject(*reference, t, fp::Domain{fp::Domain::Kind::stratified}, 2);
    INFO(f.sentence);
    // The stratified sample's NaNs: exponent 0xff, 2 signs x 2048 tops x 6 low patterns, less the two infinities.
    CHECK(f.inputs == 6291456 - (2 * 2048 * 6 - 2));
    CHECK(f.matched == f.inputs);
    CHECK(f.named == "fp32_to_e2m1_rne_satfinite");
    CHECK(f.sentence.starts_with("convert fp32_to_e2m1_rne_satfinite (stratified domain): matches "));
    CHECK(f.policy_text.ends_with(", NaN inputs left out"));
    // A target with NaN keeps them (e4m3fn).
    const auto &e4m3 = conv("fp32_to_e4m3fn_rne_satfinite");
    const auto g = fp::fingerprint_subject(*reference, fp::Target{NINFER_OP_convert, &e4m3, nullptr}, fp::Domain{fp::Domain::Kind::sparse}, 2);
    CHECK(g.inputs == 205824);
}

namespace {

namespace lat = ninfer::oracle::lattice;

/// An E8M0 encoder as widely used libraries write it: up to a power of two, zero,
/// negatives, overflow and tiny values to the NaN 0xff. Its words come from the lattice's
/// brute-force definition (round_dyadic), independent of policy_word.
lat::Policy e8m0_nan_policy() {
    lat::Policy p = lat::conversion_policy(conv("fp32_to_e8m0_rup_satfinite"));
    p.overflow = lat::overflow_nan;
    p.signless = lat::SignlessChoice::nan;
    p.tiny = lat::TinyChoice::nan;
    return p;
}

std::vector<SuiteCase> convert_cases(std::string_view conversion) {
    std::vector<SuiteCase> out;
    for (auto &c : ninfer::suites::find_suite("scalar.convert")->golden(ninfer::suites::Level::quick))
        if (c.op == NINFER_OP_convert && c.method == conv(conversion).id) out.push_back({"scalar.convert", std::move(c)});
    return out;
}

}  // namespace

TEST_CASE("policy: a point is spelled with the lattice's names and read back, each coordinate checked", "[policy]") {
    // Every registry conversion's own point round-trips.
    for (const auto &c : oracle::kConversions) {
        if (!fp::fingerprintable(c)) continue;
        const auto shape = lat::conversion_shape(c);
        const auto own = lat::conversion_policy(c);
        lat::Policy back;
        INFO(c.name << ": " << lat::policy_spelling(shape, own));
        CHECK(lat::parse_policy(shape, lat::policy_spelling(shape, own), back).empty());
        CHECK(back == own);
    }
    // Every point of an E8M0 and an fp16 target's lattice too (the constants the fingerprint adds aside).
    for (const char *name : {"fp32_to_e8m0_rup_satfinite", "fp32_to_fp16_rne", "fp32_to_e5m2_rne_inf"}) {
        const fp::Target t{NINFER_OP_convert, &conv(name), nullptr};
        const auto shape = t.shape();
        for (const auto &p : fp::Tally(t).policies()) {
            lat::Policy back;
            INFO(name << ": " << lat::policy_spelling(shape, p));
            CHECK(lat::parse_policy(shape, lat::policy_spelling(shape, p), back).empty());
            CHECK(back == p);
        }
    }
    const auto e8m0 = lat::conversion_shape(conv("fp32_to_e8m0_rup_satfinite"));
    CHECK(lat::policy_spelling(e8m0, e8m0_nan_policy()) == "rup/nan/kept/signed_canonical/nan/nan");
    const auto fp16 = lat::conversion_shape(conv("fp32_to_fp16_rne"));
    lat::Policy p;
    CHECK(lat::parse_policy(fp16, "rne/inf/kept/0x7fff", p).empty());
    CHECK((p.nan == lat::NanChoice::constant && p.nan_word == 0x7FFF));
    CHECK(lat::parse_policy(fp16, "rne/inf/kept/signed_all_ones", p).empty());
    CHECK(p.nan == lat::NanChoice::signed_all_ones);
    CHECK(lat::parse_policy(fp16, "rne/inf/kept", p) == "'rne/inf/kept' has 3 coordinates, expected 4: rounding/overflow/subnormals/nan");
    CHECK(lat::parse_policy(fp16, "rnx/inf/kept/quieted", p).starts_with("rounding 'rnx' is not one of this conversion's: rne, "));
    CHECK(lat::parse_policy(fp16, "rne/inf/kept/0x3c00", p).starts_with("nan '0x3c00' is not one of this conversion's: "));
    CHECK(lat::parse_policy(e8m0, "rup/nan/kept/signed_canonical", p).ends_with("expected 6: rounding/overflow/subnormals/nan/signless/tiny"));
}

TEST_CASE("policy: run --policy judges a conversion by a lattice point, and the registry's judges it otherwise", "[policy]") {
    const auto &c = conv("fp32_to_e8m0_rup_satfinite");
    const auto shape = lat::conversion_shape(c);
    const auto policy = e8m0_nan_policy();
    WordSubject library(c, [&](std::uint64_t x) { return lat::policy_word_reference(shape, policy, x); });
    const std::map<std::string, std::string> point{{"convert.fp32_to_e8m0_rup_satfinite", "rup/nan/kept/signed_canonical/nan/nan"}};
    CHECK_NOTHROW(check_policies(point));
    auto judged = convert_cases(c.name);
    const auto before = judged.size();
    apply_policies(judged, point);
    std::size_t ok = 0, registry_fails = 0;
    for (const auto &sc : judged) {
        CHECK(sc.c.rule == "convert.fp32_to_e8m0_rup_satfinite");  // the profile rules' cases are left out
        if (sc.c.expect.status != NINFER_OK) continue;
        ++ok;
        const auto r = run_case(library, sc.c, sc.suite, 8);
        INFO(sc.c.id << ": " << r.message);
        CHECK(r.status == ninfer::reports::Status::pass);
    }
    for (const auto &sc : convert_cases(c.name))
        if (sc.c.expect.status == NINFER_OK && sc.c.rule == "convert.fp32_to_e8m0_rup_satfinite")
            registry_fails += run_case(library, sc.c, sc.suite, 8).status == ninfer::reports::Status::fail;
    CHECK(ok > 0);
    CHECK(registry_fails > 0);  // zero, negatives, tiny and overflow differ from the registry's satfinite
    CHECK(judged.size() <= before);
    // The point's words are the lattice's, and a wrong point fails the library.
    const std::map<std::string, std::string> wrong{{"convert.fp32_to_e8m0_rup_satfinite", "rup/nan/kept/signed_canonical/zero/nan"}};
    auto again = convert_cases(c.name);
    apply_policies(again, wrong);
    std::size_t wrong_fails = 0;
    for (const auto &sc : again)
        if (sc.c.expect.status == NINFER_OK) wrong_fails += run_case(library, sc.c, sc.suite, 8).status == ninfer::reports::Status::fail;
    CHECK(wrong_fails > 0);
    // Refusals of a malformed --policy.
    CHECK_THROWS_WITH(parse_policy_option("fp32_to_fp16_rne"), Catch::Matchers::StartsWith("--policy 'fp32_to_fp16_rne': expected convert.NAME=POINT"));
    CHECK_THROWS_WITH(check_policies({{"convert.fp32_to_fp16_sr_satfinite", "rne/inf/kept/quieted"}}),
                      Catch::Matchers::StartsWith("--policy: 'fp32_to_fp16_sr_satfinite' is not a conversion the lattice covers"));
    CHECK_THROWS_WITH(check_policies({{"decode.fp16", "exact/inf/kept/kept"}}),
                      Catch::Matchers::StartsWith("--policy 'decode.fp16': expected a conversion's rule, convert.NAME"));
    CHECK_THROWS_WITH(check_policies({{"convert.fp32_to_fp16_rne", "rne/inf/kept/0x1234"}}),
                      Catch::Matchers::StartsWith("--policy convert.fp32_to_fp16_rne: nan '0x1234' is not one of this conversion's"));
}

TEST_CASE("policy: sweep --policy takes its expected words from the point", "[policy]") {
    auto reference = plugin("reference");
    const auto &c = conv("fp32_to_fp16_rne");
    SweepOptions o;
    o.conversion = c.id;
    o.start = 0x7F7FF000;  // the top of the finite range, the infinities and the first NaNs
    o.count = 0x2000;
    o.policy = judged_policy(std::string(c.name), lat::policy_spelling(lat::conversion_shape(c), lat::conversion_policy(c)));
    ninfer::reports::SubjectIdentity id;
    const auto own = run_sweep(*reference, o, id);
    CHECK(own.report.totals.fail == 0);
    CHECK(own.report.extra.at("expected") == "policy");
    // Judged by NVIDIA's NaN constant 0x7fff: every NaN input of the range mismatches, nothing else.
    o.policy = judged_policy(std::string(c.name), "rne/inf/kept/0x7fff");
    const auto other = run_sweep(*reference, o, id);
    REQUIRE(other.report.cases.size() == 1);
    CHECK(other.report.cases[0].mismatches == 0xFFF);  // 0x7f800001 .. 0x7f800fff
    CHECK(other.report.cases[0].first.at(0).inputs.at(0) == "7f800001");
}
