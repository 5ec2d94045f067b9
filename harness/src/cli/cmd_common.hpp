// SPDX-License-Identifier: Apache-2.0
// Pieces shared by the commands of `ninfer-conform` (docs/cli.md). A command that ends with
// a status other than 0 throws CLI::RuntimeError(status): 1 a case failed, 2 usage or input.
#pragma once

#include <charconv>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "ninfer/harness/progress.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/suggest.hpp"
#include "ninfer/vectors/bounded_input.hpp"

namespace ninfer::harness::cli {

inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;

/// Limits of the options (docs/cli.md, "Accepted values").
inline constexpr std::uint64_t kMaxTimeoutMs = 86'400'000;      ///< 24 h per call
inline constexpr std::uint32_t kMaxSubjectProcesses = 65536;  ///< --max-processes
inline constexpr std::uint64_t kMaxBatchWords = std::uint64_t{1} << 24;  ///< sweep words per call
inline constexpr std::size_t kMaxMismatches = 1'000'000;       ///< kept per case
inline constexpr unsigned kMaxJobs = 256;                      ///< subjects at once (run, sweep)
inline constexpr std::size_t kMaxStdinBytes = std::size_t{64} << 20;  ///< oracle requests
/// Largest JSON report read by `merge` and `report` (a sweep keeps at most 10^6 mismatches of a
/// few hundred bytes each).
inline constexpr std::size_t kMaxReportBytes = std::size_t{2} << 30;
/// Default address-space limit of a subject (MiB). A sanitized build sets none: ASan reserves
/// terabytes of address space, which no RLIMIT_AS admits (scripts/asan.sh).
#ifdef NINFER_SANITIZED
inline constexpr std::uint64_t kDefaultMemoryLimitMib = 0;
#else
inline constexpr std::uint64_t kDefaultMemoryLimitMib = 8192;
#endif

/// An untrusted value as an error line may show it: at most 80 characters, escaped.
inline std::string echo(std::string_view text) { return vectors::echo(text); }

/// CLI11 validator: a decimal integer without sign (so that -1 is not read as 2^64-1) that
/// fits 64 bits (so that 2^64 is not read as 2^64-1); a narrower option adds CLI::Range.
inline CLI::Validator digits() {
    return CLI::Validator(
        [](std::string &v) -> std::string {
            if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
                return "'" + vectors::echo(v, 24) + "' is not a non-negative decimal integer";
            std::uint64_t x = 0;
            if (std::from_chars(v.data(), v.data() + v.size(), x).ec != std::errc())
                return "'" + v + "' is out of range (expected at most 18446744073709551615, 2^64-1)";
            return {};
        },
        "");
}

/// CLI11 validator of a decimal integer in lo..hi, whose message names that range for any value
/// outside it, one past 2^64 included ("'18446744073709551616' is out of range (expected 1..256)").
inline CLI::Validator digits_in(std::uint64_t lo, std::uint64_t hi) {
    return CLI::Validator(
        [lo, hi](std::string &v) -> std::string {
            if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
                return "'" + vectors::echo(v, 24) + "' is not a non-negative decimal integer";
            std::uint64_t x = 0;
            if (std::from_chars(v.data(), v.data() + v.size(), x).ec != std::errc() || x < lo || x > hi)
                return "'" + v + "' is out of range (expected " + std::to_string(lo) + ".." + std::to_string(hi) + ")";
            return {};
        },
        "");
}

/// CLI11 validator of a path option: an empty path is bad usage, never "not given"
/// ("--report: an empty path (expected a file path)").
inline CLI::Validator path_given(std::string_view expected = "a file path") {
    return CLI::Validator(
        [expected = std::string(expected)](std::string &v) -> std::string {
            return v.empty() ? "an empty path (expected " + expected + ")" : std::string();
        },
        "");
}

/// Refuse an output path that cannot be written: checked before a run, so that a long run
/// cannot end without its results. `option` names the option in the message. An output that
/// exists must be a regular file (a symbolic link is judged by its target): a device node, a
/// FIFO, a socket or a directory is never replaced.
void check_destination(const std::string &path, std::string_view option);

/// A path a command reads or writes, with what names it in an error line ("--baseline").
struct NamedPath {
    std::string name, path;
};
/// The files and directories of one command (docs/cli.md, "Input and output files"). Paths
/// that are "" (options not given) are skipped.
struct CommandFiles {
    std::vector<NamedPath> inputs;       ///< files read
    std::vector<NamedPath> input_dirs;   ///< directories read: no output lies inside one
    std::vector<NamedPath> outputs;      ///< files written
    std::vector<NamedPath> output_dirs;  ///< directories written: apart from every input directory
};
/// Refuse (UsageError, before any work) outputs that would destroy something: each output as
/// check_destination has it; an output that is the same file as an input or as another output
/// (files compared, not names: hard and symbolic links are caught); an output inside an input
/// directory or an output directory (a cache); an output directory that is, lies inside or holds
/// an input directory.
void check_files(const CommandFiles &files);

/// The subject of `run` and `sweep` (subject_options.cpp): exactly one of a plugin and an exec
/// command, the time limit of one call and the subject's address-space limit.
struct SubjectArgs {
    std::string plugin, exec;
    std::uint64_t timeout_ms = 10000;
    std::uint64_t memory_limit_mib = kDefaultMemoryLimitMib;
    std::string containment;  ///< --containment; "": NINFER_CONFORM_CONTAINMENT, else auto
    std::uint32_t max_processes = 512;
};
/// --plugin, --exec (exclusive), --timeout-ms ("time limit of one <call_name>"; the default is
/// a.timeout_ms) and --memory-limit-mib.
void add_subject_options(CLI::App &cmd, SubjectArgs &a, std::string_view call_name);
/// UsageError("<command>: give exactly one of --plugin PATH or --exec CMD") unless exactly one is
/// given; a plugin that resolve_plugin does not find fails here, before any work.
void require_one_subject(const SubjectArgs &a, std::string_view command);
/// Open the subject of --plugin or --exec; its identity for reports.
std::unique_ptr<Subject> open_subject(const SubjectArgs &a, reports::SubjectIdentity &id);
/// Write the JSON report and JUnit XML where asked (atomically); UsageError naming any that failed.
void write_reports(const reports::Report &rep, const std::string &json_path, const std::string &junit_path);

/// --progress and --no-progress (exclusive) into `mode` (progress.hpp; docs/cli.md, "Progress").
void add_progress_options(CLI::App &cmd, ProgressMode &mode);

void add_list(CLI::App &app);
void add_merge(CLI::App &app);
void add_rules(CLI::App &app);
void add_coverage(CLI::App &app);
void add_fingerprint(CLI::App &app);
void add_generate(CLI::App &app);
void add_oracle(CLI::App &app);
void add_plugins(CLI::App &app);
void add_report(CLI::App &app);
void add_run(CLI::App &app);
void add_sweep(CLI::App &app);
void add_worker(CLI::App &app);

/// The directory of bundled plugins: the build tree's for a build-tree executable, else the
/// one relative to this executable (dirs.hpp).
std::filesystem::path bundled_plugin_dir();
/// A plugin argument as a path: an existing file, else a bundled plugin of that name. Throws
/// UsageError "--plugin: no such file: X" for a path (a slash or .so), else "no plugin 'X' in
/// DIR; did you mean ...?" (unknown_name_line over the bundled plugins).
std::string resolve_plugin(const std::string &arg);
/// This executable (the worker of plugin subjects).
std::string self_executable();

/// The names of a registry table, in its order.
template <class Table>
std::vector<std::string> table_names(const Table &table) {
    std::vector<std::string> names;
    for (const auto &e : table) names.emplace_back(e.name);
    return names;
}

/// Lookup by name or UsageError("unknown <what> 'x'; did you mean ...?"), worded by
/// unknown_name_line (suggest.hpp): a long table points at `list` for the rest.
template <class Table>
const typename Table::value_type &require_name(const Table &table, const std::string &name, std::string_view what) {
    for (const auto &e : table)
        if (e.name == name) return e;
    throw UsageError(unknown_name_line(fmt::format("unknown {} '{}'", what, echo(name)), name, table_names(table),
                                       "ninfer-conform list"));
}

/// The level of --level or UsageError("unknown level 'x'; ..."), worded by unknown_name_line.
inline suites::Level require_level(const std::string &name) {
    suites::Level level{};
    if (!suites::parse_level(name, level))
        throw UsageError(unknown_name_line(fmt::format("unknown level '{}'", echo(name)), name, {"quick", "full", "exhaustive"}));
    return level;
}

}  // namespace ninfer::harness::cli
