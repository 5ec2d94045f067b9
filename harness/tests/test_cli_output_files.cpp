// SPDX-License-Identifier: Apache-2.0
// Every file the suite writes goes through one writer (issue 36, items 1, 2, 5, 6;
// reports/README.md, "How files are written"): a link planted at any name a command could use
// is never written through; a signal at any point leaves no temporary and no half-written file;
// the case cache key and cache files are never read through a link nor replaced by an output;
// fingerprint --json is a report the shipped schema accepts; a large input that is not JSON is
// refused after its first bytes; `oracle` refuses a directory or an empty stdin.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace fs = std::filesystem;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("output-files");
    return d;
}

Out cli(const std::string &args, const std::string &input = "") {
    return ninfer::harness::test::run_cli(tmp_dir(), args, input, "timeout -k 5 120");
}

std::string q(const fs::path &p) { return "'" + p.string() + "'"; }

int shell(const std::string &cmd) {
    const int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// A file outside every output directory, which a planted link points at.
fs::path victim(const std::string &name) {
    const fs::path v = tmp_dir() / "outside" / name;
    fs::create_directories(v.parent_path());
    std::ofstream(v, std::ios::binary | std::ios::trunc) << "victim " << name << "\n";
    return v;
}

/// A symbolic link at `at` to `target` (anything at `at` removed first).
void plant_link(const fs::path &at, const fs::path &target) {
    fs::remove(at);
    fs::create_symlink(target, at);
}

/// Whether `p` is a regular file and no link.
bool regular(const fs::path &p) { return fs::is_regular_file(fs::symlink_status(p)); }

/// The names in `dir` that are a temporary of the writer (".<name>.<random>") or of older
/// writers ("<name>.tmp").
std::vector<std::string> leftovers(const fs::path &dir) {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(dir)) {
        const std::string n = e.path().filename().string();
        if (n.front() == '.' || e.path().extension() == ".tmp") out.push_back(n);
    }
    return out;
}

/// Every victim still holds its own bytes.
void check_victims_intact(const std::vector<fs::path> &victims) {
    for (const auto &v : victims) {
        INFO(v.string());
        CHECK(slurp(v) == "victim " + v.filename().string() + "\n");
    }
}

/// The names `generate` writes: every file of the committed vector set.
std::vector<std::string> generated_names() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(NINFER_SOURCE_DIR "/vectors/data")) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

constexpr const char *kRun = "run --plugin reference --suite scalar.convert ";

}  // namespace

TEST_CASE("outputs: a link planted at every name generate could use is never written through", "[cli][output-files]") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "gen-links");
    std::vector<fs::path> victims;
    for (const auto &name : generated_names()) {
        // the file itself and the fixed temporary names of older writers
        for (const std::string &at : {name, name + ".tmp", "." + name + ".tmp"}) {
            victims.push_back(victim("gen-" + at));
            plant_link(dir / at, victims.back());
        }
    }
    const Out o = cli("generate --out " + q(dir));
    INFO(o.err);
    CHECK(o.status == 0);
    check_victims_intact(victims);
    for (const auto &name : generated_names()) CHECK(regular(dir / name));
    // the planted links at other names are not generate's to remove: kept, and named as unrelated
    CHECK_THAT(o.err, Catch::Contains("also holds files that are not this build's vectors"));
    for (const auto &name : generated_names()) {
        fs::remove(dir / (name + ".tmp"));
        fs::remove(dir / ("." + name + ".tmp"));
    }
    CHECK_NOTHROW(ninfer::vectors::load(dir, {}, ninfer::suites::Level::quick));
}

TEST_CASE("outputs: links planted at run's, sweep's, report's, merge's and fingerprint's outputs are replaced, never followed",
          "[cli][output-files]") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "out-links");
    std::vector<fs::path> victims;
    const auto linked = [&](const std::string &name) {
        victims.push_back(victim("out-" + name));
        plant_link(dir / name, victims.back());
        return dir / name;
    };
    const fs::path report = linked("r.json"), junit = linked("r.xml"), md = linked("r.md"), base = linked("b.json");
    Out o = cli(std::string(kRun) + "--report " + q(report) + " --junit " + q(junit) + " --summary-md " + q(md) +
                " --write-baseline " + q(base));
    INFO(o.err);
    CHECK(o.status == 0);
    const fs::path sweep = linked("s0.json"), html = linked("p.html"), merged = linked("m.json"), fp = linked("f.json");
    o = cli("sweep --plugin reference --conversion fp32_to_bf16_rne --count 4096 --shard 0/1 --report " + q(sweep));
    CHECK(o.status == 0);
    o = cli("report --html " + q(html) + " " + q(report));
    CHECK(o.status == 0);
    o = cli("merge --out " + q(merged) + " " + q(sweep));
    CHECK(o.status == 0);
    o = cli("fingerprint --plugin reference --op decode --format bf16 --jobs 1 --json " + q(fp));
    CHECK(o.status == 0);
    check_victims_intact(victims);
    for (const auto &p : {report, junit, md, base, sweep, html, merged, fp}) CHECK(regular(p));
    CHECK(leftovers(dir).empty());
}

