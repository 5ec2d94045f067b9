// SPDX-License-Identifier: Apache-2.0
// The subject options shared by `run` and `sweep` (docs/cli.md): --plugin | --exec, the time
// limit of one call and the subject's address-space limit; opening the subject; the reports.
#include "cmd_common.hpp"

namespace ninfer::harness::cli {

void add_subject_options(CLI::App &cmd, SubjectArgs &a, std::string_view call_name) {
    auto *plugin = cmd.add_option("--plugin", a.plugin, "plugin library (.so), or the name of a bundled plugin")
                       ->check(path_given("a plugin file or the name of a bundled plugin"));
    auto *exec = cmd.add_option("--exec", a.exec, "command speaking the JSON-lines exec protocol");
    plugin->excludes(exec);
    cmd.add_option("--timeout-ms", a.timeout_ms,
                   fmt::format("time limit of one {}, 1..{} (default {})", call_name, kMaxTimeoutMs, a.timeout_ms))
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{1}, kMaxTimeoutMs));
    cmd.add_option("--memory-limit-mib", a.memory_limit_mib,
                   fmt::format("address-space limit of the subject's process in MiB, 0 for none, up to 2^40 (default {})",
                               a.memory_limit_mib))
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
    cmd.add_option("--containment", a.containment,
                   "how the kernel contains the subject's processes: auto (a PID namespace and a pids cgroup where "
                   "the machine allows), pid-namespace (required), process-tree (neither; default: "
                   "$NINFER_CONFORM_CONTAINMENT, else auto)")
        ->check(CLI::IsMember({"auto", "pid-namespace", "process-tree"}));
    cmd.add_option("--max-processes", a.max_processes,
                   fmt::format("processes and threads the subject may have at once, in its pids cgroup, 1..{} (default {})",
                               kMaxSubjectProcesses, a.max_processes))
        ->check(digits())
        ->check(CLI::Range(std::uint32_t{1}, kMaxSubjectProcesses));
}

void require_one_subject(const SubjectArgs &a, std::string_view command) {
    if (a.plugin.empty() == a.exec.empty())
        throw UsageError(fmt::format("{}: give exactly one of --plugin PATH or --exec CMD", command));
    // A mistyped plugin name fails now, not after the cases are collected.
    if (!a.plugin.empty()) resolve_plugin(a.plugin);
}

void add_progress_options(CLI::App &cmd, ProgressMode &mode) {
    auto *on = cmd.add_flag_callback("--progress", [&mode] { mode = ProgressMode::on; },
                                     "show progress on stderr even when it is not a terminal");
    auto *off = cmd.add_flag_callback("--no-progress", [&mode] { mode = ProgressMode::off; },
                                      "show no progress, even on a terminal");
    on->excludes(off);
}

std::unique_ptr<Subject> open_subject(const SubjectArgs &a, reports::SubjectIdentity &id) {
    SubjectOptions so;
    so.call_timeout = std::chrono::milliseconds(a.timeout_ms);
    so.memory_limit_bytes = a.memory_limit_mib << 20;  // 0: no limit
    so.worker_executable = self_executable();
    so.containment = a.containment;
    so.max_processes = a.max_processes;
    std::unique_ptr<Subject> s;
    if (!a.plugin.empty()) {
        const std::string path = resolve_plugin(a.plugin);
        s = open_plugin(path, so);
        id = identity_of(*s, "plugin", path);
    } else {
        s = open_exec(a.exec, so);
        id = identity_of(*s, "exec", a.exec);
    }
    id.containment = containment_of(so);
    return s;
}

void write_reports(const reports::Report &rep, const std::string &json_path, const std::string &junit_path) {
    // Both destinations were checked before the run. Should one fail now all the same (its
    // directory removed meanwhile), the other is still written, and the run exits 2.
    std::string failed;
    for (const auto &[path, render] : {std::pair{json_path, &reports::render_json}, std::pair{junit_path, &reports::render_junit}}) {
        if (path.empty()) continue;
        try {
            reports::write_atomic(path, render(rep));
        } catch (const std::exception &e) {
            failed += (failed.empty() ? "" : "; ") + std::string(e.what());
        }
    }
    if (!failed.empty()) throw UsageError(failed);
}

}  // namespace ninfer::harness::cli
