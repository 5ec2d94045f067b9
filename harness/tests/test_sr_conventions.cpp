// SPDX-License-Identifier: Apache-2.0
// The SR convention subjects (issue 34 item 2; suites/SR.md "Convention subjects"): each bundled
// plugin of harness/plugins/conventions is named by the given-bits fingerprint, passes the exact
// cases of its conversions under `--pin` of its convention and fails them unpinned; its self-drawn
// estimate reads its k; the subnormal probes part nearest-on-subnormals from pattern_add.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/sr_fingerprint.hpp"
#include "ninfer/harness/sr_run.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/sr_conventions.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

std::unique_ptr<Subject> open_bundled(const std::string &name) {
    SubjectOptions o;
    o.worker_executable = NINFER_CONFORM_EXE;
    auto s = open_plugin((std::filesystem::path(NINFER_PLUGIN_DIR) / (name + ".so")).string(), o);
    REQUIRE(s->open_error().empty());
    return s;
}

/// The SR convention subjects (harness/plugins/conventions; suites/SR.md "Convention subjects"):
/// the convention each implements natively, its k (0: the convention's own), its conversions.
struct ConventionPlugin {
    const char *plugin, *convention;
    int k;
    std::vector<std::uint32_t> conversions;
};
const std::vector<ConventionPlugin> &convention_plugins() {
    static const std::vector<ConventionPlugin> all = {
        {"sr_convention_ptx_rs_f8x4", "ptx_rs_f8x4", 0,
         {NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite, NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite}},
        {"sr_convention_ptx_rs_f4x4", "ptx_rs_f4x4", 0, {NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite}},
        {"sr_convention_amd_input_lsb", "amd_input_lsb", 0, {}},
        {"sr_convention_pattern_add", "pattern_add", 0, {}},
        {"sr_convention_gfloat_stochastic", "gfloat_stochastic", 10, {}},
        {"sr_convention_gfloat_stochastic_fast", "gfloat_stochastic_fast", 12, {}},
        {"sr_convention_gfloat_stochastic_odd", "gfloat_stochastic_odd", 9, {}},
    };
    return all;
}

/// Every sr conversion (a convention documented for any target serves them all).
std::vector<std::uint32_t> conversions_of(const ConventionPlugin &p) {
    if (!p.conversions.empty()) return p.conversions;
    std::vector<std::uint32_t> out;
    for (const auto &c : oracle::kConversions)
        if (abi::is_stochastic(c)) out.push_back(c.id);
    return out;
}

/// A plugin subject seen as declaring NINFER_SR_SELF_DRAWN: only its own bits are asked for.
class SelfDrawnView : public Subject {
public:
    explicit SelfDrawnView(Subject &s) : s_(s), info_(s.info()) {
        for (auto &cap : info_.capabilities) cap.profile = NINFER_SR_SELF_DRAWN;
    }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return s_.open_error(); }
    Reply call(const Call &call) override { return s_.call(call); }

private:
    Subject &s_;
    SubjectInfo info_;
};

}  // namespace

TEST_CASE("sr: each convention subject is named by fingerprint, passes under its pin and fails the suite's rule (issue 34)",
          "[sr][fingerprint]") {
    RunOptions o;
    o.suites = {"scalar.convert"};
    const auto set = collect_cases(o);
    for (const auto &p : convention_plugins()) {
        auto s = open_bundled(p.plugin);
        const std::string named = p.k ? std::string(p.convention) + " (k = " + std::to_string(p.k) + ")" : p.convention;
        const std::string pin = p.k ? std::string(p.convention) + ":" + std::to_string(p.k) : p.convention;
        for (const auto id : conversions_of(p)) {
            const auto &c = oracle::conversion(id);
            INFO(p.plugin << " on " << c.name);
            const auto given = sr_convention_given_bits(*s, c);
            REQUIRE(given.error.empty());
            std::string names;
            for (const auto &n : given.names) names += n + "; ";
            INFO("named: " << names << " nearest " << given.nearest);
            REQUIRE_FALSE(given.names.empty());
            // On bf16 the input-lsb conventions are the suite's own on every input (suites/SR.md,
            // "Convention subjects"): bf16's subnormal results come from binary32 subnormals only,
            // whose last place lies r bits below Q. Then all are named, ninfer first.
            const bool same_as_ninfer = id == NINFER_CONVERSION_fp32_to_bf16_sr_satfinite &&
                                        (p.convention == std::string("amd_input_lsb") || p.convention == std::string("pattern_add"));
            const auto has = [&](const std::string &n) { return std::find(given.names.begin(), given.names.end(), n) != given.names.end(); };
            CHECK(given.names.front() == (same_as_ninfer ? "ninfer" : named));
            CHECK(has(named));
            CHECK(has("ninfer") == same_as_ninfer);
            // the exact cases of the conversion: failed under the suite's rule, passed under the pin
            const std::string rule = "convert." + std::string(c.name);
            std::vector<SuiteCase> cases, size_cases;
            for (const auto &sc : set.cases) {
                if (sc.c.rule == rule) cases.push_back(sc);
                if (sc.c.rule == "convert.sr.random_plane_size" && sc.c.method == id) size_cases.push_back(sc);
            }
            REQUIRE(cases.size() >= 6);
            std::size_t failed = 0, failed_pinned = 0;
            for (const auto &sc : cases) failed += run_case(*s, sc.c, sc.suite, 1).status == reports::Status::fail;
            apply_pins(cases, {{rule, pin}});
            for (const auto &sc : cases) {
                const auto r = run_case(*s, sc.c, sc.suite, 1);
                INFO(sc.c.id);
                failed_pinned += r.status != reports::Status::pass;
            }
            CHECK((failed > 0) != same_as_ninfer);
            CHECK(failed_pinned == 0);
            REQUIRE(size_cases.size() == 3);  // the random plane's size is refused as the ABI says
            for (const auto &sc : size_cases) CHECK(run_case(*s, sc.c, sc.suite, 1).status == reports::Status::pass);
        }
    }
}

