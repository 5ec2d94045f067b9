// SPDX-License-Identifier: Apache-2.0
// The HTML report (reports/README.md, "HTML"): escaping of untrusted text, the matrix cells and
// their grouping, failure details, sweep and grouped-location plots, self-containment and
// determinism. Reports are built with the model and its JSON rendering, as the CLI reads them.
#include <catch2/catch.hpp>

#include "ninfer/reports/html.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;

namespace {

CaseResult make_case(const std::string &rule, const std::string &name, Status s) {
    CaseResult c;
    c.id = rule + "/" + name;
    c.rule = rule;
    c.sentence = "Sentence of " + rule + ".";
    c.suite = "scalar";
    c.source = "boundary";
    c.status = s;
    c.elements = 4;
    return c;
}

/// Subject "a": decode.bf16 passes, convert.fp32_to_bf16_rne fails, validity.q waived, layout.x unsupported.
Report report_a() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "alpha", "1.0", 1, "/p/alpha.so"};
    r.level = "quick";
    r.cases.push_back(make_case("decode.bf16", "all", Status::pass));
    auto f = make_case("convert.fp32_to_bf16_rne", "ties", Status::fail);
    f.mismatches = 1;
    f.classes = {{"wrong_tie_side", 1}};
    f.first.push_back({1, "words", {"3f808000"}, "1.00390625", "3f80", "3f81", "1", "1.0078125", "wrong_tie_side",
                       "element 1", ""});
    f.message = "</code><script>alert('x')</script>";
    r.cases.push_back(f);
    auto w = make_case("validity.q", "neg", Status::fail);
    w.waived = true;
    w.waiver_reason = "known & <accepted>";
    r.cases.push_back(w);
    r.cases.push_back(make_case("layout.x", "all", Status::unsupported));
    finalize(r);
    return r;
}

/// Subject "b": a grouped failure with plane/row/group/lane locations and a crash.
Report report_b() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"exec", "beta <b>", "2", 0, "python3 codec.py"};
    r.level = "quick";
    r.cases.push_back(make_case("decode.bf16", "all", Status::crash));
    auto g = make_case("grouped.q4_split", "rows", Status::fail);
    g.mismatches = 2;
    g.classes = {{"wrong_word", 2}};
    g.first.push_back({.index = 300, .plane = "payload", .expected = "0a", .actual = "0b", .cls = "wrong_word",
                       .location = "high plane row 1 group 2 lane 32 (column 96, byte 300)",
                       .where = {.plane = "high", .row = 1, .group = 2, .lane = 32, .column = 96}});
    g.first.push_back({.index = 520, .plane = "payload", .expected = "3c00", .actual = "3c01", .expected_value = "1",
                       .actual_value = "1.0009765625", .cls = "wrong_word", .location = "scale plane row 0 group 1 (byte 520)",
                       .where = {.plane = "scale", .row = 0, .group = 1}});
    r.cases.push_back(g);
    finalize(r);
    return r;
}

std::vector<HtmlSource> sources() { return {{"a", to_json(report_a())}, {"b", to_json(report_b())}}; }

std::map<std::string, HtmlRuleInfo> catalog() {
    return {{"decode.bf16", {"decode", "tensor-formats.txt 2.1"}},
            {"convert.fp32_to_bf16_rne", {"convert", "tensor-formats.txt 3.1"}},
            {"validity.q", {"validity", "tensor-formats.txt 4"}},
            {"layout.x", {"layout", "storage-layouts.md 2"}}};
}

}  // namespace

