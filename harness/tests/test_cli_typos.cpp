// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: a mistyped name gets one error line, exit 2, and "did you mean" the closest
// names (suggest.hpp); nonsense gets no suggestion; a plugin path that is not there is "no such file".
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using ninfer::harness::test::Out;

namespace {

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("typos");
    return d;
}

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args, "", "timeout -k 5 60"); }

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// Exit 2, nothing on stdout, and one line on stderr that holds `want`.
void one_line(const Out &o, const std::string &want) {
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(lines(o.err) == 1);
    CHECK(o.err.find(want) != std::string::npos);
}

}  // namespace

TEST_CASE("typos: a mistyped bundled plugin gets the closest names, not the whole list") {
    const Out o = cli("run --plugin mutant_bf16_truncaton");
    one_line(o, "no plugin 'mutant_bf16_truncaton' in ");
    CHECK(o.err.find("; did you mean mutant_bf16_truncation") != std::string::npos);
    CHECK(o.err.find("(`ninfer-conform plugins` lists them)") != std::string::npos);
    CHECK(o.err.find("reference") == std::string::npos);  // not the list of every plugin
    CHECK(o.err.size() < 400);
    const Out s = cli("sweep --plugin refrence --conversion bf16_to_fp32");
    one_line(s, "; did you mean reference?");
}

TEST_CASE("typos: a plugin path that is not there is no such file") {
    one_line(cli("run --plugin ./nosuch.so"), "ninfer-conform: --plugin: no such file: ./nosuch.so\n");
    one_line(cli("run --plugin nosuch.so"), "--plugin: no such file: nosuch.so");
    const Out o = cli("run --plugin /nonexistent/dir/mutant_bf16_truncation.so");
    one_line(o, "no such file: /nonexistent/dir/mutant_bf16_truncation.so");
    CHECK(o.err.find("did you mean") == std::string::npos);
}

TEST_CASE("typos: conversions, formats, suites, levels and pinned rules get suggestions") {
    one_line(cli("sweep --plugin reference --conversion fp32_to_bf16"),
             "unknown conversion 'fp32_to_bf16'; did you mean fp32_to_bf16_rne");
    one_line(cli("oracle convert --conversion bf16_to_fp23 --word 0"), "did you mean bf16_to_fp32");
    one_line(cli("oracle geometry --format nvfp5 --shape 128,64"), "unknown format 'nvfp5'; did you mean nvfp4");
    one_line(cli("run --plugin reference --suite scalar.convrt"), "unknown suite 'scalar.convrt'; did you mean scalar.convert?");
    one_line(cli("run --plugin reference --level exhastive"), "unknown level 'exhastive'; did you mean exhaustive?");
    one_line(cli("coverage --level ful"), "unknown level 'ful'; did you mean full?");
    one_line(cli("run --plugin reference --pin fp8_row_maxabs.rescu=refuse"),
             "is not a rule with an open reading; did you mean fp8_row_maxabs.rescue");
    one_line(cli("run --plugin reference --pin fp8_row_maxabs.rescue=refus"),
             "unknown choice 'refus'; did you mean refuse?");
}

TEST_CASE("typos: unknown options and commands get suggestions") {
    one_line(cli("run --plugin reference --suit scalar.convert"),
             "ninfer-conform run: unknown option '--suit'; did you mean --suite? (`ninfer-conform run --help` lists them)");
    one_line(cli("sweep --plugin reference --conversion bf16_to_fp32 --job=2"), "unknown option '--job'; did you mean --jobs");
    one_line(cli("swep --plugin reference"), "ninfer-conform: unknown command 'swep'; did you mean sweep?");
    one_line(cli("--verison"), "ninfer-conform: unknown option '--verison'; did you mean --version?");
}

TEST_CASE("typos: nonsense gets no suggestion, one line all the same") {
    for (const char *args : {"run --plugin qqqqqqqq", "sweep --plugin reference --conversion qqqqqqqq",
                             "run --plugin reference --suite qqqqqqqq", "run --plugin reference --qqqqqqqq",
                             "qqqqqqqq", "oracle geometry --format qqqqqqqq --shape 128,64"}) {
        const Out o = cli(args);
        INFO(args);
        one_line(o, "qqqqqqqq");
        CHECK(o.err.find("did you mean") == std::string::npos);
    }
}

// Issue 32, item 8: --help in groups, with an example, the program's name and lines of at most 100.
TEST_CASE("help: every command's --help is grouped, has an example and fits 100 columns") {
    for (const char *command : {"", "list", "rules", "coverage", "generate", "oracle", "oracle convert", "oracle encode",
                                "plugins", "run", "sweep", "fingerprint", "report", "merge"}) {
        const auto o = cli(std::string(command) + (*command ? " " : "") + "--help");
        INFO(command << ":\n" << o.out);
        CHECK(o.status == 0);
        CHECK(o.out.find("Usage: ninfer-conform") != std::string::npos);  // the name, not the executable's path
        std::size_t widest = 0, at = 0;
        for (std::size_t nl; (nl = o.out.find('\n', at)) != std::string::npos; at = nl + 1) widest = std::max(widest, nl - at);
        CHECK(widest <= 100);
        if (*command) CHECK(o.out.find("Example:\n  ninfer-conform " + std::string(command)) != std::string::npos);
    }
    const auto run = cli("run --help").out;
    for (const char *group : {"Subject:", "Choosing cases:", "Outputs:", "CI gates:"}) CHECK(run.find(group) != std::string::npos);
    CHECK(run.find("Subject:") < run.find("  --plugin"));
}

TEST_CASE("help: CLI11's own errors carry the program's name") {
    const auto o = cli("run --plugin reference --level");
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err.rfind("ninfer-conform: ", 0) == 0);
}
