// SPDX-License-Identifier: Apache-2.0
// The command line `ninfer-conform` (docs/cli.md), run as a process: outputs, exit statuses,
// reports (schema-validated, deterministic apart from timestamps), baselines, sweeps.
#include <catch2/catch.hpp>

#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = [] {
        return ninfer::harness::test::scratch("cli");
    }();
    return d;
}

/// Run `ninfer-conform ARGS` (shell words) with optional stdin text.
Out cli(const std::string &args, const std::string &input = "") { return ninfer::harness::test::run_cli(tmp_dir(), args, input); }

int shell(const std::string &cmd) {
    const int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// A failing bundled plugin: the first mutant.
std::string first_mutant() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(NINFER_PLUGIN_DIR, ec))
        if (e.path().filename().string().rfind("mutant_", 0) == 0) names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    return names.empty() ? "" : names.front();
}

/// A fresh copy of the committed vectors/data under the scratch directory.
fs::path vectors_copy(const std::string &name) {
    const fs::path copy = tmp_dir() / name;
    fs::remove_all(copy);
    fs::copy(NINFER_SOURCE_DIR "/vectors/data", copy, fs::copy_options::recursive);
    return copy;
}

/// Rewrite a copied set's manifest as `sha256sum` would: the edited set certifies itself.
void reseal(const fs::path &dir) {
    REQUIRE(shell("cd '" + dir.string() + "' && sha256sum *.jsonl > MANIFEST.sha256") == 0);
}

/// How many times each file of `dir` is opened while `f` runs (inotify).
template <class F>
std::map<std::string, int> opens_during(const fs::path &dir, F &&f) {
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(inotify_add_watch(fd, dir.c_str(), IN_OPEN) >= 0);
    f();
    std::map<std::string, int> opens;
    alignas(inotify_event) char buf[1 << 14];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
        for (char *p = buf; p < buf + n;) {
            const auto *ev = reinterpret_cast<const inotify_event *>(p);
            if (ev->len > 0) ++opens[ev->name];
            p += sizeof(inotify_event) + ev->len;
        }
    ::close(fd);
    return opens;
}

}  // namespace

TEST_CASE("list shows every registry table") {
    const auto o = cli("list --json");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    CHECK(j.at("formats").at("word").size() == ninfer::oracle::kWordFormats.size());
    CHECK(j.at("formats").at("grouped").size() == ninfer::oracle::kGroupedFormats.size());
    CHECK(j.at("formats").at("scaled").size() == ninfer::oracle::kScaledFormats.size());
    CHECK(j.at("formats").at("gguf").size() == ninfer::abi::kGgufTypes.size());
    // Every format of the one view, each under its family (the sections follow kAllFormats).
    std::size_t listed = 0;
    for (const auto &[family, rows] : j.at("formats").items()) listed += rows.size();
    CHECK(listed == ninfer::oracle::kAllFormats.size());
    // The grouped rows carry the registry's packing and scale_role columns; the roles their acceptance.
    CHECK(j.at("formats").at("grouped").at(0).at("name") == "q2_g64_fp16");
    CHECK(j.at("formats").at("grouped").at(0).at("packing") == "two_bit_lsb");
    CHECK(j.at("formats").at("grouped").at(0).at("scale_role") == "q2_fp16_scale");
    CHECK(j.at("formats").at("grouped").at(4).at("packing") == "byte");
    CHECK(j.at("roles").at(0).at("name") == "grouped_fp16_scale");
    CHECK(j.at("roles").at(0).at("accepts_negative_zero") == false);
    CHECK(j.at("roles").at(0).at("accepts_positive_zero") == true);
    for (const char *k : {"layouts", "ops", "conversions", "roles", "encoders", "roundings", "overflows"})
        CHECK(j.contains(k));
    CHECK(j.at("conversions").at(0).at("name") == "fp32_to_bf16_rne");
    CHECK(j.at("conversions").at(0).at("rounding") == "rne");
    const auto t = cli("list");
    CHECK(t.status == 0);
    CHECK(t.out.find("q8_g32_fp16") != std::string::npos);
    CHECK(t.out.find("scaled formats (id name codes, scales, reach, layout):\n  40 nvfp4") != std::string::npos);
    CHECK(t.out.find("fp32_to_ue4m3_rnu_satfinite") != std::string::npos);
}

TEST_CASE("rules lists the catalog") {
    const auto o = cli("rules --json");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    CHECK(j.size() == ninfer::suites::rule_catalog().size());
    CHECK(j.at(0).contains("sentence"));
    for (const auto &r : j) {
        INFO(r.at("id"));
        CHECK(r.at("suite_reading").get<bool>() == !r.at("reading").get<std::string>().empty());
        CHECK(r.at("sentence").get<std::string>().rfind(r.at("quote").get<std::string>(), 0) == 0);
    }
    CHECK(cli("rules").status == 0);
}

TEST_CASE("rules classifies every reading forced or open, with the open ones' choices (issue 21)") {
    const auto j = json::parse(cli("rules --json").out);
    for (const auto &r : j) {
        INFO(r.at("id"));
        const auto kind = r.at("classification").at("kind").get<std::string>();
        if (r.at("suite_reading").get<bool>()) CHECK((kind == "forced" || kind == "open"));
        else CHECK(kind == "none");
        CHECK((kind == "open") == (r.at("classification").at("choices").size() >= 2));
    }
    const auto t = cli("rules");
    CHECK(t.out.find("fp8_row_maxabs.rescue  [tensor-formats.txt 3.4] (suite reading, open)") != std::string::npos);
    CHECK(t.out.find("      choice refuse: NINFER_E_NONFINITE") != std::string::npos);
    CHECK(t.out.find("decode.e8m0  [lesson Example 14] (suite reading, forced)") != std::string::npos);
}

