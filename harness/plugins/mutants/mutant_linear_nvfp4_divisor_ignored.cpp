// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an nvfp4 GEMV that never divides by the row's weight divisor d_w (tensor-formats.txt
// 3.3: W = e2m1 * e4m3 / d_w): every output is d_w times too large.
#include "mutant_linear_common.hpp"

namespace {
std::uint32_t one(std::uint32_t) { return 0x3F800000u; }  // d_w read as 1.0
void patch(ninfer::reference::LinearRules &r) { r.nvfp4_divisor = one; }
bool applies(const ninfer_call_v2 *c) { return c->profile == NINFER_PROFILE_correctly_rounded && c->format == NINFER_FORMAT_nvfp4; }
struct M {
    static constexpr const char *name = "mutant_linear_nvfp4_divisor_ignored";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_correctly_rounded>;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::linear::serve_patched<patch, applies>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
