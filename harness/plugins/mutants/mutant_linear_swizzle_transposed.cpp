// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an nvfp4 GEMV that stages the scale tile with rows and groups transposed in each
// 16-byte core (row n%128 = 32*b + a, group g read at a*16 + (g%4)*4 + b instead of
// a*16 + b*4 + g%4; storage-layouts.md Section 4): every weight takes another row's scale.
#include "mutant_linear_common.hpp"

namespace {
std::uint64_t transposed(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    const std::uint64_t row = n % 128;
    return ((n / 128) * (k / 64) + g / 4) * 512 + (row % 32) * 16 + (g % 4) * 4 + row / 32;
}
const ninfer::reference::ScaledRules kTransposed = [] {
    ninfer::reference::ScaledRules s = ninfer::reference::kScaledRules;
    s.swizzle = transposed;
    return s;
}();
void patch(ninfer::reference::LinearRules &r) { r.scaled = &kTransposed; }
bool applies(const ninfer_call_v2 *c) { return c->profile == NINFER_PROFILE_f32_sequential && c->format == NINFER_FORMAT_nvfp4; }
struct M {
    static constexpr const char *name = "mutant_linear_swizzle_transposed";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_bit_exact>;
    // Another row's scale changes a weight's value or sign: the infinities of the non-finite
    // cases under this profile may change sign or meet a zero.
    static constexpr const char *also_fails[] = {"linear.nonfinite"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