TEST_CASE("html_escape escapes the five markup characters") {
    CHECK(html_escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    CHECK(html_escape("plain text 1.5") == "plain text 1.5");
}

TEST_CASE("untrusted text from reports is escaped everywhere") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.find("<script") == html.rfind("<script"));  // the page's own filter script only
    CHECK(html.find("<script>alert") == std::string::npos);
    CHECK(html.find("&lt;/code&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("beta &lt;b&gt;") != std::string::npos);
    CHECK(html.find("beta <b>") == std::string::npos);
    CHECK(html.find("known &amp; &lt;accepted&gt;") != std::string::npos);
}

TEST_CASE("the matrix has one cell per rule and report, with the rule's status") {
    const std::string html = render_html(sources(), catalog());
    // pass, fail (linked to its failure), waived, unsupported, crash, and not in the report
    CHECK(html.find("<td class=\"c pass\" title=\"a: decode.bf16: pass\">\u2713</td>") != std::string::npos);
    CHECK(html.find("<td class=\"c fail\" title=\"a: convert.fp32_to_bf16_rne: fail\"><a href=\"#d0-0\">\u2717</a></td>") !=
          std::string::npos);
    CHECK(html.find("<td class=\"c waived\" title=\"a: validity.q: failed, waived by the baseline\">W</td>") !=
          std::string::npos);
    CHECK(html.find("<td class=\"c unsupported\" title=\"a: layout.x: unsupported\">\u2013</td>") != std::string::npos);
    CHECK(html.find("<td class=\"c crash\" title=\"b: decode.bf16: crash\"><a href=\"#d1-1\">C</a></td>") !=
          std::string::npos);
    CHECK(html.find("<td class=\"c none\" title=\"b: layout.x: not in this report\"></td>") != std::string::npos);
    CHECK(html.find("id=\"d0-0\"") != std::string::npos);
    CHECK(html.find("id=\"d1-1\"") != std::string::npos);
}

TEST_CASE("matrix rows are grouped by family and spec section, in order") {
    const std::string html = render_html(sources(), catalog());
    const auto convert = html.find("<th colspan=\"3\">convert \u2014 tensor-formats.txt 3.1</th>");
    const auto decode = html.find("<th colspan=\"3\">decode \u2014 tensor-formats.txt 2.1</th>");
    const auto grouped = html.find("<th colspan=\"3\">grouped</th>");  // not in the catalog: the id's family
    const auto layout = html.find("<th colspan=\"3\">layout \u2014 storage-layouts.md 2</th>");
    REQUIRE(convert != std::string::npos);
    REQUIRE(decode != std::string::npos);
    REQUIRE(grouped != std::string::npos);
    REQUIRE(layout != std::string::npos);
    CHECK(convert < decode);
    CHECK(decode < grouped);
    CHECK(grouped < layout);
}

TEST_CASE("a failure shows the spec sentence, the classes and the first mismatches with words and values") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.find("<p class=\"sentence\">tensor-formats.txt 3.1: Sentence of convert.fp32_to_bf16_rne.</p>") !=
          std::string::npos);
    CHECK(html.find("Mismatch classes: <code>wrong_tie_side</code> \u00d7 1") != std::string::npos);
    CHECK(html.find("<td><code>3f808000</code> = 1.00390625</td><td><code>3f80</code> = 1</td>"
                    "<td><code>3f81</code> = 1.0078125</td>") != std::string::npos);
}

TEST_CASE("grouped failures show plane, row, group and lane") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.find("<tr><td>high</td><td class=\"num\">1</td><td class=\"num\">2</td><td class=\"num\">1</td>"
                    "<td class=\"mono\">32</td></tr>") != std::string::npos);
    CHECK(html.find("<tr><td>scale</td><td class=\"num\">0</td><td class=\"num\">1</td><td class=\"num\">1</td>"
                    "<td class=\"mono\">\u2014</td></tr>") != std::string::npos);
    CHECK(html.find("<title>row 1 group 2: 1 mismatch(es), lanes 32</title>") != std::string::npos);
}

// Issue 35, item 2: the grid reads the fields, never the text; a v2 report (text only) has no grid.
TEST_CASE("the location grid reads a mismatch's where fields, not its location text") {
    Report r = report_b();
    for (auto &c : r.cases)
        for (auto &m : c.first) m.location = "somewhere else entirely";
    finalize(r);
    const std::string html = render_html({{"b", to_json(r)}}, catalog());
    CHECK(html.find("<title>row 1 group 2: 1 mismatch(es), lanes 32</title>") != std::string::npos);
    auto v2 = to_json(report_b());
    v2["schema"] = "ninfer-conform/report/v2";
    for (auto &c : v2["cases"])
        for (auto &m : c["first_mismatches"]) m.erase("where");
    const std::string old = render_html({{"b", v2}}, catalog());
    CHECK(old.find("high plane row 1 group 2 lane 32 (column 96, byte 300)") != std::string::npos);
    CHECK(old.find("mismatches by row and group") == std::string::npos);
}

