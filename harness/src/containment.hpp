// SPDX-License-Identifier: Apache-2.0
// Containment of subjects by the kernel (harness/README.md, "Containment"): a PID namespace per
// subject whose init is the harness's own reaper, a pids cgroup per subject that bounds its
// processes, and the time a subject waited for a CPU (the credit of its call limit).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace ninfer::harness::contain {

/// What the caller asks for: `automatic` takes a PID namespace and a pids cgroup where the
/// kernel allows them; `process_tree` takes neither (the fallback, forced for tests).
enum class Mode { automatic, pid_namespace, process_tree };

/// The mode named by the option/environment spelling, or nullopt-like false.
bool parse_mode(const std::string &text, Mode &mode);
/// NINFER_CONFORM_CONTAINMENT when set and valid, else `fallback`; a bad value is one line on
/// stderr and `fallback`.
Mode mode_from_environment(Mode fallback);

/// The mode an option names ("" : the environment's, else automatic).
Mode mode_of(const std::string &option);

/// What one subject gets: a PID namespace, a pids cgroup, both or neither.
struct Effective {
    bool pid_namespace = false;
    bool user_namespace = false;  ///< the PID namespace came with a user namespace (not root)
    bool pids_cgroup = false;
};

/// "pid-namespace+pids-cgroup", "pid-namespace", "process-tree+pids-cgroup" or "process-tree":
/// the report's subject.containment.
std::string describe(const Effective &e);

/// What this machine gives for `mode` (probed once per mode and cached). A mode of
/// pid_namespace that the kernel refuses gives process-tree with `why` set.
Effective effective(Mode mode, std::string *why = nullptr);

/// A pids cgroup made for one subject: created empty with pids.max set, filled by the subject's
/// init (it writes "0" to procs_path, async-signal-safe), killed and removed when done.
class Cgroup {
public:
    Cgroup() = default;
    Cgroup(const Cgroup &) = delete;
    Cgroup &operator=(const Cgroup &) = delete;
    ~Cgroup() { remove(); }
    /// mkdir under the harness's own pids cgroup, set pids.max; false when there is none.
    bool create(std::uint32_t max_processes);
    bool active() const { return !dir_.empty(); }
    const char *procs_path() const { return procs_.c_str(); }
    /// SIGKILL every process in it (cgroup.kill on v2, else each pid of cgroup.procs until empty).
    void kill() const;
    /// rmdir, retried while its last processes are released (bounded), then forgotten.
    void remove();
    const std::string &dir() const { return dir_; }

private:
    std::string dir_, procs_;
    bool v2_ = false;
};

/// SIGKILL every process of a cgroup directory (for the interrupt path).
void kill_cgroup_dir(const std::string &dir);
/// SIGKILL and rmdir a cgroup directory (for the interrupt path, which holds no Cgroup object).
void kill_and_remove_cgroup(const std::string &dir);

/// fork() without atfork handlers, optionally into a new PID namespace (and user namespace):
/// clone3/clone with SIGCHLD. Returns the pid, 0 in the child, -1 with errno.
pid_t clone_process(bool new_pid_ns, bool new_user_ns);

/// Per thread of a process: the nanoseconds it spent runnable but waiting for a CPU
/// (/proc/PID/task/TID/schedstat, the second field). Empty when unavailable.
using RunDelays = std::map<pid_t, std::uint64_t>;
RunDelays run_delays(pid_t pid);
/// The most any one thread waited for a CPU since `before` (a thread new since then counts from
/// zero): the time a busy machine took from the subject, which its call limit does not count.
std::chrono::nanoseconds waited_since(const RunDelays &before, const RunDelays &now);

/// The only child of `parent` (the subject under its init), found in /proc; -1 when none.
pid_t only_child_of(pid_t parent);

}  // namespace ninfer::harness::contain
