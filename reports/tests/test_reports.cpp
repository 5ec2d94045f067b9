// SPDX-License-Identifier: Apache-2.0
// Reports: the model's rule summaries and totals, atomic writes, and approval baselines
// (a fixed report rendered to JSON, JUnit XML and the summary, compared with committed files
// under reports/tests/baselines/; set NINFER_APPROVE=1 to rewrite them after a reviewed change).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fingerprint_fixtures.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

CaseResult make_case(std::string id, std::string rule, std::string suite, Status s) {
    CaseResult c;
    c.id = std::move(id);
    c.rule = std::move(rule);
    c.sentence = "The sentence of " + c.rule + " <with & \"markup\">.";
    c.suite = std::move(suite);
    c.source = "boundary";
    c.status = s;
    c.elements = 4;
    return c;
}

/// A report exercising every status, a waiver, a stale waiver and every optional field.
Report fixed_report() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "mutant_tie_away", "1.0.0", 1, "/opt/plugins/mutant_tie_away.so"};
    r.vectors_dir = "vectors/data";
    r.vectors_manifest_sha256 = std::string(64, 'a');
    r.level = "full";
    r.seed = 20261129;
    r.suites = {"scalar.convert", "scalar.validity"};
    r.host = "Linux 6.1.0 x86_64";
    r.baseline = "waivers.json";
    r.stale_waivers.push_back({"decode.bf16", "decode.bf16/*", "fixed in 2.0"});
    r.started_at = "2026-11-29T23:00:00Z";
    r.finished_at = "2026-11-29T23:00:02Z";
    r.duration_s = 2.5;

    auto tie = make_case("convert.fp32_to_bf16_rne/ties", "convert.fp32_to_bf16_rne", "scalar.convert", Status::fail);
    tie.mismatches = 2;
    tie.classes = {{"wrong_tie_side", 1}, {"off_by_one_ulp", 1}};
    tie.first.push_back({1, "words", {"3f808000"}, "1.00390625", "3f80", "3f81", "1", "1.0078125", "wrong_tie_side",
                         "element 1", ""});
    tie.first.push_back({3, "words", {"3f818001"}, "", "3f82", "3f81", "1.015625", "1.0078125", "off_by_one_ulp",
                         "element 3", ""});
    r.cases.push_back(tie);
    r.cases.push_back(make_case("convert.fp32_to_bf16_rne/exact", "convert.fp32_to_bf16_rne", "scalar.convert",
                                Status::pass));
    auto crash = make_case("convert.fp32_to_fp16_rne/overflow", "convert.fp32_to_fp16_rne", "scalar.convert",
                           Status::crash);
    crash.message = "worker killed by signal 11 (SIGSEGV)";
    r.cases.push_back(crash);
    auto waived = make_case("validity.grouped_fp16_scale/negative_zero", "validity.grouped_fp16_scale",
                            "scalar.validity", Status::fail);
    waived.mismatches = 1;
    waived.classes = {{"invalid_accepted", 1}};
    waived.first.push_back({0, "verdicts", {"8000"}, "-0", "02", "00", "negative_zero", "valid", "invalid_accepted",
                            "element 0", ""});
    waived.waived = true;
    waived.waiver_reason = "known: kernel accepts -0 scales (bug 12)";
    r.cases.push_back(waived);
    auto unsupported = make_case("validity.nvfp4_e4m3_scale/all", "validity.nvfp4_e4m3_scale", "scalar.validity",
                                 Status::unsupported);
    unsupported.message = "not declared: validate e4m3fn role nvfp4_e4m3_scale";
    r.cases.push_back(unsupported);
    auto timeout = make_case("validity.fp32_weight_divisor/all", "validity.fp32_weight_divisor", "scalar.validity",
                             Status::timeout);
    timeout.message = "no reply within 10000 ms; worker killed";
    r.cases.push_back(timeout);
    auto error = make_case("validity.q2_fp16_scale/all", "validity.q2_fp16_scale", "scalar.validity", Status::error);
    error.message = "declared capability but returned unsupported";
    r.cases.push_back(error);
    finalize(r);
    return r;
}