TEST_CASE("outputs: a signal at random points leaves no temporary and a whole vector set", "[cli][output-files][signals]") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "gen-signal");
    REQUIRE(cli("generate --out " + q(dir)).status == 0);
    // Delays drawn once from a fixed seed (the same points on every run), spread over a write.
    std::mt19937 rng(36);
    std::uniform_int_distribution<int> ms(0, 1500);
    for (int k = 0; k < 6; ++k) {
        const int delay = ms(rng);
        const char *sig = k % 3 == 0 ? "INT" : k % 3 == 1 ? "TERM" : "HUP";
        INFO("SIG" << sig << " after " << delay << " ms");
        shell("'" + std::string(NINFER_CONFORM_EXE) + "' generate --out " + q(dir) + " >/dev/null 2>&1 & p=$!; sleep " +
              std::to_string(delay / 1000.0) + "; kill -" + sig + " $p 2>/dev/null; wait $p");
        CHECK(leftovers(dir).empty());
        CHECK_NOTHROW(ninfer::vectors::load(dir, {}, ninfer::suites::Level::quick));
    }
    // run's outputs likewise: none or all of them, never a temporary.
    const fs::path out = ninfer::harness::test::fresh_dir(tmp_dir() / "run-signal");
    for (int delay : {50, 400, 1200}) {
        INFO("SIGTERM after " << delay << " ms");
        shell("'" + std::string(NINFER_CONFORM_EXE) + "' " + kRun + "--report " + q(out / "r.json") + " --junit " +
              q(out / "r.xml") + " >/dev/null 2>&1 & p=$!; sleep " + std::to_string(delay / 1000.0) +
              "; kill -TERM $p 2>/dev/null; wait $p");
        CHECK(leftovers(out).empty());
        if (fs::exists(out / "r.json")) CHECK(nlohmann::json::accept(slurp(out / "r.json")));
    }
}

TEST_CASE("outputs: the case cache key and files are never read through a link nor replaced by an output",
          "[cli][output-files][case-cache]") {
    const fs::path dir = ninfer::harness::test::fresh_dir(tmp_dir() / "cache");
    const fs::path keys = ninfer::harness::test::fresh_dir(tmp_dir() / "keys");
    const fs::path key = keys / "k.key";
    const std::string full = std::string(kRun) + "--level full ";  // full: seeded random cases, cached
    const std::string cache = " --case-cache " + q(dir / "c") + " --case-cache-key " + q(key);
    REQUIRE(cli(full + cache).status == 0);  // creates the key, 0600
    SECTION("a key that is a link, even to a good key") {
        const fs::path link = keys / "link.key";
        plant_link(link, key);
        const Out o = cli(full + " --case-cache " + q(dir / "c") + " --case-cache-key " + q(link));
        CHECK(o.status == 2);
        CHECK(lines(o.err) == 1);
        CHECK_THAT(o.err, Catch::Contains("a symbolic link; expected the key file itself"));
    }
    SECTION("a key whose directory is a link") {
        const fs::path linked_dir = tmp_dir() / "keys-link";
        plant_link(linked_dir, keys);
        const Out o = cli(full + " --case-cache " + q(dir / "c") + " --case-cache-key " + q(linked_dir / "k.key"));
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("is a symbolic link (expected every directory of the path itself"));
    }
    SECTION("a key in a directory others may write") {
        const fs::path open_dir = ninfer::harness::test::fresh_dir(tmp_dir() / "keys-open");
        fs::permissions(open_dir, fs::perms::all);
        const Out o = cli(full + " --case-cache " + q(dir / "c") + " --case-cache-key " + q(open_dir / "k.key"));
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("group and others cannot write"));
    }
    SECTION("a cache file that is a link") {
        const fs::path v = victim("cache-file");
        std::vector<fs::path> files;
        for (const auto &e : fs::directory_iterator(dir / "c")) files.push_back(e.path());
        REQUIRE_FALSE(files.empty());
        for (const auto &f : files) plant_link(f, v);
        const Out o = cli(full + cache);
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("a symbolic link (expected a regular file: a cache file is never read through a link)"));
        check_victims_intact({v});
    }
    SECTION("--report at the key or at a cache file") {
        const std::string key_before = slurp(key);
        Out o = cli(full + cache + " --report " + q(key));
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("is the same file as the case cache key"));
        fs::path file;
        for (const auto &e : fs::directory_iterator(dir / "c")) file = e.path();
        o = cli(full + cache + " --junit " + q(file));
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("lies inside --case-cache"));
        // the implicit key (XDG_STATE_HOME) is guarded as the named one
        const fs::path state = ninfer::harness::test::fresh_dir(tmp_dir() / "state");
        const fs::path implicit = state / "ninfer-conform" / "case-cache.key";
        const std::string env = "XDG_STATE_HOME=" + q(state) + " NINFER_CASE_CACHE_KEY= ";
        CHECK(shell(env + "'" + NINFER_CONFORM_EXE + "' " + full + " --case-cache " + q(dir / "c") + " >/dev/null 2>&1") == 0);
        REQUIRE(fs::exists(implicit));
        const std::string implicit_before = slurp(implicit);
        CHECK(shell(env + "'" + NINFER_CONFORM_EXE + "' " + full + " --case-cache " + q(dir / "c") + " --report " +
                    q(implicit) + " >/dev/null 2>&1") == 2);
        CHECK(slurp(implicit) == implicit_before);
        CHECK(slurp(key) == key_before);
    }
}

