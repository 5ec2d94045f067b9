// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: progress on stderr (progress.hpp; docs/cli.md, "Progress"): shown when
// asked (--progress) or on a terminal, never on stdout; the reports are the same either way.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

namespace {

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("progress");
    return d;
}

/// The CLI with stdout and stderr on files: not a terminal.
Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args, "", "timeout -k 5 120"); }

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/// A report without what differs from run to run (times, host).
nlohmann::json steady(nlohmann::json j) {
    for (const char *k : {"started_at", "finished_at", "duration_s", "host"}) j.erase(k);
    for (auto &c : j["cases"]) c.erase("duration_s");
    return j;
}

}  // namespace

TEST_CASE("progress: run --progress shows case generation on stderr; stdout and the report do not change") {
    const fs::path quiet = tmp_dir() / "quiet.json", shown = tmp_dir() / "shown.json";
    const Out a = cli("run --plugin reference --suite scalar.decode --report '" + quiet.string() + "'");
    const Out b = cli("run --plugin reference --suite scalar.decode --progress --report '" + shown.string() + "'");
    INFO(a.err << b.err);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(!has(a.err, "generating cases"));  // a pipe and no --progress: none
    CHECK(has(b.err, "generating cases: 1 suites, 31 cases ("));
    CHECK(!has(b.out, "generating"));
    const auto strip = [](std::string s) {  // the report path differs, by name only
        for (const std::string name : {"quiet.json", "shown.json"})
            if (const auto at = s.find(name); at != std::string::npos) s.replace(at, name.size(), "R");
        return s;
    };
    CHECK(strip(a.out) == strip(b.out));
    CHECK(steady(nlohmann::json::parse(slurp(quiet))) == steady(nlohmann::json::parse(slurp(shown))));
    // --no-progress wins over nothing, and the two exclude each other
    const Out c = cli("run --plugin reference --suite scalar.decode --no-progress");
    CHECK(c.status == 0);
    CHECK(!has(c.err, "generating cases"));
    const Out d = cli("run --plugin reference --progress --no-progress");
    CHECK(d.status == 2);
}

TEST_CASE("progress: sweep --progress shows words, mismatches, rate and ETA on stderr only") {
    const Out a = cli("sweep --plugin reference --conversion e4m3fn_to_fp32 --jobs 1");
    const Out b = cli("sweep --plugin reference --conversion e4m3fn_to_fp32 --jobs 1 --progress");
    INFO(a.err << b.err);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(!has(a.err, "ETA"));
    CHECK(has(b.err, "sweep convert.e4m3fn_to_fp32: 256/256 words (100.0%), 0 mismatches, "));
    CHECK(has(b.err, " words/s, ETA "));
    CHECK(!has(b.out, "ETA"));
    // a mutant's mismatches are counted as the sweep goes
    const Out m = cli("sweep --plugin mutant_bf16_truncation --conversion fp32_to_bf16_rne --count 65536 --jobs 1 --progress");
    CHECK(m.status == 1);
    CHECK(has(m.err, "sweep convert.fp32_to_bf16_rne: 65536/65536 words (100.0%), "));
    CHECK(!has(m.err, "65536/65536 words (100.0%), 0 mismatches"));
}

TEST_CASE("progress: coverage --progress names the suites on stderr, nothing on stdout") {
    const Out o = cli("coverage --level quick --progress");
    INFO(o.err);
    CHECK((o.status == 0 || o.status == 1));
    CHECK(has(o.err, "coverage: "));
    CHECK(has(o.err, " suites counted ("));
    CHECK(!has(o.out, "coverage: "));
}

TEST_CASE("progress: fingerprint --progress counts the inputs on stderr; stdout does not change") {
    const std::string args = "fingerprint --plugin mutant_bf16_truncation --conversion fp32_to_bf16_rne --domain sparse --jobs 1";
    const Out a = cli(args);
    const Out b = cli(args + " --progress");
    INFO(a.err << b.err);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(!has(a.err, "inputs/s"));  // a pipe and no --progress: none
    // the sparse domain holds 205 824 inputs (docs/cli.md, "fingerprint")
    CHECK(has(b.err, "fingerprint fp32_to_bf16_rne: 205824/205824 inputs (100.0%), "));
    CHECK(b.out == a.out);
}
