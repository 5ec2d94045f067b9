// SPDX-License-Identifier: Apache-2.0
// `run --case-cache DIR` (docs/cli.md, "Case cache"): the seeded cases generated once and read
// back; the same reports with and without it (but for the cache the report names); key
// mismatches regenerate, files the key did not seal are never read, corrupt files of this key fail
// loudly with one line; concurrent runs on one directory; a forged cache cannot change a verdict.
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
    static const fs::path d = ninfer::harness::test::scratch("case-cache");
    return d;
}

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

/// Two suites with seeded cases at level full: words (scalar) and an operator (linear), the
/// fastest to generate of each kind.
const std::string kSuites = "--suite scalar.convert --suite linear.direct";
/// One suite, for the tests of damaged files.
const std::string kOneSuite = "--suite scalar.convert";

/// A report with its timings and timestamps masked, and the cache it names (the only bytes that
/// may differ).
std::string masked(const fs::path &report) {
    std::string s = slurp(report);
    s = std::regex_replace(s, std::regex(R"re("case_cache": \{[^}]*\})re"), "\"case_cache\": null");
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

/// The key file of these tests, outside every cache directory (created by the first run).
fs::path key_file() { return tmp_dir() / "keys" / "case-cache.key"; }

std::string cache_opt(const fs::path &dir) {
    return "--case-cache '" + dir.string() + "' --case-cache-key '" + key_file().string() + "'";
}

/// The key's bytes: the key file's hex digits decoded.
std::string key_bytes() {
    std::string hex = slurp(key_file()), bytes;
    for (std::size_t i = 0; i + 1 < hex.size() && hex[i] != '\n'; i += 2)
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return bytes;
}

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
        // A subject that declares no linear op runs no linear suite (issue 32, item 4): nothing to cache.
        REQUIRE(fs::exists(cache_file(dir, "linear.direct")) == (plugin != "mutant_bf16_truncation"));
        const auto c = run_full(plugin, r2, cache_opt(dir));  // reads it
        INFO(a.err << b.err << c.err);
        CHECK(a.status == (plugin == "reference" ? 0 : 1));
        CHECK(b.status == a.status);
        CHECK(c.status == a.status);
        const std::string m0 = masked(r0);
        CHECK(m0.find("\"cases\": [") != std::string::npos);
        CHECK(masked(r1) == m0);
        CHECK(masked(r2) == m0);
        CHECK(slurp(r1) != slurp(r0));  // the report names the cache
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
    CHECK(h.at("vectors_version") == 4);
    CHECK(h.at("suite") == "linear.direct");
    CHECK(h.at("level") == "full");
    CHECK(h.at("seed") == ninfer::suites::kDefaultSeed);
    CHECK(h.at("suite_version") == nlohmann::json::parse(slurp(tmp_dir() / "format.json")).at("tool_version"));
    CHECK(h.at("build").get<std::string>().size() == 64);
    CHECK(h.at("cases").get<std::size_t>() == lines(text) - 1);
    CHECK(h.at("cases").get<std::size_t>() > 0);
    // the checksum is sha256sum's digest of every line after the header
    CHECK(sha256sum(text.substr(nl + 1)) == h.at("sha256").get<std::string>());
    // the HMAC-SHA-256 under the key covers the header without it, a newline and the lines
    auto unsealed = nlohmann::ordered_json::parse(text.substr(0, nl));
    const std::string mac = unsealed.at("hmac");
    unsealed.erase("hmac");
    CHECK(mac == ninfer::harness::hmac_sha256_hex(key_bytes(), unsealed.dump() + "\n" + text.substr(nl + 1)));
    CHECK(text.substr(0, nl).find(mac) == text.substr(0, nl).size() - 66);  // the header's last field
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
    SECTION("an altered case line: not sealed by the key, so never read, generated again") {
        std::string bad = good;
        const auto at = bad.find("\"nan\":\"exact\"", nl);
        REQUIRE(at != std::string::npos);
        bad.replace(at, 13, "\"nan\":\"any\"");  // a weakened NaN policy
        write(file, bad);
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 0);
        CHECK(o.err.find("case cache: " + file.string() + " is not sealed by key") != std::string::npos);
        CHECK(masked(r1) == masked(r0));
        CHECK(slurp(file) == good);
    }
    SECTION("a truncated file: not sealed, generated again") {
        write(file, good.substr(0, good.size() - 10));
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 0);
        CHECK(o.err.find("is not sealed by key") != std::string::npos);
        CHECK(slurp(file) == good);
    }
    SECTION("sealed by the key but the lines do not match their checksum") {
        auto h = nlohmann::ordered_json::parse(good.substr(0, nl));
        h.erase("hmac");
        const std::string body = good.substr(nl + 1, good.size() - nl - 1 - 10);
        const std::string mac = ninfer::harness::hmac_sha256_hex(key_bytes(), h.dump() + "\n" + body);
        h["hmac"] = mac;
        write(file, h.dump() + "\n" + body);
        const auto o = run_full("reference", r1, cache_opt(dir), kOneSuite);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find(file.string() + ": SHA-256 mismatch") != std::string::npos);
        CHECK(o.err.find("delete the file") != std::string::npos);
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
    SECTION("a case line the vectors reader refuses, checksum and HMAC resealed with the key") {
        auto h = nlohmann::ordered_json::parse(good.substr(0, nl));
        std::string body = good.substr(nl + 1);
        const auto at = body.find("\"op\":\"convert\"");
        REQUIRE(at != std::string::npos);
        body.replace(at, 14, "\"op\":\"cnvert\"");
        h.erase("hmac");
        h["sha256"] = sha256sum(body);
        const std::string mac = ninfer::harness::hmac_sha256_hex(key_bytes(), h.dump() + "\n" + body);
        h["hmac"] = mac;
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

// Issue 22, item 6: the case cache cannot change a verdict.

namespace {

/// The file's header and case lines with the header's "sha256" recomputed: what anyone who
/// can write the cache directory, but holds no key, can do.
std::string resealed_without_key(nlohmann::ordered_json header, const std::string &body) {
    header["sha256"] = sha256sum(body);
    return header.dump() + "\n" + body;
}

nlohmann::ordered_json header_of(const std::string &text) { return nlohmann::ordered_json::parse(text.substr(0, text.find('\n'))); }
std::string body_of(const std::string &text) { return text.substr(text.find('\n') + 1); }

}  // namespace

TEST_CASE("case cache: HMAC-SHA-256 is RFC 4231's") {
    // RFC 4231, test case 2
    CHECK(ninfer::harness::hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("case cache: the report names the cache directory and the key's id, never the key") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-named"), r = tmp_dir() / "named.json";
    REQUIRE(run_full("reference", r, cache_opt(dir), kOneSuite).status == 0);
    const auto j = nlohmann::json::parse(slurp(r));
    CHECK(j.at("options").at("case_cache").at("dir") == dir.string());
    CHECK(j.at("options").at("case_cache").at("key_id") == sha256sum(key_bytes()).substr(0, 16));
    const std::string key_hex = slurp(key_file()).substr(0, 64);
    CHECK(slurp(r).find(key_hex) == std::string::npos);
    // and a run without the cache says so
    REQUIRE(run_full("reference", tmp_dir() / "unnamed.json", "", kOneSuite).status == 0);
    CHECK(nlohmann::json::parse(slurp(tmp_dir() / "unnamed.json")).at("options").at("case_cache").is_null());
}

TEST_CASE("case cache: a forged expected word, checksum resealed, does not change the verdict") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-forged-word");
    const fs::path none = tmp_dir() / "forged-none.json", forged = tmp_dir() / "forged-read.json";
    const std::string mutant = "mutant_bf16_truncation", all = " --max-mismatches 1000000";  // every mismatch kept
    REQUIRE(run_full(mutant, none, all, kOneSuite).status == 1);
    REQUIRE(run_full(mutant, tmp_dir() / "forged-write.json", cache_opt(dir) + all, kOneSuite).status == 1);
    const fs::path file = cache_file(dir, "scalar.convert");
    const std::string good = slurp(file);
    // a seeded case the mutant fails on every kept word: make the file expect what the mutant says
    nlohmann::ordered_json line;
    std::string id, old_line;
    const auto none_report = nlohmann::json::parse(slurp(none));
    for (const auto &c : none_report.at("cases")) {
        if (c.at("status") != "fail" || c.at("mismatches") != c.at("first_mismatches").size()) continue;
        const auto at = good.find("{\"id\":\"" + c.at("id").get<std::string>() + "\"");
        if (at == std::string::npos) continue;  // a golden case, not in the cache
        old_line = good.substr(at, good.find('\n', at) - at);
        line = nlohmann::ordered_json::parse(old_line);
        for (const auto &m : c.at("first_mismatches")) {
            REQUIRE(m.at("plane") == "words");
            line["expect"]["outputs"]["words"][m.at("index").get<std::size_t>()] = m.at("actual").get<std::string>();
        }
        id = c.at("id").get<std::string>();
        break;
    }
    REQUIRE_FALSE(id.empty());
    std::string body = body_of(good);
    body.replace(body.find(old_line), old_line.size(), line.dump());
    write(file, resealed_without_key(header_of(good), body));
    const auto o = run_full(mutant, forged, cache_opt(dir) + all, kOneSuite);
    INFO(o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find("is not sealed by key") != std::string::npos);
    CHECK(masked(forged) == masked(none));
    const auto forged_report = nlohmann::json::parse(slurp(forged));
    for (const auto &c : forged_report.at("cases"))
        if (c.at("id") == id) CHECK(c.at("status") == "fail");
    CHECK(slurp(file) == good);  // generated again
    // and the reference, right on that case, still passes with the forged file
    write(file, resealed_without_key(header_of(good), body));
    CHECK(run_full("reference", tmp_dir() / "forged-reference.json", cache_opt(dir), kOneSuite).status == 0);
}

TEST_CASE("case cache: a suite's file holding another suite's cases is never read") {
    const std::string two = "--suite scalar.convert --suite scalar.decode";
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-foreign");
    const fs::path none = tmp_dir() / "foreign-none.json", r = tmp_dir() / "foreign.json";
    REQUIRE(run_full("reference", none, "", two).status == 0);
    REQUIRE(run_full("reference", r, cache_opt(dir), two).status == 0);
    const std::string convert = slurp(cache_file(dir, "scalar.convert")), decode = slurp(cache_file(dir, "scalar.decode"));
    REQUIRE(header_of(decode).at("cases").get<std::size_t>() > 0);

    SECTION("copied under the other suite's name, the header's suite renamed, checksum resealed") {
        auto h = header_of(convert);
        h["suite"] = "scalar.decode";
        write(cache_file(dir, "scalar.decode"), resealed_without_key(h, body_of(convert)));
        const auto o = run_full("reference", r, cache_opt(dir), two);
        INFO(o.err);
        CHECK(o.status == 0);
        CHECK(o.err.find(cache_file(dir, "scalar.decode").string() + " is not sealed by key") != std::string::npos);
        CHECK(masked(r) == masked(none));
        CHECK(slurp(cache_file(dir, "scalar.decode")) == decode);
    }
    SECTION("copied verbatim under the other suite's name: another suite's file, generated again") {
        write(cache_file(dir, "scalar.decode"), convert);
        const auto o = run_full("reference", r, cache_opt(dir), two);
        CHECK(o.status == 0);
        CHECK(masked(r) == masked(none));
        CHECK(slurp(cache_file(dir, "scalar.decode")) == decode);
    }
    SECTION("a header claiming 0 cases over no lines") {
        auto h = header_of(decode);
        h["cases"] = 0;
        write(cache_file(dir, "scalar.decode"), resealed_without_key(h, ""));
        const auto o = run_full("reference", r, cache_opt(dir), two);
        CHECK(o.status == 0);
        CHECK(o.err.find("is not sealed by key") != std::string::npos);
        CHECK(masked(r) == masked(none));
        CHECK(nlohmann::json::parse(slurp(r)).at("totals") == nlohmann::json::parse(slurp(none)).at("totals"));
    }
    SECTION("sealed with the key, a case count that is not the lines'") {
        auto h = header_of(decode);
        h.erase("hmac");
        h["cases"] = h["cases"].get<std::size_t>() + 1;
        const std::string mac = ninfer::harness::hmac_sha256_hex(key_bytes(), h.dump() + "\n" + body_of(decode));
        h["hmac"] = mac;
        write(cache_file(dir, "scalar.decode"), h.dump() + "\n" + body_of(decode));
        const auto o = run_full("reference", r, cache_opt(dir), two);
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find("the header says") != std::string::npos);
    }
}

