// SPDX-License-Identifier: Apache-2.0
// Behaviour fingerprints in the reports (issue 24, item 1; reports/README.md, "fingerprints"):
// the JSON round trip and its refusals, the summary's block, the JUnit property, the HTML box
// beside the conversion's failure, and the merge of shards that fingerprinted a conversion.
// Expected texts are written by hand from the fixtures (fingerprint_fixtures.hpp).
#include <catch2/catch.hpp>

#include "fingerprint_fixtures.hpp"
#include "ninfer/reports/html.hpp"
#include "ninfer/reports/merge.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;
using ninfer::reports::testing::exact_fingerprint;
using ninfer::reports::testing::residue_fingerprint;

namespace {

CaseResult make_case(const std::string &rule, const std::string &name, const std::string &suite, Status s) {
    CaseResult c;
    c.id = rule + "/" + name;
    c.rule = rule;
    c.sentence = "Sentence of " + rule + ".";
    c.suite = suite;
    c.source = "boundary";
    c.status = s;
    c.elements = 4;
    return c;
}

/// convert.fp32_to_bf16_rne fails one tie, decode.bf16 passes; both fingerprinted.
Report fingerprinted_report() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"exec", "numpy", "2.1", 1, "python3 numpy_codec.py"};
    r.level = "quick";
    r.cases.push_back(make_case("decode.bf16", "all", "scalar.decode", Status::pass));
    auto f = make_case("convert.fp32_to_bf16_rne", "ties", "scalar.convert", Status::fail);
    f.mismatches = 1;
    f.classes = {{"wrong_tie_side", 1}};
    f.first.push_back({1, "words", {"3f808000"}, "", "3f80", "3f81", "", "", "wrong_tie_side", "element 1", ""});
    r.cases.push_back(f);
    r.fingerprints = {residue_fingerprint(), exact_fingerprint()};
    finalize(r);
    return r;
}

/// The fingerprints read back from the report's JSON, or a failure naming the error.
std::vector<Fingerprint> read_back(const nlohmann::json &fingerprints) {
    std::string error;
    const auto out = fingerprints_from_json(fingerprints, error);
    INFO(error);
    REQUIRE(out);
    return *out;
}

/// The reader's error for the report's fingerprints with `change` applied to the first record.
std::string refusal(void (*change)(nlohmann::json &)) {
    nlohmann::json j = nlohmann::json::parse(render_json(fingerprinted_report()))["fingerprints"];
    change(j[0]);
    std::string error;
    CHECK_FALSE(fingerprints_from_json(j, error));
    return error;
}

/// Sweep shard `index` of 2 of fp32_to_bf16_rne over [0, 8), no mismatch, with `fingerprints`.
ShardReport shard(int index, std::vector<Fingerprint> fingerprints) {
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "alpha", "1.0", 2, "/p/alpha.so"};
    r.level = "sweep";
    r.options = ReportOptions{.timeout_ms = 60000, .memory_limit_mib = 8192, .max_mismatches = 3, .batch = 4,
                              .expected = "native"};
    r.extra = {{"sweep", "convert.fp32_to_bf16_rne"}, {"start", "00000000"}, {"count", "8"},
               {"shard", std::to_string(index) + "/2"}, {"shard_start", index == 0 ? "00000000" : "00000004"},
               {"shard_count", "4"}, {"max_mismatches", "3"}};
    auto c = make_case("convert.fp32_to_bf16_rne", "sweep", "sweep", Status::pass);
    c.elements = 4;  // its slice of [0, 8) (issue 36: merge checks it)
    r.cases.push_back(c);
    r.fingerprints = std::move(fingerprints);
    finalize(r);
    return {"shard" + std::to_string(index) + ".json", nlohmann::ordered_json::parse(render_json(r))};
}

}  // namespace

