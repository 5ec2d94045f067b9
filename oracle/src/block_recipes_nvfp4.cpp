// SPDX-License-Identifier: Apache-2.0
// The nvfp4 recipe lattice (tensor-formats.txt 3.3; lesson Example 15; suites/RECIPES.md,
// "nvfp4"): the lesson's and Transformer Engine's block scale formulas, E4M3 rounding to even
// or half up (ggml's UE4M3), division or Transformer Engine's reciprocal multiply, and the E2M1
// roundings of the MXFP4 lattice. Each binary32 operation is rounded once by the oracle's exact
// rounding (round_real, round_quotient), never by host float arithmetic.
#include <algorithm>
#include <stdexcept>

#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/block_recipes.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace ninfer::oracle::recipes {

namespace {

using abi::detail::overflow_inf, abi::detail::overflow_satfinite, abi::detail::rounding_rne, abi::detail::rounding_rnu;
constexpr std::uint32_t kInf = overflow_inf, kSat = overflow_satfinite, kRne = rounding_rne;

const WordFormat &f32() { return word_format(NINFER_FORMAT_fp32); }
Real val(std::uint32_t w) { return word_info(f32(), w).value; }
Real num(long v) {
    Real r = exact_zero();
    r = v;
    return r;
}
/// binary32(a * b), binary32(a / b) of exact values, each rounded once (nearest-even).
std::uint32_t mul32(const Real &a, const Real &b) { return static_cast<std::uint32_t>(round_real(Real(a * b), f32(), kRne, kInf)); }
std::uint32_t div32(const Real &a, const Real &b) { return static_cast<std::uint32_t>(round_quotient(a, b, f32(), kRne, kInf)); }

/// The global step every point shares: the lesson's tensorScale = binary32(amax / 2688) and
/// S_enc = binary32(2688 / amax), the stored d_w (Transformer Engine clamps S_enc at FLT_MAX;
/// the shared refusal makes that moot).
struct Global {
    std::uint32_t tensor_scale, s_enc;
};
Global global_of(std::uint32_t tensor_amax) {
    const Real a = val(tensor_amax);
    return {div32(a, num(2688)), div32(num(2688), a)};
}

}  // namespace

std::uint8_t nvfp4_recipe_scale(const Nvfp4Point &p, std::uint32_t tensor_amax, std::uint32_t block_amax) {
    const Global g = global_of(tensor_amax);
    std::uint32_t v = 0;
    if (p.scale == scale_lesson) {
        // 2. binary32(binary32(amax / 6) / tensorScale)
        v = div32(val(div32(val(block_amax), num(6))), val(g.tensor_scale));
    } else {
        // Transformer Engine: amax * (S_enc * fp4_max_inv), fp4_max_inv = binary32(1 / 6)
        const std::uint32_t sixth = div32(num(1), num(6));
        v = mul32(val(block_amax), val(mul32(val(g.s_enc), val(sixth))));
    }
    const auto rounding = p.rounding == e4m3_rne ? kRne : std::uint32_t{rounding_rnu};
    return static_cast<std::uint8_t>(round_real(val(v), word_format(NINFER_FORMAT_e4m3fn), rounding, kSat));
}

std::uint32_t nvfp4_recipe_normalized(const Nvfp4Point &p, std::uint32_t tensor_amax, std::uint8_t scale, std::uint32_t x) {
    const Global g = global_of(tensor_amax);
    const Real s = word_info(word_format(NINFER_FORMAT_e4m3fn), scale).value;
    if (p.normalize == nv_division) {
        // 3. blockScale = binary32(e4m3 * tensorScale); 4. binary32(x / blockScale) (a zero block scale: +0 codes)
        const std::uint32_t bs = mul32(s, val(g.tensor_scale));
        if ((bs & 0x7FFFFFFFu) == 0) return 0;
        return div32(val(x), val(bs));
    }
    // Transformer Engine: scale_rcp = fminf(1 / (e4m3 * (1 / S_enc)), FLT_MAX); x * scale_rcp
    const std::uint32_t s_dec = div32(num(1), val(g.s_enc));
    const std::uint32_t denom = mul32(s, val(s_dec));
    std::uint32_t rcp = 0x7F7FFFFFu;  // 1 / +0 is infinity, clamped to FLT_MAX
    if ((denom & 0x7FFFFFFFu) != 0) rcp = static_cast<std::uint32_t>(round_quotient(num(1), val(denom), f32(), kRne, kSat));
    return mul32(val(x), val(rcp));
}

RecipeBlock nvfp4_recipe_payload(const Nvfp4Point &p, std::uint64_t rows, std::uint64_t cols, std::span<const std::uint32_t> x) {
    if (cols % kNvfp4Group != 0 || x.size() != rows * cols) throw std::invalid_argument("nvfp4_recipe_payload: K % 16 or size");
    RecipeBlock out;
    const auto found = finite_amax_word(x);
    if (!found) {
        out.status = NINFER_E_NONFINITE;
        return out;
    }
    const std::uint32_t amax = *found;
    Nvfp4Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.codes.assign(rows * cols, 0);
    m.scales.assign(rows * cols / kNvfp4Group, 0);
    // 1. The global step of nvfp4_two_level: an all-zero tensor stores d_w = 1.0 and +0 words.
    m.divisors = {0x3F800000u};
    if (amax != 0) {
        const Global g = global_of(amax);
        if (g.tensor_scale == 0 || g.s_enc == 0x7F800000u) {
            out.status = NINFER_E_SCALE_OVERFLOW;
            return out;
        }
        m.divisors = {g.s_enc};
    }
    for (std::uint64_t b = 0; amax != 0 && b < m.scales.size(); ++b) {
        const auto block = x.subspan(b * kNvfp4Group, kNvfp4Group);
        std::uint32_t bamax = 0, bits = 0;
        for (const auto w : block) {
            bamax = std::max(bamax, w & 0x7FFFFFFFu);
            bits |= w;
        }
        if (bits == 0) continue;  // +0 words: +0 scale and codes under every point
        m.scales[b] = nvfp4_recipe_scale(p, amax, bamax);
        for (std::uint64_t i = 0; i < kNvfp4Group; ++i) {
            const std::uint32_t q = nvfp4_recipe_normalized(p, amax, m.scales[b], block[i]);
            // a product past FLT_MAX (a zero scale under the reciprocal) saturates at 6
            m.codes[b * kNvfp4Group + i] = (q & 0x7F800000u) != 0x7F800000u ? fp4_element(p.elements, q, 0) : static_cast<std::uint8_t>((q >> 28 & 8) | 7);
        }
    }
    out.bytes = block_scale_encode(m);
    return out;
}

}  // namespace ninfer::oracle::recipes
