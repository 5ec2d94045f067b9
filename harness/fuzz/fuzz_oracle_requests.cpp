// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): `ninfer-conform oracle` requests on stdin (docs/cli.md).
// A UsageError is the CLI's one-line refusal; any other exception would end as a bare message.
#include <cstdint>
#include <string>

#include "../src/cli/oracle_requests.hpp"
#include "ninfer/harness/runner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    std::size_t answers = 0;
    try {
        ninfer::harness::cli::answer_requests(text, [&](const std::string &line) { answers += line.size(); });
    } catch (const ninfer::harness::UsageError &) {
    }
    return 0;
}
