// SPDX-License-Identifier: Apache-2.0
// Seeded bug: an nvfp4 decoder (layout_decode, quant_decode) that walks the scale plane's
// 128-row x 4-group tiles along K first: of R x C tiles, tile (r, c) is read at c*R + r instead
// of r*C + c (storage-layouts.md Section 4). One tile row or one tile column cannot show it; a
// payload of two or more tiles both ways can. Encoding and the other ops are the reference's.
#include <vector>

#include "mutant_scaled_common.hpp"

namespace {
constexpr std::uint64_t kTileBytes = 512;

/// The payload as the bug reads it: each tile moved from c*R + r to r*C + c.
std::vector<std::uint8_t> tiles_walked_along_k(std::span<const std::uint8_t> p, std::uint64_t n, std::uint64_t k) {
    std::vector<std::uint8_t> q(p.begin(), p.end());
    const std::uint64_t at = n * k / 2, rows = n / 128, cols = k / 64;
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t c = 0; c < cols; ++c)
            std::copy_n(p.begin() + static_cast<std::ptrdiff_t>(at + (c * rows + r) * kTileBytes), kTileBytes,
                        q.begin() + static_cast<std::ptrdiff_t>(at + (r * cols + c) * kTileBytes));
    return q;
}

struct M {
    static constexpr const char *name = "mutant_scaled_decode_tile_order";
    static constexpr const char *breaks = ninfer::suites::rule::block_scale_swizzle;
    // A decoder's tile order shows on the 2 x 2-tile payloads of layout_decode (its rule) and
    // quant_decode (nvfp4.reconstruct, ranked first: more values per case).
    static constexpr const char *also_fails[] = {"nvfp4.reconstruct"};
    static constexpr int within_top = 2;
    static std::optional<std::int32_t> before(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
        if ((c->op != NINFER_OP_layout_decode && c->op != NINFER_OP_quant_decode) || c->format != NINFER_FORMAT_nvfp4 || c->rank != 2)
            return std::nullopt;
        const std::uint64_t n = c->shape[0], k = c->shape[1];
        const auto p = ninfer::mutants::v2::input_bytes(c, NINFER_PLANE_PAYLOAD);
        if (n == 0 || k == 0 || n % 128 != 0 || k % 64 != 0 || p.size() < n * k / 2 + n * k / 16) return std::nullopt;
        const auto q = tiles_walked_along_k(p, n, k);
        std::vector<ninfer_input_plane> in(c->inputs, c->inputs + c->input_count);
        for (auto &plane : in)
            if (plane.name == NINFER_PLANE_PAYLOAD) plane.data = q.data();
        ninfer_call_v2 call = *c;
        call.inputs = in.data();
        return ninfer::mutants::v2::reference_call(&call, r);
    }
};
}  // namespace

NINFER_MUTANT_V2(M)