TEST_CASE("run accepts every choice of an open reading, says which was taken, and --pin requires one (issue 21)") {
    // This build's own vectors, generated here: the alternatives travel in the vector files.
    const fs::path vec = tmp_dir() / "readings_vectors", pinned = tmp_dir() / "pinned.json";
    fs::remove_all(vec);
    REQUIRE(cli("generate --out '" + vec.string() + "'").status == 0);
    const std::string run = "run --plugin reference --suite scaled.fp8_row_maxabs --vectors '" + vec.string() + "'";
    const auto free = cli(run);
    INFO(free.out << free.err);
    CHECK(free.status == 0);
    CHECK(free.out.find("fp8_row_maxabs.rescue: took encode 3 (fp8_row_maxabs.rescue open)\n") != std::string::npos);
    CHECK(free.out.find("fp8_row_maxabs.nonfinite: took nonfinite 4 (fp8_row_maxabs.nonfinite open)\n") != std::string::npos);
    const auto pin = cli(run + " --pin fp8_row_maxabs.rescue=refuse --report '" + pinned.string() + "'");
    CHECK(pin.status == 1);  // the reference encodes
    CHECK(pin.out.find("pinned: fp8_row_maxabs.rescue = refuse\n") != std::string::npos);
    const auto rep = json::parse(slurp(pinned));
    CHECK(rep.at("options").at("pins") == json{{"fp8_row_maxabs.rescue", "refuse"}});
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA + "' '" +
                pinned.string() + "'") == 0);
    CHECK(cli(run + " --pin fp8_row_maxabs.rescue=encode").status == 0);
    for (const auto &[args, message] : std::vector<std::pair<std::string, std::string>>{
             {"--pin decode.e8m0=nan", "ninfer-conform: --pin: 'decode.e8m0' is not a rule with an open reading; expected one of: "},
             {"--pin fp8_row_maxabs.rescue=clip", "ninfer-conform: --pin fp8_row_maxabs.rescue: unknown choice 'clip'; expected one of: encode, refuse\n"},
             {"--pin fp8_row_maxabs.rescue", "ninfer-conform: --pin 'fp8_row_maxabs.rescue': expected RULE=CHOICE"},
             {"--pin fp8_row_maxabs.rescue=encode --pin fp8_row_maxabs.rescue=refuse",
              "ninfer-conform: --pin fp8_row_maxabs.rescue: pinned twice (encode and refuse); expected one choice per rule\n"}}) {
        const auto bad = cli(run + " " + args);
        INFO(args << ": " << bad.err);
        CHECK(bad.status == 2);
        CHECK(bad.err.rfind(message, 0) == 0);
        CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
    }
}

TEST_CASE("run --pin convert.SR=CONVENTION judges an sr conversion's exact cases by it and fingerprint names it (issue 34)") {
    // mutant_sr_few_bits is gfloat's StochasticFastest with 8 random bits (suites/SR.md, "Conventions")
    const std::string rule = "convert.fp32_to_bf16_sr_satfinite";
    const std::string run = "run --suite scalar.convert --rule " + rule + " --plugin ";
    const fs::path free = tmp_dir() / "sr-free.json", pinned = tmp_dir() / "sr-pinned.json", strict = tmp_dir() / "sr-ref.json";
    const auto exact_cases = [&rule](const fs::path &report, const std::string &status) {
        std::size_t n = 0;
        const auto doc = json::parse(slurp(report));
        for (const auto &c : doc.at("cases")) n += c.at("rule") == rule && c.at("status") == status;
        return n;
    };
    cli(run + "mutant_sr_few_bits --report '" + free.string() + "'");
    CHECK(exact_cases(free, "fail") > 0);
    const auto pin = cli(run + "mutant_sr_few_bits --pin " + rule + "=gfloat_stochastic_fastest:8 --report '" + pinned.string() + "'");
    INFO(pin.out << pin.err);
    CHECK(pin.out.find("pinned: " + rule + " = gfloat_stochastic_fastest:8\n") != std::string::npos);
    CHECK(exact_cases(pinned, "fail") == 0);
    CHECK(exact_cases(pinned, "pass") > 0);
    CHECK(json::parse(slurp(pinned)).at("options").at("pins") == json{{rule, "gfloat_stochastic_fastest:8"}});
    // the pin is a judgement, not a pass: the reference (16 bits) fails the 8-bit convention
    cli(run + "reference --pin " + rule + "=gfloat_stochastic_fastest:8 --report '" + strict.string() + "'");
    CHECK(exact_cases(strict, "fail") > 0);
    for (const auto &choice : {"ptx_rs", "ptx_rs_f8x4:8", "gfloat_stochastic:99"}) {
        const auto bad = cli(run + "reference --pin " + rule + "=" + choice);
        INFO(choice << ": " << bad.err);
        CHECK(bad.status == 2);
        CHECK(bad.err.rfind("ninfer-conform: --pin " + rule + ": unknown SR convention '" + choice + "'", 0) == 0);
        CHECK(lines(bad.err) == 1);
    }
    // fingerprint names the convention, in the text and in a report the schema accepts
    const fs::path fp = tmp_dir() / "sr-fingerprint.json";
    const auto named = cli("fingerprint --plugin mutant_sr_few_bits --conversion fp32_to_bf16_sr_satfinite --json '" + fp.string() + "'");
    INFO(named.out << named.err);
    CHECK(named.status == 0);
    CHECK(named.out.rfind("convert fp32_to_bf16_sr_satfinite (sr probes: given random values, r = 16): matches stochastic, "
                          "convention gfloat_stochastic_fastest (k = 8): k = 8 at the result's quantum", 0) == 0);
    const auto j = json::parse(slurp(fp)).at("fingerprints").at(0);
    CHECK(j.at("policy").at("rounding") == "sr");
    CHECK(j.at("sr").at("bits") == "given");
    CHECK(j.at("sr").at("k_min") == 8);
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA + "' '" +
                fp.string() + "'") == 0);
}

TEST_CASE("oracle convert, classify, validate") {
    // 0x3f808000 = 1 + 2^-8: the tie between bf16 1.0 (3f80) and 1 + 2^-7; even side 3f80.
    auto o = cli("oracle convert --conversion fp32_to_bf16_rne --word 3f808000");
    REQUIRE(o.status == 0);
    auto j = json::parse(o.out);
    CHECK(j.at("words") == json::array({"3f80"}));
    CHECK(j.at("ties") == json::array({true}));
    // 0x7fc1: bf16 quiet NaN, sign +, fraction 0x41 = quiet bit 0x40 + payload 1.
    o = cli("oracle classify --format bf16 --word 7fc1");
    REQUIRE(o.status == 0);
    j = json::parse(o.out);
    CHECK(j.at("class") == "qnan");
    CHECK(j.at("sign") == "+");
    CHECK(j.at("quiet") == true);
    CHECK(j.at("payload") == "1");  // 0x41 fraction: quiet bit, payload 1 below it
    o = cli("oracle validate --role grouped_fp16_scale --word 8000");
    REQUIRE(o.status == 0);
    j = json::parse(o.out);
    CHECK(j.at("valid") == false);
    CHECK(j.at("reason") == "-0 where the role refuses it");
    o = cli("oracle validate --role grouped_fp16_scale --word 3c00");
    CHECK(json::parse(o.out).at("valid") == true);
}

