// SPDX-License-Identifier: Apache-2.0
// Issue 32, item 8: `--help` a person reads: options in groups, one example per command, the
// program's name (not its path) in `Usage:`, every line within 100 columns (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>

namespace ninfer::harness::cli {

/// Widest line `--help` prints.
inline constexpr std::size_t kHelpWidth = 100;

/// After every command is added: the wrapping formatter on every command, the option groups of
/// the table in help.cpp and each command's example as its footer.
void shape_help(CLI::App &app);

}  // namespace ninfer::harness::cli
