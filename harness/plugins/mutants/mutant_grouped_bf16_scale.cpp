// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax rounds raw_scale32 to BF16 (ties to even) before binary16, a
// double rounding that loses the binary16 fraction bits below BF16's seventh (Section 7.2:
// scale16 = round_f16(raw_scale32)).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static std::uint16_t scale16(float raw) {
        std::uint32_t w = std::bit_cast<std::uint32_t>(raw);
        w = (w + 0x7FFFu + ((w >> 16) & 1u)) & 0xFFFF0000u;
        return ninfer::mutants::grouped::AbsmaxSteps::scale16(std::bit_cast<float>(w));
    }
};
struct M {
    static constexpr const char *name = "mutant_grouped_bf16_scale";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_scale_rounding;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.group.* row_split.padding"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
