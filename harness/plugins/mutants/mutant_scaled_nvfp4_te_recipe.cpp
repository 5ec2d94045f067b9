// SPDX-License-Identifier: Apache-2.0
// Recipe point te/rne/reciprocal/rne (suites/RECIPES.md, "nvfp4"): Transformer Engine's NVFP4
// recipe (E4M3 block scales by static_cast, nearest-even) served as quant_encode
// nvfp4_two_level, the lesson's recipe (Example 15), which it is not.
#include "mutant_scaled_nvfp4_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_scaled_nvfp4_te_recipe";
    static constexpr const char *breaks = ninfer::suites::rule::lesson_nvfp4_two_level;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        ninfer::mutants::nvfp4::te_reencode<NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite>(c);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
