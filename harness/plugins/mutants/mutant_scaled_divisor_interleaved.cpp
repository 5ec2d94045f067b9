// SPDX-License-Identifier: Apache-2.0
// Seeded bug: row n of an nvfp4 tensor with D stacked source matrices takes divisor
// n % D (rows dealt round-robin) instead of floor(n / (N / D)) (tensor-formats.txt 3.3, storage-layouts.md
// Section 4), in the reconstruction and in the runs of a row selection.
#include "mutant_scaled_common.hpp"

namespace {
std::uint64_t round_robin(std::uint64_t n, std::uint64_t, std::uint64_t divisors) { return n % divisors; }
void patch(ninfer::reference::ScaledRules &r) { r.divisor_of_row = round_robin; }
struct M {
    static constexpr const char *name = "mutant_scaled_divisor_interleaved";
    static constexpr const char *breaks = ninfer::suites::rule::nvfp4_divisor_row_owner;
    static constexpr const char *also_fails[] = {"nvfp4.reconstruct block_scale.slice block_scale.gather"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        return ninfer::mutants::scaled::serve_patched<patch>(c, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