TEST_CASE("a sweep report gets a plot of its mismatches by sign and binade") {
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.level = "sweep";
    r.extra = {{"sweep", "convert.fp16_to_e4m3"}, {"start", "0000"}, {"count", "65536"}, {"binade", "exponent field"},
               {"binades", "32"}, {"mismatch_bins", "+3:12 +30:1 -3:5"}};
    auto c = make_case("convert.fp16_to_e4m3", "sweep", Status::fail);
    c.mismatches = 18;
    r.cases.push_back(c);
    finalize(r);
    const std::string html = render_html({{"sweep", to_json(r)}});
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(html.find("18 word mismatches (5 negative) by sign and exponent field") != std::string::npos);
    CHECK(html.find("<title>positive exponent field 3: 12 mismatches</title>") != std::string::npos);
    CHECK(html.find("<title>negative exponent field 3: 5 mismatches</title>") != std::string::npos);
    CHECK(html.find("<title>positive exponent field 30: 1 mismatches</title>") != std::string::npos);
    CHECK(html.find("<td class=\"num\">12</td><td class=\"num\">66.7%</td>") != std::string::npos);
}

TEST_CASE("the page is self-contained and deterministic") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<script") == html.rfind("<script"));  // one inline script, the filters'
    CHECK(html.find("<script src") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
    CHECK(html.find("src=") == std::string::npos);
    CHECK(html.find("<link") == std::string::npos);
    CHECK(html == render_html(sources(), catalog()));
}

TEST_CASE("a document that is not a report is refused, naming it") {
    CHECK_THROWS_WITH(render_html({{"notes", nlohmann::json{{"schema", "other"}}}}),
                      Catch::Contains("notes: not a report of schema ninfer-conform/report/v3"));
}

TEST_CASE("spec sections sort by the numbers in them") {
    Report r;
    r.tool_version = "0.1.0";
    r.cases.push_back(make_case("decode.a", "all", Status::pass));
    r.cases.push_back(make_case("decode.b", "all", Status::pass));
    finalize(r);
    const std::string html = render_html({{"r", to_json(r)}}, {{"decode.a", {"decode", "lesson Example 14"}},
                                                              {"decode.b", {"decode", "lesson Example 9"}}});
    const auto nine = html.find("decode \u2014 lesson Example 9<"), fourteen = html.find("decode \u2014 lesson Example 14<");
    REQUIRE(nine != std::string::npos);
    REQUIRE(fourteen != std::string::npos);
    CHECK(nine < fourteen);
}

TEST_CASE("numbers out of range in untrusted report text render without throwing") {
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.extra = {{"binades", "99999999999999999999"}, {"mismatch_bins", "+99999999999999:99999999999999999999999 -3:x"}};
    auto c = make_case("grouped.q4_split", "rows", Status::fail);
    c.first.push_back({0, "payload", {}, "", "0a", "0b", "", "", "wrong_word", "row 99999999999999 group 7 lane 1", ""});
    r.cases.push_back(c);
    finalize(r);
    std::string html;
    CHECK_NOTHROW(html = render_html({{"hostile", to_json(r)}}));
    CHECK(html.find("<svg") != std::string::npos);
}

// Issue 25, item 3: the page as a dashboard.
TEST_CASE("the verdicts come first, then the failures, then the matrix") {
    const std::string html = render_html(sources(), catalog());
    const auto verdicts = html.find("<table class=\"verdicts\">"), failures = html.find("<h2 id=\"failures\">"),
               matrix = html.find("<table class=\"matrix\">");
    REQUIRE(verdicts != std::string::npos);
    REQUIRE(failures != std::string::npos);
    REQUIRE(matrix != std::string::npos);
    CHECK(verdicts < failures);
    CHECK(failures < matrix);
    CHECK(html.find("<b class=\"verdict-fail\">2 of 2 report(s) failed</b>; 5 rule(s)") != std::string::npos);
}

