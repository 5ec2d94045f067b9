// SPDX-License-Identifier: Apache-2.0
// Seeded bug: under correctly_rounded, a bf16 or fp16 OUTPUT is the correctly rounded binary32
// result rounded again to the output format (nearest-even): a double rounding, right on exact
// ties and wrong where the exact result lies within half a binary32 ulp of an output midpoint.
#include <vector>

#include "mutant_linear_common.hpp"
#include "scalar_codec.hpp"
#include "ninfer/abi/bytes.hpp"

namespace {

std::optional<std::int32_t> round_twice(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r || c->op != NINFER_OP_linear || c->profile != NINFER_PROFILE_correctly_rounded) return std::nullopt;
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_OUTPUT);
    if (!out || !out->data || (out->format != NINFER_FORMAT_bf16 && out->format != NINFER_FORMAT_fp16)) return std::nullopt;
    // The same call with a binary32 OUTPUT of twice the capacity, then each word rounded again.
    std::vector<std::uint8_t> wide(out->capacity * 2);
    std::vector<ninfer_output_plane> outputs(c->outputs, c->outputs + c->output_count);
    for (auto &p : outputs)
        if (p.name == NINFER_PLANE_OUTPUT) p = {p.name, NINFER_FORMAT_fp32, wide.data(), wide.size(), 0};
    ninfer_call_v2 f32 = *c;
    f32.outputs = outputs.data();
    if (const std::int32_t st = ninfer::mutants::linear::reference_linear(f32, r); st != NINFER_OK) return st;
    const std::uint64_t words = ninfer_find_output(&f32, NINFER_PLANE_OUTPUT)->written / 4;
    const std::uint32_t conversion =
        out->format == NINFER_FORMAT_bf16 ? NINFER_CONVERSION_fp32_to_bf16_rne : NINFER_CONVERSION_fp32_to_fp16_rne;
    auto *o = static_cast<std::uint8_t *>(out->data);
    for (std::uint64_t i = 0; i < words; ++i) {
        const std::uint64_t w = ninfer::abi::load_le32(&wide[4 * i]);
        const std::uint64_t h = ninfer::reference::scalar_convert(conversion, w);  // the bug: a second rounding
        ninfer::abi::store_le(&o[2 * i], h, 2);
    }
    out->written = 2 * words;
    return NINFER_OK;
}

struct M {
    static constexpr const char *name = "mutant_linear_rounds_through_f32";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_correctly_rounded>;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) { return round_twice(c, r); }
};
}  // namespace

NINFER_MUTANT_V2(M)
