// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform report --html`, the sweep's mismatch histogram behind its plot, and the
// directories `--version` names (docs/cli.md), run as processes.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Run = ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

/// The whole file as bytes.
std::string read_all(const fs::path &p) { return slurp(p); }

fs::path scratch() {
    static const fs::path d = ninfer::harness::test::scratch("report");
    return d;
}

Run conform(const std::string &args) { return ninfer::harness::test::run_cli(scratch(), args); }

/// "+112:1 -113:2" -> {("+",112): 1, ("-",113): 2}
std::map<std::pair<char, int>, std::uint64_t> bins_of(const std::string &text) {
    std::map<std::pair<char, int>, std::uint64_t> bins;
    static const std::regex item(R"(([+-])(\d+):(\d+))");
    for (std::sregex_iterator it(text.begin(), text.end(), item), end; it != end; ++it)
        bins[{(*it)[1].str()[0], std::stoi((*it)[2].str())}] = std::stoull((*it)[3].str());
    return bins;
}

}  // namespace

TEST_CASE("a sweep bins its mismatches by sign and exponent field of the source word") {
    for (const std::string start : {"38000000", "b8000000"}) {
        const fs::path report = scratch() / ("sweep-" + start + ".json");
        const auto r = conform("sweep --plugin mutant_e5m2_ties_away --conversion fp32_to_e5m2_rne_satfinite --start " +
                               start + " --count 16777216 --max-mismatches 1000 --report '" + report.string() + "'");
        REQUIRE(r.status == 1);
        const json j = json::parse(read_all(report));
        const json &extra = j.at("extra");
        CHECK(extra.at("binade") == "exponent field");
        CHECK(extra.at("binades") == "256");
        const auto bins = bins_of(extra.at("mismatch_bins").get<std::string>());
        const json &c = j.at("cases").at(0);
        REQUIRE(c.at("mismatches").get<std::uint64_t>() > 0);
        REQUIRE(c.at("mismatches").get<std::uint64_t>() <= 1000);  // all kept: the bins can be recounted
        std::map<std::pair<char, int>, std::uint64_t> recount;
        for (const auto &m : c.at("first_mismatches")) {
            const auto w = std::stoull(m.at("inputs").at(0).get<std::string>(), nullptr, 16);
            ++recount[{(w >> 31) ? '-' : '+', static_cast<int>((w >> 23) & 0xFF)}];
        }
        CHECK(c.at("first_mismatches").size() == c.at("mismatches").get<std::uint64_t>());
        CHECK(bins == recount);
        // 2^24 words from exponent field 112 cover fields 112 and 113 only.
        for (const auto &[key, n] : bins) {
            CHECK(key.first == (start[0] == 'b' ? '-' : '+'));
            CHECK((key.second == 112 || key.second == 113));
        }
    }
}

TEST_CASE("a sweep without mismatches has an empty histogram") {
    const fs::path report = scratch() / "sweep-reference.json";
    const auto r = conform("sweep --plugin reference --conversion bf16_to_fp32 --report '" + report.string() + "'");
    REQUIRE(r.status == 0);
    const json j = json::parse(read_all(report));
    CHECK(j.at("extra").at("mismatch_bins") == "");
    CHECK(j.at("extra").at("binades") == "256");
}

TEST_CASE("report --html writes one page with a column per report") {
    const fs::path ref = scratch() / "reference.json", sweep = scratch() / "mutant-sweep.json",
                   page = scratch() / "page.html";
    REQUIRE(conform("run --plugin reference --suite scalar.decode --report '" + ref.string() + "'").status == 0);
    REQUIRE(conform("sweep --plugin mutant_e5m2_ties_away --conversion fp32_to_e5m2_rne_satfinite --start 38000000 "
                    "--count 16777216 --report '" + sweep.string() + "'")
                .status == 1);
    const auto r = conform("report --html '" + page.string() + "' '" + ref.string() + "' '" + sweep.string() + "'");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("(2 reports)") != std::string::npos);
    const std::string html = read_all(page);
    CHECK(html.find("<table class=\"matrix\">") != std::string::npos);
    CHECK(html.find("title=\"reference: decode.bf16: pass\"") != std::string::npos);
    CHECK(html.find("title=\"mutant-sweep: convert.fp32_to_e5m2_rne_satfinite: fail\"") != std::string::npos);
    CHECK(html.find("<svg") != std::string::npos);
    // Rows carry the catalog's spec section.
    CHECK(html.find("<th colspan=\"3\">decode \u2014 ") != std::string::npos);
}

TEST_CASE("report --html refuses what is not a report, and writes nothing") {
    const fs::path bad = scratch() / "notes.json", page = scratch() / "refused.html";
    std::ofstream(bad) << R"({"schema": "something/else"})";
    auto r = conform("report --html '" + page.string() + "' '" + bad.string() + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find(bad.string() + ": not a report of schema ninfer-conform/report/v3") != std::string::npos);
    r = conform("report --html '" + page.string() + "' '" + (scratch() / "missing.json").string() + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot read report") != std::string::npos);
    std::ofstream(bad) << "{not json";
    r = conform("report --html '" + page.string() + "' '" + bad.string() + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find("not JSON") != std::string::npos);
    CHECK_FALSE(fs::exists(page));
}

TEST_CASE("version: it names the executable and the directories in use") {
    const auto r = conform("--version");
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("ninfer-conform 0.", 0) == 0);
    CHECK(r.out.find("(build tree)") != std::string::npos);
    CHECK(r.out.find(std::string("plugins:    ") + NINFER_PLUGIN_DIR + "\n") != std::string::npos);
    CHECK(r.out.find(std::string("vectors:    ") + NINFER_SOURCE_DIR + "/vectors/data") != std::string::npos);
}
