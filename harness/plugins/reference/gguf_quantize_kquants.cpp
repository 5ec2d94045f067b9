// SPDX-License-Identifier: Apache-2.0
// The reference's own K-quant reference quantizers (the gguf_* paragraph of tensor-formats.txt;
// ggml-quants.c quantize_row_q2_K_ref .. q6_K_ref without an importance matrix, read for their
// order of operations). Organised by what each step computes, not by ggml's loops: a sub-block
// fit is a search over candidate inverse scales (SymmetricFit, AffineFit, Q3Fit); a super-block
// is its fits, the scales quantized into the block struct (gguf_block_structs.hpp), the codes
// recomputed from the stored scales, then each code's bits placed by element index. Host binary32
// in ggml's order (C's left-to-right evaluation, int operands converted where C converts them),
// compiled with -ffp-contract=off; nearest_int by ggml's 12582912.f addition; C's narrowing
// stores as two's complement truncation. The oracle's transcription (oracle/src/gguf_kquants.cpp)
// follows ggml's loops; the tests hold the two byte-equal.
#include <algorithm>
#include <cmath>

#include "gguf_block_structs.hpp"
#include "gguf_blocks.hpp"

namespace ninfer::reference::gguf_blocks {

namespace {

using namespace ggml_struct;

constexpr float kGroupMaxEps = 1e-15f;  // GROUP_MAX_EPS

inline int clamp(int lo, int hi, int v) { return std::max(lo, std::min(hi, v)); }
inline float f(int i) { return static_cast<float>(i); }

/// The value of largest magnitude of x[0..n) (the first on ties, ggml's `ax > amax` scan) and
/// that magnitude.
struct Extreme {
    float value = 0, magnitude = 0;
    Extreme(const float *x, int n) {
        for (int i = 0; i < n; ++i)
            if (std::fabs(x[i]) > magnitude) magnitude = std::fabs(x[i]), value = x[i];
    }
};

/// make_qx_quants, rmse_type 1, no importance (q6_K): the weights are x * x; the candidates are
/// -nmax / max, then -(nmax + 0.1 is) / max for is = -9..9 but 0; the last better one wins.
struct SymmetricFit {
    const float *x;
    int n, nmax;

    int code(float iscale, int i) const { return clamp(-nmax, nmax - 1, nearest_int(iscale * x[i])); }
    /// sum w x l and sum w l l of the codes at `iscale`.
    void sums(float iscale, float &lx, float &l2) const {
        lx = l2 = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i], l = f(code(iscale, i));
            lx += w * x[i] * l;
            l2 += w * l * l;
        }
    }
    /// The scale; L[i] = the chosen candidate's code + nmax.
    float run(std::int8_t *L) const {
        const Extreme e(x, n);
        if (e.magnitude < kGroupMaxEps) {
            std::fill(L, L + n, std::int8_t{0});
            return 0;
        }
        float chosen = f(-nmax) / e.value, lx = 0, l2 = 0;
        sums(chosen, lx, l2);
        float scale = l2 != 0 ? lx / l2 : 0.0f, best = scale * lx;
        for (int is = -9; is <= 9; ++is) {
            if (is == 0) continue;
            const float iscale = -(f(nmax) + 0.1f * f(is)) / e.value;
            sums(iscale, lx, l2);
            if (!(l2 > 0 && lx * lx > best * l2)) continue;
            chosen = iscale;
            scale = lx / l2;
            best = scale * lx;
        }
        for (int i = 0; i < n; ++i) L[i] = static_cast<std::int8_t>(nmax + code(chosen, i));
        return scale;
    }
};

/// make_q3_quants with do_rmse (q3_K): codes at -nmax / max, then up to five sweeps of single-code
/// moves, each kept where it raises sum(w x l)^2 / sum(w l l) (weights x * x).
struct Q3Fit {
    const float *x;
    int n, nmax;
    float lx = 0, l2 = 0;

