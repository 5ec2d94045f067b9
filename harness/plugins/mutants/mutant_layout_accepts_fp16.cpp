// SPDX-License-Identifier: Apache-2.0
// Seeded bug: contiguous_le_v1 stores fp16 words as if fp16 were a registered direct format
// (storage-layouts.md Section 1: only bf16, fp32 and int32; any other pair is refused by name).
#include <cstring>

#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_accepts_fp16";
    static constexpr const char *breaks = ninfer::suites::rule::layout_registry_unregistered_pair;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if ((c->op != NINFER_OP_layout_decode && c->op != NINFER_OP_layout_encode) ||
            c->layout != NINFER_LAYOUT_contiguous_le_v1 || c->format != NINFER_FORMAT_fp16)
            return std::nullopt;
        // Served as bf16, the other 2-byte word: same size rule, same copy.
        ninfer_call as_bf16 = *c;
        as_bf16.format = NINFER_FORMAT_bf16;
        if (c->format_in == NINFER_FORMAT_fp16) as_bf16.format_in = NINFER_FORMAT_bf16;
        return ninfer::mutants::reference_call(&as_bf16, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