TEST_CASE("oracle reads JSON requests on stdin") {
    const auto o = cli("oracle", R"({"op":"convert","conversion":"fp32_to_bf16_rne","words":["3f808000","3f818000"]})");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    // 0x3f818000 = 1 + 3*2^-8: tie between 3f81 (odd) and 3f82 (even).
    CHECK(j.at("words") == json::array({"3f80", "3f82"}));
    CHECK(j.at("ties") == json::array({true, true}));
    const auto lines_in = cli("oracle", "{\"op\":\"classify\",\"format\":\"fp16\",\"words\":[\"8000\"]}\n"
                                        "{\"op\":\"validate\",\"role\":\"q2_fp16_scale\",\"words\":[\"8000\"]}\n");
    REQUIRE(lines_in.status == 0);
    CHECK(lines(lines_in.out) == 2);
    const auto bad = cli("oracle", R"({"op":"frobnicate"})");
    CHECK(bad.status == 2);
}

TEST_CASE("bad names and words are usage errors with one line") {
    auto o = cli("oracle convert --conversion fp32_to_bf17 --word 0");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    // 49 conversions: the three closest (issue 25, "did you mean"), and `list` for the rest
    CHECK(o.err.find("unknown conversion 'fp32_to_bf17'; did you mean fp32_to_bf16_rne, fp32_to_bf16_rtz or "
                     "fp32_to_bf16_rna? (`ninfer-conform list` lists them)") != std::string::npos);
    o = cli("oracle classify --format bf15 --word 0");
    CHECK(o.status == 2);
    CHECK(o.err.find("unknown word format 'bf15'") != std::string::npos);
    o = cli("oracle classify --format bf16 --word 10000");
    CHECK(o.status == 2);
    CHECK(o.err.find("wider than bf16") != std::string::npos);
    o = cli("oracle validate --role nope --word 0");
    CHECK(o.status == 2);
    o = cli("run --plugin reference --suite no.such.suite");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find("unknown suite 'no.such.suite'; expected one of: ") != std::string::npos);
    o = cli("run --plugin reference --level medium");
    CHECK(o.status == 2);
    CHECK(o.err.find("unknown level 'medium'") != std::string::npos);
    o = cli("run --plugin /no/such/plugin.so");
    CHECK(o.status == 2);
    o = cli("run");
    CHECK(o.status == 2);
    o = cli("sweep --plugin reference --conversion nope");
    CHECK(o.status == 2);
    CHECK(o.err.find("unknown conversion 'nope'") != std::string::npos);
    o = cli("frobnicate");
    CHECK(o.status == 2);
}

TEST_CASE("tampered vectors are refused with the VectorError line") {
    const fs::path copy = tmp_dir() / "vectors-tampered";
    fs::remove_all(copy);
    fs::copy(NINFER_SOURCE_DIR "/vectors/data", copy, fs::copy_options::recursive);
    fs::path victim;
    for (const auto &e : fs::directory_iterator(copy))
        if (e.path().filename() != "MANIFEST.sha256" && fs::is_regular_file(e.path()) && fs::file_size(e.path()) > 0)
            victim = e.path();
    REQUIRE_FALSE(victim.empty());
    {
        std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
        char c = 0;
        f.seekg(0);
        f.get(c);
        f.seekp(0);
        f.put(static_cast<char>(c ^ 1));
    }
    const auto o = cli("run --plugin reference --vectors '" + copy.string() + "'");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find(victim.filename().string()) != std::string::npos);
    CHECK(cli("run --plugin reference --vectors /no/such/dir").status == 2);
}

TEST_CASE("malformed baselines are refused with one line") {
    const fs::path b = tmp_dir() / "bad-baseline.json";
    std::ofstream(b) << R"({"version":1,"waivers":[{"rule":"x"}]})";
    const auto o = cli("run --plugin reference --baseline '" + b.string() + "'");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find("waivers[0]") != std::string::npos);
}

TEST_CASE("plugins lists the bundled plugins and the rules mutants break") {
    const auto o = cli("plugins --json");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    bool reference = false;
    for (const auto &p : j.at("plugins")) {
        if (p.at("name") == "reference") reference = true;
        if (p.at("kind") != "mutant") continue;
        const auto breaks = p.at("breaks").get<std::string>();
        CHECK(ninfer::suites::find_rule(breaks) != nullptr);
    }
    CHECK(reference);
}

TEST_CASE("run against the reference writes schema-valid, deterministic reports") {
    const fs::path r1 = tmp_dir() / "r1.json", r2 = tmp_dir() / "r2.json", junit = tmp_dir() / "r1.xml";
    const auto a = cli("run --plugin reference --report '" + r1.string() + "' --junit '" + junit.string() + "'");
    INFO(a.out << a.err);
    CHECK(a.status == 0);
    CHECK(a.out.find("seed 20261129 (include this in bug reports)") != std::string::npos);
    CHECK(a.out.find("result: PASS") != std::string::npos);
    CHECK(lines(a.out) <= 30);
    REQUIRE(fs::exists(r1));
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA +
                "' '" + r1.string() + "'") == 0);
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '" +
                junit.string() + "'") == 0);
    const auto b = cli("run --plugin reference --report '" + r2.string() + "'");
    CHECK(b.status == 0);
    auto mask = [](std::string s) {
        s = std::regex_replace(s, std::regex(R"re("(started_at|finished_at)": "[^"]*")re"), "\"$1\": \"T\"");
        return std::regex_replace(s, std::regex(R"re("duration_s": [0-9.eE+-]+)re"), "\"duration_s\": 0");
    };
    const std::string j1 = slurp(r1), j2 = slurp(r2);
    CHECK(j1 != mask(j1));  // the mask did hide something
    CHECK(mask(j1) == mask(j2));
    const auto j = json::parse(j1);
    CHECK(j.at("schema") == "ninfer-conform/report/v3");
    CHECK(j.at("subject").at("name").get<std::string>().size() > 0);
    CHECK(j.at("vectors").at("manifest_sha256").get<std::string>().size() == 64);
}

