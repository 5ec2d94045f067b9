// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): the oracle's row_split_k128_v1 payload decoding
// (`oracle decode`, storage-layouts.md Section 3). Input: format index, N, K (one byte each
// plus one), then the payload.
#include <cstdint>
#include <span>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    namespace orc = ninfer::oracle;
    if (size < 3) return 0;
    const auto &f = orc::kGroupedFormats[data[0] % std::size(orc::kGroupedFormats)];
    const std::uint64_t n = 1 + data[1] % 8, k = 1 + data[2] * 3u;
    const std::span<const std::uint8_t> payload(data + 3, size - 3);
    const auto d = orc::row_split_decode(f, n, k, payload);
    if (d.status == NINFER_OK) {
        const std::uint64_t gpr = orc::grouped_groups_per_row(f, k);
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t c = 0; c < k; ++c)
                (void)orc::grouped_reconstruct(d.m.scales[r * gpr + c / f.group], d.m.codes[r * k + c]);
        const std::uint64_t rows[] = {n - 1, 0};
        (void)orc::row_split_select_rows(f, n, k, payload, rows);
    }
    if (!payload.empty()) (void)orc::row_split_locate(f, n, k, payload.size() - 1);
    return 0;
}
