// SPDX-License-Identifier: Apache-2.0
// Hostile subjects against the command line (harness/README.md, "Isolation"): plugins that kill
// or hang whoever loads them, listed by `plugins --dir`; exec subjects whose replies nest without
// end or carry bytes that are not text, run by `run` and `sweep`. Each must end in a report.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "isolation_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("hostile");
    return d;
}

/// Run `ninfer-conform ARGS` (shell words); status -1 when it did not exit normally.
Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

std::string bad_exec(int trigger) {
    return std::string("\"'") + NINFER_PYTHON + "' '" + NINFER_SOURCE_DIR + "/harness/tests/fixtures/bad_exec.py' every " +
           std::to_string(trigger) + "\"";
}

bool xml_well_formed(const fs::path &p) {
    const std::string cmd = std::string("'") + NINFER_PYTHON +
                            "' -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '" + p.string() + "'";
    const int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

}  // namespace

TEST_CASE("plugins --dir survives plugins that abort, segfault, hang or have no name terminator", "[cli][hostile]") {
    const auto o = cli(std::string("plugins --json --timeout-ms 300 --dir '") + NINFER_HOSTILE_PLUGIN_DIR + "'");
    INFO(o.out << o.err);
    REQUIRE(o.status == 0);
    CHECK(ninfer::harness::test::safe_text(o.out, true));
    const auto j = json::parse(o.out);
    std::map<std::string, json> by_name;
    for (const auto &p : j.at("plugins")) by_name[p.at("name").get<std::string>()] = p;
    REQUIRE(by_name.size() == 5);
    CHECK_THAT(by_name["hostile_ctor_abort"].value("error", ""), Catch::Contains("killed by SIGABRT"));
    CHECK_THAT(by_name["hostile_entry_segv"].value("error", ""), Catch::Contains("killed by SIGSEGV"));
    CHECK_THAT(by_name["hostile_entry_hang"].value("error", ""), Catch::Contains("no handshake within"));
    const auto name = by_name["hostile_name_unterminated"].value("plugin_name", "");
    CHECK_THAT(name, Catch::StartsWith("\\x1b[2J\\xff\\xfe AAAA"));
    CHECK(name.size() <= 300);
    CHECK(by_name["zz_minimal"].value("plugin_name", "") == "minimal");
    CHECK_FALSE(by_name["zz_minimal"].contains("error"));

    const auto t = cli(std::string("plugins --timeout-ms 300 --dir '") + NINFER_HOSTILE_PLUGIN_DIR + "'");
    CHECK(t.status == 0);
    CHECK(ninfer::harness::test::safe_text(t.out, true));
    CHECK_THAT(t.out, Catch::Contains("5 plugins"));
}

TEST_CASE("run and sweep report an exec subject whose replies nest 100000 levels deep", "[cli][hostile]") {
    const fs::path report = tmp_dir() / "deep.json", junit = tmp_dir() / "deep.xml", sweep = tmp_dir() / "deep-sweep.json";
    const auto r = cli("run --exec " + bad_exec(9) + " --report '" + report.string() + "' --junit '" + junit.string() + "'");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    REQUIRE(fs::exists(report));
    const auto j = json::parse(slurp(report));
    REQUIRE(j.at("cases").size() > 0);
    std::size_t errors = 0;
    for (const auto &c : j.at("cases"))
        if (c.at("status") == "error") errors += c.at("message").get<std::string>().find("nested deeper than") != std::string::npos;
    CHECK(errors > 0);
    CHECK(xml_well_formed(junit));

    const auto s = cli("sweep --exec " + bad_exec(9) + " --conversion bf16_to_fp32 --report '" + sweep.string() + "'");
    INFO(s.out << s.err);
    CHECK(s.status == 1);
    REQUIRE(fs::exists(sweep));
    CHECK_THAT(slurp(sweep), Catch::Contains("nested deeper than"));
}

TEST_CASE("run reports, summarises and writes JUnit for a subject that says bytes that are not text", "[cli][hostile]") {
    for (int trigger : {10, 11, 12}) {
        INFO(trigger);
        const fs::path report = tmp_dir() / "bytes.json", junit = tmp_dir() / "bytes.xml";
        fs::remove(report);
        fs::remove(junit);
        const auto r = cli("run --exec " + bad_exec(trigger) + " --report '" + report.string() + "' --junit '" +
                           junit.string() + "'");
        INFO(r.out << r.err);
        CHECK(r.status == 1);
        CHECK(ninfer::harness::test::safe_text(r.out, true));
        CHECK(ninfer::harness::test::safe_text(r.err, true));
        REQUIRE(fs::exists(report));
        CHECK_NOTHROW(json::parse(slurp(report)));
        CHECK(xml_well_formed(junit));
    }
}
