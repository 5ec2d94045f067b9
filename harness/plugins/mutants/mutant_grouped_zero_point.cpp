// SPDX-License-Identifier: Apache-2.0
// Seeded bug: quant_decode reads the stored word as offset binary with zero point 2^(b-1)
// (value = scale * (u - 2^(b-1)), the unsigned GPTQ/AWQ convention) instead of the
// zero-point-free signed code (tensor-formats.txt Sections 4-6).
#include "mutant_grouped_common.hpp"

namespace {

struct M {
    static constexpr const char *name = "mutant_grouped_zero_point";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_reconstruct_zero_point_free;
    static constexpr const char *also_fails[] = {"grouped.code.* grouped.group.* grouped.reconstruct* grouped.scale.*"};
    static void after(const ninfer_call *c, ninfer_result *r) {
        ninfer::mutants::grouped::rewrite_values(c, r, [](const auto &f, std::uint16_t s, int q) {
            namespace gn = ninfer::reference::grouped_codec;
            const int u = static_cast<int>(gn::code_word(f, q));
            const float v = std::bit_cast<float>(gn::f16_to_f32(s)) * static_cast<float>(u - (1 << (f.code_bits - 1)));
            return std::bit_cast<std::uint32_t>(v);
        });
    }
};
}  // namespace

NINFER_MUTANT(M)
