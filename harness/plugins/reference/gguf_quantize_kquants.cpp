// SPDX-License-Identifier: Apache-2.0
// The reference's own K-quant reference quantizers (the gguf_* paragraph of tensor-formats.txt;
// ggml-quants.c quantize_row_q2_K_ref .. q6_K_ref without an importance matrix, read for their
// order of operations): the helpers make_qx_quants, make_q3_quants and make_qkx2_quants and the
// five block writers. Host binary32 arithmetic in ggml's order (C's left-to-right evaluation,
// int operands converted to float where C converts them), compiled with -ffp-contract=off;
// nearest_int by ggml's 12582912.f addition (its release behaviour beyond 2^22); the narrowing
// stores of C (int to int8_t / uint8_t) as two's complement truncation.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "gguf_blocks.hpp"

namespace ninfer::reference::gguf_blocks {

namespace {

constexpr float kGroupMaxEps = 1e-15f;  // GROUP_MAX_EPS


inline int clamp(int lo, int hi, int v) { return std::max(lo, std::min(hi, v)); }

/// The value of largest magnitude of x[0..n), the first on ties (ggml's `ax > amax` scan).
inline float signed_extreme(int n, const float *x, float &amax) {
    float max = 0;
    amax = 0;
    for (int i = 0; i < n; ++i) {
        const float ax = std::fabs(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
    return max;
}

/// make_qx_quants with rmse_type 1 and no importance (q6_K): L[i] in 0..2*nmax-1, the scale.
float make_qx_quants_rmse1(int n, int nmax, const float *x, std::int8_t *L) {
    float amax = 0;
    const float max = signed_extreme(n, x, amax);
    if (amax < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    float iscale = static_cast<float>(-nmax) / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = clamp(-nmax, nmax - 1, nearest_int(iscale * x[i]));
        L[i] = static_cast<std::int8_t>(l + nmax);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * static_cast<float>(l);
        suml2 += w * static_cast<float>(l) * static_cast<float>(l);
    }
    float scale = suml2 != 0 ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0) continue;
        iscale = -(static_cast<float>(nmax) + 0.1f * static_cast<float>(is)) / max;
        sumlx = suml2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = clamp(-nmax, nmax - 1, nearest_int(iscale * x[i]));
            const float w = x[i] * x[i];
            sumlx += w * x[i] * static_cast<float>(l);
            suml2 += w * static_cast<float>(l) * static_cast<float>(l);
        }
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; ++i) L[i] = static_cast<std::int8_t>(nmax + clamp(-nmax, nmax - 1, nearest_int(iscale * x[i])));
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

/// make_q3_quants with do_rmse (q3_K): L[i] in 0..2*nmax-1, the scale.
float make_q3_quants(int n, int nmax, const float *x, std::int8_t *L) {
    float amax = 0;
    const float max = signed_extreme(n, x, amax);
    if (amax < kGroupMaxEps) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    const float iscale = static_cast<float>(-nmax) / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = clamp(-nmax, nmax - 1, nearest_int(iscale * x[i]));
        L[i] = static_cast<std::int8_t>(l);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * static_cast<float>(l);
        suml2 += w * static_cast<float>(l) * static_cast<float>(l);
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            float slx = sumlx - w * x[i] * static_cast<float>(L[i]);
            if (slx > 0) {
                float sl2 = suml2 - w * static_cast<float>(L[i]) * static_cast<float>(L[i]);
                const int new_l = clamp(-nmax, nmax - 1, nearest_int(x[i] * sl2 / slx));
                if (new_l != L[i]) {
                    slx += w * x[i] * static_cast<float>(new_l);
                    sl2 += w * static_cast<float>(new_l) * static_cast<float>(new_l);
                    if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = static_cast<std::int8_t>(new_l);
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    for (int i = 0; i < n; ++i) L[i] = static_cast<std::int8_t>(L[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

/// make_qkx2_quants (q2_K, q4_K, q5_K): L[i] in 0..nmax, the scale, and -min in `the_min`.
float make_qkx2_quants(int n, int nmax, const float *x, const float *weights, std::uint8_t *L, float *the_min, std::uint8_t *Laux,
                       float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0], max = x[0];
    float sum_w = weights[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        const float w = weights[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > 0) min = 0;
    if (max == min) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        *the_min = -min;
        return 0.f;
    }
    float iscale = static_cast<float>(nmax) / (max - min);
    float scale = 1 / iscale;
    float best_error = 0;
    for (int i = 0; i < n; ++i) {
        const int l = nearest_int(iscale * (x[i] - min));
        L[i] = static_cast<std::uint8_t>(clamp(0, nmax, l));
        float diff = scale * static_cast<float>(L[i]) + min - x[i];
        diff = use_mad ? std::fabs(diff) : diff * diff;
        best_error += weights[i] * diff;
    }
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * static_cast<float>(is) + static_cast<float>(nmax)) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; ++i) {
            const int l = clamp(0, nmax, nearest_int(iscale * (x[i] - min)));
            Laux[i] = static_cast<std::uint8_t>(l);
            const float w = weights[i];
            sum_l += w * static_cast<float>(l);
            sum_l2 += w * static_cast<float>(l) * static_cast<float>(l);
            sum_xl += w * static_cast<float>(l) * x[i];
        }
        const float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float cur_error = 0;
            for (int i = 0; i < n; ++i) {
                float diff = this_scale * static_cast<float>(Laux[i]) + this_min - x[i];
                diff = use_mad ? std::fabs(diff) : diff * diff;
                cur_error += weights[i] * diff;
            }
            if (cur_error < best_error) {
                for (int i = 0; i < n; ++i) L[i] = Laux[i];
                best_error = cur_error;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *the_min = -min;
    return scale;
}

/// Four 2-bit codes a byte, 32 bytes per 128 values (q2_K and q3_K's qs).
template <class Code>
void pack_2bit(const Code *L, std::uint8_t *qs) {
    for (int j = 0; j < 256; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
}

void q2_k_block(const float *x, std::uint8_t *y) {  // scales[16], qs[64], d, dmin
    std::uint8_t L[256], Laux[16];
    float weights[16], mins[16], scales[16];
    const float q4scale = 15.f;
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < 16; ++j) {
        for (int l = 0; l < 16; ++l) weights[l] = std::fabs(x[16 * j + l]);
        scales[j] = make_qkx2_quants(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], Laux, -0.5f, 0.1f, 15, true);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    std::uint8_t *sc = y;
    if (max_scale > 0) {
        const float iscale = q4scale / max_scale;
        for (int j = 0; j < 16; ++j) sc[j] = static_cast<std::uint8_t>(nearest_int(iscale * scales[j]));
        abi::store_le16(y + 80, f32_to_fp16(max_scale / q4scale));
    } else {
        for (int j = 0; j < 16; ++j) sc[j] = 0;
        abi::store_le16(y + 80, f32_to_fp16(0.f));
    }
    if (max_min > 0) {
        const float iscale = q4scale / max_min;
        for (int j = 0; j < 16; ++j) sc[j] = static_cast<std::uint8_t>(sc[j] | (nearest_int(iscale * mins[j]) << 4));
        abi::store_le16(y + 82, f32_to_fp16(max_min / q4scale));
    } else {
        abi::store_le16(y + 82, f32_to_fp16(0.f));
    }
    const float d_all = fp16_to_f32(static_cast<std::uint16_t>(y[80] | y[81] << 8));
    const float dmin_all = fp16_to_f32(static_cast<std::uint16_t>(y[82] | y[83] << 8));
    for (int j = 0; j < 16; ++j) {
        const float d = d_all * static_cast<float>(sc[j] & 0xF);
        if (d == 0) continue;
        const float dm = dmin_all * static_cast<float>(sc[j] >> 4);
        for (int ii = 0; ii < 16; ++ii) L[16 * j + ii] = static_cast<std::uint8_t>(clamp(0, 3, nearest_int((x[16 * j + ii] + dm) / d)));
    }
    pack_2bit(L, y + 16);
}

void q3_k_block(const float *x, std::uint8_t *y) {  // hmask[32], qs[64], scales[12], d
    std::int8_t L[256];
    float scales[16];
    float max_scale = 0, amax = 0;
    for (int j = 0; j < 16; ++j) {
        scales[j] = make_q3_quants(16, 4, x + 16 * j, L + 16 * j);
        const float scale = std::fabs(scales[j]);
        if (scale > amax) {
            amax = scale;
            max_scale = scales[j];
        }
    }
    std::uint8_t *sc = y + 96;
    std::memset(sc, 0, 12);
    if (max_scale != 0) {
        const float iscale = -32.f / max_scale;
        for (int j = 0; j < 16; ++j) {
            auto l = static_cast<std::int8_t>(nearest_int(iscale * scales[j]));
            l = static_cast<std::int8_t>(clamp(-32, 31, l) + 32);
            if (j < 8)
                sc[j] = static_cast<std::uint8_t>(l & 0xF);
            else
                sc[j - 8] = static_cast<std::uint8_t>(sc[j - 8] | ((l & 0xF) << 4));
            l = static_cast<std::int8_t>(l >> 4);
            sc[j % 4 + 8] = static_cast<std::uint8_t>(sc[j % 4 + 8] | (l << (2 * (j / 4))));
        }
        abi::store_le16(y + 108, f32_to_fp16(1 / iscale));
    } else {
        abi::store_le16(y + 108, f32_to_fp16(0.f));
    }
    const float d_all = fp16_to_f32(static_cast<std::uint16_t>(y[108] | y[109] << 8));
    for (int j = 0; j < 16; ++j) {
        auto s = static_cast<std::int8_t>(j < 8 ? sc[j] & 0xF : sc[j - 8] >> 4);
        s = static_cast<std::int8_t>((s | (((sc[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32);
        const float d = d_all * static_cast<float>(s);
        if (d == 0) continue;
        for (int ii = 0; ii < 16; ++ii) L[16 * j + ii] = static_cast<std::int8_t>(clamp(-4, 3, nearest_int(x[16 * j + ii] / d)) + 4);
    }
    std::uint8_t *hmask = y;
    std::memset(hmask, 0, 32);
    int m = 0;
    std::uint8_t hm = 1;
    for (int j = 0; j < 256; ++j) {
        if (L[j] > 3) {
            hmask[m] = static_cast<std::uint8_t>(hmask[m] | hm);
            L[j] = static_cast<std::int8_t>(L[j] - 4);
        }
        if (++m == 32) {
            m = 0;
            hm = static_cast<std::uint8_t>(hm << 1);
        }
    }
    pack_2bit(L, y + 32);
}

/// q4_K and q5_K share everything up to the packing of the codes (nmax 15 / 31).
void k4_scales_and_codes(const float *x, std::uint8_t *y, int nmax, float rmin, int nstep, std::uint8_t *L) {
    std::uint8_t Laux[32];
    float weights[32], mins[8], scales[8];
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; ++j) {
        float sum_x2 = 0;
        for (int l = 0; l < 32; ++l) sum_x2 += x[32 * j + l] * x[32 * j + l];
        const float av_x = std::sqrt(sum_x2 / 32);
        for (int l = 0; l < 32; ++l) weights[l] = av_x + std::fabs(x[32 * j + l]);
        scales[j] = make_qkx2_quants(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, rmin, 0.1f, nstep, false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    std::uint8_t *sc = y + 4;
    for (int j = 0; j < 8; ++j) {
        auto ls = static_cast<std::uint8_t>(nearest_int(inv_scale * scales[j]));
        auto lm = static_cast<std::uint8_t>(nearest_int(inv_min * mins[j]));
        ls = std::min<std::uint8_t>(63, ls);
        lm = std::min<std::uint8_t>(63, lm);
        if (j < 4) {
            sc[j] = ls;
            sc[j + 4] = lm;
        } else {
            sc[j + 4] = static_cast<std::uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            sc[j - 4] = static_cast<std::uint8_t>(sc[j - 4] | ((ls >> 4) << 6));
            sc[j] = static_cast<std::uint8_t>(sc[j] | ((lm >> 4) << 6));
        }
    }
    abi::store_le16(y, f32_to_fp16(max_scale / 63.f));
    abi::store_le16(y + 2, f32_to_fp16(max_min / 63.f));
    const float d_all = fp16_to_f32(static_cast<std::uint16_t>(y[0] | y[1] << 8));
    const float dmin_all = fp16_to_f32(static_cast<std::uint16_t>(y[2] | y[3] << 8));
    for (int j = 0; j < 8; ++j) {
        int s = 0, m = 0;
        if (j < 4) {
            s = sc[j] & 63;
            m = sc[j + 4] & 63;
        } else {
            s = (sc[j + 4] & 0xF) | ((sc[j - 4] >> 6) << 4);
            m = (sc[j + 4] >> 4) | ((sc[j] >> 6) << 4);
        }
        const float d = d_all * static_cast<float>(s);
        if (d == 0) continue;
        const float dm = dmin_all * static_cast<float>(m);
        for (int ii = 0; ii < 32; ++ii) L[32 * j + ii] = static_cast<std::uint8_t>(clamp(0, nmax, nearest_int((x[32 * j + ii] + dm) / d)));
    }
}

void q4_k_block(const float *x, std::uint8_t *y) {  // d, dmin, scales[12], qs[128]
    std::uint8_t L[256];
    k4_scales_and_codes(x, y, 15, -1.f, 20, L);
    std::uint8_t *q = y + 16;
    for (int j = 0; j < 256; j += 64, q += 32)
        for (int l = 0; l < 32; ++l) q[l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 4));
}

void q5_k_block(const float *x, std::uint8_t *y) {  // d, dmin, scales[12], qh[32], qs[128]
    std::uint8_t L[256];
    k4_scales_and_codes(x, y, 31, -0.5f, 15, L);
    std::uint8_t *qh = y + 16, *ql = y + 48;
    std::memset(qh, 0, 32);
    std::uint8_t m1 = 1, m2 = 2;
    for (int n = 0; n < 256; n += 64, ql += 32) {
        for (int j = 0; j < 32; ++j) {
            int l1 = L[n + j], l2 = L[n + j + 32];
            if (l1 > 15) {
                l1 -= 16;
                qh[j] = static_cast<std::uint8_t>(qh[j] | m1);
            }
            if (l2 > 15) {
                l2 -= 16;
                qh[j] = static_cast<std::uint8_t>(qh[j] | m2);
            }
            ql[j] = static_cast<std::uint8_t>(l1 | (l2 << 4));
        }
        m1 = static_cast<std::uint8_t>(m1 << 2);
        m2 = static_cast<std::uint8_t>(m2 << 2);
    }
}

void q6_k_block(const float *x, std::uint8_t *y) {  // ql[128], qh[64], scales[16] int8, d
    std::int8_t L[256];
    float scales[16];
    float max_scale = 0, max_abs_scale = 0;
    for (int ib = 0; ib < 16; ++ib) {
        const float scale = make_qx_quants_rmse1(16, 32, x + 16 * ib, L + 16 * ib);
        scales[ib] = scale;
        const float abs_scale = std::fabs(scale);
        if (abs_scale > max_abs_scale) {
            max_abs_scale = abs_scale;
            max_scale = scale;
        }
    }
    if (max_abs_scale < kGroupMaxEps) {
        std::memset(y, 0, 210);
        abi::store_le16(y + 208, f32_to_fp16(0.f));
        return;
    }
    const float iscale = -128.f / max_scale;
    abi::store_le16(y + 208, f32_to_fp16(1 / iscale));
    auto *sc = reinterpret_cast<std::int8_t *>(y + 192);
    for (int ib = 0; ib < 16; ++ib) sc[ib] = static_cast<std::int8_t>(std::min(127, nearest_int(iscale * scales[ib])));
    const float d_all = fp16_to_f32(static_cast<std::uint16_t>(y[208] | y[209] << 8));
    for (int j = 0; j < 16; ++j) {
        const float d = d_all * static_cast<float>(sc[j]);
        if (d == 0) continue;
        for (int ii = 0; ii < 16; ++ii) L[16 * j + ii] = static_cast<std::int8_t>(clamp(-32, 31, nearest_int(x[16 * j + ii] / d)) + 32);
    }
    std::uint8_t *ql = y, *qh = y + 128;
    for (int j = 0; j < 256; j += 128, ql += 64, qh += 32)
        for (int l = 0; l < 32; ++l) {
            const int q1 = L[j + l] & 0xF, q2 = L[j + l + 32] & 0xF, q3 = L[j + l + 64] & 0xF, q4 = L[j + l + 96] & 0xF;
            ql[l] = static_cast<std::uint8_t>(q1 | (q3 << 4));
            ql[l + 32] = static_cast<std::uint8_t>(q2 | (q4 << 4));
            qh[l] = static_cast<std::uint8_t>((L[j + l] >> 4) | ((L[j + l + 32] >> 4) << 2) | ((L[j + l + 64] >> 4) << 4) |
                                              ((L[j + l + 96] >> 4) << 6));
        }
}

}  // namespace

bool quantize_block::gguf_q2_k(const float *x, std::uint8_t *b) {
    q2_k_block(x, b);
    return true;
}
bool quantize_block::gguf_q3_k(const float *x, std::uint8_t *b) {
    q3_k_block(x, b);
    return true;
}
bool quantize_block::gguf_q4_k(const float *x, std::uint8_t *b) {
    q4_k_block(x, b);
    return true;
}
bool quantize_block::gguf_q5_k(const float *x, std::uint8_t *b) {
    q5_k_block(x, b);
    return true;
}
bool quantize_block::gguf_q6_k(const float *x, std::uint8_t *b) {
    q6_k_block(x, b);
    return true;
}

}  // namespace ninfer::reference::gguf_blocks
