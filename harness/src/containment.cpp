// SPDX-License-Identifier: Apache-2.0
// Containment of subjects by the kernel (containment.hpp; harness/README.md, "Containment").
#include "containment.hpp"

#include "ninfer/harness/subject.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace ninfer::harness::contain {

namespace {

using Clock = std::chrono::steady_clock;

std::string read_text(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

bool write_text(const std::string &path, const std::string &text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

bool has_word(const std::string &list, const std::string &word, char sep) {
    std::stringstream in(list);
    for (std::string w; std::getline(in, w, sep);)
        if (w == word || w == word + "\n") return true;
    return false;
}

/// Where this process may make pids cgroups: its own cgroup of the v2 hierarchy when that
/// enables the pids controller for its children (a delegated subtree), else its cgroup of a
/// writable v1 pids hierarchy; "" when neither.
struct Hierarchy {
    std::string base;
    bool v2 = false;
};

Hierarchy find_pids_hierarchy() {
    std::string v2_path, v1_path, v2_mount, v1_mount;
    std::stringstream groups(read_text("/proc/self/cgroup"));
    for (std::string line; std::getline(groups, line);) {
        const auto a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (line.compare(0, a, "0") == 0 && controllers.empty()) v2_path = path;
        else if (has_word(controllers, "pids", ',')) v1_path = path;
    }
    // mountinfo: "id parent major:minor root mountpoint options ... - fstype source superoptions".
    std::stringstream mounts(read_text("/proc/self/mountinfo"));
    for (std::string line; std::getline(mounts, line);) {
        const auto dash = line.find(" - ");
        if (dash == std::string::npos) continue;
        std::stringstream head(line.substr(0, dash)), tail(line.substr(dash + 3));
        std::string f[5], type, source, options;
        for (auto &x : f) head >> x;
        tail >> type >> source >> options;
        if (type == "cgroup2" && v2_mount.empty()) v2_mount = f[4];
        if (type == "cgroup" && has_word(options, "pids", ',') && v1_mount.empty()) v1_mount = f[4];
    }
    auto join = [](const std::string &mount, const std::string &path) { return path == "/" ? mount : mount + path; };
    if (!v2_mount.empty() && !v2_path.empty()) {
        const std::string base = join(v2_mount, v2_path);
        if (has_word(read_text(base + "/cgroup.subtree_control"), "pids", ' ') && ::access(base.c_str(), W_OK) == 0)
            return {base, true};
    }
    if (!v1_mount.empty() && !v1_path.empty()) {
        const std::string base = join(v1_mount, v1_path);
        if (::access((base + "/cgroup.procs").c_str(), W_OK) == 0) return {base, false};
    }
    return {};
}

/// Whether the harness process `pid` that named cgroup `dir` still runs: a process of that pid
/// that started before the directory was made (no other process can have held the pid then). A
/// pid that is free, or taken since by a later process, means that harness is gone.
bool harness_alive(long pid, const std::string &dir) {
    const std::string proc = "/proc/" + std::to_string(pid);
    // /proc/PID/stat field 22: the start in clock ticks since boot; /proc/stat's btime: the boot.
    const std::string stat = read_text(proc + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return false;  // no such process
    std::stringstream fields(stat.substr(close + 2));
    std::string f;
    for (int i = 3; i <= 22 && fields >> f; ++i) {}
    long btime = 0;
    std::stringstream boot(read_text("/proc/stat"));
    for (std::string key; boot >> key;)
        if (key == "btime") boot >> btime;
    struct stat d {};
    if (f.empty() || btime == 0 || ::stat(dir.c_str(), &d) != 0) return true;  // cannot tell: keep it
    const double started = static_cast<double>(btime) + std::stod(f) / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return started <= static_cast<double>(d.st_mtime) + 1;
}

/// Remove the cgroups `ninfer-conform-PID-N` under `base` whose harness is gone (killed by
/// SIGKILL, say, which runs no handler) and that hold no process: one harness's leftovers are
/// cleared by the next. A cgroup that still holds processes is left alone (they may be another
/// PID namespace's, which this process cannot see).
void remove_stale_cgroups(const std::string &base) {
    DIR *d = ::opendir(base.c_str());
    if (!d) return;
    std::vector<std::string> stale;
    while (const dirent *e = ::readdir(d)) {
        const std::string name = e->d_name, prefix = "ninfer-conform-";
        if (name.rfind(prefix, 0) != 0) continue;
        const auto dash = name.find('-', prefix.size());
        const std::string pid = name.substr(prefix.size(), dash == std::string::npos ? std::string::npos : dash - prefix.size());
        if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos || dash == std::string::npos ||
            name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
            continue;
        const std::string dir = base + "/" + name;
        if (std::stol(pid) != ::getpid() && !harness_alive(std::stol(pid), dir) && read_text(dir + "/cgroup.procs").empty())
            stale.push_back(dir);
    }
    ::closedir(d);
    for (const auto &dir : stale) ::rmdir(dir.c_str());
}

const Hierarchy &pids_hierarchy() {
    static const Hierarchy h = [] {
        Hierarchy found = find_pids_hierarchy();
        if (!found.base.empty()) remove_stale_cgroups(found.base);
        return found;
    }();
    return h;
}

/// Whether the kernel lets this process start a child in a new PID namespace (with a user
/// namespace when `user`): one trial child that exits at once.
bool can_clone(bool user) {
    const pid_t pid = clone_process(true, user);
    if (pid == 0) ::_exit(0);
    if (pid < 0) return false;
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/// SIGKILL each process of a v1 cgroup until a reading finds none not killed already (a killed
/// process forks no more; pids.max bounds what a round can miss).
void kill_procs_until_quiet(const std::string &dir) {
    std::set<long> killed;
    for (int round = 0; round < 200; ++round) {
        std::stringstream procs(read_text(dir + "/cgroup.procs"));
        std::size_t fresh = 0;
        for (long pid; procs >> pid;)
            if (pid > 0 && killed.insert(pid).second) {
                ++fresh;
                ::kill(static_cast<pid_t>(pid), SIGKILL);
            }
        if (fresh == 0) return;
    }
}

void kill_cgroup(const std::string &dir, bool v2) {
    if (dir.empty()) return;
    // cgroup.kill (Linux 5.14) kills every process at once, new forks included.
    if (!(v2 && write_text(dir + "/cgroup.kill", "1"))) kill_procs_until_quiet(dir);
}

void remove_cgroup(const std::string &dir) {
    if (dir.empty()) return;
    // A killed cgroup empties once its processes have exited: moments.
    const auto until = Clock::now() + std::chrono::seconds(2);
    while (::rmdir(dir.c_str()) != 0 && errno == EBUSY && Clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

bool parse_mode(const std::string &text, Mode &mode) {
    if (text == "auto") mode = Mode::automatic;
    else if (text == "pid-namespace") mode = Mode::pid_namespace;
    else if (text == "process-tree") mode = Mode::process_tree;
    else return false;
    return true;
}

Mode mode_from_environment(Mode fallback) {
    const char *v = std::getenv("NINFER_CONFORM_CONTAINMENT");
    if (!v || !*v) return fallback;
    Mode m = fallback;
    if (!parse_mode(v, m)) {
        std::fprintf(stderr, "ninfer-conform: NINFER_CONFORM_CONTAINMENT=%s is not auto, pid-namespace or process-tree; "
                             "ignored\n", v);
        return fallback;
    }
    return m;
}

Mode mode_of(const std::string &option) {
    Mode m = Mode::automatic;
    if (option.empty()) return mode_from_environment(m);
    parse_mode(option, m);
    return m;
}

std::string describe(const Effective &e) {
    std::string s = e.pid_namespace ? "pid-namespace" : "process-tree";
    if (e.pids_cgroup) s += "+pids-cgroup";
    return s;
}

Effective effective(Mode mode, std::string *why) {
    static std::mutex m;
    static std::map<Mode, std::pair<Effective, std::string>> cache;
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(mode);
    if (it == cache.end()) {
        Effective e;
        std::string reason;
        if (mode != Mode::process_tree) {
            // Root makes PID namespaces outright; anyone else through an unprivileged user namespace.
            const bool root = ::geteuid() == 0;
            e.pid_namespace = can_clone(!root);
            e.user_namespace = e.pid_namespace && !root;
            if (!e.pid_namespace)
                reason = root ? "the kernel refused a PID namespace" : "unprivileged user namespaces are disabled";
            e.pids_cgroup = !pids_hierarchy().base.empty();
        }
        it = cache.emplace(mode, std::pair{e, reason}).first;
    }
    if (why) *why = it->second.second;
    return it->second.first;
}

bool Cgroup::create(std::uint32_t max_processes) {
    remove();
    const auto &h = pids_hierarchy();
    if (h.base.empty()) return false;
    static std::atomic<unsigned> serial{0};
    const std::string dir = h.base + "/ninfer-conform-" + std::to_string(::getpid()) + "-" + std::to_string(++serial);
    if (::mkdir(dir.c_str(), 0755) != 0) return false;
    if (!write_text(dir + "/pids.max", std::to_string(max_processes))) {
        ::rmdir(dir.c_str());
        return false;
    }
    dir_ = dir;
    procs_ = dir + "/cgroup.procs";
    v2_ = h.v2;
    return true;
}

void Cgroup::kill() const { kill_cgroup(dir_, v2_); }

void Cgroup::remove() {
    if (dir_.empty()) return;
    kill();
    remove_cgroup(dir_);
    dir_.clear();
    procs_.clear();
}

void kill_cgroup_dir(const std::string &dir) { kill_cgroup(dir, pids_hierarchy().v2); }

void kill_and_remove_cgroup(const std::string &dir) {
    kill_cgroup_dir(dir);
    remove_cgroup(dir);
}

pid_t clone_process(bool new_pid_ns, bool new_user_ns) {
    const std::uint64_t flags = (new_pid_ns ? CLONE_NEWPID : 0) | (new_user_ns ? CLONE_NEWUSER : 0);
#ifdef SYS_clone3
    // struct clone_args, version 0 (linux/sched.h, whose macros clash with <sched.h>).
    struct {
        std::uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
    } args = {flags, 0, 0, 0, SIGCHLD, 0, 0, 0};
    const long r = ::syscall(SYS_clone3, &args, sizeof args);
    if (r >= 0 || errno != ENOSYS) return static_cast<pid_t>(r);
#endif
    // clone(flags, stack = 0, ...): a fork into the same stack, copied on write.
    return static_cast<pid_t>(::syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0));
}

RunDelays run_delays(pid_t pid) {
    RunDelays out;
    const std::string dir = "/proc/" + std::to_string(pid) + "/task";
    DIR *d = ::opendir(dir.c_str());
    if (!d) return out;
    while (const dirent *e = ::readdir(d)) {
        char *end = nullptr;
        const long tid = std::strtol(e->d_name, &end, 10);
        if (tid <= 0 || *end != '\0') continue;
        // "run time, run delay, timeslices", in nanoseconds: one short read per call of a subject.
        char line[128];
        const int fd = ::openat(::dirfd(d), (std::string(e->d_name) + "/schedstat").c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        const ssize_t got = ::read(fd, line, sizeof line - 1);
        ::close(fd);
        if (got <= 0) continue;
        line[got] = '\0';
        char *after_ran = nullptr, *after_waited = nullptr;
        std::strtoull(line, &after_ran, 10);
        const std::uint64_t waited = std::strtoull(after_ran, &after_waited, 10);
        if (after_ran != line && after_waited != after_ran) out[static_cast<pid_t>(tid)] = waited;
    }
    ::closedir(d);
    return out;
}

std::chrono::nanoseconds waited_since(const RunDelays &before, const RunDelays &now) {
    std::uint64_t most = 0;
    for (const auto &[tid, waited] : now) {
        const auto b = before.find(tid);
        const std::uint64_t since = b == before.end() ? waited : waited - std::min(waited, b->second);
        most = std::max(most, since);
    }
    return std::chrono::nanoseconds(static_cast<std::int64_t>(most));
}

pid_t only_child_of(pid_t parent) {
    auto parent_of = [](long pid) -> long {
        const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos || close + 4 >= stat.size()) return -1;
        return std::strtol(stat.c_str() + close + 4, nullptr, 10);
    };
    // Usually the next pid the kernel handed out; else the whole table.
    for (long p = parent + 1; p < parent + 64; ++p)
        if (parent_of(p) == parent) return static_cast<pid_t>(p);
    DIR *d = ::opendir("/proc");
    if (!d) return -1;
    pid_t found = -1;
    while (const dirent *e = ::readdir(d)) {
        char *end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid > 0 && *end == '\0' && parent_of(pid) == parent) {
            found = static_cast<pid_t>(pid);
            break;
        }
    }
    ::closedir(d);
    return found;
}

}  // namespace ninfer::harness::contain

namespace ninfer::harness {

std::string containment_of(const SubjectOptions &opts) { return contain::describe(contain::effective(contain::mode_of(opts.containment))); }

}  // namespace ninfer::harness
