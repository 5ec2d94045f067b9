// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q4_1 quantizer clamps the block's minimum to at most 0 (as the K-quants'
// make_qkx search does for their mins) instead of storing the minimum itself: a block of
// positive values gets m = 0 and a coarser d. Only a block of one sign shows it.
#include <algorithm>
#include <cfloat>
#include <cstdint>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

/// x86-64's cvttss2si, as ggml's release build converts (oracle/GGUF.md).
std::int32_t x86_int32(float v) {
    if (!(v > -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
    return static_cast<std::int32_t>(v);
}

void requantize(const float *x, std::uint8_t *b) {
    float min = FLT_MAX, max = -FLT_MAX;
    for (int j = 0; j < 32; ++j) {
        min = std::min(min, x[j]);
        max = std::max(max, x[j]);
    }
    min = std::min(min, 0.0f);  // the bug
    const float d = (max - min) / 15.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    ninfer::abi::store_le16(b, g::gn::f32_to_fp16(d));
    ninfer::abi::store_le16(b + 2, g::gn::f32_to_fp16(min));
    for (int j = 0; j < 16; ++j) {
        const int x0 = std::min(15, static_cast<int>(static_cast<std::int8_t>(x86_int32((x[j] - min) * id + 0.5f))));
        const int x1 = std::min(15, static_cast<int>(static_cast<std::int8_t>(x86_int32((x[j + 16] - min) * id + 0.5f))));
        b[4 + j] = static_cast<std::uint8_t>((x0 & 0xF) | (x1 & 0xF) << 4);
    }
}
struct M {
    static constexpr const char *name = "mutant_gguf_q4_1_min_clamped";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q4_1>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q4_1>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
