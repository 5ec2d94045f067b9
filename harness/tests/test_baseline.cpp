// SPDX-License-Identifier: Apache-2.0
// Baselines (harness/baseline.hpp, docs/cli.md "Baselines"): parsing, globs, waived failures
// and stale waivers.
#include <catch2/catch.hpp>

#include "ninfer/harness/baseline.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

reports::CaseResult rc(std::string id, std::string rule, reports::Status s) {
    reports::CaseResult c;
    c.id = std::move(id);
    c.rule = std::move(rule);
    c.status = s;
    return c;
}

}  // namespace

TEST_CASE("a well-formed waiver file parses") {
    const auto b = parse_baseline(R"json({"version":1,"waivers":[
        {"rule":"convert.fp32_to_bf16_rne","case":"convert.fp32_to_bf16_rne/*","reason":"kernel truncates (bug 7)"}]})json",
                                  "w.json");
    REQUIRE(b.waivers.size() == 1);
    CHECK(b.waivers[0].pattern == "convert.fp32_to_bf16_rne/*");
    CHECK(b.path == "w.json");
}

TEST_CASE("malformed waiver files fail with one line naming the field") {
    CHECK_THROWS_WITH(parse_baseline("{", "w.json"), Catch::StartsWith("w.json: not JSON"));
    CHECK_THROWS_WITH(parse_baseline("[]", "w.json"), Catch::Contains("expected a JSON object"));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":2,"waivers":[]})", "w.json"), Catch::Contains("\"version\" must be 1"));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":1})", "w.json"), Catch::Contains("\"waivers\" must be an array"));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":1,"waivers":[{"rule":"a","case":"b"}]})", "w.json"),
                      Catch::Contains("waivers[0]: field \"reason\""));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":1,"waivers":[{"rule":"a","case":"b","reason":"c","x":1}]})", "w.json"),
                      Catch::Contains("unknown field \"x\""));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":1,"waivers":[],"extra":1})", "w.json"),
                      Catch::Contains("unknown field \"extra\""));
    CHECK_THROWS_WITH(load_baseline("/nonexistent/w.json"), Catch::Contains("cannot read"));
    for (const char *bad : {"{", "[]", R"({"version":2,"waivers":[]})"}) {
        try {
            parse_baseline(bad, "w.json");
        } catch (const BaselineError &e) {
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
}

TEST_CASE("waivers match by rule and case glob") {
    const Waiver w{"convert.fp32_to_bf16_rne", "convert.fp32_to_bf16_rne/tie*", "r"};
    CHECK(waiver_matches(w, "convert.fp32_to_bf16_rne", "convert.fp32_to_bf16_rne/ties_even"));
    CHECK_FALSE(waiver_matches(w, "convert.fp32_to_bf16_rne", "convert.fp32_to_bf16_rne/exact"));
    CHECK_FALSE(waiver_matches(w, "convert.fp32_to_bf16_rtz", "convert.fp32_to_bf16_rne/ties_even"));
    CHECK(waiver_matches({"r", "*", "x"}, "r", "r/a/b"));
}

TEST_CASE("apply_baseline waives matching failures only and reports stale waivers") {
    reports::Report r;
    r.cases = {rc("a.x/1", "a.x", reports::Status::fail), rc("a.x/2", "a.x", reports::Status::crash),
               rc("b.y/1", "b.y", reports::Status::fail), rc("c.z/1", "c.z", reports::Status::pass)};
    Baseline b;
    b.path = "w.json";
    b.waivers = {{"a.x", "a.x/*", "known"}, {"c.z", "c.z/1", "fixed since"}, {"d.w", "*", "gone"}};
    apply_baseline(b, r);
    reports::finalize(r);
    CHECK(r.cases[0].waived);
    CHECK(r.cases[0].waiver_reason == "known");
    CHECK(r.cases[1].waived);
    CHECK_FALSE(r.cases[2].waived);
    CHECK_FALSE(r.cases[3].waived);  // passing cases are never waived
    REQUIRE(r.stale_waivers.size() == 2);
    CHECK(r.stale_waivers[0].rule == "c.z");
    CHECK(r.stale_waivers[1].rule == "d.w");
    CHECK(reports::run_failed(r));  // b.y/1 is not excused
    r.cases[2].status = reports::Status::pass;
    reports::finalize(r);
    CHECK_FALSE(reports::run_failed(r));
    CHECK(r.totals.waived == 2);
}

TEST_CASE("baseline integers are range-checked, numbers and nesting bounded, files capped") {
    // 4294967297 = 2^32 + 1 would read as version 1 through a 32-bit int
    CHECK_THROWS_WITH(parse_baseline(R"({"version":4294967297,"waivers":[]})", "w.json"),
                      Catch::Contains("\"version\" must be 1"));
    CHECK_THROWS_WITH(parse_baseline(R"({"version":1.0,"waivers":[]})", "w.json"), Catch::Contains("\"version\" must be 1"));
    // a number no double holds: one line naming the file and the line, not a bare out_of_range
    CHECK_THROWS_AS(parse_baseline("{\"version\":1,\n\"waivers\":[],\n\"comment\":1e400}", "w.json"), BaselineError);
    CHECK_THROWS_WITH(parse_baseline("{\"version\":1,\n\"waivers\":[],\n\"comment\":1e400}", "w.json"),
                      Catch::StartsWith("w.json:3: ") && Catch::Contains("1e400") && Catch::Contains("out of the range"));
    // nested 100000 levels deep: refused before any recursion, with a bounded message
    const std::string deep = "{\"version\":1,\"waivers\":[],\"comment\":" + std::string(100000, '[') +
                             std::string(100000, ']') + "}";
    try {
        parse_baseline(deep, "w.json");
        FAIL("a 100000-deep baseline was accepted");
    } catch (const BaselineError &e) {
        const std::string m = e.what();
        CHECK(m.find("nesting deeper than") != std::string::npos);
        CHECK(m.size() < 300);
    }
    // an unbounded input (a character device) is refused without reading it: only regular files
    CHECK_THROWS_WITH(load_baseline("/dev/zero"),
                      Catch::Contains("/dev/zero") && Catch::Contains("a character device (expected a regular file)"));
}