    /// One move of code i; whether it was kept.
    bool move(int i, std::int8_t *L) {
        const float w = x[i] * x[i];
        float slx = lx - w * x[i] * f(L[i]);
        if (!(slx > 0)) return false;
        float sl2 = l2 - w * f(L[i]) * f(L[i]);
        const int to = clamp(-nmax, nmax - 1, nearest_int(x[i] * sl2 / slx));
        if (to == L[i]) return false;
        slx += w * x[i] * f(to);
        sl2 += w * f(to) * f(to);
        if (!(sl2 > 0 && slx * slx * l2 > lx * lx * sl2)) return false;
        L[i] = static_cast<std::int8_t>(to);
        lx = slx;
        l2 = sl2;
        return true;
    }
    float run(std::int8_t *L) {
        const Extreme e(x, n);
        if (e.magnitude < kGroupMaxEps) {
            std::fill(L, L + n, std::int8_t{0});
            return 0;
        }
        const float iscale = f(-nmax) / e.value;
        for (int i = 0; i < n; ++i) {
            const int l = clamp(-nmax, nmax - 1, nearest_int(iscale * x[i]));
            L[i] = static_cast<std::int8_t>(l);
            const float w = x[i] * x[i];
            lx += w * x[i] * f(l);
            l2 += w * f(l) * f(l);
        }
        for (int sweep = 0; sweep < 5; ++sweep) {
            int kept = 0;
            for (int i = 0; i < n; ++i) kept += move(i, L) ? 1 : 0;
            if (kept == 0) break;
        }
        for (int i = 0; i < n; ++i) L[i] = static_cast<std::int8_t>(L[i] + nmax);
        return l2 > 0.0f ? lx / l2 : 0.0f;
    }
};

/// make_qkx2_quants (q2_K, q4_K, q5_K): x ~ scale * l + min with l in 0..nmax, min <= 0; the
/// candidates are nmax / (max - min), then (rmin + rdelta is + nmax) / (max - min) for is = 0..nstep,
/// each refitted by weighted least squares and kept where its weighted error is lower. The min
/// of the running best enters the next candidate (as in ggml).
struct AffineFit {
    const float *x, *w;
    int n, nmax;
    bool mad;

    void codes(float iscale, float min, std::uint8_t *L) const {
        for (int i = 0; i < n; ++i) L[i] = static_cast<std::uint8_t>(clamp(0, nmax, nearest_int(iscale * (x[i] - min))));
    }
    float error(float scale, float min, const std::uint8_t *L) const {
        float err = 0;
        for (int i = 0; i < n; ++i) {
            const float diff = scale * f(L[i]) + min - x[i];
            err += w[i] * (mad ? std::fabs(diff) : diff * diff);
        }
        return err;
    }
    /// The scale; `neg_min` = -min; L the best codes.
    float run(float rmin, float rdelta, int nstep, std::uint8_t *L, float &neg_min) const {
        float min = x[0], max = x[0], sum_w = w[0], sum_x = sum_w * x[0];
        for (int i = 1; i < n; ++i) {
            min = x[i] < min ? x[i] : min;
            max = x[i] > max ? x[i] : max;
            sum_w += w[i];
            sum_x += w[i] * x[i];
        }
        if (min > 0) min = 0;
        if (max == min) {
            std::fill(L, L + n, std::uint8_t{0});
            neg_min = -min;
            return 0;
        }
        // The running best: its scale, min and weighted error; its min enters the next candidate.
        struct Best {
            float scale, min, err;
        } best{1 / (f(nmax) / (max - min)), min, 0};
        codes(f(nmax) / (max - min), min, L);
        best.err = error(best.scale, best.min, L);
        std::uint8_t trial[32];
        for (int is = 0; is <= nstep; ++is) {
            const float iscale = (rmin + rdelta * f(is) + f(nmax)) / (max - best.min);
            codes(iscale, best.min, trial);
            float sl = 0, sl2 = 0, sxl = 0;
            for (int i = 0; i < n; ++i) {
                sl += w[i] * f(trial[i]);
                sl2 += w[i] * f(trial[i]) * f(trial[i]);
                sxl += w[i] * f(trial[i]) * x[i];
            }
            const float D = sum_w * sl2 - sl * sl;
            if (!(D > 0)) continue;
            Best c{(sum_w * sxl - sum_x * sl) / D, (sl2 * sum_x - sl * sxl) / D, 0};
            if (c.min > 0) c = {sxl / sl2, 0, 0};
            c.err = error(c.scale, c.min, trial);
            if (!(c.err < best.err)) continue;
            best = c;
            std::copy(trial, trial + n, L);
        }
        neg_min = -best.min;
        return best.scale;
    }
};

/// The codes of a sub-block recomputed from its stored scale d (and min dm): clamp(lo, hi,
/// nearest_int((x + dm) / d)) + bias, or nearest_int(x / d) where the type has no min; a zero d
/// keeps the fit's codes.
template <class Code>
void requantize(const float *x, int n, float d, const float *dm, int lo, int hi, int bias, Code *L) {
    if (d == 0) return;
    for (int i = 0; i < n; ++i) L[i] = static_cast<Code>(clamp(lo, hi, nearest_int((dm ? x[i] + *dm : x[i]) / d)) + bias);
}

