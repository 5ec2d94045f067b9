// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that never validates its weight payload (the contract's step 5): a payload
// the format's decode boundary refuses is multiplied anyway (here: all-zero outputs, NINFER_OK).
#include <algorithm>

#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_accepts_invalid_payload";
    static constexpr const char *breaks = ninfer::suites::rule::linear_payload;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear) return std::nullopt;
        const std::int32_t s = ninfer::mutants::v2::reference_call(c, r);
        if (s != NINFER_E_INVALID_PAYLOAD) return s;
        // The sizes passed steps 1-4: M*N words of the OUTPUT plane's format fit.
        ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_OUTPUT);
        const std::uint64_t width = out->format == NINFER_FORMAT_fp32 ? 4 : 2, bytes = c->count * c->shape[0] * width;
        std::fill_n(static_cast<std::uint8_t *>(out->data), bytes, std::uint8_t{0});
        out->written = bytes;
        r->detail = 0;
        r->message[0] = '\0';
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