TEST_CASE("a failing plugin exits 1, a baseline of its failures exits 0 and names stale waivers") {
    const std::string mutant = first_mutant();
    REQUIRE_FALSE(mutant.empty());
    const fs::path r = tmp_dir() / "mutant.json", waivers = tmp_dir() / "waivers.json", r2 = tmp_dir() / "mutant2.json";
    const auto a = cli("run --plugin '" + mutant + "' --report '" + r.string() + "'");
    CHECK(a.status == 1);
    CHECK(a.out.find("result: FAIL") != std::string::npos);
    CHECK(a.out.find("failing rules") != std::string::npos);
    const auto rep = json::parse(slurp(r));
    json w = {{"version", 1}, {"waivers", json::array()}};
    for (const auto &c : rep.at("cases"))
        if (c.at("status") != "pass" && c.at("status") != "unsupported")
            w["waivers"].push_back({{"rule", c.at("rule")}, {"case", c.at("id")}, {"reason", "accepted in the test"}});
    REQUIRE(w["waivers"].size() > 0);
    w["waivers"].push_back({{"rule", "decode.nothing"}, {"case", "*"}, {"reason", "stale on purpose"}});
    std::ofstream(waivers) << w.dump();
    const auto b = cli("run --plugin '" + mutant + "' --baseline '" + waivers.string() + "' --report '" + r2.string() + "'");
    INFO(b.out << b.err);
    CHECK(b.status == 0);
    CHECK(b.out.find("stale waivers (1") != std::string::npos);
    const auto rep2 = json::parse(slurp(r2));
    CHECK(rep2.at("stale_waivers").size() == 1);
    CHECK(rep2.at("totals").at("waived") == w["waivers"].size() - 1);
    CHECK(rep2.at("passed") == true);
}

TEST_CASE("sweeps of whole 8- and 16-bit domains and an fp32 range pass on the reference") {
    auto o = cli("sweep --plugin reference --conversion bf16_to_fp32");
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("swept 65536 words") != std::string::npos);
    CHECK(o.out.find("words per second") != std::string::npos);
    CHECK(o.err.find("sweep convert.bf16_to_fp32") != std::string::npos);  // progress
    o = cli("sweep --plugin reference --conversion e4m3fn_to_fp32");
    CHECK(o.status == 0);
    CHECK(o.out.find("swept 256 words") != std::string::npos);
    const fs::path r = tmp_dir() / "sweep.json";
    o = cli("sweep --plugin reference --conversion fp32_to_bf16_rne --start 3f7f0000 --count 2000000 --batch 300000 "
            "--report '" + r.string() + "'");
    CHECK(o.status == 0);
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA +
                "' '" + r.string() + "'") == 0);
    o = cli("sweep --plugin reference --conversion e4m3fn_to_fp32 --start 100");
    CHECK(o.status == 2);
}

TEST_CASE("sweeps catch every conversion mutant from its first failing input on") {
    const auto o = cli("plugins --json");
    REQUIRE(o.status == 0);
    std::size_t swept = 0;
    const auto listing = json::parse(o.out);
    for (const auto &p : listing.at("plugins")) {
        const std::string rule = p.value("breaks", "");
        if (p.at("kind") != "mutant" || rule.rfind("convert.", 0) != 0) continue;
        if (rule == "convert.sr.random_plane_size") continue;  // a refused call, no word: a sweep offers no random plane
        // A NaN profile rule: the sweep of its conversion with --nan-payload or --nan-sign.
        const auto ends_with = [&](const std::string &suffix) {
            return rule.size() > suffix.size() && rule.compare(rule.size() - suffix.size(), suffix.size(), suffix) == 0;
        };
        const std::string profile = ends_with(".nan_payload") ? ".nan_payload" : ends_with(".nan_sign") ? ".nan_sign" : "";
        const std::string conversion = rule.substr(8, rule.size() - 8 - profile.size()), path = p.at("path");
        if (conversion.find("_sr_") != std::string::npos) {  // a sweep has no random plane: refused by name
            // A statistical rule (convert.NAME.sr_independent, ...) names its conversion before the dot.
            const std::string sr_conversion = rule.substr(8, rule.find('.', 8) - 8);
            const auto s = cli("sweep --plugin '" + path + "' --conversion " + sr_conversion + " --count 1");
            CHECK(s.status == 2);
            CHECK(s.err.find("rounds stochastically") != std::string::npos);
            continue;
        }
        const fs::path r = tmp_dir() / "mutant-convert.json";
        cli("run --plugin '" + path + "' --suite scalar.convert --report '" + r.string() + "'");
        std::string start;
        const auto rep = json::parse(slurp(r));
        for (const auto &c : rep.at("cases"))
            if (c.at("rule") == rule && c.at("status") == "fail" && !c.at("first_mismatches").empty() &&
                !c.at("first_mismatches").at(0).at("inputs").empty()) {
                start = c.at("first_mismatches").at(0).at("inputs").at(0);
                break;
            }
        INFO("mutant " << path << " breaks " << rule);
        REQUIRE_FALSE(start.empty());
        const auto s = cli("sweep --plugin '" + path + "' --conversion " + conversion + " --start " + start + " --count 1" +
                           (profile == ".nan_payload" ? " --nan-payload" : profile == ".nan_sign" ? " --nan-sign" : ""));
        INFO(s.out << s.err);
        CHECK(s.status == 1);
        CHECK(s.out.find("result: FAIL") != std::string::npos);
        ++swept;
    }
    CHECK(swept > 0);
}

TEST_CASE("coverage finds a case for every rule") {
    const auto o = cli("coverage");
    INFO(o.out);
    CHECK(o.status == 0);
    CHECK(o.out.find("rules have cases") != std::string::npos);
}

TEST_CASE("coverage fails on a path the level never takes, naming rule, op, path and counts") {
    // Quick has no nvfp4 payload of 2 x 2 tiles for layout_decode (a full-level case).
    const auto o = cli("coverage --level quick --json");
    INFO(o.out);
    CHECK(o.status == 1);
    const auto j = json::parse(o.out);
    CHECK(j["level"] == "quick");
    bool named = false;
    for (const auto &g : j["paths"]["gaps"])
        named = named || (g["rule"] == "block_scale.swizzle" && g["op"] == "layout_decode" && g["path"] == "both_tiles" &&
                          g["cases"] == 0 && g["minimum"] == 1);
    CHECK(named);
    CHECK_FALSE(j["paths"]["table"].empty());
    CHECK(cli("coverage --min-cases-per-path -1").status == 2);
}

TEST_CASE("help hides the worker, worker needs --plugin") {
    const auto o = cli("--help");
    CHECK(o.status == 0);
    CHECK(o.out.find("sweep") != std::string::npos);
    CHECK(o.out.find("worker") == std::string::npos);
    CHECK(cli("worker").status == 2);
}

