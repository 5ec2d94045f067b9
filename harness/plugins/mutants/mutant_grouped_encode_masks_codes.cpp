// SPDX-License-Identifier: Apache-2.0
// Seeded bug: layout_encode masks an out-of-range code into the word instead of refusing it
// (q8 -128 stored as 0x80, t2 -2 as 0b10, q4 8 as 0x8): tensor-formats.txt Section 5 restricts
// Q8 to [-127, 127] and T2 to [-1, 1]; a code outside [qmin, qmax] has no word.
#include "mutant_grouped_common.hpp"

namespace {
namespace gn = ninfer::reference::grouped_codec;
struct M {
    static constexpr const char *name = "mutant_grouped_encode_masks_codes";
    static constexpr const char *breaks = ninfer::suites::rule::grouped_code_q8_0x80_illegal;
    // One refusal per format's code interval: each case is its format's own rule.
    static constexpr const char *also_fails[] = {"grouped.code.*"};
    static constexpr int within_top = 8;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        using namespace ninfer::mutants::grouped;
        const auto *f = payload_format(c);
        if (!f || c->op != NINFER_OP_layout_encode || (c->format_in != 0 && c->format_in != c->format)) return std::nullopt;
        const std::uint64_t n = c->shape[0], k = c->shape[1];
        const auto g = ninfer::oracle::row_split_geometry(*f, n, k);
        if (!g || c->in_bytes != n * k || c->aux_bytes != n * g->logical_groups * 2) return std::nullopt;
        const auto *q = static_cast<const std::int8_t *>(c->in);
        const auto *s = static_cast<const std::uint8_t *>(c->aux);
        gn::Matrix m{n, k, std::vector<std::int8_t>(q, q + n * k), {}};
        for (std::uint64_t i = 0; i < n * g->logical_groups; ++i) m.scales.push_back(ninfer::abi::load_le16(&s[2 * i]));
        std::vector<std::uint64_t> bad;
        for (std::uint64_t i = 0; i < n * k; ++i)
            if (m.codes[i] < f->qmin || m.codes[i] > f->qmax) {
                bad.push_back(i);
                m.codes[i] = 0;
            }
        if (bad.empty()) return std::nullopt;
        auto p = gn::encode_payload(*f, m);
        const auto G = static_cast<std::uint64_t>(f->group);
        for (const std::uint64_t i : bad) {
            const int code = q[i];
            // The code masked into the word's width (corrupt_code_word keeps its low code_bits).
            const auto word = static_cast<std::uint32_t>(f->encoding == ninfer::oracle::CodeEncoding::OFFSET ? code + 1 : code);
            ninfer::oracle::corrupt_code_word(*f, *g, p, i / k, i % k / G, i % k % G, word);
        }
        if (p.size() > c->out_bytes || !c->out) return ninfer::reference::refuse_call(r, NINFER_E_BUFFER, "output buffer too small");
        std::memcpy(c->out, p.data(), p.size());
        r->out_written = p.size();
        return NINFER_OK;
    }
};
}  // namespace

NINFER_MUTANT(M)
