// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q8_0 reads its binary16 scale d as a bfloat16 word.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
void q8_0(const std::uint8_t *x, float *y) {
    const float d = std::bit_cast<float>(static_cast<std::uint32_t>(g::u16(x)) << 16);  // the bug
    for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(x[2 + j])) * d;
}
struct M {
    static constexpr const char *name = "mutant_gguf_fp16_scale_as_bf16";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q8_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::redecode<NINFER_FORMAT_gguf_q8_0>(c, q8_0); }
};
}  // namespace

NINFER_MUTANT_V2(M)
