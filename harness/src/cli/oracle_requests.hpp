// SPDX-License-Identifier: Apache-2.0
// The requests of `ninfer-conform oracle` on stdin (docs/cli.md, "oracle"): one JSON document
// (an object or an array of them) or JSON lines, one answer line each. Shared by the CLI and
// the fuzz harness fuzz/fuzz_oracle_requests.cpp.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace ninfer::harness::cli {

/// Answer every request of `text`, each answer a JSON line passed to `emit`. Throws UsageError
/// (one bounded line) for a malformed request; the answers before it were emitted.
void answer_requests(std::string_view text, const std::function<void(const std::string &)> &emit);

}  // namespace ninfer::harness::cli