TEST_CASE("oracle encode and decode: the bytes a producer must write, by hand from Section 7.2 and the layout") {
    // q8_g32_fp16 [1,4] from fp32 {127, -63.5, 0.5, 1.5}: amax 127, raw scale 127/127 = 1 (0x3c00),
    // inv 1, codes 127, -64 (tie to even), 0 (tie to even), 2 (tie to even).
    // row_split_k128_v1: K_pad 128, 4 groups/row of 32 bytes: base plane 128 bytes, zeros to 256,
    // no high plane, scale plane at 256: 0x3c00 then three padding scales 0x0000; 264 bytes.
    const fs::path src = tmp_dir() / "q8.f32", payload = tmp_dir() / "q8.payload";
    {
        const std::uint32_t words[4] = {0x42FE0000u, 0xC27E0000u, 0x3F000000u, 0x3FC00000u};
        std::ofstream f(src, std::ios::binary);
        for (auto w : words)
            for (int b = 0; b < 4; ++b) f.put(static_cast<char>((w >> (8 * b)) & 0xFF));
    }
    auto o = cli("oracle encode --format q8_g32_fp16 --method grouped_absmax --source-type fp32 --shape 1,4 --input '" +
                 src.string() + "' --output '" + payload.string() + "'");
    REQUIRE(o.status == 0);
    const std::string bytes = slurp(payload);
    REQUIRE(bytes.size() == 264);
    std::string want(264, '\0');
    want[0] = '\x7f';
    want[1] = '\xc0';
    want[3] = '\x02';
    want[257] = '\x3c';
    CHECK(bytes == want);

    o = cli("oracle decode --format q8_g32_fp16 --shape 1,4 --input '" + payload.string() + "'");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    CHECK(j.at("codes") == json::parse("[[127,-64,0,2]]"));
    CHECK(j.at("scales") == json::parse(R"([["3c00"]])"));
    CHECK(j.at("values") == json::parse(R"([["42fe0000","c2800000","00000000","40000000"]])"));

    // A payload with Q8's illegal word 0x80 is refused by a rule: exit 1, one line.
    std::string bad = want;
    bad[2] = '\x80';
    std::ofstream(tmp_dir() / "q8.bad", std::ios::binary) << bad;
    o = cli("oracle decode --format q8_g32_fp16 --shape 1,4 --input '" + (tmp_dir() / "q8.bad").string() + "'");
    CHECK(o.status == 1);
    CHECK(lines(o.err) == 1);
    // A non-finite source is refused by a rule; a wrong shape is an input error.
    {
        std::ofstream f(tmp_dir() / "inf.f32", std::ios::binary);
        const char inf[4] = {0, 0, '\x80', '\x7f'};
        for (int i = 0; i < 4; ++i) f.write(inf, 4);
    }
    o = cli("oracle encode --format q8_g32_fp16 --method grouped_absmax --source-type fp32 --shape 1,4 --input '" +
            (tmp_dir() / "inf.f32").string() + "' --output '" + (tmp_dir() / "inf.payload").string() + "'");
    CHECK(o.status == 1);
    CHECK_FALSE(fs::exists(tmp_dir() / "inf.payload"));
    o = cli("oracle encode --format q8_g32_fp16 --method grouped_absmax --source-type fp32 --shape 1,5 --input '" +
            src.string() + "' --output '" + payload.string() + "'");
    CHECK(o.status == 2);
}

TEST_CASE("a sweep or run of what the subject does not declare says nothing was tested (issue 7)") {
    const std::string exec = std::string("--exec \"'") + NINFER_PYTHON + "' '" + NINFER_SOURCE_DIR +
                             "/harness/examples/python_plugin.py'\"";
    // The example declares decode of bf16 and fp32_to_bf16_rne only.
    auto o = cli("sweep " + exec + " --conversion fp16_to_fp32");
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("result: NOTHING TESTED") != std::string::npos);
    CHECK(o.out.find("result: PASS") == std::string::npos);
    CHECK(o.out.find("words per second") == std::string::npos);  // no speed of nothing
    CHECK(o.err.find("warning: nothing was tested") != std::string::npos);
    // A sweep's summary has no level, suites or seed: it says what it swept.
    CHECK(o.out.find("level sweep") == std::string::npos);
    CHECK(o.out.find("seed 0") == std::string::npos);
    CHECK(o.out.find("sweep: convert.fp16_to_fp32") != std::string::npos);
    o = cli("sweep --plugin reference --conversion e4m3fn_to_fp32");
    CHECK(o.status == 0);
    CHECK(o.out.find("result: PASS") != std::string::npos);
    CHECK(o.out.find("suites all") == std::string::npos);
    // run: the warning names the subject and says nothing was tested (no version in parentheses);
    // a run that tested nothing fails (issue 25, item 2: a CI gate must not pass on nothing).
    o = cli("run " + exec + " --suite grouped.codes");
    CHECK(o.status == 1);
    CHECK(o.out.find("result: NOTHING TESTED") != std::string::npos);
    CHECK(o.err.find("warning: nothing was tested: subject python-example") != std::string::npos);
    const auto w = o.err.find("warning: nothing was tested");
    REQUIRE(w != std::string::npos);
    CHECK(o.err.substr(w, o.err.find('\n', w) - w).find('(') == std::string::npos);  // no version in parentheses
}

TEST_CASE("the summary orders failing rules by specificity and marks suite readings (issue 7)") {
    // Swapped nibbles fail dozens of rules; the one its mismatches point at comes first.
    const std::string m = std::string(NINFER_PLUGIN_DIR) + "/mutant_grouped_swapped_nibbles.so";
    auto o = cli("run --plugin '" + m + "' --suite grouped.row_split --suite grouped.absmax");
    INFO(o.out);
    CHECK(o.status == 1);
    const auto at = o.out.find("most specific first");
    REQUIRE(at != std::string::npos);
    const auto line = o.out.find('\n', at);
    CHECK(o.out.compare(line + 1, std::string("  row_split.nibble_order").size(), "  row_split.nibble_order") == 0);
    CHECK(o.out.find("first failing encoder group (oracle steps): row ") != std::string::npos);
    // A rule resting on a suite reading is marked.
    o = cli("run --plugin '" + m + "' --suite grouped.search");
    CHECK(o.out.find("grouped.search.candidates (R) [fail]") != std::string::npos);
}

