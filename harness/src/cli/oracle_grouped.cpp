// SPDX-License-Identifier: Apache-2.0
// Placeholder until the grouped family adds `oracle encode` and `oracle decode`.
#include "oracle_grouped.hpp"

namespace ninfer::harness::cli {
void add_oracle_grouped_subcommands(CLI::App &) {}
}  // namespace ninfer::harness::cli
