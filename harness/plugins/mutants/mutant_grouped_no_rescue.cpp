// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax stores a raw scale that rounds to binary16 zero as +0 with zero
// codes instead of the 0x0001 rescue (tensor-formats.txt Section 7.2).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static std::uint16_t rescue(std::uint16_t s) { return s; }
};
struct M {
    static constexpr const char *name = "mutant_grouped_no_rescue";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_absmax_rescue;
    static constexpr const char *also_fails[] = {"grouped.absmax.bit_exact grouped.group.partial"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