TEST_CASE("the CLI knows its own vectors: an edited, resealed set runs only as a named custom set") {
    const fs::path same = vectors_copy("vectors-same"), edited = vectors_copy("vectors-edited");
    const fs::path victim = edited / "scalar.convert.jsonl";
    {
        std::string text = slurp(victim);
        const auto at = text.find("\"nan\":\"exact\"");
        REQUIRE(at != std::string::npos);
        text.replace(at, 13, "\"nan\":\"any\"");  // a weakened NaN policy
        std::ofstream(victim, std::ios::binary | std::ios::trunc) << text;
    }
    reseal(edited);
    const fs::path r0 = tmp_dir() / "own.json", r1 = tmp_dir() / "custom.json";
    // an unmodified copy is this build's set
    auto o = cli("run --plugin reference --suite scalar.convert --vectors '" + same.string() + "' --report '" + r0.string() + "'");
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(json::parse(slurp(r0)).at("vectors").at("custom") == false);
    // the edited set certifies itself, but not this build
    o = cli("run --plugin reference --suite scalar.convert --vectors '" + edited.string() + "'");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find("not the vector set this build generates") != std::string::npos);
    CHECK(o.err.find("scalar.convert.jsonl") != std::string::npos);
    CHECK(o.err.find("--custom-vectors") != std::string::npos);
    // named as a custom set it runs, and the report and the terminal say so
    o = cli("run --plugin reference --suite scalar.convert --custom-vectors '" + edited.string() + "' --report '" +
            r1.string() + "'");
    CHECK(o.status == 0);
    CHECK(o.err.find("custom vector set") != std::string::npos);
    const auto j = json::parse(slurp(r1));
    CHECK(j.at("vectors").at("custom") == true);
    CHECK(shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA +
                "' '" + r1.string() + "'") == 0);
    CHECK(cli("run --plugin reference --vectors '" + same.string() + "' --custom-vectors '" + same.string() + "'").status == 2);
}

TEST_CASE("collecting cases reads each vector file once and finds an id duplicated across two files") {
    const fs::path clean = vectors_copy("vectors-once");
    ninfer::harness::RunOptions opts;
    opts.vectors_dir = clean;
    const auto opens = opens_during(clean, [&] { CHECK(ninfer::harness::collect_cases(opts).cases.size() > 0); });
    for (const auto &e : fs::directory_iterator(clean)) {
        INFO(e.path().filename().string());
        CHECK(opens.count(e.path().filename().string()) == 1);
        CHECK(opens.at(e.path().filename().string()) == 1);
    }

    const fs::path dup = vectors_copy("vectors-dup");
    const std::string decode = slurp(dup / "scalar.decode.jsonl");
    const auto first_nl = decode.find('\n');
    const std::string first_case = decode.substr(first_nl + 1, decode.find('\n', first_nl + 1) - first_nl);
    std::string classify = slurp(dup / "scalar.classify.jsonl");
    auto header = nlohmann::ordered_json::parse(classify.substr(0, classify.find('\n')));
    header["cases"] = header["cases"].get<std::uint64_t>() + 1;
    classify = header.dump() + classify.substr(classify.find('\n')) + first_case;
    std::ofstream(dup / "scalar.classify.jsonl", std::ios::binary | std::ios::trunc) << classify;
    reseal(dup);
    opts.vectors_dir = dup;
    CHECK_THROWS_WITH(ninfer::harness::collect_cases(opts), Catch::Contains("duplicate case id") &&
                                                                Catch::Contains("scalar.classify.jsonl") &&
                                                                Catch::Contains("scalar.decode.jsonl"));
}

TEST_CASE("option ranges are validated at parse time and say what is accepted") {
    // each line also carries an error found only later (unknown suite or conversion), so that
    // a range check that is missing cannot hide behind a long run
    auto o = cli("run --plugin reference --suite nope --timeout-ms 9223372036854775807");
    CHECK(o.status == 2);
    CHECK(o.err.find("--timeout-ms") != std::string::npos);
    CHECK(o.err.find("86400000") != std::string::npos);
    o = cli("run --plugin reference --suite nope --timeout-ms 0");
    CHECK(o.status == 2);
    CHECK(o.err.find("--timeout-ms") != std::string::npos);
    o = cli("run --plugin reference --suite nope --seed -1");
    CHECK(o.status == 2);
    CHECK(o.err.find("--seed") != std::string::npos);
    o = cli("run --plugin reference --suite nope --max-mismatches -1");
    CHECK(o.status == 2);
    CHECK(o.err.find("--max-mismatches") != std::string::npos);
    o = cli("sweep --plugin reference --conversion nope --count 0");
    CHECK(o.status == 2);
    CHECK(o.err.find("--count") != std::string::npos);
    o = cli("sweep --plugin reference --conversion nope --start ''");
    CHECK(o.status == 2);
    CHECK(o.err.find("--start") != std::string::npos);
    o = cli("sweep --plugin reference --conversion nope --batch 4294967296");
    CHECK(o.status == 2);
    CHECK(o.err.find("--batch") != std::string::npos);
    CHECK(o.err.find("16777216") != std::string::npos);
    o = cli("sweep --plugin reference --conversion nope --timeout-ms 9223372036854775807");
    CHECK(o.status == 2);
    CHECK(o.err.find("--timeout-ms") != std::string::npos);
}

TEST_CASE("report destinations are checked before the run starts") {
    const fs::path ok = tmp_dir() / "dest-ok.json";
    fs::remove(ok);
    auto o = cli("run --plugin reference --suite scalar.convert --report /no/such/dir/r.json");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find("--report") != std::string::npos);
    CHECK(o.err.find("/no/such/dir") != std::string::npos);
    CHECK(o.out.find("result:") == std::string::npos);
    // a bad --junit refuses the run too: nothing is written, not even the good JSON report
    o = cli("run --plugin reference --suite scalar.convert --report '" + ok.string() + "' --junit /no/such/dir/j.xml");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find("--junit") != std::string::npos);
    CHECK_FALSE(fs::exists(ok));
    o = cli("run --plugin reference --suite scalar.convert --report '" + tmp_dir().string() + "'");
    CHECK(o.status == 2);
    CHECK(o.err.find("is a directory") != std::string::npos);
    o = cli("sweep --plugin reference --conversion fp32_to_bf16_rne --count 1 --junit /no/such/dir/j.xml");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.out.find("swept") == std::string::npos);
}

