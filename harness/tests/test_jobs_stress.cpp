// SPDX-License-Identifier: Apache-2.0
// Verdicts that hold on big machines (issue 22, item 1; harness/README.md "Jobs"): `sweep` and
// `run` with --jobs 16 and 64 on our 2 cores (oversubscribed), repeated, give the report of
// --jobs 1, and a crash injected in one job is that job's result only. Before the fix, a job that
// ended killed every child of the harness missing from an unlocked set of live subjects, another
// job's starting worker among them: the correct reference failed at random.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/subject.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ninfer;
using namespace ninfer::harness;

namespace {

fs::path scratch() {
    static const fs::path d = test::scratch("jobs");
    return d;
}

/// The report of a CLI command (exit status 0 or 1 expected); `status` gets the exit status.
json report_of(const std::string &name, const std::string &args, int &status) {
    const fs::path report = scratch() / (name + ".json");
    fs::remove(report);
    const auto o = test::run_cli(scratch(), args + " --report '" + report.string() + "'");
    INFO(args << "\n" << o.out << o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    status = o.status;
    return json::parse(test::slurp(report));
}

/// A report without what may differ between equal runs: timestamps and timings.
json without_timings(json r) {
    for (const char *k : {"started_at", "finished_at", "duration_s"}) r.erase(k);
    for (auto &c : r["cases"]) c.erase("seconds");
    return r;
}

/// A generous call limit: on an oversubscribed machine a slow start must not become a timeout.
constexpr int kCallLimitMs = 120000;

std::unique_ptr<Subject> open_fixture(const std::string &name) {
    SubjectOptions so;
    so.worker_executable = NINFER_CONFORM_EXE;
    so.call_timeout = std::chrono::milliseconds(kCallLimitMs);
    return open_plugin(std::string(NINFER_TEST_PLUGIN_DIR) + "/" + name + ".so", so);
}

}  // namespace

TEST_CASE("sweep --jobs 16 and 64 on two cores: the correct reference passes every time, with the report of --jobs 1",
          "[jobs][stress]") {
    const std::string args = "sweep --plugin reference --conversion bf16_to_fp32 --batch 256 --timeout-ms " +
                             std::to_string(kCallLimitMs);
    int status = -1;
    const json one = without_timings(report_of("sweep1", args + " --jobs 1", status));
    REQUIRE(status == 0);
    REQUIRE(one["cases"][0]["mismatches"] == 0);
    for (const char *jobs : {"16", "64"})
        for (int round = 0; round < 3; ++round) {
            INFO("--jobs " << jobs << ", round " << round);
            const json many = without_timings(report_of(std::string("sweep") + jobs, args + " --jobs " + jobs, status));
            CHECK(status == 0);
            CHECK(many["cases"][0]["status"] == "pass");
            CHECK(many == one);
        }
}

TEST_CASE("a crash in one of 16 or 64 sweep jobs is that batch's result, as in one job", "[jobs][stress]") {
    // bf16 words de00..dfff one per call: the call of dead crashes the fixture's worker.
    SweepOptions o;
    o.op = NINFER_OP_decode;
    o.format = NINFER_FORMAT_bf16;
    o.start = 0xDE00;
    o.count = 512;
    o.batch = 1;
    o.max_mismatches = 4;
    auto s = open_fixture("fixture_crash");
    const auto id = identity_of(*s, "plugin", "crash");
    const auto one = run_sweep(*s, o, id).report.cases.at(0);
    REQUIRE(one.status == reports::Status::crash);
    REQUIRE(one.mismatches == 1);
    for (unsigned jobs : {16u, 64u})
        for (int round = 0; round < 2; ++round) {
            INFO("jobs " << jobs << ", round " << round);
            o.jobs = jobs;
            const auto many = run_sweep(*s, o, id, [] { return open_fixture("fixture_crash"); }).report.cases.at(0);
            CHECK(many.status == one.status);
            CHECK(many.mismatches == one.mismatches);
            CHECK(many.message == one.message);
        }
}

TEST_CASE("run --jobs 16 and 64 give the report of --jobs 1", "[jobs][stress]") {
    const std::string args = "run --plugin reference --suite scalar.decode --suite scalar.convert --suite layout.registry "
                             "--timeout-ms " + std::to_string(kCallLimitMs);
    int status = -1;
    const json one = without_timings(report_of("run1", args + " --jobs 1", status));
    REQUIRE(status == 0);
    REQUIRE(one["totals"]["cases"].get<int>() > 100);
    for (const char *jobs : {"16", "64"})
        for (int round = 0; round < 2; ++round) {
            INFO("--jobs " << jobs << ", round " << round);
            const json many = without_timings(report_of(std::string("run") + jobs, args + " --jobs " + jobs, status));
            CHECK(status == 0);
            CHECK(many == one);
        }
    CHECK(test::run_cli(scratch(), "run --plugin reference --jobs 0").status == 2);
    CHECK(test::run_cli(scratch(), "run --plugin reference --jobs 257").status == 2);
}

TEST_CASE("a crash in one of 16 or 64 run jobs is that case's result, as in one job", "[jobs][stress]") {
    RunOptions opts;
    opts.suites = {"scalar.decode"};
    opts.level = suites::Level::full;  // every bf16 word, in 256 cases
    CaseSet all = collect_cases(opts);
    // The fixture's bf16 decode cases, one of them starting with the word that crashes it.
    CaseSet set;
    for (auto &sc : all.cases)
        if (sc.c.op == NINFER_OP_decode && sc.c.format == NINFER_FORMAT_bf16) set.cases.push_back(sc);
    REQUIRE(set.cases.size() > 64);
    auto &victim = set.cases[set.cases.size() / 3].c;
    REQUIRE(victim.inputs.at(0).bytes.size() >= 2);
    victim.inputs[0].bytes[0] = 0xAD;
    victim.inputs[0].bytes[1] = 0xDE;
    auto s = open_fixture("fixture_crash");
    const auto id = identity_of(*s, "plugin", "crash");
    auto one = run_cases(*s, set, opts, id);
    std::size_t crashes = 0;
    for (const auto &c : one.cases) crashes += c.status == reports::Status::crash;
    REQUIRE(crashes == 1);
    const json expected = without_timings(reports::to_json(one));
    for (unsigned jobs : {16u, 64u})
        for (int round = 0; round < 2; ++round) {
            INFO("jobs " << jobs << ", round " << round);
            opts.jobs = jobs;
            auto many = run_cases(*s, set, opts, id, [] { return open_fixture("fixture_crash"); });
            CHECK(without_timings(reports::to_json(many)) == expected);
        }
}

TEST_CASE("fingerprint --jobs 16 and 64 give the output and the JSON of --jobs 1", "[jobs][stress][fingerprint]") {
    // A mutant, so that the residue counts by class are part of what must not move.
    const std::string args = "fingerprint --plugin mutant_bf16_truncation --conversion fp32_to_bf16_rne --domain sparse";
    const auto fingerprint = [&](const std::string &jobs, std::string &out) {
        const fs::path file = scratch() / "fingerprint.json";  // one path: stdout names it
        fs::remove(file);
        const auto o = test::run_cli(scratch(), args + " --jobs " + jobs + " --json '" + file.string() + "'");
        INFO(o.out << o.err);
        REQUIRE(o.status == 0);
        out = o.out;
        return without_timings(json::parse(test::slurp(file)));
    };
    std::string one_out;
    const json one = fingerprint("1", one_out);
    REQUIRE(one["fingerprints"].size() == 1);
    REQUIRE(one["fingerprints"][0]["named"] == "fp32_to_bf16_rtz");  // truncation is round toward zero
    for (const char *jobs : {"16", "64"}) {
        INFO("--jobs " << jobs);
        std::string out;
        CHECK(fingerprint(jobs, out) == one);
        CHECK(out == one_out);
    }
}

// ---- Verdicts independent of load (issue 32, item 6; harness/README.md "Restarts, deadlines") ----

namespace {

/// Processes that spin (deliberate oversubscription) until destroyed, or `seconds` at most so
/// that a failing test cannot leave them behind for long.
class Spinners {
public:
    Spinners(long count, int seconds) {
        for (long i = 0; i < count; ++i) {
            const pid_t p = ::fork();
            if (p == 0) {
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
                while (std::chrono::steady_clock::now() < until) {}
                ::_exit(0);
            }
            if (p > 0) pids_.push_back(p);
        }
    }
    Spinners(const Spinners &) = delete;
    Spinners &operator=(const Spinners &) = delete;
    ~Spinners() {
        for (pid_t p : pids_) ::kill(p, SIGKILL);
        for (pid_t p : pids_) ::waitpid(p, nullptr, 0);
    }

private:
    std::vector<pid_t> pids_;
};

/// `run` of the reference on `suite` at `level` with a call limit of `limit_ms`, in one job on
/// the machine as it is, then in `jobs` jobs beside 4 busy processes per core: the same report.
void expect_load_independent(const std::string &suite, const std::string &level, int limit_ms, const char *jobs) {
    const std::string args = "run --plugin reference --suite " + suite + " --level " + level + " --timeout-ms " +
                             std::to_string(limit_ms);
    int status = -1;
    const json one = without_timings(report_of("load1", args + " --jobs 1", status));
    REQUIRE(status == 0);
    const long cores = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
    json many;
    {
        const Spinners busy(4 * cores, 600);
        many = without_timings(report_of("loaded", args + " --jobs " + jobs, status));
    }
    CHECK(status == 0);
    CHECK(many["totals"] == one["totals"]);
    CHECK(many == one);
}

}  // namespace

TEST_CASE("4 busy processes per core and --jobs 64: the reference's linear cases keep the --jobs 1 report under a 1 s limit",
          "[jobs][load]") {
    // A short call limit makes the load bite: without the CPU-wait credit, calls that take
    // tenths of a second on an idle core exceed 1 s of wall time here and end as `timeout`.
    expect_load_independent("linear.direct", "quick", 1000, "64");
}

TEST_CASE("4 busy processes per core and --jobs 64: the heaviest linear cases at level full keep the --jobs 1 report",
          "[jobs][load][.][long]") {  // hidden: CTest runs it with the label long (harness/cli.cmake)
    // random_12_512x8192x1 and the other realistic shapes under the default 10 s limit (issue 32:
    // 2 of 5 such runs failed before).
    expect_load_independent("linear.direct", "full", 10000, "64");
}
