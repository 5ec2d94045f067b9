// SPDX-License-Identifier: Apache-2.0
// Recipe point rceil/rne (suites/RECIPES.md): NVIDIA's block scale (cuDNN "Block Scaling":
// scale = quantize_round_up(amax / 6); torchao's ScaleCalculationMode.RCEIL, amax * (1/6) in
// binary32 rounded up to a power of two), nearest-even elements, on the lesson's recipe (mxfp4_ocp).
#include "mutant_gguf_mxfp4_common.hpp"

namespace {
namespace mx = ninfer::mutants::gguf::mxfp4;
int scale_exponent(float amax) {
    float m = 0.0f;
    const int f = mx::binade(amax * (1.0f / 6.0f), m);
    return f + (m != 1.0f ? 1 : 0);
}
struct M {
    static constexpr const char *name = "mutant_gguf_mxfp4_scale_rceil";
    static constexpr const char *breaks = ninfer::suites::rule::lesson_mxfp4;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { mx::reencode(c, scale_exponent); }
};
}  // namespace

NINFER_MUTANT_V2(M)