TEST_CASE("a verdict row has the subject's counts and its failing rules, linked to their failures") {
    const std::string html = render_html(sources(), catalog());
    // a: pass 1, fail 2 (one waived), waived 1, unsupported 1, no error; its one unwaived failing rule
    CHECK(html.find("<td class=\"num\">1</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">1</td>"
                    "<td class=\"num\">0</td><td><a href=\"#d0-0\"><code>convert.fp32_to_bf16_rne</code></a></td>") !=
          std::string::npos);
    // b: the grouped rule, whose 2 kept mismatches point at it, before the crash (no mismatch kept, 1 blame)
    CHECK(html.find("<a href=\"#d1-2\"><code>grouped.q4_split</code></a>, <a href=\"#d1-1\"><code>decode.bf16</code></a>") !=
          std::string::npos);
}

TEST_CASE("rows that every report passes or does not support are collapsed; failing rows are not") {
    const std::string html = render_html(sources(), catalog());
    const auto details = html.find("<details id=\"allpass\"><summary>1 rule(s) that every report passes");
    REQUIRE(details != std::string::npos);
    CHECK(html.find("<th class=\"rule\" title=\"Sentence of layout.x.\">layout.x</th>") > details);
    CHECK(html.find("<th class=\"rule\" title=\"Sentence of validity.q.\">validity.q</th>") < details);  // waived: open
    CHECK(html.find("<th class=\"rule\" title=\"Sentence of decode.bf16.\">decode.bf16</th>") < details);
}

TEST_CASE("filters by family, status and text are hidden until the script shows them") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.find("<form id=\"filters\" hidden>") != std::string::npos);
    CHECK(html.find("<option>grouped</option>") != std::string::npos);
    CHECK(html.find("<tr data-family=\"decode\" data-status=\"crash pass\"") == std::string::npos);
    CHECK(html.find("<tr data-family=\"decode\" data-status=\"fail pass\" data-text=\"decode.bf16 Sentence of decode.bf16.\">") !=
          std::string::npos);
    CHECK(html.find("<div class=\"failure\" id=\"d0-0\" data-family=\"convert\" data-status=\"fail\"") != std::string::npos);
}

TEST_CASE("a status word names its payload detail as the registry does") {
    Report r;
    r.tool_version = "0.1.0";
    auto c = make_case("grouped.q4_split", "pad", Status::fail);
    c.mismatches = 1;
    // The words say something else: the page names the codes the fields hold.
    c.first.push_back({.plane = "status", .expected = "ok", .actual = "refused", .cls = "unexpected_error", .location = "status",
                       .status_codes = StatusCodes{.expected = 0, .actual = -9, .actual_detail = 4}});
    r.cases.push_back(c);
    finalize(r);
    const std::string html = render_html({{"r", to_json(r)}});
    // plugin.h: X(4, NONZERO_PADDING, nonzero_padding, ...) among the payload details
    CHECK(html.find("<code>NINFER_E_INVALID_PAYLOAD detail 4 (nonzero_padding)</code>") != std::string::npos);
    CHECK(html.find("<code>NINFER_OK</code>") != std::string::npos);
}

TEST_CASE("the grouped grid is as wide as its title; the sweep plot labels its count axis") {
    const std::string html = render_html(sources(), catalog());
    const auto svg = html.find("aria-label=\"high plane: mismatches by row and group\"");
    REQUIRE(svg != std::string::npos);
    const auto at = html.rfind("width=\"", svg) + 7;
    // "high plane (rows \u2193, groups \u2192)": 29 characters of about 7 px at 12 px
    CHECK(std::stoi(html.substr(at, 4)) >= 203);
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.level = "sweep";
    r.extra = {{"binade", "exponent field"}, {"binades", "32"}, {"mismatch_bins", "+3:12 -3:5"}};
    auto c = make_case("convert.fp16_to_e4m3", "sweep", Status::fail);
    c.mismatches = 17;
    r.cases.push_back(c);
    finalize(r);
    const std::string plot = render_html({{"sweep", to_json(r)}});
    // the highest bar holds 12: ticks 1 and 10 above and below the axis
    for (const char *tick : {"text-anchor=\"end\">1</text>", "text-anchor=\"end\">10</text>"}) {
        const auto first = plot.find(tick);
        REQUIRE(first != std::string::npos);
        CHECK(plot.find(tick, first + 1) != std::string::npos);
    }
    CHECK(plot.find("text-anchor=\"end\">100</text>") == std::string::npos);
}

