// SPDX-License-Identifier: Apache-2.0
// Interrupted runs leave nothing behind (issue 22, item 2; docs/cli.md "Signals"): SIGINT,
// SIGTERM or SIGHUP to `run` during a call that never returns ends the harness by that signal
// (a shell sees 130, 143, 129), with the plugin worker, the exec subject and every descendant
// (setsid, environment cleared) gone within a second, and no report, JUnit file or temporary file
// written. Before the fix the worker went on spinning under init.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "isolation_support.hpp"

extern char **environ;

namespace fs = std::filesystem;
using namespace ninfer::harness;

namespace {

using Clock = std::chrono::steady_clock;

fs::path scratch() {
    static const fs::path d = test::scratch("signals");
    return d;
}

/// `ninfer-conform ARGS...` started in the background, its stdout and stderr in `dir`.
pid_t start_cli(const fs::path &dir, const std::vector<std::string> &args) {
    std::vector<std::string> argv{NINFER_CONFORM_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char *> cargv;
    for (auto &a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, (dir / "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, (dir / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
    return pid;
}

/// The wait status of `pid`, or -1 when it has not ended within `limit` (then it is killed).
int wait_for(pid_t pid, std::chrono::seconds limit) {
    const auto until = Clock::now() + limit;
    int st = 0;
    while (Clock::now() < until) {
        if (::waitpid(pid, &st, WNOHANG) == pid) return st;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &st, 0);
    return -1;
}

std::string read_text(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// The processes whose environment carries a subject token of the harness `harness`.
std::vector<pid_t> subjects_of(pid_t harness) {
    const std::string prefix = "NINFER_CONFORM_SUBJECT=" + std::to_string(harness) + "-";
    std::vector<pid_t> found;
    for (const auto &e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string env = read_text(e.path() / "environ");
        std::size_t at = 0;
        while (at < env.size()) {
            const auto end = env.find('\0', at);
            if (env.compare(at, prefix.size(), prefix) == 0) {
                found.push_back(static_cast<pid_t>(std::stol(name)));
                break;
            }
            if (end == std::string::npos) break;
            at = end + 1;
        }
    }
    return found;
}

/// CPU seconds a process has used (utime + stime), or -1 when it is gone.
double cpu_seconds(pid_t pid) {
    const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream in(stat.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && in >> field; ++i)
        if (i == 14 || i == 15) ticks += std::stod(field);
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

/// Waits (at most `limit`) until `ready` holds, polling.
template <class F>
bool eventually_within(std::chrono::seconds limit, F &&ready) {
    const auto until = Clock::now() + limit;
    while (Clock::now() < until) {
        if (ready()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

/// Waits (at most a minute) until `ready` holds, polling.
template <class F>
bool eventually(F &&ready) {
    return eventually_within(std::chrono::seconds(60), ready);
}

/// Nothing written in `dir` but the command's own stdout and stderr.
std::vector<std::string> written_in(const fs::path &dir) {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto n = e.path().filename().string();
        if (n != "stdout" && n != "stderr" && n != "pids" && n.rfind("vectors", 0) != 0) names.push_back(n);
    }
    return names;
}

/// A copy of the vector set in which the bf16 decode case of words de00.. starts with dead, the
/// word on which fixture_hang spins, resealed (a custom set).
fs::path vectors_with_dead(const fs::path &dir) {
    const fs::path copy = dir / "vectors";
    fs::remove_all(copy);
    fs::create_directories(copy);
    fs::copy_file(fs::path(NINFER_SOURCE_DIR) / "vectors/data/scalar.decode.jsonl", copy / "scalar.decode.jsonl");
    std::string text = read_text(copy / "scalar.decode.jsonl");
    const auto at = text.find("\"id\":\"decode.bf16/domain_de00\"");
    REQUIRE(at != std::string::npos);
    const auto word = text.find("\"de00\"", at);
    REQUIRE(word != std::string::npos);
    text.replace(word, 6, "\"dead\"");
    std::ofstream(copy / "scalar.decode.jsonl", std::ios::binary | std::ios::trunc) << text;
    const std::string cmd = "cd '" + copy.string() + "' && sha256sum *.jsonl > MANIFEST.sha256";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return copy;
}

const char *signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP"; }

/// Sends `sig` to `harness`; it must end by that signal within 20 s, each of `children` be gone
/// and nothing but its stdout and stderr be written in `dir`.
void expect_ended_by(pid_t harness, int sig, const std::vector<pid_t> &children, const fs::path &dir) {
    REQUIRE(::kill(harness, sig) == 0);
    const int st = wait_for(harness, std::chrono::seconds(20));
    CHECK(st != -1);
    CHECK(WIFSIGNALED(st));
    CHECK(WTERMSIG(st) == sig);
    for (pid_t p : children) CHECK(test::process_gone(p));
    CHECK(written_in(dir).empty());
}

}  // namespace

TEST_CASE("a signal to run during a plugin call that never returns kills the worker and writes no report",
          "[signals][isolation]") {
    const fs::path dir = test::fresh_dir(scratch() / "plugin");
    const fs::path vectors = vectors_with_dead(dir);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        INFO(signal_name(sig));
        const fs::path report = dir / "report.json", junit = dir / "junit.xml";
        const pid_t harness = start_cli(
            dir, {"run", "--plugin", std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_hang.so", "--custom-vectors",
                  vectors.string(), "--suite", "scalar.decode", "--level", "full", "--timeout-ms", "600000", "--report",
                  report.string(), "--junit", junit.string()});
        // The worker spins once it has used half a second of CPU (every other case takes microseconds).
        std::vector<pid_t> workers;
        const bool spinning = eventually([&] {
            workers = subjects_of(harness);
            return !workers.empty() && cpu_seconds(workers.front()) > 0.5;
        });
        INFO(read_text(dir / "stderr"));
        REQUIRE(spinning);
        expect_ended_by(harness, sig, workers, dir);
        CHECK(subjects_of(harness).empty());
        CHECK(read_text(dir / "stderr").find(std::string("interrupted by ") + signal_name(sig)) != std::string::npos);
    }
}

TEST_CASE("a signal to run during an exec call that never returns kills the command and every descendant",
          "[signals][isolation]") {
    const fs::path dir = test::fresh_dir(scratch() / "exec");
    // The fixture writes the pids it sees: the host's only outside a PID namespace (the
    // namespace's own cases are the containment tests below).
    ::setenv("NINFER_CONFORM_CONTAINMENT", "process-tree", 1);
    struct Unset {
        ~Unset() { ::unsetenv("NINFER_CONFORM_CONTAINMENT"); }
    } unset;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        INFO(signal_name(sig));
        const fs::path report = dir / "report.json", pids = dir / "pids";
        fs::remove(pids);
        const std::string command = std::string("'") + NINFER_PYTHON + "' '" + NINFER_SOURCE_DIR +
                                    "/harness/tests/fixtures/spin_exec.py' '" + pids.string() + "'";
        const pid_t harness = start_cli(dir, {"run", "--exec", command, "--suite", "scalar.decode", "--timeout-ms",
                                              "600000", "--report", report.string()});
        REQUIRE(eventually([&] { return fs::exists(pids); }));
        std::istringstream in(read_text(pids));
        std::vector<pid_t> spinning;
        for (pid_t p; in >> p;) spinning.push_back(p);
        REQUIRE(spinning.size() == 3);  // the command and its two grandchildren
        expect_ended_by(harness, sig, spinning, dir);
    }
}

TEST_CASE("a signal to sweep in many jobs kills every job's worker", "[signals][jobs]") {
    const fs::path dir = test::fresh_dir(scratch() / "sweep");
    const fs::path report = dir / "report.json";
    // 16 jobs over all fp32 words: minutes of work, interrupted once every job's worker runs.
    const pid_t harness = start_cli(dir, {"sweep", "--plugin", "reference", "--conversion", "fp32_to_bf16_rne", "--jobs",
                                          "16", "--batch", "4096", "--report", report.string()});
    std::vector<pid_t> workers;
    REQUIRE(eventually([&] {
        workers = subjects_of(harness);
        return workers.size() >= 16;
    }));
    expect_ended_by(harness, SIGTERM, workers, dir);
}

TEST_CASE("a signal to fingerprint over all 2^32 inputs kills its subject and writes no JSON", "[signals][fingerprint]") {
    for (int sig : {SIGINT, SIGTERM}) {
        INFO(signal_name(sig));
        const fs::path dir = test::fresh_dir(scratch() / (std::string("fingerprint-") + signal_name(sig)));
        const fs::path json = dir / "fingerprint.json";
        // All 2^32 fp32 words on 16 counting threads: minutes of work, interrupted once the subject runs.
        const pid_t harness = start_cli(dir, {"fingerprint", "--plugin", "reference", "--conversion", "fp32_to_bf16_rne",
                                              "--domain", "all", "--jobs", "16", "--json", json.string()});
        std::vector<pid_t> workers;
        REQUIRE(eventually([&] {
            workers = subjects_of(harness);
            return !workers.empty();
        }));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // inside the batches, not at the start
        expect_ended_by(harness, sig, workers, dir);
    }
}

// ---- Containment (issue 33, harness/README.md "Containment") -----------------------------------

namespace {

/// One process of the table: parent and state letter.
struct Proc {
    pid_t parent = 0;
    char state = '?';
    std::string comm;
};

std::map<pid_t, Proc> process_table() {
    std::map<pid_t, Proc> table;
    for (const auto &e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string stat = read_text(e.path() / "stat");
        const auto open = stat.find('('), close = stat.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close + 4 >= stat.size()) continue;
        table[static_cast<pid_t>(std::stol(name))] = {static_cast<pid_t>(std::stol(stat.substr(close + 4))), stat[close + 2],
                                                      stat.substr(open + 1, close - open - 1)};
    }
    return table;
}

/// `root` and its descendants in `table`.
std::set<pid_t> tree_of(pid_t root, const std::map<pid_t, Proc> &table) {
    std::set<pid_t> tree{root};
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto &[pid, p] : table)
            if (tree.count(p.parent) && tree.insert(pid).second) grew = true;
    }
    return tree;
}

/// Zombies among the descendants of `root`.
std::size_t zombies_under(pid_t root) {
    const auto table = process_table();
    const auto tree = tree_of(root, table);
    std::size_t zombies = 0;
    for (pid_t pid : tree)
        if (auto it = table.find(pid); it != table.end() && it->second.state == 'Z') ++zombies;
    return zombies;
}

/// Live (not zombie) processes named `comm` (the escape_tree fixture names its processes).
std::size_t live_named(const std::string &comm) {
    std::size_t n = 0;
    for (const auto &[pid, p] : process_table()) n += p.comm == comm && p.state != 'Z';
    return n;
}

/// The pids cgroups a harness `harness` left in the cgroups of this process (it ran in them).
std::vector<std::string> cgroups_left(pid_t harness) {
    const std::string prefix = "ninfer-conform-" + std::to_string(harness) + "-";
    std::vector<std::string> left;
    std::istringstream mounts(read_text("/proc/self/mountinfo")), groups(read_text("/proc/self/cgroup"));
    std::vector<std::string> paths;
    for (std::string line; std::getline(groups, line);) paths.push_back(line.substr(line.find(':', line.find(':') + 1) + 1));
    for (std::string line; std::getline(mounts, line);) {
        if (line.find(" - cgroup") == std::string::npos) continue;
        std::istringstream f(line);
        std::string mount;
        for (int i = 0; i < 5; ++i) f >> mount;
        for (const auto &path : paths) {
            std::error_code ec;
            for (const auto &e : fs::directory_iterator(mount + path, ec))
                if (e.path().filename().string().rfind(prefix, 0) == 0) left.push_back(e.path().string());
        }
    }
    return left;
}

/// The environment the escape fixtures read, set for the harness started next (inherited).
struct EscapeEnv {
    EscapeEnv(const std::string &mode, const std::string &tag, const char *then, const std::string &containment) {
        ::setenv("NINFER_TEST_ESCAPE", (mode + " 30 " + tag).c_str(), 1);
        ::setenv("NINFER_TEST_ESCAPE_THEN", then, 1);
        ::setenv("NINFER_CONFORM_CONTAINMENT", containment.c_str(), 1);
    }
    ~EscapeEnv() {
        for (const char *v : {"NINFER_TEST_ESCAPE", "NINFER_TEST_ESCAPE_THEN", "NINFER_CONFORM_CONTAINMENT", "NINFER_TEST_ESCAPE_OUT",
                              "NINFER_TEST_ESCAPE_ANY"})
            ::unsetenv(v);
    }
};

/// Waits for `harness` to end (at most `limit`), sampling the zombies under it; the wait status
/// (-1: killed at the limit) and the most zombies seen at once.
std::pair<int, std::size_t> wait_sampling_zombies(pid_t harness, std::chrono::seconds limit) {
    std::size_t most = 0;
    const auto until = Clock::now() + limit;
    int st = 0;
    while (Clock::now() < until) {
        if (::waitpid(harness, &st, WNOHANG) == harness) return {st, most};
        most = std::max(most, zombies_under(harness));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(harness, SIGKILL);
    ::waitpid(harness, &st, 0);
    return {-1, most};
}

/// Nothing of the escape tree `tag` and no cgroup of `harness` left, within two seconds.
void expect_nothing_left(const std::string &tag, pid_t harness) {
    CHECK(eventually_within(std::chrono::seconds(2), [&] { return live_named(tag) == 0; }));
    const auto left = cgroups_left(harness);
    std::string listed;
    for (const auto &c : left) listed += c + " (processes: " + read_text(c + "/cgroup.procs") + ") ";
    INFO("cgroups left: " << listed);
    CHECK(left.empty());
}

/// Once the escape tree `tag` runs under `harness`: `sig` ends the harness within 10 s (a liveness bound,
/// generous on a loaded machine), with at most 64 zombies before it and nothing left after.
void expect_signal_ends_tree(pid_t harness, int sig, const std::string &tag, const fs::path &dir) {
    REQUIRE(eventually([&] { return live_named(tag) > 0; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(zombies_under(harness) <= 64);
    const auto sent = Clock::now();
    expect_ended_by(harness, sig, {}, dir);
    const double seconds = std::chrono::duration<double>(Clock::now() - sent).count();
    INFO("ended " << seconds << " s after the signal; " << read_text(dir / "stderr"));
    CHECK(seconds < 10);
    expect_nothing_left(tag, harness);
}

const char *const kModes[] = {"auto", "process-tree"};

/// The containment the report names for `mode` on this machine (root here: CI runs as root).
void expect_containment(const nlohmann::json &report, const std::string &mode) {
    const std::string c = report.at("subject").value("containment", "");
    if (mode == "process-tree") CHECK(c.rfind("process-tree", 0) == 0);
    else if (::geteuid() == 0) CHECK(c.rfind("pid-namespace", 0) == 0);
}

}  // namespace

// The case is found by its whole id: decode.fp16/domain_de00 (not declared by the fixture, so
// `unsupported`) also contains "domain_de00", and a substring match read its verdict instead.
TEST_CASE("a worker that leaves a hopper, a fork loop or a daemon and crashes: a crash verdict and nothing left",
          "[signals][containment][escape-crash]") {
    const fs::path dir = test::fresh_dir(scratch() / "escape-crash");
    const fs::path vectors = vectors_with_dead(dir);
    for (const std::string mode : kModes)
        for (const auto &[tree, jobs] : {std::pair{"hop", "1"}, {"forkloop", "1"}, {"daemon", "1"}, {"hop", "16"}}) {
            INFO(mode << " " << tree << " --jobs " << jobs);
            const std::string tag = std::string("nc-") + tree;
            const EscapeEnv env(tree, tag, "crash", mode);
            const fs::path report = dir / "report.json";
            fs::remove(report);
            const pid_t harness = start_cli(dir, {"run", "--plugin", std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_escape.so",
                                                  "--custom-vectors", vectors.string(), "--suite", "scalar.decode", "--level", "full",
                                                  "--jobs", jobs, "--report", report.string()});
            const auto [st, zombies] = wait_sampling_zombies(harness, std::chrono::seconds(120));
            INFO(read_text(dir / "stderr"));
            REQUIRE(st != -1);
            CHECK(WIFEXITED(st));
            CHECK(WEXITSTATUS(st) == 1);
            CHECK(zombies <= 64);
            const auto j = nlohmann::json::parse(read_text(report));
            expect_containment(j, mode);
            std::vector<std::string> verdicts;
            for (const auto &c : j.at("cases"))
                if (c.at("id") == "decode.bf16/domain_de00") verdicts.push_back(c.at("status"));
            CHECK(verdicts == std::vector<std::string>{"crash"});
            expect_nothing_left(tag, harness);
        }
}

TEST_CASE("a signal ends run within seconds whatever a plugin's or exec subject's descendants do, and leaves nothing",
          "[signals][containment]") {
    const fs::path dir = test::fresh_dir(scratch() / "escape-signal");
    const fs::path vectors = vectors_with_dead(dir);
    const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    int n = 0;
    for (const std::string mode : kModes)
        for (const auto &[tree, jobs, exec] : {std::tuple{"hop", "1", false}, {"daemon", "16", false}, {"hop", "1", true},
                                              {"hop", "16", true}}) {
            const int sig = signals[n++ % 3];
            INFO(mode << " " << tree << " --jobs " << jobs << (exec ? " exec " : " plugin ") << signal_name(sig));
            const std::string tag = std::string("ns-") + tree;
            const EscapeEnv env(tree, tag, "hang", mode);
            const fs::path report = dir / "report.json";
            std::vector<std::string> args{"run", "--suite", "scalar.decode", "--level", "full", "--jobs", jobs, "--timeout-ms", "600000",
                                          "--report", report.string()};
            if (exec) {
                args.insert(args.end(), {"--exec", std::string("'") + NINFER_ESCAPE_TREE + "' " + tree + " 30 " + tag + " exec hang"});
            } else {
                args.insert(args.end(), {"--plugin", std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_escape.so",
                                         "--custom-vectors", vectors.string()});
            }
            // The tree runs (and the worker hangs, ignoring SIGTERM) once a process of it is seen.
            expect_signal_ends_tree(start_cli(dir, args), sig, tag, dir);
        }
}

TEST_CASE("the option --max-processes bounds a fork loop where a pids cgroup exists; the report names the containment",
          "[signals][containment]") {
    const fs::path dir = test::fresh_dir(scratch() / "escape-bound");
    const fs::path vectors = vectors_with_dead(dir), out = dir / "forked", report = dir / "report.json";
    for (const std::string mode : kModes) {
        INFO(mode);
        fs::remove(out);
        const EscapeEnv env("forkloop", "nb-forkloop", "hang", mode);
        ::setenv("NINFER_TEST_ESCAPE_OUT", out.c_str(), 1);
        const pid_t harness = start_cli(dir, {"run", "--plugin", std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_escape.so",
                                              "--custom-vectors", vectors.string(), "--suite", "scalar.decode", "--level", "full",
                                              "--timeout-ms", "4000", "--max-processes", "32", "--report", report.string()});
        const int st = wait_for(harness, std::chrono::seconds(120));
        INFO(read_text(dir / "stderr"));
        REQUIRE(st != -1);
        REQUIRE(fs::exists(out));
        std::istringstream in(read_text(out));
        int made = -1, refused = -1;
        in >> made >> refused;
        const auto j = nlohmann::json::parse(read_text(report));
        expect_containment(j, mode);
        const std::string c = j.at("subject").value("containment", "");
        INFO(c << ": " << made << " forked, " << refused << " refused");
        if (c.find("pids-cgroup") != std::string::npos) {
            CHECK(made < 32);  // the worker and the fixture's own processes count too
            CHECK(refused > 0);
        } else {
            CHECK(made == 300);  // no bound without a cgroup: documented
        }
        expect_nothing_left("nb-forkloop", harness);
    }
}

// ---- fingerprint, merge and report (issue 33, item 2) -------------------------------------------

TEST_CASE("a signal ends fingerprint and sweep within seconds whatever their subject's descendants do, and leaves nothing",
          "[signals][containment][fingerprint]") {
    const fs::path dir = test::fresh_dir(scratch() / "escape-fingerprint");
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    int n = 0;
    for (const std::string mode : kModes)
        for (const auto &[command, tree, jobs, exec] :
             {std::tuple{"fingerprint", "hop", "1", false}, {"fingerprint", "daemon", "16", false}, {"fingerprint", "hop", "16", true},
              {"fingerprint", "forkloop", "1", true}, {"sweep", "hop", "16", true}, {"sweep", "daemon", "1", true}}) {
            const int sig = signals[n++ % 3];
            INFO(command << " " << mode << " " << tree << " --jobs " << jobs << (exec ? " exec " : " plugin ") << signal_name(sig));
            const std::string tag = std::string("nf-") + tree;
            const EscapeEnv env(tree, tag, "hang", mode);
            ::setenv("NINFER_TEST_ESCAPE_ANY", "1", 1);  // the plugin's first batch starts the tree and hangs
            const fs::path json = dir / "out.json";
            std::vector<std::string> args{command, "--jobs", jobs, "--timeout-ms", "600000"};
            if (std::string(command) == "sweep")  // each of 16 jobs' commands starts a tree
                args.insert(args.end(), {"--conversion", "fp32_to_bf16_rne", "--report", json.string()});
            else
                args.insert(args.end(), {"--op", "decode", "--format", "bf16", "--json", json.string()});
            if (exec)
                args.insert(args.end(), {"--exec", std::string("'") + NINFER_ESCAPE_TREE + "' " + tree + " 30 " + tag + " exec hang"});
            else
                args.insert(args.end(), {"--plugin", std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_escape.so"});
            expect_signal_ends_tree(start_cli(dir, args), sig, tag, dir);
            CHECK(read_text(dir / "stderr").find(std::string("interrupted by ") + signal_name(sig)) != std::string::npos);
        }
}

namespace {

/// Whether `pid` (a child not yet reaped) has used `seconds` of CPU while still running: the
/// point in its work, whatever the machine's load. False when it ended first.
bool busy_for(pid_t pid, double seconds) {
    bool reached = false;
    const bool settled = eventually([&] {
        const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos || stat[close + 2] == 'Z') return true;
        reached = cpu_seconds(pid) >= seconds;
        return reached;
    });
    return settled && reached;
}

/// The processes under `root` now (its descendants, `root` aside).
std::vector<pid_t> descendants_of(pid_t root) {
    auto tree = tree_of(root, process_table());
    tree.erase(root);
    return {tree.begin(), tree.end()};
}

/// `ninfer-conform ARGS` (its output in `out`) interrupted by `sig` once it has used `cpu`
/// seconds: ended by the signal within 10 s, with no process under it left and nothing written in `out`.
void interrupt_mid_work(const fs::path &out, const std::vector<std::string> &args, int sig, double cpu) {
    INFO(args.front() << " " << signal_name(sig) << " after " << cpu << " s of CPU");
    const pid_t harness = start_cli(out, args);
    const bool busy = busy_for(harness, cpu);
    INFO(read_text(out / "stderr"));
    REQUIRE(busy);  // still at work: the inputs are large enough
    const auto children = descendants_of(harness);
    const auto sent = Clock::now();
    expect_ended_by(harness, sig, children, out);
    const double seconds = std::chrono::duration<double>(Clock::now() - sent).count();
    INFO("ended " << seconds << " s after the signal");
    CHECK(seconds < 10);  // a liveness bound
    CHECK(read_text(out / "stderr").find(std::string("interrupted by ") + signal_name(sig)) != std::string::npos);
}

}  // namespace

TEST_CASE("a signal ends merge and report mid-work within seconds, with no output, no temporary and no process left",
          "[signals][merge][report]") {
    const fs::path in = test::fresh_dir(scratch() / "merge-report-in"), out = test::fresh_dir(scratch() / "merge-report-out");
    // The input: the whole quick run in one shard (6000 cases, 5 MiB), which merge checks case by
    // case against the cases it collects itself (about a second of CPU) and report renders 20 times.
    const fs::path shard = in / "shard.json";
    const pid_t run = start_cli(in, {"run", "--plugin", "reference", "--shard", "0/1", "--jobs", "2", "--report", shard.string()});
    const int st = wait_for(run, std::chrono::seconds(120));
    INFO(read_text(in / "stderr"));
    REQUIRE(st != -1);
    REQUIRE(WIFEXITED(st));
    REQUIRE(WEXITSTATUS(st) == 0);
    const std::string merged = (out / "merged.json").string(), html = (out / "page.html").string();
    for (const auto &[sig, cpu] : {std::pair{SIGINT, 0.2}, {SIGTERM, 0.4}, {SIGHUP, 0.6}})
        interrupt_mid_work(out, {"merge", "--out", merged, shard.string()}, sig, cpu);
    std::vector<std::string> report{"report", "--html", html};
    for (int k = 0; k < 20; ++k) report.push_back(shard.string());
    for (const auto &[sig, cpu] : {std::pair{SIGINT, 0.3}, {SIGTERM, 0.7}, {SIGHUP, 1.2}}) interrupt_mid_work(out, report, sig, cpu);
}

TEST_CASE("the pids cgroup a killed harness left is removed by the next run, a live harness's is kept", "[signals][cgroup]") {
    // Where this process's pids cgroups are (v1 pids hierarchy, or v2 with pids delegated): the
    // first such directory in which it may make one.
    std::string base;
    std::istringstream groups(read_text("/proc/self/cgroup")), mounts(read_text("/proc/self/mountinfo"));
    std::map<std::string, std::string> path_of;  // controllers -> path
    for (std::string line; std::getline(groups, line);) {
        const auto a = line.find(':'), b = line.find(':', a + 1);
        path_of[line.substr(a + 1, b - a - 1)] = line.substr(b + 1);
    }
    for (std::string line; std::getline(mounts, line) && base.empty();) {
        const auto dash = line.find(" - ");
        if (dash == std::string::npos) continue;
        std::istringstream head(line.substr(0, dash)), tail(line.substr(dash + 3));
        std::string f[5], type, source, options;
        for (auto &x : f) head >> x;
        tail >> type >> source >> options;
        const bool v1_pids = type == "cgroup" && ("," + options + ",").find(",pids,") != std::string::npos;
        const std::string path = v1_pids ? path_of["pids"] : type == "cgroup2" ? path_of[""] : "";
        if (!v1_pids && !(type == "cgroup2" && read_text(f[4] + path + "/cgroup.subtree_control").find("pids") != std::string::npos)) continue;
        base = f[4] + (path == "/" ? "" : path);
        if (::access(base.c_str(), W_OK) != 0) base.clear();
    }
    if (base.empty()) {
        WARN("skipped: no pids cgroup this process may write (not root, or no pids hierarchy)");
        return;
    }
    // A pid that is free now (a child reaped), and this test's own (alive, started before the directory).
    const pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    const fs::path stale = fs::path(base) / ("ninfer-conform-" + std::to_string(dead) + "-1");
    const fs::path live = fs::path(base) / ("ninfer-conform-" + std::to_string(::getpid()) + "-1");
    REQUIRE(::mkdir(stale.c_str(), 0755) == 0);
    REQUIRE(::mkdir(live.c_str(), 0755) == 0);
    const auto o = ninfer::harness::test::run_cli(ninfer::harness::test::scratch("stale-cgroup"),
                                                  "run --plugin reference --suite scalar.decode --level quick");
    CHECK(o.status == 0);
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    ::rmdir(live.c_str());
    ::rmdir(stale.c_str());
}
