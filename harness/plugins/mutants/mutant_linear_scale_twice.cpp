// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that applies the weight's scale twice (once when dequantizing, once more
// on the product: s * s * q) for the grouped formats and the FP8 row formats.
#include "mutant_linear_common.hpp"
#include "scaled_codec.hpp"

namespace {
double scaled_twice(double code, double scale) { return code * scale * scale; }
void patch(ninfer::reference::LinearRules &r) { r.apply_scale = scaled_twice; }
bool applies(const ninfer_call_v2 *c) {
    return c->profile == NINFER_PROFILE_correctly_rounded &&
           (ninfer::mutants::linear::grouped_weight(c) || ninfer::reference::fp8_row_known(c->format));
}
struct M {
    static constexpr const char *name = "mutant_linear_scale_twice";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_correctly_rounded>;
    // linear.payload holds computed cases too (a valid negative grouped scale): a bug in this
    // profile's arithmetic shows there.
    // A weight's value changes: the infinities of the non-finite cases under this
    // profile may change sign or meet a zero.
    static constexpr const char *also_fails[] = {"linear.payload linear.nonfinite"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
