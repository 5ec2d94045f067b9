// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the nvfp4 scale plane swizzled in tiles of 64 rows x 4 groups (256 bytes)
// instead of 128 x 4 (512 bytes; storage-layouts.md Section 4), on every op that places or reads a scale.
#include "mutant_scaled_common.hpp"

namespace {
std::uint64_t tile64(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    const std::uint64_t row = n % 64;
    return ((n / 64) * (k / 64) + g / 4) * 256 + (row % 32) * 8 + (row / 32) * 4 + g % 4;
}
void patch(ninfer::reference::ScaledRules &r) { r.swizzle = tile64; }
struct M {
    static constexpr const char *name = "mutant_scaled_swizzle_tile64";
    static constexpr const char *breaks = ninfer::suites::rule::block_scale_swizzle;
    static constexpr const char *also_fails[] = {ninfer::mutants::scaled::kBlockScaleWide};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