void approve(const std::string &name, const std::string &actual) {
    const fs::path baseline = fs::path(NINFER_REPORTS_BASELINE_DIR) / name;
    if (const char *a = std::getenv("NINFER_APPROVE"); a && std::string(a) == "1") write_atomic(baseline, actual);
    const std::string expected = slurp(baseline);
    if (expected != actual) {
        const fs::path unapproved = fs::path(NINFER_REPORTS_OUT_DIR) / (name + ".unapproved");
        write_atomic(unapproved, actual);
        FAIL_CHECK("rendering differs from " << baseline.string() << "; see diff " << baseline.string() << " "
                                             << unapproved.string());
    }
    CHECK(expected == actual);
}

}  // namespace

TEST_CASE("finalize computes totals over every status") {
    const Report r = fixed_report();
    CHECK(r.totals.cases == 7);
    CHECK(r.totals.pass == 1);
    CHECK(r.totals.fail == 2);
    CHECK(r.totals.crash == 1);
    CHECK(r.totals.timeout == 1);
    CHECK(r.totals.error == 1);
    CHECK(r.totals.unsupported == 1);
    CHECK(r.totals.waived == 1);
    CHECK(r.totals.mismatches == 3);
    CHECK(run_failed(r));
}

TEST_CASE("a rule takes the worst status of its cases, waived failures count as passes") {
    const Report r = fixed_report();
    REQUIRE(r.rules.size() == 6);
    auto find = [&](const std::string &id) -> const RuleSummary & {
        for (const auto &rs : r.rules)
            if (rs.id == id) return rs;
        FAIL("no rule " << id);
        throw;
    };
    CHECK(find("convert.fp32_to_bf16_rne").status == Status::fail);
    CHECK(find("convert.fp32_to_bf16_rne").classes.at("wrong_tie_side") == 1);
    CHECK(find("convert.fp32_to_bf16_rne").first_failure == "convert.fp32_to_bf16_rne/ties");
    CHECK(find("convert.fp32_to_fp16_rne").status == Status::crash);
    CHECK(find("validity.grouped_fp16_scale").status == Status::pass);
    CHECK(find("validity.grouped_fp16_scale").classes.empty());
    CHECK(find("validity.grouped_fp16_scale").counts.at("waived") == 1);
    CHECK(find("validity.nvfp4_e4m3_scale").status == Status::unsupported);
}

TEST_CASE("a run whose failures are all waived passes") {
    Report r = fixed_report();
    for (auto &c : r.cases)
        if (is_failure(c.status)) c.waived = true;
    finalize(r);
    CHECK_FALSE(run_failed(r));
    CHECK(to_json(r).at("passed") == true);
    CHECK(render_summary(r).find("result: PASS") != std::string::npos);
}

TEST_CASE("rendering is deterministic") {
    const Report a = fixed_report(), b = fixed_report();
    CHECK(render_json(a) == render_json(b));
    CHECK(render_junit(a) == render_junit(b));
    CHECK(render_summary(a) == render_summary(b));
}

TEST_CASE("approval: JSON") { approve("report.json", render_json(fixed_report())); }
TEST_CASE("approval: JUnit XML") { approve("report.junit.xml", render_junit(fixed_report())); }
TEST_CASE("approval: summary") { approve("summary.txt", render_summary(fixed_report())); }

/// The fixed report with two behaviour fingerprints (issue 24, item 1): the residue one covers a
/// failing rule of the run, the exact one no case of it.
Report fingerprinted_fixed_report() {
    Report r = fixed_report();
    r.fingerprints = {ninfer::reports::testing::residue_fingerprint(), ninfer::reports::testing::exact_fingerprint()};
    return r;
}

TEST_CASE("approval: JSON with fingerprints") { approve("fingerprint_report.json", render_json(fingerprinted_fixed_report())); }
TEST_CASE("approval: JUnit XML with fingerprints") {
    approve("fingerprint_report.junit.xml", render_junit(fingerprinted_fixed_report()));
}
TEST_CASE("approval: summary with fingerprints") { approve("fingerprint_summary.txt", render_summary(fingerprinted_fixed_report())); }

TEST_CASE("the summary fits one screen and names the seed") {
    Report r = fixed_report();
    for (int i = 0; i < 40; ++i) {
        auto c = make_case("decode.x" + std::to_string(i) + "/a", "decode.x" + std::to_string(i), "s", Status::fail);
        r.cases.push_back(c);
    }
    finalize(r);
    const std::string s = render_summary(r);
    CHECK(std::count(s.begin(), s.end(), '\n') <= 30);
    CHECK(s.find("seed 20261129 (include this in bug reports)") != std::string::npos);
    CHECK(s.find("... and") != std::string::npos);
}

