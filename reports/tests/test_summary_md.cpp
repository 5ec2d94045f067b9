// SPDX-License-Identifier: Apache-2.0
// Issue 25, item 2: the Markdown summary of `run --summary-md` (reports/README.md, "Markdown
// summary"). Expected texts are written by hand from the reports built here.
#include <catch2/catch.hpp>

#include "fingerprint_fixtures.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;

namespace {

CaseResult md_case(const std::string &rule, const std::string &name, Status s) {
    CaseResult c;
    c.id = rule + "/" + name;
    c.rule = rule;
    c.suite = "scalar.convert";
    c.status = s;
    c.elements = 4;
    return c;
}

/// decode.bf16 passes; convert.fp32_to_bf16_rne fails one tie of two cases; one case unsupported.
Report failing_report() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "mutant_bf16", "1.0", 2, "/p/mutant_bf16.so"};
    r.level = "quick";
    r.seed = 7;
    r.cases.push_back(md_case("decode.bf16", "all", Status::pass));
    r.cases.push_back(md_case("convert.fp32_to_bf16_rne", "exact", Status::pass));
    auto f = md_case("convert.fp32_to_bf16_rne", "ties", Status::fail);
    f.mismatches = 1;
    f.first.push_back({1, "words", {"3f808000"}, "", "3f80", "3f81", "", "", "wrong_tie_side", "element 1", ""});
    r.cases.push_back(f);
    r.cases.push_back(md_case("decode.fp16", "all", Status::unsupported));
    finalize(r);
    return r;
}

bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the Markdown summary puts the verdict first, then counts and failing rules (issue 25)") {
    const std::string md = render_summary_md(failing_report());
    INFO(md);
    CHECK(md.rfind("## ninfer-conform: FAIL: mutant\\_bf16 1.0\n", 0) == 0);
    CHECK(has(md, "| 4 | 2 | 1 | 1 | 0 | 0 | 0 | 0 |\n"));
    CHECK(has(md, "### Failing rules (1)\n"));
    CHECK(has(md, "| `convert.fp32_to_bf16_rne` | fail | 1 of 2 | `convert.fp32_to_bf16_rne/ties` | element 1: input "
                  "3f808000 expected 3f80 actual 3f81 \\[wrong\\_tie\\_side\\] |\n"));
    CHECK(has(md, "level quick, suites all, seed 7"));
    CHECK_FALSE(has(md, "### Waivers"));  // no baseline, no waiver section
}

TEST_CASE("the Markdown summary says PASS, NOTHING TESTED and a failed CI gate (issue 25)") {
    Report pass = failing_report();
    pass.cases.erase(pass.cases.begin() + 2);
    finalize(pass);
    CHECK(render_summary_md(pass).rfind("## ninfer-conform: PASS: ", 0) == 0);
    CHECK_FALSE(has(render_summary_md(pass), "Failing rules"));
    // a gate fails a run whose cases pass, and is named
    const std::string gated = render_summary_md(pass, {"capability no longer declared: convert format bf16"});
    CHECK(gated.rfind("## ninfer-conform: FAIL: ", 0) == 0);
    CHECK(has(gated, "### CI gates failed\n\n- capability no longer declared: convert format bf16\n"));
    Report none = failing_report();
    for (auto &c : none.cases) c.status = Status::unsupported;
    finalize(none);
    CHECK(render_summary_md(none).rfind("## ninfer-conform: NOTHING TESTED: ", 0) == 0);
}

TEST_CASE("the Markdown summary counts waivers, lists stale ones and fingerprints (issue 25)") {
    Report r = failing_report();
    r.cases[2].waived = true;
    r.cases[2].waiver_reason = "known";
    r.baseline = "base.json";
    r.stale_waivers.push_back({"decode.fp16", "decode.fp16/*", "fixed in 2.0"});
    r.fingerprints = {ninfer::reports::testing::residue_fingerprint()};
    finalize(r);
    const std::string md = render_summary_md(r);
    INFO(md);
    CHECK(md.rfind("## ninfer-conform: PASS: ", 0) == 0);
    CHECK(has(md, "1 failing case(s) waived by baseline `base.json`; 1 stale waiver(s).\n"));
    CHECK(has(md, "- stale: `decode.fp16` case `decode.fp16/*`: fixed in 2.0\n"));
    CHECK(has(md, "### Behaviour fingerprints\n"));
    CHECK(has(md, "NaN quieted (payload &amp; sign kept)"));  // HTML escaped
    CHECK(has(md, "  - residue nan: 12 of 510"));
}

TEST_CASE("the Markdown summary escapes a subject's name: no markup, no tags (issue 25)") {
    Report r = failing_report();
    r.subject.name = "<img src=x>|[a](b)";
    const std::string md = render_summary_md(r);
    CHECK(has(md, "&lt;img src=x&gt;\\|\\[a\\](b)"));
    CHECK_FALSE(has(md, "<img"));
}