TEST_CASE("sr: the self-drawn estimate of each convention subject brackets its k (issue 34)", "[sr][fingerprint]") {
    // k_read: what the estimate reads, the smallest input bit that still rounds up (suites/SR.md
    // "Convention subjects": gfloat's StochasticFast resolves k + 1 input bits, StochasticOdd's
    // sticky bit rounds up from every bit below 2^(q - k))
    struct Expect {
        const char *plugin;
        std::uint32_t conversion;
        int k_min, k_max;
    };
    const Expect expects[] = {
        {"sr_convention_ptx_rs_f8x4", NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite, 16, 16},
        {"sr_convention_ptx_rs_f4x4", NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite, 8, 8},
        {"sr_convention_gfloat_stochastic", NINFER_CONVERSION_fp32_to_bf16_sr_satfinite, 10, 10},
        {"sr_convention_gfloat_stochastic_fast", NINFER_CONVERSION_fp32_to_bf16_sr_satfinite, 13, 13},
        {"sr_convention_gfloat_stochastic_odd", NINFER_CONVERSION_fp32_to_bf16_sr_satfinite, 9, 9},
        {"sr_convention_amd_input_lsb", NINFER_CONVERSION_fp32_to_fp16_sr_satfinite, 13, 13},
        {"sr_convention_pattern_add", NINFER_CONVERSION_fp32_to_fp16_sr_satfinite, 13, 13},
    };
    for (const auto &e : expects) {
        auto plugin = open_bundled(e.plugin);
        SelfDrawnView s(*plugin);
        const auto &c = oracle::conversion(e.conversion);
        std::string error;
        const auto f = sr_fingerprint(s, c, error);
        INFO(e.plugin << ": " << f.sentence);
        REQUIRE(error.empty());
        REQUIRE(f.sr);
        CHECK(f.sr->bits == "self_drawn");
        CHECK(f.sr->k_min == e.k_min);
        CHECK(f.sr->k_max == e.k_max);
    }
    // PTX's FP8 pairs share their 16 bits: tie_pairs (sr_independent, L = 1) fails, as documented
    auto ptx = open_bundled("sr_convention_ptx_rs_f8x4");
    std::vector<suites::sr::Test> pairs;
    for (const auto &t : suites::sr::tests())
        if (t.conversion == NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite && (t.input == "tie_pairs" || t.input == "tie"))
            pairs.push_back(t);
    REQUIRE(pairs.size() == 2);
    for (const auto &v : run_sr_tests(*ptx, pairs, suites::sr::per_test({1, 1000000000}, suites::sr::tests().size()))) {
        INFO(v.test.input << ": " << v.tally.count << " of " << v.tally.trials);
        CHECK(v.passed == (v.test.input == "tie"));
    }
}

