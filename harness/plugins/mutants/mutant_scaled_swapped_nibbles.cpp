// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the nvfp4 code plane holds the even element of a pair in the high
// nibble (storage-layouts.md Section 4: element 2i in the low nibble of byte i), on encode and decode.
#include "mutant_scaled_common.hpp"

namespace {
unsigned high_first(std::uint64_t i) { return i % 2 ? 0u : 4u; }
void patch(ninfer::reference::ScaledRules &r) { r.code_shift = high_first; }
struct M {
    static constexpr const char *name = "mutant_scaled_swapped_nibbles";
    static constexpr const char *breaks = ninfer::suites::rule::block_scale_code_plane;
    // No mismatch attribution for nvfp4 payloads yet (compare.cpp blames row_split only): the
    // nibble bug's own cases rank behind the rules with more payload bytes.
    static constexpr const char *also_fails[] = {ninfer::mutants::scaled::kBlockScaleWide};
    static constexpr int within_top = 6;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
