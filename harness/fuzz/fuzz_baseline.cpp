// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): the waiver file reader (docs/cli.md, "Baselines") and
// its globs applied to a report.
#include <cstdint>
#include <string>

#include "ninfer/harness/baseline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const auto b = ninfer::harness::parse_baseline(text, "fuzz.json");
        ninfer::reports::Report r;
        ninfer::reports::CaseResult c;
        c.id = "convert.fp32_to_bf16_rne/ties";
        c.rule = "convert.fp32_to_bf16_rne";
        c.status = ninfer::reports::Status::fail;
        r.cases.push_back(c);
        ninfer::harness::apply_baseline(b, r);
    } catch (const ninfer::harness::BaselineError &) {
    }
    return 0;
}
