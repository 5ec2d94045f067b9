// SPDX-License-Identifier: Apache-2.0
// The grouped-family subcommands of `ninfer-conform oracle` (encode, decode), added to the
// `oracle` subcommand by the CLI. A callback that must end with an exit status throws
// CLI::RuntimeError(status) (0 ok, 1 refused by a rule, 2 usage or input error).
#pragma once

namespace CLI {
class App;
}

namespace ninfer::harness::cli {
void add_oracle_grouped_subcommands(CLI::App &oracle);
}  // namespace ninfer::harness::cli
