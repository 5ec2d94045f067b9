// SPDX-License-Identifier: Apache-2.0
// Seeded bug: `linear` over fp16 weights under f32_accumulate (a kernel's fast path, its weight
// decode run with FTZ/DAZ on) flushes subnormal weight words to a zero of their sign instead of
// their exact values 2^-24 ...
#include <vector>

#include "mutant_linear_common.hpp"

namespace {

std::optional<std::int32_t> flushed(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r || c->op != NINFER_OP_linear || c->format != NINFER_FORMAT_fp16 || c->profile != NINFER_PROFILE_f32_accumulate)
        return std::nullopt;
    std::vector<ninfer_input_plane> inputs(c->inputs, c->inputs + c->input_count);
    std::vector<std::uint8_t> weights;
    for (auto &p : inputs)
        if (p.name == NINFER_PLANE_PAYLOAD && p.data) {
            weights.assign(static_cast<const std::uint8_t *>(p.data), static_cast<const std::uint8_t *>(p.data) + p.bytes);
            for (std::size_t i = 1; i < weights.size(); i += 2)
                if ((weights[i] & 0x7C) == 0) {  // exponent field 0: a zero or a subnormal
                    weights[i - 1] = 0;
                    weights[i] &= 0x80;  // the bug: the subnormal's sign kept, its value dropped
                }
            p.data = weights.data();
        }
    ninfer_call_v2 call = *c;
    call.inputs = inputs.data();
    return ninfer::mutants::linear::reference_linear(call, r);
}

struct M {
    static constexpr const char *name = "mutant_linear_flushes_fp16_weights";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_forward_error_bound>;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) { return flushed(c, r); }
};
}  // namespace

NINFER_MUTANT_V2(M)
