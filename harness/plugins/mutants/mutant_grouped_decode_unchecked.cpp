// SPDX-License-Identifier: Apache-2.0
// Seeded bug: quant_decode decodes without validating (q8 0x80 returned as -128, t2 0b10 as -2,
// an infinite scale giving infinite values): the decode contract (harness/README.md) refuses
// every payload payload_validate refuses (tensor-formats.txt Section 6: Inf and NaN scales are invalid).
#include "mutant_grouped_common.hpp"

namespace {
namespace gn = ninfer::reference::grouped_codec;
struct M {
    static constexpr const char *name = "mutant_grouped_decode_unchecked";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_scale_validity;
    static constexpr const char *also_fails[] = {
        "grouped.code.q8_0x80_illegal grouped.code.t2_0b10_illegal grouped.scale.* row_split.padding"};
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants::grouped;
        const auto *f = payload_format(c);
        if (!f || c->op != NINFER_OP_quant_decode) return std::nullopt;
        const std::uint64_t n = c->shape[0], k = c->shape[1];
        const auto g = ninfer::oracle::row_split_geometry(*f, n, k);
        if (!g || c->in_bytes != g->payload_bytes) return std::nullopt;
        const auto G = static_cast<std::uint64_t>(f->group);
        const std::span<const std::uint8_t> p(static_cast<const std::uint8_t *>(c->in), c->in_bytes);
        if (c->out_bytes < n * k || c->out2_bytes < n * g->logical_groups * 2 || c->out3_bytes < n * k * 4) return std::nullopt;
        auto *codes = static_cast<std::int8_t *>(c->out);
        auto *scales = static_cast<std::uint8_t *>(c->out2);
        for (std::uint64_t row = 0; row < n; ++row) {
            for (std::uint64_t grp = 0; grp < g->logical_groups; ++grp) {
                const std::uint64_t at = ninfer::oracle::row_split_scale_at(*g, row, grp);
                scales[2 * (row * g->logical_groups + grp)] = p[at];
                scales[2 * (row * g->logical_groups + grp) + 1] = p[at + 1];
            }
            for (std::uint64_t col = 0; col < k; ++col)
                codes[row * k + col] = static_cast<std::int8_t>(raw_code(*f, ninfer::oracle::row_split_lane_word(*f, *g, p, row, col / G, col % G)));
        }
        for (std::uint64_t row = 0; row < n; ++row)
            for (std::uint64_t col = 0; col < k; ++col) {
                const std::uint64_t at = 2 * (row * g->logical_groups + col / G);
                const auto s = ninfer::abi::load_le16(&scales[at]);
                ninfer::mutants::store_word(c->out3, row * k + col, 4, gn::reconstruct(s, codes[row * k + col]));
            }
        r->out_written = n * k;
        r->out2_written = n * g->logical_groups * 2;
        r->out3_written = n * k * 4;
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
