// SPDX-License-Identifier: Apache-2.0
// Issue 25, item 3: the check of `report` and `merge` inputs against the shipped schema reaches, on
// every fixture of schema_fixtures.json, the verdict the fixture states (python3-jsonschema reaches
// the same ones in the ctest "reports: the schema and the C++ check agree"), naming the place.
#include <catch2/catch.hpp>

#include <fstream>

#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;
using json = nlohmann::json;

namespace {

json load(const std::string &path) {
    std::ifstream f(path);
    REQUIRE(f.good());
    return json::parse(f);
}

json fixture_doc(const json &f) {
    json doc = f.contains("doc") ? f["doc"] : load(std::string(NINFER_REPORTS_BASELINE_DIR) + "/" + f["base"].get<std::string>());
    if (f.contains("set"))
        for (const auto &[pointer, value] : f["set"].items()) doc[json::json_pointer(pointer)] = value;
    if (f.contains("remove"))
        for (const auto &pointer : f["remove"]) {
            const json::json_pointer p(pointer.get<std::string>());
            doc[p.parent_pointer()].erase(p.back());
        }
    return doc;
}

}  // namespace

TEST_CASE("schema check: each fixture gets the verdict it states, at the place it names", "[reports][schema]") {
    const json fixtures = load(NINFER_REPORTS_SCHEMA_FIXTURES)["fixtures"];
    REQUIRE(fixtures.size() >= 15);
    for (const auto &f : fixtures) {
        const std::string why = report_schema_violation(fixture_doc(f));
        INFO(f["name"].get<std::string>() << ": " << why);
        CHECK(why.empty() == f["valid"].get<bool>());
        if (!f["valid"].get<bool>()) CHECK(why.rfind(f["at"].get<std::string>() + ": ", 0) == 0);
    }
}

TEST_CASE("schema check: the schema id alone names the first required property missing", "[reports][schema]") {
    CHECK(report_schema_violation(json{{"schema", "ninfer-conform/report/v2"}}) == "/: required property \"kind\" is missing");
}

TEST_CASE("schema check: a report of the model validates", "[reports][schema]") {
    Report r;
    r.tool_version = "1.2.3";
    r.subject = {"plugin", "p", "1", 1, "/p.so"};
    r.level = "quick";
    r.started_at = r.finished_at = "2026-12-02T00:00:00Z";
    finalize(r);
    CHECK(report_schema_violation(json::parse(render_json(r))).empty());
}
