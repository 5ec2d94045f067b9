// SPDX-License-Identifier: Apache-2.0
// Seeded bug: ggml's mxfp4 quantizer (ggml_quantize_ref on gguf_mxfp4) takes the scale exponent
// from the exact floor(log2(amax)) (the binary exponent, as the lesson's recipe mxfp4_ocp does)
// instead of floorf(log2f(amax)): an amax a few ulps below a power of two, whose log2f rounds
// up to the integer, gets a scale one exponent too small.
#include <algorithm>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    int exp2 = 0;
    (void)std::frexp(amax, &exp2);  // the bug: the exact floor(log2(amax)) is exp2 - 1
    const int e = amax > 0.0f ? (exp2 - 1 - 2 + 127) & 0xFF : 0;
    b[0] = static_cast<std::uint8_t>(e);
    const float d = e < 2 ? std::bit_cast<float>(0x00200000u << e) : std::bit_cast<float>(static_cast<std::uint32_t>(e - 1) << 23);
    for (int j = 0; j < 16; ++j)
        b[1 + j] = static_cast<std::uint8_t>(g::gn::best_index_mxfp4(x[j], d) | g::gn::best_index_mxfp4(x[j + 16], d) << 4);
}
struct M {
    static constexpr const char *name = "mutant_gguf_mxfp4_exact_log2";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_mxfp4>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        if (c->method == NINFER_ENCODER_ggml_quantize_ref) g::repatch_encoded<NINFER_FORMAT_gguf_mxfp4>(c, requantize);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