TEST_CASE("generate keeps unrelated files and leaves no .tmp file, and no directory it created, when the disk fills") {
    const fs::path dir = tmp_dir() / "gen-out";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "notes.jsonl") << "{\"mine\":true}\n";
    auto o = cli("generate --out '" + dir.string() + "'");
    CHECK(o.status == 0);
    CHECK(fs::exists(dir / "notes.jsonl"));
    CHECK(o.err.find("notes.jsonl") != std::string::npos);  // warned: a reader refuses unlisted files
    fs::remove(dir / "notes.jsonl");
    CHECK_NOTHROW(ninfer::vectors::load(dir, {}, ninfer::suites::Level::quick));
    // a file size limit stands in for a full disk: writes fail with EFBIG
    const int rc = shell("trap '' XFSZ; ulimit -f 1024; '" + std::string(NINFER_CONFORM_EXE) + "' generate --out '" +
                         dir.string() + "' >'" + (tmp_dir() / "gen.out").string() + "' 2>'" +
                         (tmp_dir() / "gen.err").string() + "'");
    CHECK(rc == 2);
    const std::string err = slurp(tmp_dir() / "gen.err");
    INFO(err);
    CHECK(lines(err) == 1);
    for (const auto &e : fs::directory_iterator(dir))  // no temporary of the writer (".<name>.<random>") left
        CHECK(e.path().filename().string().front() != '.');
    CHECK_NOTHROW(ninfer::vectors::load(dir, {}, ninfer::suites::Level::quick));  // the old set is intact
    // Into directories it creates: none of them is left behind, the parent that was there is kept.
    const fs::path fresh = tmp_dir() / "gen-fresh";
    fs::remove_all(fresh);
    fs::create_directories(fresh);
    const int rc2 = shell("trap '' XFSZ; ulimit -f 1024; '" + std::string(NINFER_CONFORM_EXE) + "' generate --out '" +
                          (fresh / "a" / "b").string() + "' >/dev/null 2>'" + (tmp_dir() / "gen.err").string() + "'");
    CHECK(rc2 == 2);
    CHECK(lines(slurp(tmp_dir() / "gen.err")) == 1);
    CHECK(fs::exists(fresh));
    CHECK(fs::is_empty(fresh));
}

TEST_CASE("unbounded inputs are read up to a cap") {
    const fs::path err = tmp_dir() / "cap.err";
#ifdef NINFER_SANITIZED  // ASan cannot start under an address-space limit: the cap alone bounds the read
    const std::string limit = "'" + std::string(NINFER_CONFORM_EXE) + "' ";
#else  // a safety net: without the cap, the read would stop at 4 GB of address space
    const std::string limit = "ulimit -v 4000000; '" + std::string(NINFER_CONFORM_EXE) + "' ";
#endif
    // a file that is no regular file is refused without a byte read (docs/cli.md, "Input and output files")
    CHECK(shell(limit + "run --plugin reference --baseline /dev/zero 2>'" + err.string() + "'") == 2);
    CHECK(slurp(err).find("a character device (expected a regular file)") != std::string::npos);
    CHECK(lines(slurp(err)) == 1);
    CHECK(shell(limit + "oracle </dev/zero >/dev/null 2>'" + err.string() + "'") == 2);
    CHECK(slurp(err).find("larger than the limit") != std::string::npos);
}

TEST_CASE("an unknown command is named and no error line echoes unbounded input") {
    auto o = cli("frobnicate");
    CHECK(o.status == 2);
    CHECK(o.err.find("frobnicate") != std::string::npos);
    const std::string big(100000, 'x');
    o = cli("run --plugin reference --level " + big);
    CHECK(o.status == 2);
    CHECK(o.err.size() < 1000);
    o = cli("run --plugin reference --timeout-ms " + std::string(100000, '9'));
    CHECK(o.status == 2);
    CHECK(o.err.size() < 1000);
    o = cli(big);
    CHECK(o.status == 2);
    CHECK(o.err.size() < 1000);
    o = cli("oracle convert --conversion " + big + " --word 0");
    CHECK(o.status == 2);
    CHECK(o.err.size() < 1000);
    o = cli("oracle", "{\"op\":\"" + big + "\"}\n");
    CHECK(o.status == 2);
    CHECK(o.err.size() < 1000);
    o = cli("oracle", std::string(100000, '[') + std::string(100000, ']') + "\n");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK(o.err.size() < 1000);
}

TEST_CASE("a plugin built against ABI v1 (the 0.1.0 minimal example, verbatim) still runs its declared cases (issue 6)") {
    // Built with NINFER_PLUGIN_ABI=1 against today's headers; its entry returns NULL unless asked
    // for ABI 1, so it loads only through the harness's fallback, and runs through the v1 adapter.
    const fs::path r = tmp_dir() / "v1_minimal.json";
    const auto a = cli("run --plugin '" + std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_v1_minimal_0_1_0.so' --report '" +
                       r.string() + "'");
    INFO(a.out << a.err);
    CHECK(a.out.find("plugin minimal 1.0 (abi 1)") != std::string::npos);
    const auto rep = json::parse(slurp(r));
    CHECK(rep.at("subject").at("abi_version") == 1);
    std::size_t passed = 0, failed = 0;
    for (const auto &c : rep.at("cases")) {
        const auto status = c.at("status").get<std::string>();
        INFO(c.at("id"));
        CHECK((status == "pass" || status == "fail" || status == "unsupported"));
        if (status == "pass") ++passed;
        if (status != "fail") continue;
        // 0.1.0 kept a signalling NaN unquieted on decode; the NaN principle (0.2) quiets it.
        ++failed;
        for (const auto &[cls, n] : c.at("classes").items()) CHECK(cls == "nan_not_quieted");
    }
    CHECK(passed >= 4);
    CHECK(failed <= 1);
}

