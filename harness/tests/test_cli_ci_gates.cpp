// SPDX-License-Identifier: Apache-2.0
// Issue 25, item 2: the CI gates of `run` (docs/cli.md, "CI gates"): a capability the baseline or
// a previous report recorded and the subject no longer declares, stale waivers under
// --fail-on-stale-waivers; and the outputs --summary-md and --write-baseline.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/harness/baseline.hpp"

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

const std::filesystem::path kDir = ninfer::harness::test::scratch("ci-gates");

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(kDir, args); }

std::string at(const std::string &name) { return (kDir / name).string(); }

void write(const std::string &name, const std::string &text) { std::ofstream(kDir / name, std::ios::binary) << text; }

bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

/// The python example (decode of bf16 and fp32_to_bf16_rne only) as an exec subject.
std::string python_example() {
    return std::string("--exec \"'") + NINFER_PYTHON + "' '" + NINFER_SOURCE_DIR + "/harness/examples/python_plugin.py'\"";
}

}  // namespace

TEST_CASE("run --write-baseline records the capabilities; losing one fails the next run (issue 25)") {
    ninfer::harness::test::fresh_dir(kDir);
    auto o = cli("run --plugin reference --suite scalar.decode --report " + at("r.json") + " --write-baseline " +
                 at("b.json") + " --summary-md " + at("s.md"));
    INFO(o.out << o.err);
    REQUIRE(o.status == 0);
    CHECK(slurp(kDir / "s.md").rfind("## ninfer-conform: PASS: reference ", 0) == 0);
    // the report and the baseline record what `plugins --capabilities` lists for the plugin
    const auto report = nlohmann::json::parse(slurp(kDir / "r.json"));
    const auto recorded = report["subject"]["capabilities"].get<std::vector<std::string>>();
    REQUIRE(!recorded.empty());
    const auto listing = cli("plugins --capabilities").out;
    for (const auto &c : recorded) CHECK(has(listing, "    " + c + "\n"));
    const auto b = ninfer::harness::load_baseline(kDir / "b.json");
    REQUIRE(b.capabilities);
    CHECK(*b.capabilities == recorded);
    CHECK(b.waivers.empty());  // the reference fails nothing
    // the baseline as written gates nothing
    o = cli("run --plugin reference --suite scalar.decode --baseline " + at("b.json"));
    CHECK(o.status == 0);
    // one more recorded capability than the plugin declares: the run fails, naming it
    auto j = nlohmann::json::parse(slurp(kDir / "b.json"));
    j["capabilities"].push_back("convert format e5m2 from fp32 layout any method any profile q4_k_dot");
    write("lost.json", j.dump());
    o = cli("run --plugin reference --suite scalar.decode --baseline " + at("lost.json") + " --summary-md " + at("lost.md"));
    CHECK(o.status == 1);
    CHECK(has(o.out, "gate failed: capability no longer declared: convert format e5m2 from fp32 layout any method any "
                     "profile q4_k_dot (recorded by baseline "));
    CHECK(has(o.out, "result: PASS\n"));  // the cases passed; the gate failed the run
    const std::string md = slurp(kDir / "lost.md");
    CHECK(md.rfind("## ninfer-conform: FAIL: reference ", 0) == 0);
    CHECK(has(md, "### CI gates failed\n"));
}

TEST_CASE("run --previous fails when the subject stops declaring what a report saw it declare (issue 25)") {
    ninfer::harness::test::fresh_dir(kDir);
    REQUIRE(cli("run --plugin reference --suite scalar.decode --report " + at("before.json")).status == 0);
    // the python example declares decode of bf16 only among the reference's decodes
    auto o = cli("run " + python_example() + " --suite scalar.decode --previous " + at("before.json"));
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(has(o.out, "gate failed: capability no longer declared: decode format fp16 "));
    CHECK(has(o.out, "(declared in previous report "));
    CHECK_FALSE(has(o.out, "capability no longer declared: decode format bf16 "));
    // a previous report of the same subject gates nothing
    CHECK(cli("run --plugin reference --suite scalar.decode --previous " + at("before.json")).status == 0);
    // not a report: refused before the run
    write("not-a-report.json", "{\"version\": 1}");
    o = cli("run --plugin reference --suite scalar.decode --previous " + at("not-a-report.json"));
    CHECK(o.status == 2);
    CHECK(has(o.err, "--previous"));
}

TEST_CASE("run --fail-on-stale-waivers fails on a waiver that excuses nothing (issue 25)") {
    ninfer::harness::test::fresh_dir(kDir);
    write("stale.json", R"({"version": 1, "waivers": [{"rule": "decode.bf16", "case": "*", "reason": "fixed long ago"}]})");
    const std::string run = "run --plugin reference --suite scalar.decode --baseline " + at("stale.json");
    CHECK(cli(run).status == 0);  // opt-in: stale waivers alone do not fail a run
    const auto o = cli(run + " --fail-on-stale-waivers");
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(has(o.out, "gate failed: 1 stale waiver(s) in baseline "));
    CHECK(has(o.out, "first decode.bf16 *"));
    CHECK(cli("run --plugin reference --suite scalar.decode --fail-on-stale-waivers").status == 2);  // no baseline
}

TEST_CASE("run --write-baseline waives the failures it saw; --summary-md refuses hostile paths (issue 25)") {
    ninfer::harness::test::fresh_dir(kDir);
    const std::string run = "run --plugin mutant_bf16_truncation --suite scalar.convert";
    REQUIRE(cli(run + " --write-baseline " + at("m.json")).status == 1);
    const auto b = ninfer::harness::load_baseline(kDir / "m.json");
    REQUIRE(!b.waivers.empty());
    for (const auto &w : b.waivers) CHECK(w.rule.rfind("convert.fp32_to_bf16_rne", 0) == 0);
    // with it, the same run passes
    CHECK(cli(run + " --baseline " + at("m.json")).status == 0);
    // an output onto an input, or onto another output, is refused before the run (exit 2)
    auto o = cli(run + " --baseline " + at("m.json") + " --summary-md " + at("m.json"));
    CHECK(o.status == 2);
    CHECK(has(o.err, "--summary-md"));
    o = cli(run + " --report " + at("same") + " --summary-md " + at("same"));
    CHECK(o.status == 2);
}

TEST_CASE("a baseline's capabilities are optional lines (issue 25)") {
    using ninfer::harness::parse_baseline;
    CHECK_FALSE(parse_baseline(R"({"version": 1, "waivers": []})", "b").capabilities);
    const auto b = parse_baseline(R"({"version": 1, "waivers": [], "capabilities": ["decode format bf16"]})", "b");
    REQUIRE(b.capabilities);
    CHECK(*b.capabilities == std::vector<std::string>{"decode format bf16"});
    CHECK_THROWS_WITH(parse_baseline(R"({"version": 1, "waivers": [], "capabilities": "x"})", "b"),
                      Catch::Contains("field \"capabilities\" must be an array"));
    CHECK_THROWS_WITH(parse_baseline(R"({"version": 1, "waivers": [], "capabilities": [""]})", "b"),
                      Catch::Contains("capabilities[0]: expected a non-empty string"));
    CHECK(ninfer::harness::lost_capabilities({"a", "b", "c"}, {"c", "a"}) == std::vector<std::string>{"b"});
}
