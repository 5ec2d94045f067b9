// SPDX-License-Identifier: Apache-2.0
// ggml's 4-bit non-linear reference quantizers (ggml-quants.c quantize_row_iq4_nl_ref and
// quantize_row_iq4_xs_ref, both through quantize_row_iq4_nl_impl without an importance matrix;
// the gguf_* paragraph of tensor-formats.txt): every binary32 operation in ggml's order, rounded
// once by the exact oracle (gguf_internal.hpp), never by host float arithmetic. The code book is
// kvalues_iq4nl of the project's ggml tables.
//
// Readings (oracle/GGUF.md, "iq4_nl and iq4_xs"):
// - iq4_nl (ntry -1) skips a block whose largest magnitude is below GROUP_MAX_EPS and then packs
//   its codes from an array it never wrote: such a block is refused (NINFER_E_METHOD), and ggml's
//   own block, d = 0 with any codes, is the partial outcome the suite accepts besides.
// - A NaN that a finite block's arithmetic makes (inf - inf, inf / inf) is x86's default NaN
//   0xFFC00000: its binary16 image, where ggml stores it as d, is 0xFE00.
#include <array>
#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/gguf_fields.hpp"
#include "gguf_internal.hpp"
#include "ninfer/oracle/ggml_tables.hpp"