namespace {

/// A report without what may differ between equal runs: timestamps and timings.
json timeless(json r) {
    for (const char *k : {"started_at", "finished_at", "duration_s"}) r.erase(k);
    for (auto &c : r["cases"]) c.erase("seconds");
    return r;
}

/// The report a `run` wrote (exit 0 or 1 expected), its stderr in `err`.
json run_report(const std::string &name, const std::string &args, std::string *err = nullptr) {
    const fs::path r = tmp_dir() / (name + ".json");
    const auto o = cli("run " + args + " --report '" + r.string() + "'");
    INFO(args << "\n" << o.out << o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    if (err) *err = o.err;
    return json::parse(slurp(r));
}

std::vector<std::string> failing_ids(const json &rep) {
    std::vector<std::string> ids;
    for (const auto &c : rep.at("cases"))
        if (c.at("status") == "fail" || c.at("status") == "error" || c.at("status") == "crash" || c.at("status") == "timeout")
            ids.push_back(c.at("id"));
    return ids;
}

const std::string kTruncation = "--plugin mutant_bf16_truncation --suite scalar.convert";

}  // namespace

TEST_CASE("a run leaves out the suites its subject declares nothing in: one line, the report of the run restricted to "
          "its suites (issue 32, item 4)", "[run][declared]") {
    const std::string v1 = "--plugin '" + std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_v1_minimal_0_1_0.so' --level full";
    std::string err;
    json all = timeless(run_report("declared-all", v1, &err));
    json two = timeless(run_report("declared-two", v1 + " --suite scalar.convert --suite scalar.decode"));
    CHECK(all.at("suites").empty());
    all.erase("suites");
    two.erase("suites");
    CHECK(all == two);
    INFO(err);
    const auto line = err.find("not run: ");
    REQUIRE(line != std::string::npos);
    CHECK(err.substr(line, err.find('\n', line) - line).find(" suites in which the subject declares nothing (") != std::string::npos);
    CHECK(err.find("not run: ", line + 1) == std::string::npos);
    CHECK(err.find("suite grouped.codes") == std::string::npos);
    CHECK(err.find("suite scalar.convert: ") != std::string::npos);
}

TEST_CASE("run --max-failures and --fail-fast stop after the N-th unwaived failing case, the same in any number of "
          "jobs (issue 32, item 5)", "[run][max-failures]") {
    const json whole = run_report("mf-whole", kTruncation);
    const auto failing = failing_ids(whole);
    REQUIRE(failing.size() >= 4);
    const json two = run_report("mf-two", kTruncation + " --max-failures 2");
    const auto &cases = two.at("cases");
    REQUIRE(!cases.empty());
    CHECK(cases.back().at("id") == failing[1]);
    CHECK(failing_ids(two).size() == 2);
    for (std::size_t i = 0; i < cases.size(); ++i) CHECK(cases[i].at("id") == whole.at("cases")[i].at("id"));
    CHECK(two.at("extra").at("stopped").get<std::string>().find("--max-failures 2: stopped at failing case " + failing[1]) == 0);
    CHECK(timeless(run_report("mf-two-jobs", kTruncation + " --max-failures 2 --jobs 3")) == timeless(two));
    CHECK(timeless(run_report("mf-fast", kTruncation + " --fail-fast")).at("cases").back().at("id") == failing[0]);
    // A waived failure does not count: waive the first failing case, the stop moves to the third.
    const fs::path b = tmp_dir() / "mf-baseline.json";
    std::string rule_of_first;
    for (const auto &c : whole.at("cases"))
        if (c.at("id") == failing[0]) rule_of_first = c.at("rule");
    {
        std::ofstream(b) << json{{"version", 1}, {"waivers", {{{"rule", rule_of_first}, {"case", failing[0]}, {"reason", "known"}}}}}.dump();
    }
    const json waived = run_report("mf-waived", kTruncation + " --max-failures 2 --baseline '" + b.string() + "'");
    CHECK(waived.at("cases").back().at("id") == failing[2]);
    CHECK(cli("run " + kTruncation + " --fail-fast --max-failures 3").status == 2);
}

TEST_CASE("run --rule, --case and --rerun-failed choose cases, compose with shards and baselines, and refuse an empty "
          "choice with one line (issue 32, item 7)", "[run][select]") {
    const json whole = run_report("sel-whole", kTruncation);
    // --rule: every case of the run is of a matching rule.
    const json bf16 = run_report("sel-rule", kTruncation + " --rule 'convert.fp32_to_bf16*'");
    REQUIRE(!bf16.at("cases").empty());
    for (const auto &c : bf16.at("cases")) CHECK(c.at("rule").get<std::string>().rfind("convert.fp32_to_bf16", 0) == 0);
    auto o = cli("run " + kTruncation + " --rule convert.fp32_to_bf16_rn");
    CHECK(o.status == 2);
    CHECK(o.err.find("--rule 'convert.fp32_to_bf16_rn' selects no case of this run") != std::string::npos);
    CHECK(o.err.find("; did you mean convert.fp32_to_bf16_r") != std::string::npos);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    // --case: a glob over case ids.
    const std::string first_id = whole.at("cases")[0].at("id");
    const json one = run_report("sel-case", kTruncation + " --case '" + first_id + "'");
    REQUIRE(one.at("cases").size() == 1);
    CHECK(one.at("cases")[0].at("id") == first_id);
    o = cli("run " + kTruncation + " --case 'no-such-case/*'");
    CHECK(o.status == 2);
    CHECK(o.err.find("--case 'no-such-case/*' selects no case of this run") != std::string::npos);
    // --rerun-failed: exactly the failing cases, in order; its shards together are the whole.
    const fs::path previous = tmp_dir() / "sel-whole.json";
    const json again = run_report("sel-again", "--plugin mutant_bf16_truncation --rerun-failed '" + previous.string() + "'");
    CHECK(failing_ids(again) == failing_ids(whole));
    CHECK(again.at("cases").size() == failing_ids(whole).size());
    std::vector<std::string> sharded;
    for (const char *shard : {"0/2", "1/2"})
        for (const auto &id : failing_ids(run_report(std::string("sel-shard") + shard[0],
                                                     "--plugin mutant_bf16_truncation --rerun-failed '" + previous.string() +
                                                         "' --shard " + shard)))
            sharded.push_back(id);
    CHECK(sharded == failing_ids(whole));
    // With a baseline that waives them all, the rerun passes.
    const fs::path b = tmp_dir() / "sel-baseline.json";
    std::ofstream(b) << R"({"version": 1, "waivers": [{"rule": "convert.fp32_to_bf16_rne", "case": "*", "reason": "truncates"}]})";
    const auto waived = cli("run --plugin mutant_bf16_truncation --rerun-failed '" + previous.string() +
                            "' --rule convert.fp32_to_bf16_rne --baseline '" + b.string() + "'");
    INFO(waived.out << waived.err);
    CHECK(waived.status == 0);
    // A report without failures has nothing to run again.
    const json passing = run_report("sel-pass", "--plugin reference --suite scalar.decode");
    o = cli("run --plugin reference --rerun-failed '" + (tmp_dir() / "sel-pass.json").string() + "'");
    CHECK(o.status == 2);
    CHECK(o.err.find("the report has no failing case to run again") != std::string::npos);
    CHECK(passing.at("cases").size() > 0);
}