TEST_CASE("fingerprints: absent from the JSON when there are none", "[reports][fingerprint]") {
    Report r = fingerprinted_report();
    r.fingerprints.clear();
    CHECK_FALSE(to_json(r).contains("fingerprints"));
    CHECK(render_summary(r).find("fingerprint") == std::string::npos);
    CHECK(render_junit(r).find("fingerprint") == std::string::npos);
}

TEST_CASE("fingerprints: the JSON holds every field after the cases and reads back losslessly", "[reports][fingerprint]") {
    const Report r = fingerprinted_report();
    const auto j = to_json(r);
    REQUIRE(j.contains("fingerprints"));
    CHECK(std::prev(j.end()).key() == "fingerprints");
    const auto &f = j["fingerprints"][0];
    CHECK(f["policy"] == nlohmann::ordered_json{{"rounding", "rne"}, {"overflow", "inf"}, {"subnormals", "kept"}, {"nan", "quiet"}});
    CHECK(f["named"].is_null());
    CHECK(j["fingerprints"][1]["named"] == "bf16");
    CHECK(f["residue"][0]["first"] ==
          nlohmann::ordered_json{{"input", "7f810000"}, {"expected", "7fc1"}, {"actual", "7f81"}});
    CHECK_FALSE(f["residue"][1].contains("first"));  // no mismatch in the class: no first one
    const auto back = read_back(nlohmann::json::parse(render_json(r))["fingerprints"]);
    CHECK(back == r.fingerprints);
}

TEST_CASE("fingerprints: raz and the unsigned choices and an sr convention validate and read back (issue 34)",
          "[reports][fingerprint][schema]") {
    Report r = fingerprinted_report();
    r.started_at = r.finished_at = "2026-12-02T00:00:00Z";
    r.fingerprints[0].rounding = "raz";  // away from zero: a lattice choice since issue 34
    Fingerprint e8m0 = residue_fingerprint();
    e8m0.conversion = "fp32_to_e8m0_rne_satfinite";
    e8m0.target = "e8m0";
    e8m0.signless = "nan";  // ml_dtypes' e8m0: zero and negatives to the NaN
    e8m0.tiny = "smallest";
    Fingerprint sr = residue_fingerprint();
    sr.conversion = "fp32_to_e4m3fn_sr_satfinite";
    sr.domain = "sr_probes";
    sr.rounding = "sr";
    sr.sr = SrFingerprint{"given", 20, 16, 16, 0, 0, {"ptx_rs_f8x4"}};
    r.fingerprints.push_back(e8m0);
    r.fingerprints.push_back(sr);
    const auto j = nlohmann::json::parse(render_json(r));
    INFO(report_schema_violation(j));
    CHECK(report_schema_violation(j).empty());
    CHECK(j["fingerprints"][0]["policy"]["rounding"] == "raz");
    CHECK(j["fingerprints"][2]["policy"]["signless"] == "nan");
    CHECK_FALSE(j["fingerprints"][0]["policy"].contains("signless"));  // a signed target has no such choice
    CHECK(j["fingerprints"][3]["sr"]["conventions"] == nlohmann::json::array({"ptx_rs_f8x4"}));
    CHECK(read_back(j["fingerprints"]) == r.fingerprints);
    auto bad = j;
    bad["fingerprints"][2]["policy"]["signless"] = "negative";
    CHECK_FALSE(report_schema_violation(bad).empty());
}

