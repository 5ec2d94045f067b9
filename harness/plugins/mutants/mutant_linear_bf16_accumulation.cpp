// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the f32_accumulate reduction keeps its running sum in bf16 (each addition rounded
// to bf16, nearest-even) instead of binary32: far outside k u S (u = 2^-24) once K grows.
#include <bit>

#include "mutant_linear_common.hpp"
#include "scalar_codec.hpp"

namespace {
float bf16_sum(float s, float p) {
    const auto w = static_cast<std::uint32_t>(
        ninfer::reference::scalar_convert(NINFER_CONVERSION_fp32_to_bf16_rne, std::bit_cast<std::uint32_t>(s + p)));
    return std::bit_cast<float>(w << 16);
}
void patch(ninfer::reference::LinearRules &r) { r.accumulate = bf16_sum; }
bool applies(const ninfer_call_v2 *c) { return c->profile == NINFER_PROFILE_f32_accumulate; }
struct M {
    static constexpr const char *name = "mutant_linear_bf16_accumulation";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_forward_error_bound>;
    // linear.payload holds computed cases too (a valid negative grouped scale): a bug in this
    // profile's arithmetic shows there.
    static constexpr const char *also_fails[] = {"linear.payload"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