/// Bit placement by element index i of a 256-value super-block (ggml's packing loops, flattened).
inline void put_bits(std::uint8_t *dst, int at, int v, int shift) { dst[at] = static_cast<std::uint8_t>(dst[at] | v << shift); }
/// 2-bit codes (q2_K, q3_K qs): 32 bytes per 128 values, four 32-value runs per byte.
inline void place_2bit(std::uint8_t (&qs)[QK_K / 4], int i, int v) { put_bits(qs, i / 128 * 32 + i % 32, v, 2 * (i % 128 / 32)); }
/// 4-bit codes (q4_K, q5_K qs): 32 bytes per 64 values, low nibble first.
inline void place_4bit(std::uint8_t (&qs)[QK_K / 2], int i, int v) { put_bits(qs, i / 64 * 32 + i % 32, v, 4 * (i % 64 / 32)); }

bool q2_k(const float *x, block_q2_K &b) {
    std::uint8_t L[QK_K];
    float scale[16], min[16], max_scale = 0, max_min = 0;
    for (int j = 0; j < 16; ++j) {
        float w[16];
        for (int l = 0; l < 16; ++l) w[l] = std::fabs(x[16 * j + l]);
        scale[j] = AffineFit{x + 16 * j, w, 16, 3, true}.run(-0.5f, 0.1f, 15, L + 16 * j, min[j]);
        max_scale = scale[j] > max_scale ? scale[j] : max_scale;
        max_min = min[j] > max_min ? min[j] : max_min;
    }
    const float q4scale = 15.f;
    b.d = f32_to_fp16(max_scale > 0 ? max_scale / q4scale : 0.f);
    b.dmin = f32_to_fp16(max_min > 0 ? max_min / q4scale : 0.f);
    for (int j = 0; j < 16; ++j) {
        const int ls = max_scale > 0 ? nearest_int(q4scale / max_scale * scale[j]) : 0;
        const int lm = max_min > 0 ? nearest_int(q4scale / max_min * min[j]) : 0;
        b.scales[j] = static_cast<std::uint8_t>(ls | lm << 4);
    }
    const float d = fp16_to_f32(b.d), dmin = fp16_to_f32(b.dmin);
    for (int j = 0; j < 16; ++j) {
        const float dm = dmin * f(b.scales[j] >> 4);
        requantize(x + 16 * j, 16, d * f(b.scales[j] & 0xF), &dm, 0, 3, 0, L + 16 * j);
    }
    for (int i = 0; i < QK_K; ++i) place_2bit(b.qs, i, L[i]);
    return true;
}

bool q3_k(const float *x, block_q3_K &b) {
    std::int8_t L[QK_K];
    float scale[16];
    for (int j = 0; j < 16; ++j) scale[j] = Q3Fit{x + 16 * j, 16, 4}.run(L + 16 * j);
    float max_scale = 0, amax = 0;
    for (int j = 0; j < 16; ++j)
        if (std::fabs(scale[j]) > amax) amax = std::fabs(scale[j]), max_scale = scale[j];
    if (max_scale != 0) {
        const float iscale = -32.f / max_scale;
        for (int j = 0; j < 16; ++j) {
            // C stores nearest_int into an int8_t, then clamps and biases it into an int8_t again.
            const auto l = static_cast<std::int8_t>(nearest_int(iscale * scale[j]));
            q3_k_put_scale(b.scales, j, static_cast<std::int8_t>(clamp(-32, 31, l) + 32));
        }
        b.d = f32_to_fp16(1 / iscale);
    } else {
        b.d = f32_to_fp16(0.f);
    }
    const float d = fp16_to_f32(b.d);
    for (int j = 0; j < 16; ++j) {
        const auto sc = static_cast<std::int8_t>(q3_k_scale(b.scales, j) - 32);
        requantize(x + 16 * j, 16, d * f(sc), static_cast<const float *>(nullptr), -4, 3, 4, L + 16 * j);
    }
    for (int i = 0; i < QK_K; ++i) {
        put_bits(b.hmask, i % 32, (L[i] >> 2) & 1, i / 32);
        place_2bit(b.qs, i, L[i] & 3);
    }
    return true;
}

