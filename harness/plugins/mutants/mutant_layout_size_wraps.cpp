// SPDX-License-Identifier: Apache-2.0
// Seeded bug: contiguous_le_v1 computes elements * word bytes with wrapping uint64 arithmetic
// (storage-layouts.md: a shape whose size overflows must be rejected, never wrapped).
#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_size_wraps";
    static constexpr const char *breaks = ninfer::suites::rule::layout_contiguous_le_v1_overflow;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants;
        if ((c->op != NINFER_OP_layout_decode && c->op != NINFER_OP_layout_encode) ||
            c->layout != NINFER_LAYOUT_contiguous_le_v1 || c->rank > NINFER_MAX_RANK ||
            (c->op == NINFER_OP_layout_encode && c->format_in != c->format))
            return std::nullopt;
        const auto size = ninfer::reference::contiguous_payload_bytes(c->format, {c->shape, c->rank});
        if (size.status != NINFER_E_SIZE) return std::nullopt;
        std::uint64_t wrapped = static_cast<std::uint64_t>(word_bytes(c->format));
        for (std::uint32_t i = 0; i < c->rank; ++i) wrapped *= c->shape[i];
        if (wrapped != c->in_bytes) return std::nullopt;
        if (c->out_bytes < wrapped) return NINFER_E_BUFFER;
        for (std::uint64_t i = 0; i < wrapped; ++i) static_cast<std::uint8_t *>(c->out)[i] = static_cast<const std::uint8_t *>(c->in)[i];
        r->out_written = wrapped;
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
