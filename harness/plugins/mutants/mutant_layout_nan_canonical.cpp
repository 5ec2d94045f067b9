// SPDX-License-Identifier: Apache-2.0
// Seeded bug: contiguous_le_v1 canonicalizes NaN words (storage-layouts.md Section 2: the layout
// never canonicalizes a word; NaN payloads and the quiet bit survive bit for bit).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_nan_canonical";
    static constexpr const char *breaks = ninfer::suites::rule::layout_contiguous_le_v1_words;
    static void after(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants;
        if ((c->op != NINFER_OP_layout_encode && c->op != NINFER_OP_layout_decode) ||
            c->layout != NINFER_LAYOUT_contiguous_le_v1)
            return;
        const bool fp32 = c->format == NINFER_FORMAT_fp32;
        if (!fp32 && c->format != NINFER_FORMAT_bf16) return;
        const int b = fp32 ? 4 : 2;
        const std::uint64_t inf = fp32 ? 0x7F800000u : 0x7F80u, quiet = fp32 ? 0x7FC00000u : 0x7FC0u;
        const std::uint64_t abs_mask = fp32 ? 0x7FFFFFFFu : 0x7FFFu;
        for (std::uint64_t i = 0; i < r->out_written / b; ++i)
            if ((load_word(c->out, i, b) & abs_mask) > inf) store_word(c->out, i, b, quiet);
    }
};
}  // namespace

NINFER_MUTANT(M)
