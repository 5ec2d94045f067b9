// SPDX-License-Identifier: Apache-2.0
// Recipe point floor/rne (suites/RECIPES.md): the lesson's scale floor(log2(amax)) - 2 with
// nearest-even elements (OCP MX v1.0 and torchao's default ScaleCalculationMode.FLOOR), where the
// lesson's recipe (mxfp4_ocp) takes the first code of a tie: 0.75 * scale becomes 1.0, not 0.5,
// and a small negative value -0 (0x8), not +0.
#include "mutant_gguf_mxfp4_common.hpp"

namespace {
namespace mx = ninfer::mutants::gguf::mxfp4;
int scale_exponent(float amax) {
    float m = 0.0f;
    return mx::binade(amax, m) - 2;
}
struct M {
    static constexpr const char *name = "mutant_gguf_mxfp4_elements_rne";
    static constexpr const char *breaks = ninfer::suites::rule::lesson_mxfp4;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { mx::reencode(c, scale_exponent); }
};
}  // namespace

NINFER_MUTANT_V2(M)
