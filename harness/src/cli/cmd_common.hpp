// SPDX-License-Identifier: Apache-2.0
// Pieces shared by the commands of `ninfer-conform` (docs/cli.md). A command that ends with
// a status other than 0 throws CLI::RuntimeError(status): 1 a case failed, 2 usage or input.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "ninfer/harness/runner.hpp"

namespace ninfer::harness::cli {

inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;

void add_list(CLI::App &app);
void add_rules(CLI::App &app);
void add_coverage(CLI::App &app);
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
/// A plugin argument as a path: an existing file, else a bundled plugin of that name.
/// Throws UsageError naming the bundled plugins.
std::string resolve_plugin(const std::string &arg);
/// This executable (the worker of plugin subjects).
std::string self_executable();

/// "a, b, c": the names of a registry table (for "expected one of" lines).
template <class Table>
std::string table_names(const Table &table) {
    std::string s;
    for (const auto &e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
    return s;
}

/// Lookup by name or UsageError("unknown <what> 'x'; expected one of: ...").
template <class Table>
const typename Table::value_type &require_name(const Table &table, const std::string &name, std::string_view what) {
    for (const auto &e : table)
        if (e.name == name) return e;
    throw UsageError(fmt::format("unknown {} '{}'; expected one of: {}", what, name, table_names(table)));
}

}  // namespace ninfer::harness::cli