TEST_CASE("the JSON names the schema version and carries every case field") {
    const auto j = to_json(fixed_report());
    CHECK(j.at("schema") == "ninfer-conform/report/v3");
    CHECK(j.at("cases").size() == 7);
    const auto &c0 = j.at("cases").at(0);
    CHECK(c0.at("first_mismatches").at(0).at("class") == "wrong_tie_side");
    CHECK(c0.at("first_mismatches").at(0).at("inputs").at(0) == "3f808000");
    CHECK(j.at("stale_waivers").at(0).at("case") == "decode.bf16/*");
}

TEST_CASE("write_atomic replaces the file and leaves no temporary") {
    const fs::path dir = fs::path(NINFER_REPORTS_OUT_DIR) / "atomic_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_atomic(dir / "r.json", "first");
    write_atomic(dir / "r.json", "second");
    CHECK(slurp(dir / "r.json") == "second");
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
    CHECK_THROWS_WITH(write_atomic(dir / "missing" / "r.json", "x"), Catch::Contains("missing/r.json"));
}

TEST_CASE("untrusted text becomes one bounded line of printable UTF-8", "[reports][untrusted]") {
    CHECK(untrusted_text("plain text, caf\xc3\xa9 \xe2\x86\x92 ok") == "plain text, caf\xc3\xa9 \xe2\x86\x92 ok");
    CHECK(untrusted_text(std::string("a\nb\tc\rd\0e", 9)) == "a b c d\\x00e");
    CHECK(untrusted_text("\x1b[31mred\x1b]0;title\x07") == "\\x1b[31mred\\x1b]0;title\\x07");
    CHECK(untrusted_text("\xff\xfe \xc3 \xed\xa0\x80 \xc0\xaf") == "\\xff\\xfe \\xc3 \\xed\\xa0\\x80 \\xc0\\xaf");
    CHECK(untrusted_text("c1 \xc2\x9b bidi \xe2\x80\xae nonchar \xef\xbf\xbe") == "c1 \\u009b bidi \\u202e nonchar \\ufffe");
    // A cut leaves room for its note within the bound, and never splits a character or an escape.
    const std::string long_text(10000, 'x');
    CHECK(untrusted_text(long_text, 100) == std::string(60, 'x') + " ... (9940 bytes cut)");
    CHECK(untrusted_text(std::string(100, 'x'), 100) == std::string(100, 'x'));
    const std::string a60(60, 'a');
    CHECK(untrusted_text(a60 + "\xc3\xa9" + std::string(100, 'b'), 101) == a60 + " ... (102 bytes cut)");
    CHECK(untrusted_text(a60 + "\xff" + std::string(100, 'b'), 101) == a60 + " ... (101 bytes cut)");
    // A second pass leaves a sanitized text as it is.
    const std::string once = untrusted_text("\x1b[2J\xff" + long_text, 300);
    CHECK(untrusted_text(once, 300) == once);
}

TEST_CASE("reports render whatever text the model holds without throwing", "[reports][untrusted]") {
    Report r = fixed_report();
    REQUIRE_FALSE(r.cases.empty());
    r.subject.name = "evil\xff\x1b[2J";
    r.open_error = "";
    r.cases.front().message = std::string("bad \xff\xfe bytes\x00 and \x1b[31m escapes\n and \xef\xbf\xbf", 40);
    finalize(r);
    std::string json_text, junit;
    REQUIRE_NOTHROW(json_text = render_json(r));
    CHECK_NOTHROW(nlohmann::json::parse(json_text));
    REQUIRE_NOTHROW(junit = render_junit(r));
    CHECK(junit.find('\x1b') == std::string::npos);
    CHECK(junit.find('\xff') == std::string::npos);
    CHECK(junit.find("\xef\xbf\xbf") == std::string::npos);
    CHECK(junit.find(std::string(1, '\0')) == std::string::npos);
    const std::string summary = render_summary(r);
    CHECK(summary.find('\x1b') == std::string::npos);
    CHECK(summary.find('\xff') == std::string::npos);
}