TEST_CASE("sr: the subnormal probes part nearest-on-subnormals from pattern_add (issue 34)", "[sr][fingerprint]") {
    // Q (1 + 3/4 + 2^-23): nearest gives hi for every R, pattern_add lo (suites/SR.md, "Probes of
    // subnormal results"); with Q (1 + 1/4 + 2^-23) alone the mutant was named pattern_add
    const auto &e4m3 = oracle::conversion(NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite);
    auto s = open_bundled("mutant_sr_subnormal_nearest");
    const auto given = sr_convention_given_bits(*s, e4m3);
    INFO("nearest " << given.nearest << " on " << given.nearest_matched << " of " << given.probes);
    REQUIRE(given.error.empty());
    CHECK(given.names.empty());
    CHECK(given.nearest_matched < given.probes);
    const auto pattern = *oracle::find_sr_convention("pattern_add");
    const std::uint32_t above = (-9 + 127) << 23 | 3u << 21 | 1u, below = (-9 + 127) << 23 | 1u << 21 | 1u;  // Q = 2^-9
    for (const std::uint32_t R : {0u, 0xFFFFFu, 0xFFFFFFFFu}) {
        CHECK(oracle::convert_word_sr_as(e4m3, above, R, pattern) == 0x01);  // lo = Q
        CHECK(oracle::convert_word_sr_as(e4m3, below, R, pattern) == 0x01);
    }
}

TEST_CASE("sr: under its pin a convention's law judges the statistical rules, shared lanes and fewer bits included (issue 34)",
          "[sr]") {
    struct Row {
        const char *plugin;
        std::map<std::string, std::string> pins;
        std::vector<std::string> fail_unpinned;  ///< statistical tests the suite's own law fails it on
    };
    const Row rows[] = {
        // PTX cvt.rs e4m3x4/e5m2x4 drawing its own rbits: lanes 0, 1 (and 2, 3) share 16 bits
        {"sr_convention_ptx_rs_f8x4",
         {{"convert.fp32_to_e4m3fn_sr_satfinite", "ptx_rs_f8x4"}, {"convert.fp32_to_e5m2_sr_satfinite", "ptx_rs_f8x4"}},
         {"convert.fp32_to_e4m3fn_sr_satfinite.sr_independent/tie_pairs", "convert.fp32_to_e5m2_sr_satfinite.sr_independent/tie_pairs"}},
        // 8 random bits for bf16 (r = 16): gfloat's StochasticFastest with srnumbits = 8
        {"mutant_sr_few_bits",
         {{"convert.fp32_to_bf16_sr_satfinite", "gfloat_stochastic_fastest:8"}},
         {"convert.fp32_to_bf16_sr_satfinite.sr_unbiased/low_bits", "convert.fp32_to_bf16_sr_satfinite.sr_unbiased/low_bits_negative"}},
    };
    for (const auto &row : rows) {
        INFO(row.plugin);
        auto s = open_bundled(row.plugin);
        std::set<std::string> failed;
        for (const auto &v : run_sr_statistics(*s, {1, 1000000000})) {
            CHECK(v.error.empty());
            if (!v.passed) failed.insert(v.test.rule + "/" + v.test.input);
        }
        for (const auto &id : row.fail_unpinned) {
            INFO(id);
            CHECK(failed.count(id) == 1);
        }
        const auto pinned = run_sr_statistics(*s, {1, 1000000000}, suites::sr::kCallLanes, row.pins);
        CHECK_FALSE(pinned.empty());
        for (const auto &v : pinned) {
            INFO(v.test.rule << "/" << v.test.input << ": " << v.tally.count << " of " << v.tally.trials << " in ["
                             << v.region.lo << ", " << v.region.hi << "] under " << v.test.convention);
            CHECK(v.test.convention.empty() == (row.pins.count(v.test.rule.substr(0, v.test.rule.rfind('.'))) == 0));
            CHECK(v.error.empty());
            CHECK(v.passed);
        }
        std::size_t said = 0;
        for (const auto &c : sr_case_results(pinned)) said += c.message.find("; pinned convention ") != std::string::npos;
        CHECK(said == (row.pins.size() == 2 ? 40u : 20u));  // 20 tests per pinned conversion
    }
}

TEST_CASE("the main job's terms of each convention subject are this file's conventions (harness/plugins/own_terms.json)", "[sr]") {
    std::ifstream in(std::filesystem::path(NINFER_SOURCE_DIR) / "harness/plugins/own_terms.json");
    const auto terms = nlohmann::json::parse(in).at("conventions");
    CHECK(terms.size() == convention_plugins().size());
    for (const auto &p : convention_plugins()) {
        INFO(p.plugin);
        REQUIRE(terms.contains(p.plugin));
        const auto &t = terms.at(p.plugin);
        CHECK(t.at("convention").get<std::string>() == p.convention);
        CHECK(t.at("k").get<int>() == p.k);
        std::vector<std::string> names;
        for (const auto id : p.conversions) names.emplace_back(oracle::conversion(id).name);
        CHECK(t.at("conversions").get<std::vector<std::string>>() == names);
    }
}
