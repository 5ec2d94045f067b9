// SPDX-License-Identifier: Apache-2.0
// Seeded bug: contiguous_le_v1 stores words big-endian (storage-layouts.md Section 2: each word
// little-endian; byte order is a layout property, never the host's).
#include <algorithm>

#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_big_endian";
    static constexpr const char *breaks = ninfer::suites::rule::layout_contiguous_le_v1_words;
    static void after(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants;
        if ((c->op != NINFER_OP_layout_encode && c->op != NINFER_OP_layout_decode) ||
            c->layout != NINFER_LAYOUT_contiguous_le_v1)
            return;
        const int b = word_bytes(c->format);
        if (b <= 1) return;
        auto *out = static_cast<std::uint8_t *>(c->out);
        for (std::uint64_t i = 0; i < r->out_written / b; ++i) std::reverse(out + i * b, out + (i + 1) * b);
    }
};
}  // namespace

NINFER_MUTANT(M)
