// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that never compares the OUTPUT capacity with M x N words (the contract's
// step 4, NINFER_E_SIZE): it computes into a buffer of its own, copies what fits into the short
// OUTPUT plane and returns NINFER_OK.
#include <algorithm>
#include <vector>

#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_output_capacity_unchecked";
    static constexpr const char *breaks = ninfer::suites::rule::linear_shape;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear || c->rank != 2 || !c->outputs) return std::nullopt;
        ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_OUTPUT);
        if (!out) return std::nullopt;
        const auto *word = ninfer::abi::find_id(ninfer::abi::kWordFormats, out->format);
        const std::uint64_t width = word ? static_cast<std::uint64_t>(word->bytes()) : 0;
        std::uint64_t need = 0;
        if (!width || __builtin_mul_overflow(c->count, c->shape[0], &need) || __builtin_mul_overflow(need, width, &need) ||
            out->capacity >= need || need > (std::uint64_t{1} << 28))
            return std::nullopt;
        // The bug: the whole result goes to a private buffer, the plane takes what fits.
        std::vector<std::uint8_t> full(need);
        std::vector<ninfer_output_plane> outputs(c->outputs, c->outputs + c->output_count);
        for (auto &p : outputs)
            if (p.name == NINFER_PLANE_OUTPUT) p = {p.name, p.format, full.data(), need, 0};
        ninfer_call_v2 roomy = *c;
        roomy.outputs = outputs.data();
        try {
            const std::int32_t s = ninfer::reference::linear_call(&roomy, r);
            if (s != NINFER_OK) return s;
            const std::uint64_t fits = std::min(out->capacity, need);
            if (fits) std::copy_n(full.begin(), fits, static_cast<std::uint8_t *>(out->data));
            out->written = fits;
            return s;
        } catch (...) {
            return NINFER_E_INTERNAL;
        }
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
