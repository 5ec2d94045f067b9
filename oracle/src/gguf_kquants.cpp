// SPDX-License-Identifier: Apache-2.0
// ggml's K-quant reference quantizers (ggml-quants.c quantize_row_q2_K_ref .. q6_K_ref, without
// an importance matrix, and their helpers make_qx_quants, make_q3_quants, make_qkx2_quants;
// the gguf_* paragraph of tensor-formats.txt). Every binary32 operation is one operation of the
// F type below, rounded once by the exact oracle (gguf_internal.hpp): the C expressions read as
// they do in ggml, including their int-to-float conversions and their evaluation order.
#include <algorithm>
#include <cstring>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/gguf_fields.hpp"
#include "gguf_internal.hpp"

namespace ninfer::oracle::gguf_detail {

namespace {

using B = Binary32;

/// A binary32 value of ggml's C; each operator is one rounded IEEE operation.
struct F {
    std::uint32_t w = 0;
    F() = default;
    F(int i) : w(B::num(i)) {}  // NOLINT: C's implicit int-to-float conversion
    static F of(std::uint32_t word) {
        F f;
        f.w = word;
        return f;
    }
};
F operator+(F a, F b) { return F::of(B::add(a.w, b.w)); }
F operator-(F a, F b) { return F::of(B::sub(a.w, b.w)); }
F operator*(F a, F b) { return F::of(B::mul(a.w, b.w)); }
F operator/(F a, F b) { return F::of(B::div(a.w, b.w)); }
F operator-(F a) { return F::of(a.w ^ 0x80000000u); }
F &operator+=(F &a, F b) { return a = a + b; }
bool operator<(F a, F b) { return B::less(a.w, b.w); }
bool operator>(F a, F b) { return B::less(b.w, a.w); }
bool operator==(F a, F b) { return !(a < b) && !(b < a) && !is_nan(word_info(fp32(), a.w)) && !is_nan(word_info(fp32(), b.w)); }
/// C's truth value of a float: nonzero (NaN included).
bool truthy(F a) { return !(a == F(0)); }
F fabsf_(F a) { return F::of(B::abs(a.w)); }
F sqrtf_(F a) {
    Real r = exact_zero();
    mpfr_sqrt(r.backend().data(), real_of(a.w).backend().data(), MPFR_RNDN);  // 2048 bits: no double rounding
    return F::of(static_cast<std::uint32_t>(round_real(r, fp32(), 1, 1)));
}
/// ggml's nearest_int: fval + 12582912.f, then the low 23 bits less 2^22.
int nearest_int(F fval) {
    const F val = fval + F::of(0x4B400000u);
    return static_cast<int>(val.w & 0x007FFFFFu) - 0x00400000;
}
std::uint16_t to_fp16(F a) { return B::to_fp16(a.w); }
F from_fp16(std::uint16_t h) { return F::of(B::fp16(h)); }

const F kTenth = F::of(0x3DCCCCCDu);    // 0.1f
const F kHalf = F::of(0x3F000000u);     // 0.5f
F group_max_eps() {                     // GROUP_MAX_EPS = 1e-15f
    Real one = exact_zero(), den = exact_zero();
    one = 1;
    den = 1000000000000000LL;
    return F::of(static_cast<std::uint32_t>(round_quotient(one, den, fp32(), 1, 1)));
}

/// The value of largest magnitude (the first on ties) and that magnitude: ggml's max/amax scan.
void signed_extreme(int n, const F *x, F &max, F &amax) {
    for (int i = 0; i < n; ++i) {
        const F ax = fabsf_(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
}

/// make_qx_quants(n, nmax, x, L, rmse_type, NULL) for rmse_type 1 (weights x*x).
F make_qx_quants(int n, int nmax, const F *x, std::int8_t *L) {
    F max, amax;
    signed_extreme(n, x, max, amax);
    if (amax < group_max_eps()) {
        std::fill(L, L + n, 0);
        return F(0);
    }
    F iscale = F(-nmax) / max;
    F sumlx, suml2;
    for (int i = 0; i < n; ++i) {
        int l = nearest_int(iscale * x[i]);
        l = std::max(-nmax, std::min(nmax - 1, l));
        L[i] = static_cast<std::int8_t>(l + nmax);
        const F w = x[i] * x[i];
        sumlx += w * x[i] * F(l);
        suml2 += w * F(l) * F(l);
    }
    F scale = truthy(suml2) ? sumlx / suml2 : F(0);
    F best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0) continue;
        iscale = -(F(nmax) + kTenth * F(is)) / max;
        sumlx = F(0);
        suml2 = F(0);
        for (int i = 0; i < n; ++i) {
            int l = nearest_int(iscale * x[i]);
            l = std::max(-nmax, std::min(nmax - 1, l));
            const F w = x[i] * x[i];
            sumlx += w * x[i] * F(l);
            suml2 += w * F(l) * F(l);
        }
        if (suml2 > F(0) && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; ++i) {
                const int l = nearest_int(iscale * x[i]);
                L[i] = static_cast<std::int8_t>(nmax + std::max(-nmax, std::min(nmax - 1, l)));
            }
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

/// make_q3_quants(n, nmax, x, L, do_rmse = true).
F make_q3_quants(int n, int nmax, const F *x, std::int8_t *L) {
    F max, amax;
    signed_extreme(n, x, max, amax);
    if (amax < group_max_eps()) {
        std::fill(L, L + n, 0);
        return F(0);
    }
    const F iscale = F(-nmax) / max;
    F sumlx, suml2;
    for (int i = 0; i < n; ++i) {
        int l = nearest_int(iscale * x[i]);
        l = std::max(-nmax, std::min(nmax - 1, l));
        L[i] = static_cast<std::int8_t>(l);
        const F w = x[i] * x[i];
        sumlx += w * x[i] * F(l);
        suml2 += w * F(l) * F(l);
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            const F w = x[i] * x[i];
            F slx = sumlx - w * x[i] * F(L[i]);
            if (slx > F(0)) {
                F sl2 = suml2 - w * F(L[i]) * F(L[i]);
                int new_l = nearest_int(x[i] * sl2 / slx);
                new_l = std::max(-nmax, std::min(nmax - 1, new_l));
                if (new_l != L[i]) {
                    slx += w * x[i] * F(new_l);
                    sl2 += w * F(new_l) * F(new_l);
                    if (sl2 > F(0) && slx * slx * suml2 > sumlx * sumlx * sl2) {
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
    return suml2 > F(0) ? sumlx / suml2 : F(0);
}

/// make_qkx2_quants(n, nmax, x, weights, L, &the_min, Laux, rmin, rdelta, nstep, use_mad).
F make_qkx2_quants(int n, int nmax, const F *x, const F *weights, std::uint8_t *L, F &the_min, F rmin, F rdelta,
                   int nstep, bool use_mad) {
    F min = x[0], max = x[0];
    F sum_w = weights[0];
    F sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        const F w = weights[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > F(0)) min = F(0);
    if (max == min) {
        std::fill(L, L + n, 0);
        the_min = -min;
        return F(0);
    }
    F iscale = F(nmax) / (max - min);
    F scale = F(1) / iscale;
    F best_error;
    for (int i = 0; i < n; ++i) {
        const int l = nearest_int(iscale * (x[i] - min));
        L[i] = static_cast<std::uint8_t>(std::max(0, std::min(nmax, l)));
        F diff = scale * F(L[i]) + min - x[i];
        diff = use_mad ? fabsf_(diff) : diff * diff;
        best_error += weights[i] * diff;
    }
    std::uint8_t Laux[32];
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * F(is) + F(nmax)) / (max - min);
        F sum_l, sum_l2, sum_xl;
        for (int i = 0; i < n; ++i) {
            int l = nearest_int(iscale * (x[i] - min));
            l = std::max(0, std::min(nmax, l));
            Laux[i] = static_cast<std::uint8_t>(l);
            const F w = weights[i];
            sum_l += w * F(l);
            sum_l2 += w * F(l) * F(l);
            sum_xl += w * F(l) * x[i];
        }
        const F D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > F(0)) {
            F this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            F this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > F(0)) {
                this_min = F(0);
                this_scale = sum_xl / sum_l2;
            }
            F cur_error;
            for (int i = 0; i < n; ++i) {
                F diff = this_scale * F(Laux[i]) + this_min - x[i];
                diff = use_mad ? fabsf_(diff) : diff * diff;
                cur_error += weights[i] * diff;
            }
            if (cur_error < best_error) {
                std::copy(Laux, Laux + n, L);
                best_error = cur_error;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    the_min = -min;
    return scale;
}

/// The 6-bit scale and min of sub-block j from 12 packed bytes (get_scale_min_k4).
void scale_min_k4(int j, const std::uint8_t *q, std::uint8_t &d, std::uint8_t &m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = static_cast<std::uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4));
    }
}

std::vector<std::uint8_t> q2_k(const F *x) {
    constexpr auto &f = block_fields::gguf_q2_k;
    constexpr std::size_t d_at = field_at(f, "d"), dmin_at = field_at(f, "dmin");
    std::vector<std::uint8_t> y(block_size(f), 0);
    std::uint8_t *scales_out = y.data() + field_at(f, "scales"), *qs = y.data() + field_at(f, "qs");
    std::uint8_t L[256];
    F weights[16], mins[16], scales[16];
    const F q4scale = F(15);
    F max_scale, max_min;
    for (int j = 0; j < 16; ++j) {
        for (int l = 0; l < 16; ++l) weights[l] = fabsf_(x[16 * j + l]);
        scales[j] = make_qkx2_quants(16, 3, x + 16 * j, weights, L + 16 * j, mins[j], -kHalf, kTenth, 15, true);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    if (max_scale > F(0)) {
        const F iscale = q4scale / max_scale;
        for (int j = 0; j < 16; ++j) scales_out[j] = static_cast<std::uint8_t>(nearest_int(iscale * scales[j]));
        abi::store_le16(&y[d_at], to_fp16(max_scale / q4scale));
    } else {
        abi::store_le16(&y[d_at], to_fp16(F(0)));
    }
    if (max_min > F(0)) {
        const F iscale = q4scale / max_min;
        for (int j = 0; j < 16; ++j) scales_out[j] = static_cast<std::uint8_t>(scales_out[j] | nearest_int(iscale * mins[j]) << 4);
        abi::store_le16(&y[dmin_at], to_fp16(max_min / q4scale));
    } else {
        abi::store_le16(&y[dmin_at], to_fp16(F(0)));
    }
    for (int j = 0; j < 16; ++j) {
        const F d = from_fp16(abi::load_le16(&y[d_at])) * F(scales_out[j] & 0xF);
        if (!truthy(d)) continue;
        const F dm = from_fp16(abi::load_le16(&y[dmin_at])) * F(scales_out[j] >> 4);
        for (int ii = 0; ii < 16; ++ii) {
            const int l = nearest_int((x[16 * j + ii] + dm) / d);
            L[16 * j + ii] = static_cast<std::uint8_t>(std::max(0, std::min(3, l)));
        }
    }
    for (int j = 0; j < 256; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    return y;
}

std::vector<std::uint8_t> q3_k(const F *x) {
    constexpr auto &f = block_fields::gguf_q3_k;
    constexpr std::size_t d_at = field_at(f, "d");
    std::vector<std::uint8_t> y(block_size(f), 0);
    std::uint8_t *hmask = y.data() + field_at(f, "hmask"), *qs = y.data() + field_at(f, "qs"), *sc_out = y.data() + field_at(f, "scales");
    std::int8_t L[256];
    F scales[16];
    F max_scale, amax;
    for (int j = 0; j < 16; ++j) {
        scales[j] = make_q3_quants(16, 4, x + 16 * j, L + 16 * j);
        const F scale = fabsf_(scales[j]);
        if (scale > amax) {
            amax = scale;
            max_scale = scales[j];
        }
    }
    if (truthy(max_scale)) {
        const F iscale = F(-32) / max_scale;
        for (int j = 0; j < 16; ++j) {
            auto l = static_cast<std::int8_t>(nearest_int(iscale * scales[j]));
            l = static_cast<std::int8_t>(std::max<int>(-32, std::min<int>(31, l)) + 32);
            if (j < 8)
                sc_out[j] = static_cast<std::uint8_t>(l & 0xF);
            else
                sc_out[j - 8] = static_cast<std::uint8_t>(sc_out[j - 8] | (l & 0xF) << 4);
            l = static_cast<std::int8_t>(l >> 4);
            sc_out[j % 4 + 8] = static_cast<std::uint8_t>(sc_out[j % 4 + 8] | l << (2 * (j / 4)));
        }
        abi::store_le16(&y[d_at], to_fp16(F(1) / iscale));
    } else {
        abi::store_le16(&y[d_at], to_fp16(F(0)));
    }
    for (int j = 0; j < 16; ++j) {
        auto sc = static_cast<std::int8_t>(j < 8 ? sc_out[j] & 0xF : sc_out[j - 8] >> 4);
        sc = static_cast<std::int8_t>((sc | (((sc_out[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32);
        const F d = from_fp16(abi::load_le16(&y[d_at])) * F(sc);
        if (!truthy(d)) continue;
        for (int ii = 0; ii < 16; ++ii) {
            const int l = nearest_int(x[16 * j + ii] / d);
            L[16 * j + ii] = static_cast<std::int8_t>(std::max(-4, std::min(3, l)) + 4);
        }
    }
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
    for (int j = 0; j < 256; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    return y;
}

/// q4_K (bits 4, nmax 15, rmin -1) and q5_K (bits 5, nmax 31, rmin -0.5).
std::vector<std::uint8_t> q45_k(const F *x, int bits) {
    // d and dmin stand at the same offsets in q4_K and q5_K.
    constexpr std::size_t d_at = field_at(block_fields::gguf_q4_k, "d"), dmin_at = field_at(block_fields::gguf_q4_k, "dmin");
    static_assert(d_at == field_at(block_fields::gguf_q5_k, "d") && dmin_at == field_at(block_fields::gguf_q5_k, "dmin"));
    const int nmax = (1 << bits) - 1;
    constexpr auto &f4 = block_fields::gguf_q4_k;
    constexpr auto &f5 = block_fields::gguf_q5_k;
    static_assert(field_at(f4, "scales") == field_at(f5, "scales"));
    std::vector<std::uint8_t> y(bits == 4 ? block_size(f4) : block_size(f5), 0);
    std::uint8_t *sc_out = y.data() + field_at(f4, "scales");
    std::uint8_t L[256];
    F weights[32], mins[8], scales[8];
    F max_scale, max_min;
    for (int j = 0; j < 8; ++j) {
        F sum_x2;
        for (int l = 0; l < 32; ++l) sum_x2 += x[32 * j + l] * x[32 * j + l];
        const F av_x = sqrtf_(sum_x2 / F(32));
        for (int l = 0; l < 32; ++l) weights[l] = av_x + fabsf_(x[32 * j + l]);
        scales[j] = make_qkx2_quants(32, nmax, x + 32 * j, weights, L + 32 * j, mins[j], bits == 4 ? -F(1) : -kHalf, kTenth,
                                     bits == 4 ? 20 : 15, false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    const F inv_scale = max_scale > F(0) ? F(63) / max_scale : F(0);
    const F inv_min = max_min > F(0) ? F(63) / max_min : F(0);
    for (int j = 0; j < 8; ++j) {
        auto ls = static_cast<std::uint8_t>(nearest_int(inv_scale * scales[j]));
        auto lm = static_cast<std::uint8_t>(nearest_int(inv_min * mins[j]));
        ls = std::min<std::uint8_t>(63, ls);
        lm = std::min<std::uint8_t>(63, lm);
        if (j < 4) {
            sc_out[j] = ls;
            sc_out[j + 4] = lm;
        } else {
            sc_out[j + 4] = static_cast<std::uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            sc_out[j - 4] = static_cast<std::uint8_t>(sc_out[j - 4] | ((ls >> 4) << 6));
            sc_out[j - 0] = static_cast<std::uint8_t>(sc_out[j - 0] | ((lm >> 4) << 6));
        }
    }
    abi::store_le16(&y[d_at], to_fp16(max_scale / F(63)));
    abi::store_le16(&y[dmin_at], to_fp16(max_min / F(63)));
    for (int j = 0; j < 8; ++j) {
        std::uint8_t sc = 0, m = 0;
        scale_min_k4(j, sc_out, sc, m);
        const F d = from_fp16(abi::load_le16(&y[d_at])) * F(sc);
        if (!truthy(d)) continue;
        const F dm = from_fp16(abi::load_le16(&y[dmin_at])) * F(m);
        for (int ii = 0; ii < 32; ++ii) {
            const int l = nearest_int((x[32 * j + ii] + dm) / d);
            L[32 * j + ii] = static_cast<std::uint8_t>(std::max(0, std::min(nmax, l)));
        }
    }
    if (bits == 4) {
        for (int j = 0, q = static_cast<int>(field_at(f4, "qs")); j < 256; j += 64, q += 32)
            for (int l = 0; l < 32; ++l) y[static_cast<std::size_t>(q + l)] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 4));
        return y;
    }
    std::uint8_t *qh = y.data() + field_at(f5, "qh"), *ql = y.data() + field_at(f5, "qs");
    std::uint8_t m1 = 1, m2 = 2;
    for (int n = 0; n < 256; n += 64) {
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
        ql += 32;
    }
    return y;
}

std::vector<std::uint8_t> q6_k(const F *x) {
    constexpr auto &f = block_fields::gguf_q6_k;
    constexpr std::size_t d_at = field_at(f, "d");
    std::vector<std::uint8_t> y(block_size(f), 0);
    std::int8_t L[256];
    F scales[16];
    F max_scale, max_abs_scale;
    for (int ib = 0; ib < 16; ++ib) {
        scales[ib] = make_qx_quants(16, 32, x + 16 * ib, L + 16 * ib);
        const F abs_scale = fabsf_(scales[ib]);
        if (abs_scale > max_abs_scale) {
            max_abs_scale = abs_scale;
            max_scale = scales[ib];
        }
    }
    if (max_abs_scale < group_max_eps()) {
        abi::store_le16(&y[d_at], to_fp16(F(0)));
        return y;
    }
    const F iscale = F(-128) / max_scale;
    abi::store_le16(&y[d_at], to_fp16(F(1) / iscale));
    auto *sc_out = reinterpret_cast<std::int8_t *>(y.data() + field_at(f, "scales"));
    for (int ib = 0; ib < 16; ++ib) sc_out[ib] = static_cast<std::int8_t>(std::min(127, nearest_int(iscale * scales[ib])));
    for (int j = 0; j < 16; ++j) {
        const F d = from_fp16(abi::load_le16(&y[d_at])) * F(sc_out[j]);
        if (!truthy(d)) continue;
        for (int ii = 0; ii < 16; ++ii) {
            const int l = nearest_int(x[16 * j + ii] / d);
            L[16 * j + ii] = static_cast<std::int8_t>(std::max(-32, std::min(31, l)) + 32);
        }
    }
    std::uint8_t *ql = y.data() + field_at(f, "ql"), *qh = y.data() + field_at(f, "qh");
    for (int j = 0; j < 256; j += 128) {
        for (int l = 0; l < 32; ++l) {
            const int q1 = L[j + l] & 0xF, q2 = L[j + l + 32] & 0xF, q3 = L[j + l + 64] & 0xF, q4 = L[j + l + 96] & 0xF;
            ql[l] = static_cast<std::uint8_t>(q1 | (q3 << 4));
            ql[l + 32] = static_cast<std::uint8_t>(q2 | (q4 << 4));
            qh[l] = static_cast<std::uint8_t>((L[j + l] >> 4) | ((L[j + l + 32] >> 4) << 2) | ((L[j + l + 64] >> 4) << 4) |
                                              ((L[j + l + 96] >> 4) << 6));
        }
        ql += 64;
        qh += 32;
    }
    return y;
}

/// The binary32 values of a block's words.
std::vector<F> values_of(std::span<const std::uint32_t> words) {
    std::vector<F> x(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) x[i] = F::of(words[i]);
    return x;
}

}  // namespace

GgufQuantized quantize_ref::gguf_q2_k(std::span<const std::uint32_t> x) { return written(q2_k(values_of(x).data())); }
GgufQuantized quantize_ref::gguf_q3_k(std::span<const std::uint32_t> x) { return written(q3_k(values_of(x).data())); }
GgufQuantized quantize_ref::gguf_q4_k(std::span<const std::uint32_t> x) { return written(q45_k(values_of(x).data(), 4)); }
GgufQuantized quantize_ref::gguf_q5_k(std::span<const std::uint32_t> x) { return written(q45_k(values_of(x).data(), 5)); }
GgufQuantized quantize_ref::gguf_q6_k(std::span<const std::uint32_t> x) { return written(q6_k(values_of(x).data())); }

}  // namespace ninfer::oracle::gguf_detail
