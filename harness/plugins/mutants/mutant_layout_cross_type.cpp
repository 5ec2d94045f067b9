// SPDX-License-Identifier: Apache-2.0
// Seeded bug: layout_encode accepts BF16 words for an FP32 tensor and widens them silently
// (tensor-formats.txt Section 3.1: a conversion between different types is not implicit).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_cross_type";
    static constexpr const char *breaks = ninfer::suites::rule::layout_contiguous_le_v1_cross_type;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants;
        if (c->op != NINFER_OP_layout_encode || c->layout != NINFER_LAYOUT_contiguous_le_v1 ||
            c->format != NINFER_FORMAT_fp32 || c->format_in != NINFER_FORMAT_bf16)
            return std::nullopt;
        const std::uint64_t n = c->in_bytes / 2;
        if (c->out_bytes < 4 * n) return NINFER_E_BUFFER;
        for (std::uint64_t i = 0; i < n; ++i)
            store_word(c->out, i, 4, ninfer::reference::scalar_convert(NINFER_CONVERSION_bf16_to_fp32, load_word(c->in, i, 2)));
        r->out_written = 4 * n;
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