TEST_CASE("outputs: fingerprint --json is a report the shipped schema accepts, failed or not; report --html renders it",
          "[cli][output-files][fingerprint]") {
    const auto valid = [](const fs::path &p) {
        return shell(std::string("'") + NINFER_PYTHON + "' '" + NINFER_REPORT_VALIDATOR + "' '" + NINFER_REPORT_SCHEMA +
                     "' " + q(p) + " >/dev/null") == 0;
    };
    const fs::path ok = tmp_dir() / "fp-ok.json", dead = tmp_dir() / "fp-dead.json";
    Out o = cli("fingerprint --plugin reference --op decode --format bf16 --jobs 1 --json " + q(ok));
    CHECK(o.status == 0);
    CHECK(valid(ok));
    auto j = nlohmann::json::parse(slurp(ok));
    CHECK(j["kind"] == "fingerprint");
    CHECK(j["passed"] == true);
    CHECK(j["fingerprints"].size() == 1);
    // a subject that never starts: its open error, passed false, exit 3
    o = cli("fingerprint --plugin " + q(fs::path(NINFER_HOSTILE_PLUGIN_DIR) / "hostile_ctor_abort.so") +
            " --op decode --format bf16 --json " + q(dead));
    CHECK(o.status == 3);
    CHECK(valid(dead));
    j = nlohmann::json::parse(slurp(dead));
    CHECK(j["passed"] == false);
    CHECK(j.contains("open_error"));
    o = cli("report --html " + q(tmp_dir() / "fp.html") + " " + q(ok) + " " + q(dead));
    INFO(o.err);
    CHECK(o.status == 0);
}

TEST_CASE("inputs: a large file that is not JSON is refused after its first bytes; oracle refuses a directory or nothing",
          "[cli][output-files][inputs]") {
    // 1.5 GiB of zeros (sparse): under a 1 GB address space a reader that took it whole could not.
    const fs::path zeros = tmp_dir() / "zeros.json";
    REQUIRE(shell("truncate -s 1536M " + q(zeros)) == 0);
#ifdef NINFER_SANITIZED
    const std::string limit;
#else
    const std::string limit = "ulimit -v 1000000; ";
#endif
    const auto refused = [&](const std::string &args) {
        const fs::path err = tmp_dir() / "zeros.err";
        INFO(args);
        CHECK(shell(limit + "'" + NINFER_CONFORM_EXE + "' " + args + " >/dev/null 2>" + q(err)) == 2);
        const std::string e = slurp(err);
        INFO(e);
        CHECK(lines(e) == 1);
        CHECK_THAT(e, Catch::Contains("not JSON: expected '{' first"));
    };
    refused("report --html " + q(tmp_dir() / "z.html") + " " + q(zeros));
    refused("merge --out " + q(tmp_dir() / "z.json") + " " + q(zeros));
    refused(std::string(kRun) + "--baseline " + q(zeros));
    fs::remove(zeros);
    Out o = ninfer::harness::test::run_cli(tmp_dir(), "oracle", "");
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK_THAT(o.err, Catch::Contains("stdin: no request"));
    CHECK(shell("'" + std::string(NINFER_CONFORM_EXE) + "' oracle <" + q(tmp_dir()) + " 2>" + q(tmp_dir() / "dir.err")) == 2);
    CHECK_THAT(slurp(tmp_dir() / "dir.err"), Catch::Contains("stdin: a directory"));
}