/// q4_K and q5_K alike up to the placing of the codes: eight 32-value fits weighted by
/// sqrt(mean x^2) + |x|, 6-bit scales and mins against max / 63.
template <class Block>
void k4_scales_and_codes(const float *x, Block &b, int nmax, float rmin, int nstep, std::uint8_t *L) {
    float scale[8], min[8], max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; ++j) {
        const float *xs = x + 32 * j;
        float sum_x2 = 0, w[32];
        for (int l = 0; l < 32; ++l) sum_x2 += xs[l] * xs[l];
        const float av_x = std::sqrt(sum_x2 / 32);
        for (int l = 0; l < 32; ++l) w[l] = av_x + std::fabs(xs[l]);
        scale[j] = AffineFit{xs, w, 32, nmax, false}.run(rmin, 0.1f, nstep, L + 32 * j, min[j]);
        max_scale = scale[j] > max_scale ? scale[j] : max_scale;
        max_min = min[j] > max_min ? min[j] : max_min;
    }
    const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f, inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    for (int j = 0; j < 8; ++j) {  // in order: k4_put_scale_min assigns the low bytes first
        const auto ls = std::min<std::uint8_t>(63, static_cast<std::uint8_t>(nearest_int(inv_scale * scale[j])));
        const auto lm = std::min<std::uint8_t>(63, static_cast<std::uint8_t>(nearest_int(inv_min * min[j])));
        k4_put_scale_min(b.scales, j, ls, lm);
    }
    b.d = f32_to_fp16(max_scale / 63.f);
    b.dmin = f32_to_fp16(max_min / 63.f);
    const float d = fp16_to_f32(b.d), dmin = fp16_to_f32(b.dmin);
    for (int j = 0; j < 8; ++j) {
        int sc = 0, mn = 0;
        k4_scale_min(b.scales, j, sc, mn);
        const float dm = dmin * f(mn);
        requantize(x + 32 * j, 32, d * f(sc), &dm, 0, nmax, 0, L + 32 * j);
    }
}

bool q4_k(const float *x, block_q4_K &b) {
    std::uint8_t L[QK_K];
    k4_scales_and_codes(x, b, 15, -1.f, 20, L);
    for (int i = 0; i < QK_K; ++i) place_4bit(b.qs, i, L[i]);
    return true;
}

bool q5_k(const float *x, block_q5_K &b) {
    std::uint8_t L[QK_K];
    k4_scales_and_codes(x, b, 31, -0.5f, 15, L);
    for (int i = 0; i < QK_K; ++i) {  // the fifth bit of element i: bit i / 32 of qh[i % 32]
        place_4bit(b.qs, i, L[i] & 0xF);
        put_bits(b.qh, i % 32, L[i] >> 4, i / 32);
    }
    return true;
}

bool q6_k(const float *x, block_q6_K &b) {
    std::int8_t L[QK_K];
    float scale[16], max_scale = 0, max_abs_scale = 0;
    for (int j = 0; j < 16; ++j) {
        scale[j] = SymmetricFit{x + 16 * j, 16, 32}.run(L + 16 * j);
        if (std::fabs(scale[j]) > max_abs_scale) max_abs_scale = std::fabs(scale[j]), max_scale = scale[j];
    }
    if (max_abs_scale < kGroupMaxEps) {  // the whole block zero, d = +0
        b = block_q6_K{};
        b.d = f32_to_fp16(0.f);
        return true;
    }
    const float iscale = -128.f / max_scale;
    b.d = f32_to_fp16(1 / iscale);
    for (int j = 0; j < 16; ++j) b.scales[j] = static_cast<std::int8_t>(std::min(127, nearest_int(iscale * scale[j])));
    const float d = fp16_to_f32(b.d);
    for (int j = 0; j < 16; ++j) requantize(x + 16 * j, 16, d * f(b.scales[j]), static_cast<const float *>(nullptr), -32, 31, 32, L + 16 * j);
    for (int i = 0; i < QK_K; ++i) {
        // Element i = 128 h + 32 t + l: low nibble in ql[64 h + 32 (t & 1) + l] (t >= 2 high),
        // the top two bits in qh[32 h + l] at bit 2 t.
        const int h = i / 128, t = i % 128 / 32, l = i % 32;
        put_bits(b.ql, 64 * h + 32 * (t & 1) + l, L[i] & 0xF, 4 * (t >> 1));
        put_bits(b.qh, 32 * h + l, (L[i] >> 4) & 3, 2 * t);
    }
    return true;
}

/// One block through its struct: zeroed, written by `fill`, stored at `out`.
template <class Block>
bool through_struct(const float *x, std::uint8_t *out, bool (*fill)(const float *, Block &)) {
    Block b{};
    const bool ok = fill(x, b);
    store(b, out);
    return ok;
}

}  // namespace

bool quantize_block::gguf_q2_k(const float *x, std::uint8_t *b) { return through_struct<block_q2_K>(x, b, q2_k); }
bool quantize_block::gguf_q3_k(const float *x, std::uint8_t *b) { return through_struct<block_q3_K>(x, b, q3_k); }
bool quantize_block::gguf_q4_k(const float *x, std::uint8_t *b) { return through_struct<block_q4_K>(x, b, q4_k); }
bool quantize_block::gguf_q5_k(const float *x, std::uint8_t *b) { return through_struct<block_q5_K>(x, b, q5_k); }
bool quantize_block::gguf_q6_k(const float *x, std::uint8_t *b) { return through_struct<block_q6_K>(x, b, q6_k); }

}  // namespace ninfer::reference::gguf_blocks
