// SPDX-License-Identifier: Apache-2.0
// Seeded bug: contiguous_le_v1 never checks the input size against the shape: it copies what
// it has up to payload_bytes and zero-fills the rest (storage-layouts.md Section 2:
// payload_bytes = elements * word bytes, no prefix, padding or trailer).
#include <algorithm>
#include <cstring>

#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_layout_size_unchecked";
    static constexpr const char *breaks = ninfer::suites::rule::layout_contiguous_le_v1_size;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if ((c->op != NINFER_OP_layout_decode && c->op != NINFER_OP_layout_encode) ||
            c->layout != NINFER_LAYOUT_contiguous_le_v1 || c->rank > NINFER_MAX_RANK ||
            (c->op == NINFER_OP_layout_encode && c->format_in != c->format))
            return std::nullopt;
        const auto size = ninfer::reference::contiguous_payload_bytes(c->format, {c->shape, c->rank});
        if (size.status != NINFER_OK || c->in_bytes == size.written) return std::nullopt;
        if (c->out_bytes < size.written || !c->out) return NINFER_E_BUFFER;
        const std::uint64_t n = std::min(c->in_bytes, size.written);
        auto *out = static_cast<std::uint8_t *>(c->out);
        if (n) std::memcpy(out, c->in, n);
        std::memset(out + n, 0, size.written - n);
        r->out_written = size.written;
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
