// SPDX-License-Identifier: Apache-2.0
// Seeded bug: grouped_absmax clamps Q8 codes to the full byte range [-128, 127], so a value that
// rounds to -128 is stored as the illegal word 0x80 (tensor-formats.txt Sections 5 and 7.2).
#include "mutant_grouped_common.hpp"

namespace {
struct Steps : ninfer::mutants::grouped::AbsmaxSteps {
    static int code(const ninfer::oracle::GroupedFormat &f, float v) {
        // The clamp of the word's full two's-complement range where the format has an illegal
        // word below qmin (Q8: -128, the code of 0x80).
        const float lo = f.illegal_word >= 0 && f.encoding == ninfer::oracle::CodeEncoding::TWOS
                             ? -static_cast<float>(1 << (f.code_bits - 1))
                             : static_cast<float>(f.qmin);
        return static_cast<int>(std::clamp(std::nearbyint(v), lo, static_cast<float>(f.qmax)));
    }
};
struct M {
    static constexpr const char *name = "mutant_grouped_q8_minus128";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_code_q8_never_emitted;
    static constexpr const char *also_fails[] = {"grouped.absmax.* grouped.group.*"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        return ninfer::mutants::grouped::absmax_call<Steps>(c, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
