// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the nvfp4 scale plane's swizzle with rows and groups transposed in each
// 16-byte core: row n%128 = 32*b + a and group g sit at a*16 + (g%4)*4 + b instead of
// a*16 + b*4 + g%4 (storage-layouts.md Section 4), on every op that places or reads a scale.
#include "mutant_scaled_common.hpp"

namespace {
std::uint64_t transposed(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    const std::uint64_t row = n % 128;
    return ((n / 128) * (k / 64) + g / 4) * 512 + (row % 32) * 16 + (g % 4) * 4 + row / 32;
}
void patch(ninfer::reference::ScaledRules &r) { r.swizzle = transposed; }
struct M {
    static constexpr const char *name = "mutant_scaled_swizzle_transposed";
    static constexpr const char *breaks = ninfer::suites::rule::block_scale_swizzle;
    static constexpr const char *also_fails[] = {ninfer::mutants::scaled::kBlockScaleWide};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
