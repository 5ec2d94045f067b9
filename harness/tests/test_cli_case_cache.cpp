// SPDX-License-Identifier: Apache-2.0
// `run --case-cache DIR` (docs/cli.md, "Case cache"): the seeded cases generated once and read
// back; the same reports with and without it; key mismatches regenerate, corrupt files fail
// loudly with one line; concurrent runs on one directory.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/harness/case_cache.hpp"
#include "ninfer/suites/suites.hpp"

namespace fs = std::filesystem;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::fresh_dir(NINFER_CLI_TEST_TMP "-case-cache");  // test_cli.cpp empties cli-test-tmp
    return d;
}

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

/// Two suites with seeded cases at level full: words (scalar) and an operator (linear), the
/// fastest to generate of each kind.
const std::string kSuites = "--suite scalar.convert --suite linear.direct";
/// One suite, for the tests of damaged files.
const std::string kOneSuite = "--suite scalar.convert";

/// A report with its timings and timestamps masked (the only bytes that may differ).
std::string masked(const fs::path &report) {
    std::string s = slurp(report);
    s = std::regex_replace(s, std::regex(R"re("(started_at|finished_at)": "[^"]*")re"), "\"$1\": \"T\"");
    return std::regex_replace(s, std::regex(R"re("duration_s": [0-9.eE+-]+)re"), "\"duration_s\": 0");
}

/// `run` of `plugin` at level full over `suites`, the report at `report`, with `extra` options.
Out run_full(const std::string &plugin, const fs::path &report, const std::string &extra = "",
             const std::string &suites = kSuites) {
    return cli("run --plugin " + plugin + " --level full " + suites + " --report '" + report.string() + "' " + extra);
}

/// stdout without the line naming the report file.
std::string summary(const std::string &out) { return std::regex_replace(out, std::regex("report: [^\n]*\n"), ""); }

std::string cache_opt(const fs::path &dir) { return "--case-cache '" + dir.string() + "'"; }

fs::path cache_file(const fs::path &dir, const std::string &suite) {
    return ninfer::harness::case_cache_file(dir, suite, ninfer::suites::Level::full, ninfer::suites::kDefaultSeed);
}

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

void write(const fs::path &p, const std::string &text) { std::ofstream(p, std::ios::binary | std::ios::trunc) << text; }

/// `sha256sum`'s digest of `text` (64 hex digits).
std::string sha256sum(const std::string &text) {
    const fs::path in = tmp_dir() / "sha256sum.in", out = tmp_dir() / "sha256sum.out";
    write(in, text);
    REQUIRE(std::system(("sha256sum < '" + in.string() + "' > '" + out.string() + "'").c_str()) == 0);
    return slurp(out).substr(0, 64);
}

}  // namespace

TEST_CASE("case cache: reports with and without the cache are the same bytes, timings aside") {
    for (const std::string plugin : {"reference", "mutant_bf16_truncation", "mutant_linear_bf16_accumulation"}) {
        INFO(plugin);
        const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / ("cache-" + plugin));
        const fs::path r0 = tmp_dir() / (plugin + "-none.json"), r1 = tmp_dir() / (plugin + "-written.json"),
                       r2 = tmp_dir() / (plugin + "-read.json");
        const auto a = run_full(plugin, r0);
        const auto b = run_full(plugin, r1, cache_opt(dir));  // generates and writes the cache
        REQUIRE(fs::exists(cache_file(dir, "scalar.convert")));
        REQUIRE(fs::exists(cache_file(dir, "linear.direct")));
        const auto c = run_full(plugin, r2, cache_opt(dir));  // reads it
        INFO(a.err << b.err << c.err);
        CHECK(a.status == (plugin == "reference" ? 0 : 1));
        CHECK(b.status == a.status);
        CHECK(c.status == a.status);
        const std::string m0 = masked(r0);
        CHECK(m0.find("\"cases\": [") != std::string::npos);
        CHECK(masked(r1) == m0);
        CHECK(masked(r2) == m0);
        // the same stdout (the summary) and stderr lines apart from the per-suite seconds
        CHECK(summary(c.out) == summary(a.out));
        CHECK(summary(c.out) != c.out);
        const std::regex seconds(R"re(\([0-9.]+ s\))re");
        CHECK(std::regex_replace(c.err, seconds, "") == std::regex_replace(a.err, seconds, ""));
    }
}