TEST_CASE("fingerprints: the reader refuses what the schema refuses, naming the field", "[reports][fingerprint]") {
    CHECK(refusal([](nlohmann::json &f) { f["policy"]["rounding"] = "half_up"; }) ==
          "fingerprints[0] \"policy\" \"rounding\" is \"half_up\", expected one of rne, rna, rnu, rtz, rup, rdn, raz, exact, sr, rnz");
    CHECK(refusal([](nlohmann::json &f) { f["policy"]["tiny"] = "zero"; }) ==
          "fingerprints[0] \"policy\" \"tiny\" is \"zero\", expected one of smallest, nan");
    CHECK(refusal([](nlohmann::json &f) { f["matched"] = 4097; }) == "fingerprints[0] \"matched\" is 4097, more than the 4096 inputs");
    CHECK(refusal([](nlohmann::json &f) { f["residue"][0]["first"]["actual"] = "0x7F81"; }) ==
          "fingerprints[0] residue[0] \"first\" \"actual\" is \"0x7F81\", expected lowercase hex digits");
    CHECK(refusal([](nlohmann::json &f) { f["inputs"] = -1; }) == "fingerprints[0] \"inputs\" is -1, expected a non-negative integer");
    CHECK(refusal([](nlohmann::json &f) { f.erase("sentence"); }) ==
          "fingerprints[0] \"sentence\" is missing, expected a string");
    CHECK(refusal([](nlohmann::json &f) { f["residue"][0]["mismatches"] = 511; }) ==
          "fingerprints[0] residue[0] \"mismatches\" is 511, more than the class's 510 inputs");
}

TEST_CASE("fingerprints: the summary ends with a block per record, residue classes with mismatches only",
          "[reports][fingerprint]") {
    const std::string s = render_summary(fingerprinted_report());
    const std::string want = "result: FAIL\n"
                             "fingerprint: nearest fp32_to_bf16_rne: nearest-even, to infinity, NaN quieted (payload & sign "
                             "kept) on 4084 of 4096 inputs\n"
                             "  residue nan: 12 of 510; first 0x7f810000 -> 0x7f81, policy 0x7fc1\n"
                             "fingerprint: matches bf16: exact, subnormals kept, NaN payload and sign kept on 65536 of 65536 "
                             "inputs\n";
    REQUIRE(s.size() >= want.size());
    CHECK(s.substr(s.size() - want.size()) == want);
    CHECK(s.find("residue infinity") == std::string::npos);
}

TEST_CASE("fingerprints: JUnit carries each sentence as a property of the suite of its conversion",
          "[reports][fingerprint]") {
    Report r = fingerprinted_report();
    Fingerprint alone = exact_fingerprint();
    alone.conversion = "e4m3fn";  // no case of the run covers decode.e4m3fn
    r.fingerprints.push_back(alone);
    const std::string x = render_junit(r);
    const auto convert = x.find("<testsuite name=\"scalar.convert\"");
    const auto residue = x.find("<property name=\"fingerprint convert.fp32_to_bf16_rne\" value=\"nearest fp32_to_bf16_rne: "
                                "nearest-even, to infinity, NaN quieted (payload &amp; sign kept) on 4084 of 4096 inputs\"/>");
    const auto decode = x.find("<testsuite name=\"scalar.decode\"");
    const auto exact = x.find("<property name=\"fingerprint decode.bf16\" value=\"matches bf16:");
    const auto rest = x.find("<testsuite name=\"fingerprints\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
                             "    <properties>\n      <property name=\"fingerprint decode.e4m3fn\"");
    REQUIRE(convert != std::string::npos);
    REQUIRE(residue != std::string::npos);
    REQUIRE(decode != std::string::npos);
    REQUIRE(exact != std::string::npos);
    REQUIRE(rest != std::string::npos);
    CHECK(convert < residue);
    CHECK(decode < exact);
    CHECK(x.find("</testsuites>") > rest);
}