TEST_CASE("failing rules most specific first, suite readings marked, attribution counted (issue 7)") {
    Report r;
    r.kind = "run";
    // Three encoder rules fail because of one packing bug: every mismatch points at the packing rule.
    for (const char *rule : {"grouped.absmax.ties_to_even", "grouped.absmax.bit_exact", "grouped.absmax.rescue"}) {
        auto c = make_case(std::string(rule) + "/a", rule, "grouped.absmax", Status::fail);
        c.mismatches = 2;
        c.classes = {{"byte_mismatch", 2}};
        for (std::uint64_t i = 0; i < 2; ++i)
            c.first.push_back({i, "payload", {}, "", "12", "21", "", "", "byte_mismatch", "base plane row 0 group 0 lane 0",
                               "row_split.nibble_order"});
        r.cases.push_back(c);
    }
    auto own = make_case("row_split.nibble_order/alternating", "row_split.nibble_order", "grouped.row_split", Status::fail);
    own.mismatches = 1;
    own.first.push_back({0, "payload", {}, "", "12", "21", "", "", "byte_mismatch", "base plane row 0 group 0 lane 0", ""});
    r.cases.push_back(own);
    auto reading = make_case("grouped.search.candidates/x", "grouped.search.candidates", "grouped.search", Status::fail);
    reading.suite_reading = true;
    reading.mismatches = 1;
    reading.first.push_back({0, "payload", {}, "", "12", "13", "", "", "byte_mismatch", "scale plane row 0 group 0", ""});
    r.cases.push_back(reading);
    finalize(r);
    const auto order = failing_rules_by_specificity(r);
    REQUIRE(order.size() == 5);
    CHECK(order[0]->id == "row_split.nibble_order");
    CHECK(order[0]->blamed == 7);
    CHECK(order[1]->id == "grouped.search.candidates");
    const std::string s = render_summary(r);
    INFO(s);
    CHECK(s.find("failing rules (5), most specific first") != std::string::npos);
    CHECK(s.find("\n  row_split.nibble_order [fail]") != std::string::npos);
    CHECK(s.find("  grouped.search.candidates (R) [fail]") != std::string::npos);
    // JSON: the blame of each mismatch.
    const auto j = to_json(r);
    CHECK(j["cases"][0]["first_mismatches"][0]["blame"] == "row_split.nibble_order");
    CHECK_FALSE(j["cases"][3]["first_mismatches"][0].contains("blame"));
}

TEST_CASE("a case records the NaN words its policy accepted, nothing tested is said (issue 7)") {
    Report r;
    auto c = make_case("convert.fp32_to_fp16_rne/nan_payloads", "convert.fp32_to_fp16_rne", "scalar.convert", Status::pass);
    c.nan_policy = "same_sign";
    c.nan_accepted = 3;
    c.nan_accepted_first.push_back({1, "7e00", "7fff", "+qnan", "+qnan(0x1ff)"});
    r.cases.push_back(c);
    finalize(r);
    const auto j = to_json(r);
    REQUIRE(j["cases"][0].contains("nan_accepted"));
    CHECK(j["cases"][0]["nan_accepted"]["policy"] == "same_sign");
    CHECK(j["cases"][0]["nan_accepted"]["count"] == 3);
    CHECK(j["cases"][0]["nan_accepted"]["first"][0]["actual_value"] == "+qnan(0x1ff)");
    CHECK(render_summary(r).find("result: PASS") != std::string::npos);
    CHECK(render_summary(r).find("NaN words accepted by a NaN policy, not bit-equal: 3 in 1 cases: "
                                 "convert.fp32_to_fp16_rne/nan_payloads expected 7e00 (+qnan) accepted 7fff (+qnan(0x1ff))") !=
          std::string::npos);
    Report none;
    none.cases.push_back(make_case("decode.bf16/a", "decode.bf16", "scalar.decode", Status::unsupported));
    finalize(none);
    CHECK(render_summary(none).find("result: NOTHING TESTED") != std::string::npos);
    Report sweep;
    sweep.kind = "sweep";
    sweep.level = "sweep";
    sweep.extra = {{"sweep", "convert.bf16_to_fp32"}};
    finalize(sweep);
    const std::string s = render_summary(sweep);
    CHECK(s.find("seed") == std::string::npos);
    CHECK(s.find("level") == std::string::npos);
    CHECK(s.find("sweep: convert.bf16_to_fp32") != std::string::npos);
}
