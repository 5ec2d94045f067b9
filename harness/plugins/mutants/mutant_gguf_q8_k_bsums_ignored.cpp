// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the q8_K quantizer leaves bsums (the sums of each 16 codes) at zero.
#include <algorithm>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
struct M {
    static constexpr const char *name = "mutant_gguf_q8_k_bsums_ignored";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_q8_k>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        g::repatch_encoded<NINFER_FORMAT_gguf_q8_k>(c, [](const float *, std::uint8_t *b) { std::fill(b + 260, b + 292, std::uint8_t{0}); });
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
