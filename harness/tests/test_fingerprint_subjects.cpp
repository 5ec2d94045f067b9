// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): subjects through the
// harness's subject machinery: every word-family mutant named by its seeded bug, the reference
// named as its registry conversions, a failing subject reported, and the command's exit codes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/wait.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/fingerprint.hpp"
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
    fp::add_run_fingerprints(*s, r, false, 2, errors);
    CHECK(errors.empty());
    REQUIRE(r.fingerprints.size() == 1);
    CHECK(r.fingerprints[0].conversion == "fp32_to_fp16_rne");
    CHECK(r.fingerprints[0].domain == "stratified");
    CHECK(r.fingerprints[0].overflow == "satfinite_finite_only");
    // --fingerprint: every conversion the subject declares (the mutant declares the reference's)
    const auto every = fp::run_targets(*s, r, true);
    auto reference = plugin("reference");
    CHECK(every.size() == fp::run_targets(*reference, r, true).size());
    const auto deterministic = std::count_if(std::begin(oracle::kConversions), std::end(oracle::kConversions),
                                             [](const auto &c) { return fp::fingerprintable(c); });
    CHECK(every.size() == static_cast<std::size_t>(deterministic));
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

TEST_CASE("fingerprint: run's fingerprint sees faults outside the sparse sample and never says matches for a failed conversion",
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
        // the report fails one input the stratified sample lacks (low bits 0x123) beside one it holds
        auto r = failing(c.name, {"3fbff123", "3fbfffff", "not hex"});
        std::vector<std::string> errors;
        fp::add_run_fingerprints(*s, r, false, 2, errors);
        CHECK(errors.empty());
        REQUIRE(r.fingerprints.size() == 1);
        const auto &f = r.fingerprints[0];
        INFO(f.sentence);
        CHECK(f.domain == "stratified");
        CHECK(f.inputs == (std::uint64_t{1} << 20) * 6 + 1);
        CHECK(f.sentence.starts_with("convert " + std::string(c.name) + " (stratified domain + 1 failed input): "));
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
    fp::add_run_fingerprints(right, r, false, 2, errors);
    REQUIRE(r.fingerprints.size() == 1);
    const auto &f = r.fingerprints[0];
    INFO(f.sentence);
    CHECK(f.matched == f.inputs);
    CHECK(f.sentence.starts_with("convert fp32_to_fp16_rne (stratified domain): agrees with fp32_to_fp16_rne: "));
    CHECK(f.sentence.ends_with("; yet this report fails convert.fp32_to_fp16_rne on cases the lattice does not see"));
}
