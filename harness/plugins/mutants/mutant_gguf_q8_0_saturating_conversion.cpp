// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q8_0 quantizer converts roundf(x * id) to an integer as AArch64's fcvtzs does
// (a NaN to 0, beyond the int32 range to INT32_MAX or INT32_MIN) instead of as ggml's x86-64
// release build does (cvttss2si: 0x80000000). The codes differ only where 1/d overflowed: a
// block of tiny values (oracle/GGUF.md, "Blocks whose inverse scale overflows").
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

/// fcvtzs: saturating, a NaN to 0.
std::int32_t saturating_int32(float v) {
    if (v != v) return 0;
    if (v >= 2147483648.0f) return INT32_MAX;
    if (v < -2147483648.0f) return INT32_MIN;
    return static_cast<std::int32_t>(v);
}

void requantize(const float *x, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    const std::uint16_t h = g::gn::f32_to_fp16(d);
    b[0] = static_cast<std::uint8_t>(h);
    b[1] = static_cast<std::uint8_t>(h >> 8);
    for (int j = 0; j < 32; ++j) b[2 + j] = static_cast<std::uint8_t>(saturating_int32(std::round(x[j] * id)) & 0xFF);  // the bug
}
struct M {
    static constexpr const char *name = "mutant_gguf_q8_0_saturating_conversion";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q8_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_q8_0>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
