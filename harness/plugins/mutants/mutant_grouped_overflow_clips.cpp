// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax silently clips a scale that rounds to binary16 infinity to the
// largest finite 0x7BFF instead of failing (tensor-formats.txt Section 7.2).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static std::optional<std::uint16_t> overflow(std::uint16_t s) {
        return (s & 0x7C00u) == 0x7C00u ? std::uint16_t{0x7BFF} : s;
    }
};
struct M {
    static constexpr const char *name = "mutant_grouped_overflow_clips";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_scale_overflow;
    static constexpr const char *also_fails[] = {"grouped.absmax.scale_rounding"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