namespace ninfer::oracle::gguf_detail {

namespace {

using B = Binary32;
using W = std::uint32_t;
namespace F = ninfer::oracle::block_fields;

constexpr W kZero = 0, kOne = 0x3F800000u, kSign = 0x80000000u;
constexpr W kGroupMaxEps = 0x26901D7Du;  // GROUP_MAX_EPS = 1e-15f, the binary32 nearest 1e-15
constexpr int kSubBlock = 32;            // quantize_row_iq4_nl_impl's block_size for both types

bool is_nan_word(W w) { return (w & 0x7FFFFFFFu) > 0x7F800000u; }
bool nonzero(W w) { return (w & 0x7FFFFFFFu) != 0; }  // C's truth value of a float (NaN true)

/// kvalues_iq4nl[l] as a binary32 word (C's int8-to-float conversion, exact).
W code_value(int l) {
    static const std::array<W, 16> words = [] {
        std::array<W, 16> w{};
        for (int i = 0; i < 16; ++i) w[static_cast<std::size_t>(i)] = B::num(ggml::kvalues_iq4nl[static_cast<std::size_t>(i)]);
        return w;
    }();
    return words[static_cast<std::size_t>(l)];
}

/// ggml's best_index_int8(16, kvalues_iq4nl, x): the ends, a bisection, then the nearer
/// neighbour (the upper one on ties). Comparisons are IEEE's: a NaN x reaches index 15.
int best_index(W x) {
    if (!is_nan_word(x) && !B::less(code_value(0), x)) return 0;   // x <= val[0]
    if (!is_nan_word(x) && !B::less(x, code_value(15))) return 15;  // x >= val[15]
    int ml = 0, mu = 15;
    while (mu - ml > 1) {
        const int mav = (ml + mu) / 2;
        if (B::less(x, code_value(mav)))
            mu = mav;
        else
            ml = mav;
    }
    return B::less(B::sub(x, code_value(mu - 1)), B::sub(code_value(mu), x)) ? mu - 1 : mu;
}

/// GGML_FP32_TO_FP16 of a word that may be an arithmetic NaN: x86's default NaN (sign set).
std::uint16_t fp16_x86(W w) { return is_nan_word(w) ? std::uint16_t{0xFE00} : B::to_fp16(w); }

/// The weighted sums of one sub-block's codes at inverse scale id: sum w*q*x and sum w*q*q
/// (w = x*x), the codes into L when it is given.
void weighted_sums(const W *xb, W id, W &sumqx, W &sumq2, std::uint8_t *L) {
    sumqx = kZero;
    sumq2 = kZero;
    for (int j = 0; j < kSubBlock; ++j) {
        const int l = best_index(B::mul(id, xb[j]));
        if (L) L[j] = static_cast<std::uint8_t>(l);
        const W q = code_value(l), w = B::mul(xb[j], xb[j]);
        sumqx = B::add(sumqx, B::mul(B::mul(w, q), xb[j]));
        sumq2 = B::add(sumq2, B::mul(B::mul(w, q), q));
    }
}

/// One sub-block's scale (quantize_row_iq4_nl_impl's loop body): the least-squares scale of the
/// codes at d = max / kvalues[0] (ntry > 0: -max / kvalues[0]), then ntry steps either side of
/// -kvalues[0] / max kept when they fit better. False when amax < GROUP_MAX_EPS (scale 0, no
/// codes written).
bool sub_block_scale(const W *xb, int ntry, W &scale, std::uint8_t *L) {
    W amax = kZero, max = kZero;
    for (int j = 0; j < kSubBlock; ++j)
        if (B::less(amax, B::abs(xb[j]))) {
            amax = B::abs(xb[j]);
            max = xb[j];
        }
    scale = kZero;
    if (B::less(amax, kGroupMaxEps)) return false;
    const W d0 = B::div(ntry > 0 ? max ^ kSign : max, code_value(0));
    W sumqx = kZero, sumq2 = kZero;
    weighted_sums(xb, B::div(kOne, d0), sumqx, sumq2, L);
    W d = B::less(kZero, sumq2) ? B::div(sumqx, sumq2) : kZero;
    W best = B::mul(d, sumqx);
    for (int itry = -ntry; itry <= ntry; ++itry) {
        weighted_sums(xb, B::div(B::num(itry + ggml::kvalues_iq4nl[0]), max), sumqx, sumq2, nullptr);
        if (B::less(kZero, sumq2) && B::less(B::mul(best, sumq2), B::mul(sumqx, sumqx))) {
            d = B::div(sumqx, sumq2);
            best = B::mul(d, sumqx);
        }
    }
    scale = d;
    return true;
}

/// iq4_xs's super-block: d = -max_scale / 32, 6-bit sub-block scales l + 32 (low nibbles in
/// scales_l, high 2 bits in scales_h), codes re-chosen at each sub-block's d * l.
void super_block_scales(const W *x, const W *scales, W max_scale, std::vector<std::uint8_t> &y, std::uint8_t *L) {
    const int nb = static_cast<int>(y.size() - 8) * 2 / kSubBlock;
    const W d = B::div(max_scale ^ kSign, B::num(32));
    const std::uint16_t dh = fp16_x86(d);
    abi::store_le16(y.data() + field_at(F::gguf_iq4_xs, "d"), dh);
    const W id = nonzero(d) ? B::div(kOne, d) : kZero;
    std::uint16_t scales_h = 0;
    for (int ib = 0; ib < nb; ++ib) {
        const int l = std::max(-32, std::min(31, nearest_int(B::mul(id, scales[ib]))));
        const W dl = B::mul(d, B::num(l));
        const W idl = nonzero(dl) ? B::div(kOne, dl) : kZero;
        for (int j = 0; j < kSubBlock; ++j) L[kSubBlock * ib + j] = static_cast<std::uint8_t>(best_index(B::mul(idl, x[kSubBlock * ib + j])));
        const int ls = l + 32;
        y[field_at(F::gguf_iq4_xs, "scales_l") + static_cast<std::size_t>(ib / 2)] |= static_cast<std::uint8_t>((ls & 0xF) << (4 * (ib % 2)));
        scales_h = static_cast<std::uint16_t>(scales_h | (ls >> 4) << (2 * (ib % 8)));
    }
    abi::store_le16(y.data() + field_at(F::gguf_iq4_xs, "scales_h"), scales_h);
}

/// quantize_row_iq4_nl_impl(super, 32, x, ..., kvalues_iq4nl, NULL, ntry) of one block.
GgufQuantized iq4_impl(std::span<const W> x, int ntry, const char *name) {
    GgufQuantized out;
    const int super = static_cast<int>(x.size()), nb = super / kSubBlock;
    out.block.assign(nb > 1 ? block_size(F::gguf_iq4_xs) : block_size(F::gguf_iq4_nl), 0);
    std::vector<std::uint8_t> L(static_cast<std::size_t>(super), 0);
    std::vector<W> scales(static_cast<std::size_t>(nb), kZero);
    W max_scale = kZero, amax_scale = kZero;
    bool codes_written = true;
    for (int ib = 0; ib < nb; ++ib) {
        codes_written &= sub_block_scale(x.data() + kSubBlock * ib, ntry, scales[static_cast<std::size_t>(ib)], L.data() + kSubBlock * ib);
        const W abs_d = B::abs(scales[static_cast<std::size_t>(ib)]);
        if (B::less(amax_scale, abs_d)) {
            amax_scale = abs_d;
            max_scale = scales[static_cast<std::size_t>(ib)];
        }
    }
    if (nb > 1) {
        super_block_scales(x.data(), scales.data(), max_scale, out.block, L.data());
    } else {
        if (ntry <= 0 && !codes_written) {  // ggml packs L[] it never wrote: no defined bytes
            out.status = NINFER_E_METHOD;
            out.message = fmt::format("{}: every |x| is below GROUP_MAX_EPS (1e-15f); ggml's quantizer stores codes it never "
                                      "computed (oracle/GGUF.md, iq4_nl and iq4_xs)", name);
            out.block.clear();
            out.partial.assign(block_size(F::gguf_iq4_nl), 0);  // d = binary16 +0, as ggml stores it
            out.partial_mask.assign(out.partial.size(), 0);
            const std::size_t d = field_at(F::gguf_iq4_nl, "d");
            out.partial_mask[d] = 0xFF;      // d's low byte
            out.partial_mask[d + 1] = 0x7F;  // d's high byte but its sign: -0 decodes every value to a zero too
            return out;
        }
        const std::uint16_t dh = fp16_x86(scales[0]);
        abi::store_le16(&out.block[field_at(F::gguf_iq4_nl, "d")], dh);
        if (ntry > 0) {
            const W id = nonzero(scales[0]) ? B::div(kOne, scales[0]) : kZero;
            for (int j = 0; j < super; ++j) L[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(best_index(B::mul(id, x[static_cast<std::size_t>(j)])));
        }
    }
    const std::size_t qs = nb > 1 ? field_at(F::gguf_iq4_xs, "qs") : field_at(F::gguf_iq4_nl, "qs");
    for (int i = 0; i < super / 32; ++i)
        for (int j = 0; j < 16; ++j)
            out.block[qs + static_cast<std::size_t>(16 * i + j)] =
                static_cast<std::uint8_t>(L[static_cast<std::size_t>(32 * i + j)] | L[static_cast<std::size_t>(32 * i + 16 + j)] << 4);
    return out;
}

}  // namespace

// quantize_row_iq4_nl_ref passes ntry -1 (one least-squares scale, no search); quantize_row_iq4_xs_ref
// goes through quantize_iq4_xs, ntry 7.
GgufQuantized quantize_ref::gguf_iq4_nl(std::span<const std::uint32_t> x) { return iq4_impl(x, -1, "iq4_nl"); }
GgufQuantized quantize_ref::gguf_iq4_xs(std::span<const std::uint32_t> x) { return iq4_impl(x, 7, "iq4_xs"); }

}  // namespace ninfer::oracle::gguf_detail
