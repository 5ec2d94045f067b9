// SPDX-License-Identifier: Apache-2.0
// The files of the command line (docs/cli.md, "Input and output files"): an output never
// replaces anything but a regular file and is never one of the command's inputs or another of
// its outputs (files compared, not names); every input is a bounded regular file, so that a FIFO
// or a device cannot hang or exhaust a command; an empty path and a number that does not fit
// its option are bad usage. Each refusal is one line and exit 2, with nothing touched.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "ninfer/harness/case_cache.hpp"
#include "ninfer/suites/suites.hpp"

namespace fs = std::filesystem;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("paths");
    return d;
}

/// `ninfer-conform ARGS` under `timeout`: a command that would block (on a FIFO) ends as 124,
/// never as a hung test.
Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args, "", "timeout -k 5 60"); }

std::string at(const std::string &name) { return (tmp_dir() / name).string(); }

std::string quoted(const std::string &path) { return "'" + path + "'"; }

void write(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// A FIFO at `path` (none before), which no one writes.
std::string fifo(const std::string &path) {
    fs::remove(path);
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    return path;
}

bool is_fifo(const std::string &path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

/// A quick run of the fastest suite against the reference plugin.
const std::string kRun = "run --plugin reference --suite scalar.convert ";

/// A refusal: exit 2 (not a timeout), one line on stderr that holds `what`.
void check_refused(const Out &o, const std::string &what) {
    INFO(o.out << o.err);
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK_THAT(o.err, Catch::Contains(what));
}

}  // namespace

TEST_CASE("paths: an output that exists and is no regular file is refused and left as it is") {
    // /dev/null: the first output checked; on a build without the check, the second output
    // (in a missing directory) refuses the run before anything is written to the device.
    const std::string missing = at("no-such-dir") + "/r.xml";
    check_refused(cli(kRun + "--report /dev/null --junit " + quoted(missing)),
                  "--report '/dev/null' is a character device");
    struct stat st {};
    REQUIRE(::stat("/dev/null", &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    check_refused(cli("merge --out /dev/full " + quoted(at("absent.json"))), "--out '/dev/full' is a character device");
    // A FIFO (here an output no run would write to): it stays a FIFO.
    const std::string report = at("fifo-input.json"), pipe = fifo(at("out.fifo"));
    write(report, "{}");
    check_refused(cli("report --html " + quoted(pipe) + " " + quoted(report)), "--html '" + pipe + "' is a FIFO");
    CHECK(is_fifo(pipe));
    // A symbolic link is judged by what it points to.
    const std::string link = at("null-link");
    fs::remove(link);
    fs::create_symlink("/dev/null", link);
    check_refused(cli("merge --out " + quoted(link) + " " + quoted(at("absent.json"))), "is a character device");
    CHECK(fs::is_symlink(link));
}

TEST_CASE("paths: an output that is another output or an input is refused, the file untouched") {
    const std::string f = at("same.json"), hard = at("same-hard.json"), soft = at("same-soft.json");
    std::string content = "keep me";
    write(f, content);
    fs::remove(hard);
    fs::remove(soft);
    fs::create_hard_link(f, hard);
    fs::create_symlink(f, soft);
    SECTION("run --report F --junit F, also through a hard or a symbolic link") {
        for (const auto &other : {f, hard, soft}) {
            INFO(other);
            check_refused(cli(kRun + "--report " + quoted(f) + " --junit " + quoted(other)),
                          "--junit '" + other + "' is the same file as --report");
        }
        // Two new paths that name one file are refused as well.
        const std::string fresh = at("fresh.json");
        fs::remove(fresh);
        check_refused(cli(kRun + "--report " + quoted(fresh) + " --junit " + quoted(at(".") + "/fresh.json")),
                      "is the same file as --report");
        CHECK_FALSE(fs::exists(fresh));
    }
    SECTION("run --report onto its --baseline") {
        content = R"({"version": 1, "waivers": []})";
        write(f, content);
        for (const auto &out : {f, hard, soft}) {
            INFO(out);
            check_refused(cli(kRun + "--baseline " + quoted(f) + " --report " + quoted(out)),
                          "is the same file as --baseline");
        }
    }
    SECTION("report --html onto one of its reports") {
        check_refused(cli("report --html " + quoted(f) + " " + quoted(f)), "is the same file as report");
        check_refused(cli("report --html " + quoted(soft) + " " + quoted(hard)), "is the same file as report");
    }
    SECTION("merge --out onto one of its shards") {
        const std::string other = at("shard1.json");
        write(other, "{}");
        check_refused(cli("merge --out " + quoted(f) + " " + quoted(f) + " " + quoted(other)),
                      "is the same file as shard report");
        check_refused(cli("merge --out " + quoted(hard) + " " + quoted(other) + " " + quoted(f)),
                      "is the same file as shard report");
    }
    SECTION("oracle decode --values onto its --input") {
        check_refused(
            cli("oracle decode --format gguf_q8_0 --shape 32 --input " + quoted(f) + " --values " + quoted(hard)),
            "is the same file as --input");
    }
    CHECK(slurp(f) == content);
}

TEST_CASE("paths: the vectors directory takes no output, and the case cache lies apart from it") {
    const fs::path vectors = tmp_dir() / "vectors";
    fs::remove_all(vectors);
    fs::copy(fs::path(NINFER_SOURCE_DIR) / "vectors" / "data", vectors, fs::copy_options::recursive);
    const auto before = [&] {
        std::vector<std::string> names;
        for (const auto &e : fs::recursive_directory_iterator(vectors)) names.push_back(e.path().string());
        std::sort(names.begin(), names.end());
        return names;
    };
    const auto listed = before();
    const std::string v = " --vectors " + quoted(vectors.string()) + " ";
    for (const auto &cache : {vectors, vectors / "cache", vectors.parent_path()}) {
        INFO(cache);
        check_refused(cli(kRun + "--level full" + v + "--case-cache " + quoted(cache.string())),
                      "--case-cache '" + cache.string() + "' overlaps --vectors");
    }
    check_refused(cli(kRun + v + "--report " + quoted((vectors / "r.json").string())), "lies inside --vectors");
    check_refused(cli(kRun + "--custom-vectors " + quoted(vectors.string()) + " --junit " +
                      quoted((vectors / "MANIFEST.sha256").string())),
                  "lies inside --custom-vectors");
    CHECK(before() == listed);
    // The vector set is still accepted: nothing was written into it.
    const auto ok = cli(kRun + v + "--report " + quoted(at("vectors-ok.json")));
    INFO(ok.err);
    CHECK(ok.status == 0);
}

TEST_CASE("paths: a FIFO or a device as an input is refused at once, never read") {
    const std::string pipe = fifo(at("in.fifo"));
    SECTION("--baseline") {
        check_refused(cli(kRun + "--baseline " + quoted(pipe)), "a FIFO (expected a regular file)");
    }
    SECTION("a case cache file") {
        const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache");
        const auto file = ninfer::harness::case_cache_file(dir, "scalar.convert", ninfer::suites::Level::full,
                                                           ninfer::suites::kDefaultSeed);
        fifo(file.string());
        check_refused(cli(kRun + "--level full --case-cache " + quoted(dir.string())),
                      "a FIFO (expected a regular file)");
    }
    SECTION("a merge input") {
        check_refused(cli("merge --out " + quoted(at("merged.json")) + " " + quoted(pipe)),
                      "a FIFO (expected a regular file)");
        CHECK_FALSE(fs::exists(at("merged.json")));
    }
    SECTION("a report input") {
        check_refused(cli("report --html " + quoted(at("page.html")) + " " + quoted(pipe)),
                      "a FIFO (expected a regular file)");
        CHECK_FALSE(fs::exists(at("page.html")));
    }
    SECTION("an oracle input") {
        check_refused(cli("oracle decode --format gguf_q8_0 --shape 32 --input " + quoted(pipe)),
                      "a FIFO (expected a regular file)");
    }
}

TEST_CASE("paths: /dev/zero as a report is refused without reading it") {
#ifdef NINFER_SANITIZED  // ASan cannot start under an address-space limit
    const std::string limit;
#else  // a safety net: a reader without the check would stop at 4 GB of address space
    const std::string limit = "ulimit -v 4000000; ";
#endif
    const auto o = ninfer::harness::test::run_cli(tmp_dir(), "report --html " + quoted(at("zero.html")) + " /dev/zero",
                                                  "", limit + "timeout -k 5 60");
    check_refused(o, "a character device (expected a regular file)");
    CHECK_FALSE(fs::exists(at("zero.html")));
}

TEST_CASE("paths: a seed beyond 2^64-1 is refused, 2^64-1 itself accepted") {
    for (const std::string seed : {"18446744073709551616", "99999999999999999999"}) {
        const auto o = cli(kRun + "--seed " + seed);
        INFO(o.err);
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("--seed: '" + seed + "' is out of range"));
    }
    const auto o = cli(kRun + "--seed 18446744073709551615");
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK_THAT(o.err, Catch::Contains("seed 18446744073709551615"));
}

TEST_CASE("paths: an empty path is bad usage, for every path option") {
    const std::string x = quoted(at("x.json"));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {kRun + "--report ''", "--report: an empty path (expected a file path)"},
        {kRun + "--junit ''", "--junit: an empty path (expected a file path)"},
        {kRun + "--baseline ''", "--baseline: an empty path (expected a file path)"},
        {kRun + "--vectors ''", "--vectors: an empty path (expected a directory path)"},
        {kRun + "--custom-vectors ''", "--custom-vectors: an empty path (expected a directory path)"},
        {kRun + "--case-cache ''", "--case-cache: an empty path (expected a directory path)"},
        {"run --suite scalar.convert --plugin ''", "--plugin: an empty path"},
        {"sweep --plugin reference --conversion bf16_to_fp32 --report ''", "--report: an empty path"},
        {"plugins --dir ''", "--dir: an empty path (expected a directory path)"},
        {"generate --out ''", "--out: an empty path (expected a directory path)"},
        {"merge --out '' " + x, "--out: an empty path"},
        {"merge --out " + x + " ''", "shards: an empty path"},
        {"report --html '' " + x, "--html: an empty path"},
        {"report --html " + x + " ''", "reports: an empty path"},
        {"oracle decode --format gguf_q8_0 --shape 32 --input ''", "--input: an empty path"},
        {"oracle decode --format gguf_q8_0 --shape 32 --input " + x + " --values ''", "--values: an empty path"},
        {"oracle pack --format bf16 --shape 1 --words ''", "--words: an empty path"},
    };
    for (const auto &[args, line] : cases) {
        INFO(args);
        const auto o = cli(args);
        INFO(o.out << o.err);
        CHECK(o.status == 2);
        CHECK(o.err.rfind("ninfer-conform: " + line, 0) == 0);  // CLI11's errors carry the prefix too
    }
}
