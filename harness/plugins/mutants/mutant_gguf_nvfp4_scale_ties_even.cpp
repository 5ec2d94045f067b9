// SPDX-License-Identifier: Apache-2.0
// Seeded bug: ggml's nvfp4 quantizer rounds amax / 6 to UE4M3 nearest-even instead of
// ggml_fp32_to_ue4m3's half up on bit 19: a quotient exactly between two scales (amax 6.375:
// 1.0625 between 1 and 1.125) takes the even one.
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
std::uint8_t ue4m3_even(float v) {
    if (!(v > 0.0f)) return 0;
    v = std::min(v, 448.0f);
    const auto bits = std::bit_cast<std::uint32_t>(v);
    int exp = static_cast<int>((bits >> 23) & 0xFF) - 120;
    if (exp <= 0) return static_cast<std::uint8_t>(std::clamp(static_cast<int>(v * 512.0f + 0.5f), 0, 7));
    const std::uint32_t rest = bits & 0x7FFFFu;
    int man = static_cast<int>((bits >> 20) & 7);
    if ((bits >> 19) & 1 && (rest != 0 || (man & 1))) ++man;  // the bug: ties to even
    if (man > 7) man = 0, ++exp;
    return exp >= 15 ? 0x7E : static_cast<std::uint8_t>(exp << 3 | man);
}
void requantize(const float *x, std::uint8_t *b) { g::gn::nvfp4_block_with(x, b, ue4m3_even); }
struct M {
    static constexpr const char *name = "mutant_gguf_nvfp4_scale_ties_even";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_nvfp4>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_nvfp4>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
