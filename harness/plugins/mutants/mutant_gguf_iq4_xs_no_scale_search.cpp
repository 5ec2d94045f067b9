// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq4_xs quantizes with ntry 0 (quantize_row_iq4_nl_ref's path widened by one
// step) instead of ggml's ntry 7: the sub-block scale search tries one inverse scale, not 15.
#include "mutant_gguf_common.hpp"
#include "gguf_quantize_iq4.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

void requantize(const float *x, std::uint8_t *b) { g::gn::iq4_block(256, 0, x, b); }  // the bug: ntry 0
struct M {
    static constexpr const char *name = "mutant_gguf_iq4_xs_no_scale_search";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_iq4_xs>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) { g::repatch_encoded<NINFER_FORMAT_gguf_iq4_xs>(c, requantize); }
};
}  // namespace

NINFER_MUTANT_V2(M)
