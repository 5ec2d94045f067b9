// SPDX-License-Identifier: Apache-2.0
// Seeded bug: payload_validate of a GGUF tensor checks the shape but not the payload's size (a
// payload a byte short or long passes; storage-layouts.md Section 7: rows * row_bytes exactly).
#include "mutant_gguf_common.hpp"
#include "ninfer/oracle/gguf.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_gguf_validate_size_unchecked";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_size;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        if (c->op != NINFER_OP_payload_validate || c->layout != NINFER_LAYOUT_ggml_blocks_v1) return std::nullopt;
        const auto *t = ninfer::abi::find_id(ninfer::abi::kGgufTypes, c->format);
        if (!t || c->rank > NINFER_MAX_RANK || !ninfer_find_input(c, NINFER_PLANE_PAYLOAD)) return std::nullopt;
        if (!ninfer::oracle::ggml_blocks_geometry(*t, std::span<const std::uint64_t>(c->shape, c->rank))) return std::nullopt;
        return NINFER_OK;  // the bug: any payload size
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