TEST_CASE("case cache: the key is kept outside the cache, private, and created on first use") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache-keys");
    const fs::path r = tmp_dir() / "keys.json";
    const auto with_key = [&](const fs::path &key) {
        return run_full("reference", r, "--case-cache '" + dir.string() + "' --case-cache-key '" + key.string() + "'", kOneSuite);
    };
    SECTION("a key file inside the cache directory") {
        const auto o = with_key(dir / "k.key");
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK(o.err.find("inside the cache directory") != std::string::npos);
        CHECK_FALSE(fs::exists(dir / "k.key"));
    }
    SECTION("a key file others may read") {
        const fs::path key = tmp_dir() / "open.key";
        write(key, std::string(64, 'a') + "\n");
        fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
        const auto o = with_key(key);
        CHECK(o.status == 2);
        CHECK(o.err.find("mode 0644") != std::string::npos);
    }
    SECTION("a key file that is not hex digits") {
        const fs::path key = tmp_dir() / "short.key";
        write(key, "secret\n");
        fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write);
        const auto o = with_key(key);
        CHECK(o.status == 2);
        CHECK(o.err.find("expected 64 to 1024 hex digits") != std::string::npos);
    }
    SECTION("--case-cache-key without --case-cache") {
        const auto o = run_full("reference", r, "--case-cache-key '" + key_file().string() + "'", kOneSuite);
        CHECK(o.status == 2);
        CHECK(o.err.find("no --case-cache") != std::string::npos);
    }
    SECTION("the default key: $XDG_STATE_HOME/ninfer-conform/case-cache.key, created 0600") {
        const fs::path state = ninfer::harness::test::fresh_dir(tmp_dir() / "state");
        ::setenv("XDG_STATE_HOME", state.c_str(), 1);
        ::unsetenv("NINFER_CASE_CACHE_KEY");
        const auto o = run_full("reference", r, "--case-cache '" + dir.string() + "'", kOneSuite);
        ::unsetenv("XDG_STATE_HOME");
        INFO(o.err);
        CHECK(o.status == 0);
        const fs::path key = state / "ninfer-conform" / "case-cache.key";
        REQUIRE(fs::exists(key));
        CHECK(fs::status(key).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
        CHECK(fs::status(key.parent_path()).permissions() == fs::perms::owner_all);
        const std::string hex = slurp(key);
        CHECK(hex.size() == 65);
        std::string bytes;
        for (std::size_t i = 0; i < 64; i += 2) bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
        CHECK(nlohmann::json::parse(slurp(r)).at("options").at("case_cache").at("key_id") == sha256sum(bytes).substr(0, 16));
    }
}
