// SPDX-License-Identifier: Apache-2.0
// Seeded bug: q8_0 steps through a row's blocks 33 bytes apart instead of 34 (block stride off
// by one): the first block decodes right, every later one from shifted bytes.
#include "mutant_gguf_common.hpp"

namespace {
namespace g = ninfer::mutants::gguf;
struct M {
    static constexpr const char *name = "mutant_gguf_block_stride";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_decode_id<NINFER_FORMAT_gguf_q8_0>;
    static void after(const ninfer_call_v2 *c, ninfer_result_v2 *) {
        if (c->op != NINFER_OP_quant_decode || c->format != NINFER_FORMAT_gguf_q8_0) return;
        const auto in = ninfer::mutants::v2::input_bytes(c, NINFER_PLANE_PAYLOAD);
        const auto out = ninfer::mutants::v2::output_bytes(c, NINFER_PLANE_VALUES);
        const std::uint64_t blocks = in.size() / 34;
        if (out.size() < blocks * 128) return;
        for (std::uint64_t i = 0; i < blocks; ++i) {
            const std::uint8_t *x = in.data() + i * 33;  // the bug: stride 33
            const float d = g::half_at(x);
            for (int j = 0; j < 32; ++j) g::put(out, 32 * i + j, static_cast<float>(static_cast<std::int8_t>(x[2 + j])) * d);
        }
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
