// SPDX-License-Identifier: Apache-2.0
// Subject isolation plumbing (harness/README.md, "Isolation"): frames, registry names, and a
// child process driven with deadlines.
#include "wire.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

extern char **environ;

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"

namespace ninfer::harness::wire {

static_assert(std::endian::native == std::endian::little, "the frames and iota assume a little-endian host");

bool known_status(std::int32_t status) { return !abi::status_name(status).empty(); }

template <class Word>
static void fill_iota_as(std::uint8_t *dst, std::uint64_t start, std::uint64_t count) {
    auto w = static_cast<Word>(start);
    for (std::uint64_t i = 0; i < count; ++i, ++w) std::memcpy(dst + i * sizeof(Word), &w, sizeof(Word));
}

void fill_iota(std::uint8_t *dst, std::uint64_t start, int width, std::uint64_t count) {
    switch (width) {
    case 1: fill_iota_as<std::uint8_t>(dst, start, count); break;
    case 2: fill_iota_as<std::uint16_t>(dst, start, count); break;
    case 4: fill_iota_as<std::uint32_t>(dst, start, count); break;
    case 8: fill_iota_as<std::uint64_t>(dst, start, count); break;
    default: break;
    }
}

std::string check_iota(std::uint64_t start, int width, std::uint64_t count) {
    if (width != 1 && width != 2 && width != 4 && width != 8)
        return "iota width " + std::to_string(width) + ", expected 1, 2, 4 or 8";
    if (width == 8) {
        if (count > 0 && count - 1 > ~0ull - start) return "iota words pass 2^64";
        return "";
    }
    const std::uint64_t words = 1ull << (8 * width);
    if (start >= words || count > words - start)
        return "iota words " + std::to_string(start) + " + " + std::to_string(count) + " pass 2^" +
               std::to_string(8 * width);
    return "";
}

// ---- Registry names --------------------------------------------------------------------------

template <class Table>
static std::string_view name_in(const Table &table, std::uint32_t id) {
    const auto *e = abi::find_id(table, id);
    return e ? e->name : std::string_view{};
}

template <class Table>
static std::optional<std::uint32_t> id_in(const Table &table, std::string_view name) {
    const auto *e = abi::find_name(table, name);
    if (!e) return std::nullopt;
    return e->id;
}

std::string_view op_name(std::uint32_t id) { return name_in(abi::kOps, id); }
std::optional<std::uint32_t> op_id(std::string_view name) { return id_in(abi::kOps, name); }
std::string_view layout_name(std::uint32_t id) { return name_in(abi::kLayouts, id); }
std::optional<std::uint32_t> layout_id(std::string_view name) { return id_in(abi::kLayouts, name); }

std::string_view format_name(std::uint32_t id) { return name_in(abi::kAllFormats, id); }
std::optional<std::uint32_t> format_id(std::string_view name) { return id_in(abi::kAllFormats, name); }

std::string check_planes(const PlaneHeader *inputs, std::uint32_t input_count, const PlaneHeader *outputs,
                         std::uint32_t output_count) {
    if (input_count > kMaxPlanes || output_count > kMaxPlanes)
        return fmt::format("{} input and {} output planes; at most {} each", input_count, output_count, kMaxPlanes);
    auto check = [](const PlaneHeader *p, std::uint32_t n, const char *what) -> std::string {
        for (std::uint32_t i = 0; i < n; ++i) {
            if (abi::plane_name(p[i].name).empty())
                return fmt::format("{} plane {} has name {}, not a registered plane", what, i, p[i].name);
            for (std::uint32_t j = 0; j < i; ++j)
                if (p[j].name == p[i].name)
                    return fmt::format("{} plane {} repeats the name {}", what, i, abi::plane_name(p[i].name));
        }
        return "";
    };
    if (auto why = check(inputs, input_count, "input"); !why.empty()) return why;
    if (auto why = check(outputs, output_count, "output"); !why.empty()) return why;
    std::uint64_t total = 0;
    for (std::uint32_t i = 0; i < input_count; ++i) {
        if (inputs[i].bytes > ~0ull - total) return "input plane sizes overflow uint64";
        total += inputs[i].bytes;
    }
    return "";
}

std::string check_capability(const ninfer_capability_v2 &cap) {
    if (op_name(cap.op).empty()) return "op " + std::to_string(cap.op) + " is not a registered op";
    if (cap.format != 0 && format_name(cap.format).empty())
        return "format " + std::to_string(cap.format) + " is not a registered format";
    if (cap.format_in != 0 && format_name(cap.format_in).empty())
        return "format_in " + std::to_string(cap.format_in) + " is not a registered format";
    if (cap.layout != 0 && layout_name(cap.layout).empty())
        return "layout " + std::to_string(cap.layout) + " is not a registered layout";
    if (cap.method != 0) {
        if (method_kind(cap.op).empty())
            return "method " + std::to_string(cap.method) + " given for op " + std::string(op_name(cap.op)) +
                   ", which takes none";
        if (method_name(cap.op, cap.method).empty())
            return "method " + std::to_string(cap.method) + " is not a registered " +
                   std::string(method_kind(cap.op)) + " (op " + std::string(op_name(cap.op)) + ")";
    }
    // NINFER_SR_SELF_DRAWN: the convert capability of an sr conversion whose subject draws its own bits
    const auto *conv = cap.op == NINFER_OP_convert ? abi::find_id(abi::kConversions, cap.method) : nullptr;
    const bool self_drawn = conv && abi::is_stochastic(*conv) && cap.profile == NINFER_SR_SELF_DRAWN;
    if (cap.profile != 0 && cap.op != NINFER_OP_linear && !self_drawn)
        return "profile " + std::to_string(cap.profile) + " given for op " + std::string(op_name(cap.op)) +
               ", which is not an operator";
    return "";
}

// ---- Blocking I/O ----------------------------------------------------------------------------

bool read_full(int fd, void *buf, std::size_t n) {
    auto *p = static_cast<char *>(buf);
    while (n > 0) {
        ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

bool write_full(int fd, const void *buf, std::size_t n) {
    const auto *p = static_cast<const char *>(buf);
    while (n > 0) {
        ssize_t r = ::write(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

// ---- Child -----------------------------------------------------------------------------------

std::string describe_wait_status(int status, bool killed_by_us) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(sig);
        std::string s = "killed by " + (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig));
        if (sig == SIGKILL && !killed_by_us) s += " (memory limit?)";
        return s;
    }
    return "ended with wait status " + std::to_string(status);
}

static void close_fd(int &fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

static void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

/// Makes this process the subreaper of its descendants (once): a subject's process whose parent
/// dies (a double fork, a setsid daemon) becomes our child, so that it can be found, killed
/// and reaped instead of passing to init.
static void become_subreaper() {
    static const bool done = [] {
        ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        // Each subject holds five descriptors here (three pipes, the init's status pipe, a batch memfd): many
        // jobs need more than the usual soft limit of 1024 (best effort).
        struct rlimit files = {};
        if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
            files.rlim_cur = files.rlim_max;
            ::setrlimit(RLIMIT_NOFILE, &files);
        }
        return true;
    }();
    (void)done;
}

/// The subjects' processes this process started and has not reaped, with their tokens, under one
/// lock: jobs start and kill subjects from many threads at once. Any other child of ours is a
/// subject's descendant adopted as the subreaper (its parent died): one that cleared its
/// environment has no token, and this is how it is still found.
struct LiveSubjects {
    std::mutex m;
    std::map<pid_t, std::string> token_of;  ///< pid (the init) -> "NINFER_CONFORM_SUBJECT=..."
    std::set<pid_t> in_namespace;           ///< inits of PID namespaces: killing one kills all under it
    /// Every pids cgroup made and not yet removed, made under the lock: an interrupt (which holds
    /// the lock for good) removes each one made before it, and none is made after.
    std::set<std::string> cgroups;
};

static LiveSubjects &live_subjects() {
    static LiveSubjects live;
    return live;
}

/// Once reaped, a subject's pid may be reused by anything: it leaves the set.
static void forget_subject(pid_t pid) {
    auto &live = live_subjects();
    std::lock_guard<std::mutex> lock(live.m);
    live.token_of.erase(pid);
    live.in_namespace.erase(pid);
}

/// Removes a subject's pids cgroup, then forgets it (until then an interrupt removes it too).
static void drop_cgroup(contain::Cgroup &cgroup) {
    const std::string dir = cgroup.dir();
    cgroup.remove();
    if (dir.empty()) return;
    auto &live = live_subjects();
    std::lock_guard<std::mutex> lock(live.m);
    live.cgroups.erase(dir);
}

namespace {

/// The fds a child's init works with, numbered for the subject before it is started.
enum : int { kInitExecReport = 4, kInitStatus = 5 };

/// In the init after clone (async-signal-safe calls only: the harness is multi-threaded):
/// start the subject, reap every process that ends under it, and report the subject's wait
/// status on kInitStatus; in its own PID namespace the kernel kills the rest when it exits.
[[noreturn]] void run_init(char *const *args, char *const *envp, std::uint64_t memory_limit, bool subreaper) {
    // PID 1 of a namespace gets the orphans of its tree anyway (and ignores the subject's signals).
    if (subreaper) ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    const pid_t subject = contain::clone_process(false, false);
    if (subject == 0) {
        ::close(kInitStatus);
        struct rlimit core = {0, 0};
        ::setrlimit(RLIMIT_CORE, &core);
        if (memory_limit > 0) {
            struct rlimit as = {memory_limit, memory_limit};
            ::setrlimit(RLIMIT_AS, &as);
        }
        ::execve(args[0], args, envp);
        int e = errno;
        [[maybe_unused]] auto w = ::write(kInitExecReport, &e, sizeof e);
        ::_exit(127);
    }
    if (subject < 0) {
        int e = errno;
        [[maybe_unused]] auto w = ::write(kInitExecReport, &e, sizeof e);
        ::_exit(127);
    }
    for (int fd = 0; fd <= kInitExecReport; ++fd) ::close(fd);
    for (;;) {
        int st = 0;
        const pid_t w = ::waitpid(-1, &st, 0);
        if (w == subject) {
            [[maybe_unused]] auto n = ::write(kInitStatus, &st, sizeof st);
            // PID 1 ends its namespace; a subreaper stays to catch and reap the orphans its
            // tree leaves until the harness has killed them (then it has no child left).
            if (!subreaper) ::_exit(0);
        }
        if (w < 0 && errno == ECHILD) ::_exit(0);
    }
}

/// In the init: fds 0-2 the pipes, 3 the shared memory (or closed), kInitExecReport and
/// kInitStatus, and nothing else of the harness's (other jobs' pipes and memory).
void arrange_init_fds(const int (&want)[6]) {
    int moved[6];
    for (int i = 0; i < 6; ++i) moved[i] = want[i] >= 0 ? ::fcntl(want[i], F_DUPFD, 16) : -1;
    for (int i = 0; i < 6; ++i) {
        if (moved[i] >= 0) ::dup2(moved[i], i);
        else ::close(i);
    }
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, 6u, ~0u, 0u) != 0)
#endif
        for (int fd = 6; fd < 65536; ++fd) ::close(fd);
    ::fcntl(kInitExecReport, F_SETFD, FD_CLOEXEC);
}

}  // namespace

bool Child::spawn(const std::vector<std::string> &argv, std::uint64_t memory_limit, std::string &why, int shared_fd,
                  Containment containment) {
    kill();
    tail_.clear();
    become_subreaper();
    std::string refused;
    effective_ = contain::effective(containment.mode, &refused);
    if (containment.mode == contain::Mode::pid_namespace && !effective_.pid_namespace) {
        why = "containment pid-namespace is not available here: " + refused;
        return false;
    }
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    // Every descendant inherits the token unless it clears its environment.
    static std::atomic<unsigned> serial{0};
    token_ = "NINFER_CONFORM_SUBJECT=" + std::to_string(::getpid()) + "-" + std::to_string(++serial);
    std::vector<char *> envp;
    for (char **e = environ; e && *e; ++e)
        if (std::strncmp(*e, "NINFER_CONFORM_SUBJECT=", 23) != 0) envp.push_back(*e);
    envp.push_back(token_.data());
    std::string shm_env = std::string(kShmEnv) + "=" + std::to_string(kShmFd);
    if (shared_fd >= 0) envp.push_back(shm_env.data());
    envp.push_back(nullptr);

    int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1}, pexec[2] = {-1, -1}, pstat[2] = {-1, -1};
    auto close_all = [&] {
        for (int fd : {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1], pexec[0], pexec[1], pstat[0], pstat[1]})
            if (fd >= 0) ::close(fd);
    };
    if (::pipe2(pin, O_CLOEXEC) != 0 || ::pipe2(pout, O_CLOEXEC) != 0 || ::pipe2(perr, O_CLOEXEC) != 0 ||
        ::pipe2(pexec, O_CLOEXEC) != 0 || ::pipe2(pstat, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        close_all();
        return false;
    }
    // Registered under the lock before any other job can scan for orphans: a subject that is
    // still starting is never mistaken for a stray descendant of another job's subject.
    auto &live = live_subjects();
    std::unique_lock<std::mutex> registering(live.m);
    // Made under the lock too: a cgroup made while an interrupt ran would outlive the harness.
    if (effective_.pids_cgroup) effective_.pids_cgroup = cgroup_.create(containment.max_processes);
    if (cgroup_.active()) live.cgroups.insert(cgroup_.dir());
    const char *cgroup_procs = effective_.pids_cgroup ? cgroup_.procs_path() : nullptr;
    pid_t pid = contain::clone_process(effective_.pid_namespace, effective_.user_namespace);
    if (pid > 0) {
        live.token_of.emplace(pid, token_);
        if (effective_.pid_namespace) live.in_namespace.insert(pid);
    }
    if (pid != 0) registering.unlock();  // the child never returns from its branch: exec or _exit
    if (pid < 0) {
        why = std::string("fork: ") + std::strerror(errno);
        close_all();
        drop_cgroup(cgroup_);
        return false;
    }
    if (pid == 0) {
        // Only async-signal-safe calls between clone and exec.
        ::setpgid(0, 0);
        if (cgroup_procs) {
            const int fd = ::open(cgroup_procs, O_WRONLY | O_CLOEXEC);
            if (fd < 0 || ::write(fd, "0", 1) != 1) {
                int e = -errno;  // negative: the containment failed, not the exec
                [[maybe_unused]] auto w = ::write(pexec[1], &e, sizeof e);
                ::_exit(126);
            }
            ::close(fd);
        }
        const int want[6] = {pin[0], pout[1], perr[1], shared_fd, pexec[1], pstat[1]};
        arrange_init_fds(want);
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &dfl, nullptr);
        // The harness blocks the signals it waits for (interrupt.hpp); a subject gets a clean mask.
        sigset_t none;
        ::sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        run_init(args.data(), envp.data(), memory_limit, !effective_.pid_namespace);
    }
    ::setpgid(pid, pid);
    for (int fd : {pin[0], pout[1], perr[1], pexec[1], pstat[1]}) ::close(fd);
    int exec_errno = 0;
    ssize_t got;
    do got = ::read(pexec[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    ::close(pexec[0]);
    pid_ = pid;
    status_ = pstat[0];
    set_nonblocking(status_);
    in_ = pin[1];
    out_ = pout[0];
    err_ = perr[0];
    if (got == static_cast<ssize_t>(sizeof exec_errno)) {
        kill_and_reap();
        for (int *fd : {&in_, &out_, &err_}) close_fd(*fd);
        why = exec_errno < 0 ? "cannot put " + argv[0] + " in its pids cgroup: " + std::strerror(-exec_errno)
                             : "cannot run " + argv[0] + ": " + std::strerror(exec_errno);
        return false;
    }
    subject_ = -1;
    delays_.clear();
    for (int fd : {in_, out_, err_}) set_nonblocking(fd);
    // Larger pipes: fewer wake-ups on sweeps of millions of words (best effort).
    ::fcntl(in_, F_SETPIPE_SZ, 1 << 20);
    ::fcntl(out_, F_SETPIPE_SZ, 1 << 20);
    rbuf_.clear();
    begin_call();
    return true;
}

bool Child::pump_stderr() {
    if (err_ < 0) return false;
    char buf[16384];
    for (;;) {
        ssize_t r = ::read(err_, buf, sizeof buf);
        if (r > 0) {
            tail_.append(buf, static_cast<std::size_t>(r));
            if (tail_.size() > 8192) tail_.erase(0, tail_.size() - 4096);
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        close_fd(err_);
        return false;
    }
}

bool Child::child_exited() const {
    // The init writes the subject's status when it ends (or dies itself: end of file).
    struct pollfd p = {status_, POLLIN, 0};
    return status_ >= 0 && ::poll(&p, 1, 0) > 0 && p.revents != 0;
}

int Child::wait_fd(int fd, short events, const Clock::time_point deadline) {
    Clock::time_point due = deadline;
    for (;;) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(due - Clock::now()).count();
        if (left <= 0) {
            // The limit counts the time the subject ran or slept, not the time it waited for a
            // CPU that others held (harness/README.md, "Restarts, deadlines, processes"): a busy
            // machine moves the deadline by that much.
            due = deadline + std::chrono::duration_cast<Clock::duration>(waited_for_cpu());
            left = std::chrono::ceil<std::chrono::milliseconds>(due - Clock::now()).count();
            if (left <= 0) return 0;
        }
        const long long slice = std::min<long long>(left, 1 << 30);
        struct pollfd p[3] = {{fd, events, 0}, {status_, POLLIN, 0}, {err_, POLLIN, 0}};
        int n = ::poll(p, 3, static_cast<int>(slice));
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (err_ >= 0 && p[2].revents) pump_stderr();
        if (p[0].revents) return 1;
        if (p[1].revents != 0) {
            // The child is gone; what it wrote is in the pipe already, and nothing more will come from it.
            struct pollfd again = {fd, events, 0};
            if (::poll(&again, 1, 0) > 0 && again.revents) return 1;
            return -1;
        }
    }
}

Child::Io Child::write_all(const void *buf, std::size_t n, Clock::time_point deadline) {
    const auto *p = static_cast<const char *>(buf);
    while (n > 0) {
        ssize_t r = ::write(in_, p, n);
        if (r > 0) {
            p += r;
            n -= static_cast<std::size_t>(r);
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int w = wait_fd(in_, POLLOUT, deadline);
            if (w == 0) return Io::timeout;
            if (w < 0) return Io::eof;
            continue;
        }
        return Io::eof;
    }
    return Io::ok;
}

Child::Io Child::read_exact(void *buf, std::size_t n, Clock::time_point deadline) {
    auto *p = static_cast<char *>(buf);
    if (!rbuf_.empty()) {
        std::size_t k = std::min(n, rbuf_.size());
        std::memcpy(p, rbuf_.data(), k);
        rbuf_.erase(0, k);
        p += k;
        n -= k;
    }
    while (n > 0) {
        ssize_t r = ::read(out_, p, n);
        if (r > 0) {
            p += r;
            n -= static_cast<std::size_t>(r);
            continue;
        }
        if (r == 0) return Io::eof;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return Io::eof;
        int w = wait_fd(out_, POLLIN, deadline);
        if (w == 0) return Io::timeout;
        if (w < 0) return Io::eof;
    }
    return Io::ok;
}

Child::Io Child::read_line(std::string &line, std::size_t max, Clock::time_point deadline, bool &too_long) {
    too_long = false;
    std::size_t scanned = 0;
    for (;;) {
        auto nl = rbuf_.find('\n', scanned);
        if (nl != std::string::npos) {
            line.assign(rbuf_, 0, nl);
            rbuf_.erase(0, nl + 1);
            return Io::ok;
        }
        scanned = rbuf_.size();
        if (rbuf_.size() > max) {
            too_long = true;
            return Io::ok;
        }
        char buf[65536];
        ssize_t r = ::read(out_, buf, sizeof buf);
        if (r > 0) {
            rbuf_.append(buf, static_cast<std::size_t>(r));
            continue;
        }
        if (r == 0) return Io::eof;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return Io::eof;
        int w = wait_fd(out_, POLLIN, deadline);
        if (w == 0) return Io::timeout;
        if (w < 0) return Io::eof;
    }
}

std::string Child::reap() {
    if (pid_ <= 0) return "not running";
    // A child that closed its output but lingers gets two seconds to end on its own.
    auto until = Clock::now() + std::chrono::seconds(2);
    bool exited = false;
    while (Clock::now() < until) {
        if (child_exited()) {
            exited = true;
            break;
        }
        pump_stderr();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    pump_stderr();
    const int st = kill_and_reap();
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    rbuf_.clear();
    return exited ? describe_wait_status(st, false) : "closed its output and did not exit; killed";
}

int Child::kill_and_reap() {
    // In a PID namespace the init's death takes every process under it (the kernel waits for
    // them before the init can be reaped); otherwise its tree is found and killed here.
    const auto killed = effective_.pid_namespace ? std::vector<pid_t>{} : kill_descendants();
    cgroup_.kill();
    ::kill(pid_, SIGKILL);
    ::killpg(pid_, SIGKILL);
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {}
    // The subject's own status, when the init lived to report it.
    int subject_status = 0;
    ssize_t got;
    do got = ::read(status_, &subject_status, sizeof subject_status);
    while (got < 0 && errno == EINTR);
    if (got == static_cast<ssize_t>(sizeof subject_status)) st = subject_status;
    close_fd(status_);
    forget_subject(pid_);
    pid_ = -1;
    subject_ = -1;
    reap_killed(killed);
    drop_cgroup(cgroup_);
    return st;
}

void Child::begin_call() {
    if (pid_ <= 0) return;
    if (subject_ < 0) subject_ = std::max<pid_t>(0, contain::only_child_of(pid_));
    delays_ = subject_ > 0 ? contain::run_delays(subject_) : contain::RunDelays{};
}

std::chrono::nanoseconds Child::waited_for_cpu() {
    if (subject_ <= 0) return std::chrono::nanoseconds(0);
    return contain::waited_since(delays_, contain::run_delays(subject_));
}

void Child::kill() {
    if (pid_ > 0) kill_and_reap();
    pump_stderr();
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    rbuf_.clear();
}

namespace {

constexpr std::string_view kTokenVar = "NINFER_CONFORM_SUBJECT=";

/// The processes of the system: pid -> parent pid, and the subject token in its environment
/// (the whole "NINFER_CONFORM_SUBJECT=..." variable) where it has one.
struct ProcessScan {
    std::map<pid_t, pid_t> parent;
    std::map<pid_t, std::string> token;
};

ProcessScan scan_processes() {
    ProcessScan scan;
    DIR *d = ::opendir("/proc");
    if (!d) return scan;
    while (const dirent *e = ::readdir(d)) {
        char *end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || *end != '\0') continue;
        const std::string dir = std::string("/proc/") + e->d_name;
        std::ifstream stat(dir + "/stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        const auto close = line.rfind(')');
        if (close == std::string::npos || close + 4 >= line.size()) continue;
        // "pid (comm) S ppid ...": the state letter, then the parent.
        scan.parent[static_cast<pid_t>(pid)] = static_cast<pid_t>(std::strtol(line.c_str() + close + 4, nullptr, 10));
        std::ifstream env(dir + "/environ", std::ios::binary);
        std::string var;
        while (std::getline(env, var, '\0'))
            if (var.starts_with(kTokenVar)) {
                scan.token[static_cast<pid_t>(pid)] = var;
                break;
            }
    }
    ::closedir(d);
    return scan;
}

/// Reaps killed processes: with their parent reaped, every one is ours (this process is their
/// subreaper) or the child of a killed process still exiting, which makes it ours in a moment.
void reap_all(std::vector<pid_t> list) {
    std::set<pid_t> killed(list.begin(), list.end());
    const auto until = Clock::now() + std::chrono::seconds(2);
    while (!killed.empty() && Clock::now() < until) {
        for (auto it = killed.begin(); it != killed.end();) {
            int st;
            const pid_t r = ::waitpid(*it, &st, WNOHANG);
            if (r == *it || (r < 0 && errno == ECHILD && ::kill(*it, 0) != 0 && errno == ESRCH)) it = killed.erase(it);
            else ++it;
        }
        if (!killed.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}


/// `roots` and all their descendants in the scan, less this process.
std::set<pid_t> with_descendants(const ProcessScan &scan, std::set<pid_t> roots) {
    std::vector<pid_t> todo(roots.begin(), roots.end());
    while (!todo.empty()) {
        const pid_t p = todo.back();
        todo.pop_back();
        for (const auto &[child, parent] : scan.parent)
            if (parent == p && roots.insert(child).second) todo.push_back(child);
    }
    roots.erase(::getpid());
    return roots;
}

/// The parent of `pid` from /proc/PID/stat, or -1 when there is none.
pid_t parent_of(pid_t pid) {
    char path[32], buf[512];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    const char *close = std::strrchr(buf, ')');
    if (!close || close + 4 >= buf + n) return -1;
    return static_cast<pid_t>(std::strtol(close + 4, nullptr, 10));
}

/// The last pid the kernel handed out (/proc/sys/kernel/ns_last_pid), or -1.
pid_t last_pid() {
    char buf[32];
    const int fd = ::open("/proc/sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    return static_cast<pid_t>(std::strtol(buf, nullptr, 10));
}

/// A hopper (a process that forks and exits in a loop) makes a new pid faster than /proc can
/// be scanned, and a scan can miss it: every pid handed out since `from` is probed for a parent
/// among the killed or `catchers` (the inits its orphans go to) and killed, chasing the newest
/// pids until a few probes find none. Returns how many it killed.
std::size_t follow_hops(std::set<pid_t> &killed, const std::set<pid_t> &catchers, pid_t from) {
    std::size_t fresh = 0;
    if (from < 0) return 0;
    pid_t probed = from;
    for (int idle = 0; idle < 3;) {
        const pid_t last = last_pid();
        if (last < 0) break;
        if (last < probed) probed = 0;  // the pids wrapped around
        bool found = false;
        for (pid_t p = std::max(probed + 1, last - 65536); p <= last; ++p) {
            const pid_t parent = parent_of(p);
            if (parent > 0 && (killed.count(parent) || catchers.count(parent)) && killed.insert(p).second) {
                ::kill(p, SIGKILL);
                found = true;
                ++fresh;
            }
        }
        probed = last;
        idle = found ? 0 : idle + 1;
    }
    return fresh;
}

/// SIGKILL the processes `pick` selects from each fresh scan until a scan finds nothing new (a
/// killed process cannot fork any more: SIGKILL is pending); returns them. One still exiting is
/// found again and killed again, harmlessly.
template <class Pick>
std::vector<pid_t> kill_until_quiet(Pick pick, const std::set<pid_t> &catchers = {}) {
    std::set<pid_t> killed;
    for (int round = 0; round < 200; ++round) {
        const pid_t before = last_pid();
        std::size_t fresh = 0;
        for (pid_t p : pick(scan_processes())) {
            fresh += killed.insert(p).second;
            ::kill(p, SIGKILL);
        }
        fresh += follow_hops(killed, catchers, before);
        if (fresh == 0) break;
    }
    return {killed.begin(), killed.end()};
}

}  // namespace

std::vector<pid_t> Child::kill_descendants() const {
    if (pid_ <= 0 || token_.empty()) return {};
    const pid_t self = pid_;
    const std::string token = token_;
    return kill_until_quiet([&](const ProcessScan &scan) {
        // The child's tree, and every process with the token and its tree (a zombie has no
        // environment left, so a killed process is not found again).
        std::set<pid_t> roots{self};
        for (const auto &[p, t] : scan.token)
            if (t == token) roots.insert(p);
        {
            // Orphans adopted by this process (the subreaper) that are no live subject of any
            // job, and carry no other live subject's token: descendants whose parent died.
            auto &live = live_subjects();
            std::lock_guard<std::mutex> lock(live.m);
            std::set<std::string> others;
            for (const auto &[pid, t] : live.token_of)
                if (pid != self) others.insert(t);
            for (const auto &[p, parent] : scan.parent) {
                if (parent != ::getpid() || p == self || live.token_of.count(p)) continue;
                const auto t = scan.token.find(p);
                if (t == scan.token.end() || !others.count(t->second)) roots.insert(p);
            }
        }
        auto found = with_descendants(scan, std::move(roots));
        found.erase(self);
        return found;
    }, {self});
}

void kill_all_subjects() {
    auto &live = live_subjects();
    // Held for good: no subject starts after this (the caller ends the process).
    live.m.lock();
    const std::string prefix = std::string(kTokenVar) + std::to_string(::getpid()) + "-";
    // An init's death ends its PID namespace; a cgroup is killed whole; the rest by their tree,
    // under their inits kept alive meanwhile: a subreaper that catches every orphan of its tree.
    std::set<pid_t> catchers{::getpid()};
    for (const auto &[pid, token] : live.token_of) {
        if (live.in_namespace.count(pid)) ::kill(pid, SIGKILL);
        else catchers.insert(pid);
    }
    for (const auto &dir : live.cgroups) contain::kill_cgroup_dir(dir);
    auto killed = kill_until_quiet([&](const ProcessScan &scan) {
        // Every child of this process (subjects and adopted orphans), every process with one of
        // its tokens, and their trees.
        std::set<pid_t> roots;
        for (const auto &[pid, token] : live.token_of) roots.insert(pid);
        for (const auto &[p, parent] : scan.parent)
            if (parent == ::getpid()) roots.insert(p);
        for (const auto &[p, t] : scan.token)
            if (t.starts_with(prefix)) roots.insert(p);
        auto found = with_descendants(scan, std::move(roots));
        for (pid_t c : catchers) found.erase(c);
        return found;
    }, catchers);
    for (pid_t c : catchers)
        if (c != ::getpid()) {
            ::kill(c, SIGKILL);
            killed.push_back(c);
        }
    // Reaped here: the process may end before its parent (init) would reap them.
    reap_all(std::move(killed));
    for (const auto &dir : live.cgroups) contain::kill_and_remove_cgroup(dir);
}

void Child::reap_killed(std::vector<pid_t> list) { reap_all(std::move(list)); }

bool Child::pending_output() {
    if (!rbuf_.empty()) return true;
    if (out_ < 0) return false;
    char buf[65536];
    ssize_t r;
    do r = ::read(out_, buf, sizeof buf);
    while (r < 0 && errno == EINTR);
    if (r > 0) rbuf_.append(buf, static_cast<std::size_t>(r));
    return !rbuf_.empty();
}

std::string Child::stderr_tail() const {
    std::string t = tail_;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    if (t.empty()) return "";
    // The last three lines, joined.
    std::size_t pos = t.size();
    for (int lines = 0; lines < 3 && pos != std::string::npos && pos > 0; ++lines) pos = t.rfind('\n', pos - 1);
    std::string last = pos == std::string::npos ? t : t.substr(pos + 1);
    std::string out;
    for (char c : last) {
        if (c == '\n') out += " | ";
        else out += c;
    }
    if (out.size() > 400) out = "..." + out.substr(out.size() - 400);
    return out;
}

}  // namespace ninfer::harness::wire