TEST_CASE("case cache: a file holds the key and the vector format's case lines under a checksum") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-format");
    REQUIRE(run_full("reference", tmp_dir() / "format.json", cache_opt(dir)).status == 0);
    const std::string text = slurp(cache_file(dir, "linear.direct"));
    const auto nl = text.find('\n');
    const auto h = nlohmann::json::parse(text.substr(0, nl));
    CHECK(h.at("format") == "ninfer-conform/case-cache");
    CHECK(h.at("version") == ninfer::harness::kCaseCacheVersion);
    CHECK(h.at("vectors_version") == 3);
    CHECK(h.at("suite") == "linear.direct");
    CHECK(h.at("level") == "full");
    CHECK(h.at("seed") == ninfer::suites::kDefaultSeed);
    CHECK(h.at("build").get<std::string>().size() == 64);
    CHECK(h.at("cases").get<std::size_t>() == lines(text) - 1);
    CHECK(h.at("cases").get<std::size_t>() > 0);
    // the checksum is sha256sum's digest of every line after the header
    CHECK(sha256sum(text.substr(nl + 1)) == h.at("sha256").get<std::string>());
    // no temporary file is left behind
    for (const auto &e : fs::directory_iterator(dir)) CHECK(e.path().extension() == ".jsonl");
}

TEST_CASE("case cache: another key regenerates, a corrupt or truncated file fails with one line naming it") {
    const fs::path dir = tmp_dir() / "cache-bad", r0 = tmp_dir() / "bad-0.json", r1 = tmp_dir() / "bad-1.json";
    const fs::path file = cache_file(dir, "scalar.convert");
    // the good file, written once for every section
    static const std::string good = [&] {
        ninfer::harness::test::fresh_dir(dir);
        REQUIRE(run_full("reference", r0, cache_opt(dir), kOneSuite).status == 0);
        return slurp(file);
    }();
    REQUIRE_FALSE(good.empty());
    const auto nl = good.find('\n');

    SECTION("a file of another build is a key mismatch: regenerated and replaced") {
        auto h = nlohmann::ordered_json::parse(good.substr(0, nl));
        h["build"] = std::string(64, '0');
        write(file, h.dump() + good.substr(nl));
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 0);
        CHECK(masked(r1) == masked(r0));
        CHECK(slurp(file) == good);
    }
    SECTION("an altered case line: SHA-256 mismatch") {
        std::string bad = good;
        const auto at = bad.find("\"nan\":\"exact\"", nl);
        REQUIRE(at != std::string::npos);
        bad.replace(at, 13, "\"nan\":\"any\"");  // a weakened NaN policy
        write(file, bad);
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ": SHA-256 mismatch") != std::string::npos);
        CHECK(o.err.find("delete the file") != std::string::npos);
        CHECK(slurp(file) == bad);  // left for inspection
    }
    SECTION("a truncated file") {
        write(file, good.substr(0, good.size() - 10));
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ": SHA-256 mismatch") != std::string::npos);
    }
    SECTION("a truncated header") {
        write(file, good.substr(0, nl / 2));
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ":1: truncated") != std::string::npos);
    }
    SECTION("not a case cache file") {
        write(file, "{\"format\":\"ninfer-conform/vectors\",\"version\":3}\n");
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ":1: expected a case cache header") != std::string::npos);
    }
    SECTION("a case line the vectors reader refuses, checksum resealed") {
        auto h = nlohmann::ordered_json::parse(good.substr(0, nl));
        std::string body = good.substr(nl + 1);
        const auto at = body.find("\"op\":\"convert\"");
        REQUIRE(at != std::string::npos);
        body.replace(at, 14, "\"op\":\"cnvert\"");
        h["sha256"] = sha256sum(body);
        write(file, h.dump() + "\n" + body);
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ":2: unknown op \"cnvert\"") != std::string::npos);
    }
    SECTION("a --case-cache that is a file") {
        const auto o = run_full("reference", r1, cache_opt(file), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find("--case-cache") != std::string::npos);
    }
}

TEST_CASE("case cache: runs at the same time on one directory leave it whole") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-concurrent");
    const fs::path none = tmp_dir() / "concurrent-none.json";
    REQUIRE(run_full("reference", none).status == 0);
    // four runs started together, all generating and renaming over each other
    std::string script;
    for (int i = 0; i < 4; ++i)
        script += "'" NINFER_CONFORM_EXE "' run --plugin reference --level full " + kSuites + " " + cache_opt(dir) +
                  " --report '" + (tmp_dir() / ("concurrent-" + std::to_string(i) + ".json")).string() +
                  "' >/dev/null 2>&1 &\n";
    script += "fail=0\nfor j in $(jobs -p); do wait $j || fail=1; done\nexit $fail\n";
    write(tmp_dir() / "concurrent.sh", script);
    const int rc = std::system(("bash '" + (tmp_dir() / "concurrent.sh").string() + "'").c_str());
    CHECK(WIFEXITED(rc));
    CHECK(WEXITSTATUS(rc) == 0);
    for (int i = 0; i < 4; ++i)
        CHECK(masked(tmp_dir() / ("concurrent-" + std::to_string(i) + ".json")) == masked(none));
    for (const auto &e : fs::directory_iterator(dir)) CHECK(e.path().extension() == ".jsonl");
    // and what they left is read back by the next run
    const fs::path after = tmp_dir() / "concurrent-after.json";
    CHECK(run_full("reference", after, cache_opt(dir)).status == 0);
    CHECK(masked(after) == masked(none));
}