// Issue 32, item 8: a sweep that fails in many binades is a few rows; sections follow the filter.
TEST_CASE("the sweep's bin table has one row per run of consecutive binades") {
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.level = "sweep";
    r.extra = {{"binade", "exponent field"}, {"binades", "256"}, {"mismatch_bins", "+1:5 +2:5 +3:5 +9:2 -7:1"}};
    auto c = make_case("convert.fp16_to_e4m3", "sweep", Status::fail);
    c.mismatches = 18;
    r.cases.push_back(c);
    finalize(r);
    const std::string html = render_html({{"sweep", to_json(r)}});
    CHECK(html.find("<tr><td>+</td><td class=\"num\">1\u20133</td><td class=\"num\">15</td>") != std::string::npos);
    CHECK(html.find("<tr><td>+</td><td class=\"num\">9</td><td class=\"num\">2</td>") != std::string::npos);
    CHECK(html.find("<tr><td>\u2212</td><td class=\"num\">7</td><td class=\"num\">1</td>") != std::string::npos);
    CHECK(html.find("<title>positive exponent field 2: 5 mismatches</title>") != std::string::npos);  // each bar keeps its count
}

TEST_CASE("wide tables scroll inside the page and a section carries its report's status") {
    const std::string html = render_html(sources(), catalog());
    CHECK(html.find("<div class=\"scroll\"><table class=\"wide\"><tr><th>where</th>") != std::string::npos);
    CHECK(html.find("<table><tr><th>where</th>") == std::string::npos);
    CHECK(html.find("<section id=\"s0\" data-status=\"fail waived\">") != std::string::npos);
    Report passing;
    passing.tool_version = "0.1.0";
    passing.cases.push_back(make_case("decode.bf16", "all", Status::pass));
    finalize(passing);
    const std::string page = render_html({{"ok", to_json(passing)}});
    CHECK(page.find("<section id=\"s0\" data-status=\"pass\">") != std::string::npos);
    CHECK(page.find("viewBox") == std::string::npos);  // no plot, nothing to scale
}

TEST_CASE("the page says the job's verdict first: a seeded-bug plugin caught by its rule and a subject on its own terms did what they must") {
    Report mutant = report_a();  // fails convert.fp32_to_bf16_rne
    mutant.subject.name = "mutant_x";
    mutant.subject.breaks = "convert.fp32_to_bf16_rne";
    Report missed = report_a();
    missed.subject.name = "mutant_y";
    missed.subject.breaks = "decode.bf16";  // passes: the mutant was not caught
    Report own;
    own.tool_version = "0.1.0";
    own.subject = {"plugin", "library", "1", 2, "/p/library.so"};
    own.level = "quick";
    own.cases.push_back(make_case("decode.bf16", "all", Status::pass));
    own.options.emplace();
    own.options->policies["convert.fp32_to_bf16_rne"] = "rne/inf/kept/signed_canonical";
    finalize(own);
    const std::string good = render_html({{"mutant_x", to_json(mutant)}, {"library", to_json(own)}}, catalog());
    CHECK(good.find("<b class=\"verdict-pass\">2 of 2 subjects did what they must</b> (1 of 1 seeded-bug plugins caught by the "
                    "rule each declares (their failures expected); 1 of 1 subjects passed on their own terms (--pin, --policy))") !=
          std::string::npos);
    CHECK(good.find("<td class=\"verdict-pass\">caught by its rule (expected)</td>") != std::string::npos);
    CHECK(good.find("<td class=\"verdict-pass\">passed on its own terms</td>") != std::string::npos);
    const std::string bad = render_html({{"mutant_x", to_json(mutant)}, {"mutant_y", to_json(missed)}}, catalog());
    CHECK(bad.find("<b class=\"verdict-fail\">1 of 2 subjects did what they must</b>") != std::string::npos);
    CHECK(bad.find("<td class=\"verdict-fail\">missed: its rule did not fail</td>") != std::string::npos);
    // What missed its mark comes first in the verdict table.
    CHECK(bad.find("missed: its rule did not fail") < bad.find("caught by its rule (expected)"));
    // Without a mutant or terms the page counts failed reports as before.
    CHECK(render_html(sources(), catalog()).find("<b class=\"verdict-fail\">2 of 2 report(s) failed</b>") != std::string::npos);
}
