// SPDX-License-Identifier: Apache-2.0
// Seeded bug: a GEMV that ignores M > 1 (f32_accumulate): it checks the call as the contract
// says, computes activation row 0 and writes that row's result into every one of the M output
// rows, as a kernel written for one activation vector that is launched once per batch.
#include <algorithm>

#include "mutant_linear_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_linear_ignores_m";
    static constexpr const char *breaks = ninfer::suites::rule::linear_criterion_id<NINFER_CRITERION_forward_error_bound>;
    // Row 0 repeated: the non-finite cases with two activation rows (NaN in row 1) fail too.
    static constexpr const char *also_fails[] = {"linear.nonfinite"};
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (!r || c->op != NINFER_OP_linear || c->profile != NINFER_PROFILE_f32_accumulate || c->count < 2) return std::nullopt;
        const std::int32_t s = ninfer::mutants::v2::reference_call(c, r);
        if (s != NINFER_OK) return s;
        // The bug: row 0's N words in every row.
        const auto out = ninfer::mutants::v2::output_bytes(c, NINFER_PLANE_OUTPUT);
        const std::size_t row = out.size() / static_cast<std::size_t>(c->count);
        for (std::uint64_t m = 1; m < c->count; ++m) std::copy_n(out.begin(), row, out.begin() + static_cast<std::ptrdiff_t>(m * row));
        return s;
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
