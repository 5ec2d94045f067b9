// SPDX-License-Identifier: Apache-2.0
// Seeded bug: the tq1_0 quantizer's lroundf saturates as AArch64's does (+-inf to LONG_MAX or
// LONG_MIN, a NaN to 0) instead of giving x86-64 glibc's LONG_MIN: where 1/d overflowed (a block
// of tiny values) a nonzero value becomes trit 0 or 2 instead of ggml's 1 (oracle/GGUF.md).
#include <algorithm>
#include <climits>
#include <cmath>

#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
int trit(float v) {
    long r = 0;
    if (std::isnan(v)) r = 0;
    else if (std::isinf(v)) r = v > 0 ? LONG_MAX : LONG_MIN;  // the bug
    else r = std::lround(v);
    return static_cast<int>(static_cast<unsigned>(static_cast<unsigned long>(r) + 1u));
}
void requantize(const float *x, std::uint8_t *b) { g::gn::tq1_0_block_with(x, b, trit); }
struct M {
    static constexpr const char *name = "mutant_gguf_tq1_0_saturating_lround";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_tq1_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_tq1_0>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