TEST_CASE("fingerprints: the HTML lists them near the verdict and boxes each beside its conversion's failure",
          "[reports][fingerprint][html]") {
    Report r = fingerprinted_report();
    r.fingerprints[0].sentence += " <script>x</script>";
    const std::string html = render_html({{"numpy", to_json(r)}});
    CHECK(html.find("<script>x") == std::string::npos);
    CHECK(html.find("on 4084 of 4096 inputs &lt;script&gt;x&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("NaN quieted (payload &amp; sign kept)") != std::string::npos);
    const auto section = html.find("<section id=\"s0\" ");
    const auto list = html.find("<li><a href=\"#f0-0\"><code>convert.fp32_to_bf16_rne</code></a>: nearest fp32_to_bf16_rne:");
    const auto exact_box = html.find("<div class=\"fingerprint\" id=\"f0-1\">");  // decode.bf16 passes: in the list
    const auto failure = html.find("<div class=\"failure\" id=\"d0-0\"");
    const auto residue_box = html.find("<div class=\"fingerprint\" id=\"f0-0\">");
    REQUIRE(section != std::string::npos);
    REQUIRE(list != std::string::npos);
    REQUIRE(exact_box != std::string::npos);
    REQUIRE(failure != std::string::npos);
    REQUIRE(residue_box != std::string::npos);
    CHECK(section < list);
    CHECK(list < exact_box);
    CHECK(exact_box < failure);
    CHECK(failure < residue_box);
    // inside the failure's box: before the next failure and the end of the report's section (the
    // failure's tables close scroll wrappers of their own, so the next </div> says nothing)
    CHECK(html.find("<div class=\"failure\"", failure + 1) > residue_box);
    CHECK(html.find("</section>", failure) > residue_box);
    CHECK(html.find("<td><code>rne</code></td><td><code>inf</code></td><td><code>kept</code></td><td><code>quiet</code></td>",
                    residue_box) != std::string::npos);
    CHECK(html.find("Equivalent on this domain: <code>rne, to infinity, subnormals flushed on input, NaN quieted</code>") !=
          std::string::npos);
    CHECK(html.find("<tr><td><code>nan</code></td><td class=\"num\">510</td><td class=\"num\">12</td><td><code>7f810000</code>"
                    "</td><td><code>7f81</code></td><td><code>7fc1</code></td></tr>") != std::string::npos);
    CHECK(html.find("<tr><td><code>infinity</code></td><td class=\"num\">2</td><td class=\"num\">0</td><td>\u2014</td>"
                    "<td>\u2014</td><td>\u2014</td></tr>") != std::string::npos);
    CHECK(html.find("No residue: the policy matches on every input.", exact_box) < failure);
}

TEST_CASE("fingerprints: the HTML refuses a report whose fingerprints are malformed", "[reports][fingerprint][html]") {
    auto j = nlohmann::json::parse(render_json(fingerprinted_report()));
    j["fingerprints"][1]["policy"]["subnormals"] = "flushed";
    CHECK_THROWS_WITH(render_html({{"bad", j}}), Catch::StartsWith("bad: fingerprints[1] \"policy\" \"subnormals\" is \"flushed\""));
}

TEST_CASE("fingerprints: merge keeps one of a conversion the shards agree on and refuses a disagreement",
          "[reports][fingerprint][merge]") {
    const auto merged = nlohmann::json::parse(merge_shards({shard(0, {residue_fingerprint()}),
                                                            shard(1, {residue_fingerprint(), exact_fingerprint()})})
                                                  .json);
    REQUIRE(merged.contains("fingerprints"));
    CHECK(read_back(merged["fingerprints"]) == std::vector<Fingerprint>{residue_fingerprint(), exact_fingerprint()});

    const auto none = nlohmann::json::parse(merge_shards({shard(0, {}), shard(1, {})}).json);
    CHECK_FALSE(none.contains("fingerprints"));

    Fingerprint other = residue_fingerprint();
    other.matched = 4083;
    CHECK_THROWS_WITH(merge_shards({shard(0, {residue_fingerprint()}), shard(1, {other})}),
                      "shard1.json: the fingerprint of convert.fp32_to_bf16_rne has \"matched\" 4083 but 4084 in shard0.json "
                      "(shards must agree)");
    auto forged = shard(1, {});
    forged.doc["fingerprints"] = nlohmann::ordered_json::array({fingerprint_json(residue_fingerprint())});
    forged.doc["fingerprints"][0]["domain"] = "some";
    CHECK_THROWS_WITH(merge_shards({shard(0, {}), forged}), Catch::Contains("shard1.json: fingerprints[0] \"domain\" is \"some\""));
}
