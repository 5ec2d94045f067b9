// SPDX-License-Identifier: Apache-2.0
// Seeded bug: quant_decode converts the binary16 scale through BF16 (ties to even) before the
// multiply (tensor-formats.txt Section 6.2: such a decoder implements a different contract).
#include "mutant_grouped_common.hpp"

namespace {

struct M {
    static constexpr const char *name = "mutant_grouped_bf16_decode_scale";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_reconstruct_no_bf16_scale;
    static constexpr const char *also_fails[] = {"grouped.code.* grouped.reconstruct* grouped.scale.*"};
    static void after(const ninfer_call *c, ninfer_result *r) {
        ninfer::mutants::grouped::rewrite_values(c, r, [](const auto &, std::uint16_t s, int q) {
            std::uint32_t w = ninfer::reference::grouped_codec::f16_to_f32(s);
            w = (w + 0x7FFFu + ((w >> 16) & 1u)) & 0xFFFF0000u;
            return std::bit_cast<std::uint32_t>(std::bit_cast<float>(w) * static_cast<float>(q));
        });
    }
};
}  // namespace

NINFER_MUTANT(M)
