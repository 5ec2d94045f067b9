// SPDX-License-Identifier: Apache-2.0
// Seeded bug: iq4_nl answers a block whose every |x| is below GROUP_MAX_EPS (1e-15f) with a
// nonzero scale, d = 0x0001 (binary16's least subnormal, a producer's guard against a zero
// divisor) and every code 8, so the block decodes to 2^-24 where ggml's block (d = 0, codes
// undefined) decodes to zeros; the refusal and ggml's zero scale both conform
// (oracle/GGUF.md, "iq4_nl and iq4_xs").
#include <algorithm>
#include <cstring>
#include <vector>

#include "mutant_gguf_common.hpp"
#include "gguf_quantize_iq4.hpp"

namespace {
namespace g = ninfer::mutants::gguf;

/// The whole payload, each block the reference's bytes or, below the threshold, d 0x0001 and codes 8.
bool encode_every_block(const ninfer_call_v2 *c) {
    const auto src = ninfer::mutants::v2::input_bytes(c, NINFER_PLANE_SOURCE);
    ninfer_output_plane *payload = ninfer_find_output(c, NINFER_PLANE_PAYLOAD);
    if (!payload || !payload->data || src.size() % 128) return false;
    const std::size_t blocks = src.size() / 128;
    if (payload->capacity < blocks * 18) return false;
    std::vector<float> x(src.size() / 4);
    std::memcpy(x.data(), src.data(), src.size());
    auto *out = static_cast<std::uint8_t *>(payload->data);
    for (std::size_t i = 0; i < blocks; ++i) {
        std::uint8_t *b = out + 18 * i;
        if (!g::gn::iq4_block(32, -1, x.data() + 32 * i, b)) {
            b[0] = 1;  // the bug: d = 0x0001, not a zero
            b[1] = 0;
            std::fill(b + 2, b + 18, std::uint8_t{0x88});
        }
    }
    payload->written = blocks * 18;
    return true;
}

struct M {
    static constexpr const char *name = "mutant_gguf_iq4_nl_encodes_below_eps";
    static constexpr const char *breaks = ninfer::suites::rule::gguf_quantize_id<NINFER_FORMAT_gguf_iq4_nl>;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if (c->op != NINFER_OP_quant_encode || c->format != NINFER_FORMAT_gguf_iq4_nl || c->method != NINFER_ENCODER_ggml_quantize_ref)
            return std::nullopt;
        const std::int32_t status = ninfer::mutants::v2::reference_call(c, r);
        if (status != NINFER_E_METHOD || !encode_every_block(c)) return status;
        r->message[0] = '\0';
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
