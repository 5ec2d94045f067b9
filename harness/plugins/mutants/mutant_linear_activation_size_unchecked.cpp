// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that checks only that the ACTIVATION plane holds at least M x K words, not
// exactly (the contract's step 4, NINFER_E_SIZE): a longer plane is read up to M x K and the
// call succeeds.
#include <vector>

#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_activation_size_unchecked";
    static constexpr const char *breaks = ninfer::suites::rule::linear_shape;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear || c->rank != 2) return std::nullopt;
        const ninfer_input_plane *act = ninfer_find_input(c, NINFER_PLANE_ACTIVATION);
        if (!act) return std::nullopt;
        const std::uint64_t width = act->format == NINFER_FORMAT_fp32 ? 4 : act->format == NINFER_FORMAT_bf16 || act->format == NINFER_FORMAT_fp16 ? 2 : 0;
        std::uint64_t need = 0;
        if (!width || __builtin_mul_overflow(c->count, c->shape[1], &need) || __builtin_mul_overflow(need, width, &need) ||
            act->bytes <= need)
            return std::nullopt;
        // The bug: the surplus is ignored.
        std::vector<ninfer_input_plane> inputs(c->inputs, c->inputs + c->input_count);
        for (auto &p : inputs)
            if (p.name == NINFER_PLANE_ACTIVATION) p.bytes = need;
        ninfer_call_v2 trimmed = *c;
        trimmed.inputs = inputs.data();
        return ninfer::mutants::linear::reference_linear(trimmed, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
