// SPDX-License-Identifier: Apache-2.0
// The reference's own iq4_nl and iq4_xs quantizers (ggml-quants.c quantize_row_iq4_nl_impl, read
// for its order of operations; the gguf_* paragraph of tensor-formats.txt): host binary32
// arithmetic in ggml's order (gguf.cmake: -ffp-contract=off), weights x*x, the code book
// kvalues_iq4nl. A NaN scale (inf / inf on a huge block) is stored as x86's default NaN gives it,
// binary16 0xFE00, whatever NaN the host makes (oracle/GGUF.md, "iq4_nl and iq4_xs").
#include "gguf_quantize_iq4.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gguf_block_structs.hpp"
#include "gguf_blocks.hpp"
#include "ninfer/oracle/ggml_tables.hpp"

namespace ninfer::reference::gguf_blocks {

using namespace ggml_struct;  // the block structs (gguf_block_structs.hpp): offsets by member

namespace {

constexpr int kSub = 32;
constexpr float kGroupMaxEps = 1e-15f;

inline float kv(int l) { return static_cast<float>(ninfer::oracle::ggml::kvalues_iq4nl[static_cast<std::size_t>(l)]); }

/// best_index_int8 over kvalues_iq4nl: ends, bisection, nearer neighbour (upper on ties).
int nearest_code(float x) {
    if (x <= kv(0)) return 0;
    if (x >= kv(15)) return 15;
    int lo = 0, hi = 15;
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (x < kv(mid))
            hi = mid;
        else
            lo = mid;
    }
    return x - kv(hi - 1) < kv(hi) - x ? hi - 1 : hi;
}

inline void store_half(std::uint8_t *b, float d) {
    const std::uint16_t h = d != d ? std::uint16_t{0xFE00} : f32_to_fp16(d);
    b[0] = static_cast<std::uint8_t>(h);
    b[1] = static_cast<std::uint8_t>(h >> 8);
}

/// sum w*q*x and sum w*q*q (w = x*x) of the codes at inverse scale id; the codes into L if given.
void sums_at(const float *xb, float id, float &sumqx, float &sumq2, std::uint8_t *L) {
    sumqx = 0.0f;
    sumq2 = 0.0f;
    for (int j = 0; j < kSub; ++j) {
        const int l = nearest_code(id * xb[j]);
        if (L) L[j] = static_cast<std::uint8_t>(l);
        const float q = kv(l), w = xb[j] * xb[j];
        sumqx += w * q * xb[j];
        sumq2 += w * q * q;
    }
}

/// The scale of one 32-value sub-block; false (scale 0, L untouched) below GROUP_MAX_EPS.
bool sub_scale(const float *xb, int ntry, float &scale, std::uint8_t *L) {
    float amax = 0.0f, max = 0.0f;
    for (int j = 0; j < kSub; ++j)
        if (std::fabs(xb[j]) > amax) {
            amax = std::fabs(xb[j]);
            max = xb[j];
        }
    scale = 0.0f;
    if (amax < kGroupMaxEps) return false;
    const float d0 = (ntry > 0 ? -max : max) / kv(0);
    float sumqx = 0.0f, sumq2 = 0.0f;
    sums_at(xb, 1.0f / d0, sumqx, sumq2, L);
    float d = sumq2 > 0.0f ? sumqx / sumq2 : 0.0f;
    float best = d * sumqx;
    for (int itry = -ntry; itry <= ntry; ++itry) {
        sums_at(xb, static_cast<float>(itry + ninfer::oracle::ggml::kvalues_iq4nl[0]) / max, sumqx, sumq2, nullptr);
        if (sumq2 > 0.0f && sumqx * sumqx > best * sumq2) {
            d = sumqx / sumq2;
            best = d * sumqx;
        }
    }
    scale = d;
    return true;
}

/// block_iq4_xs's d, scales_h, scales_l, and every code re-chosen at its sub-block's d * l.
void xs_scales(int super, const float *x, const float *scales, float max_scale, std::uint8_t *y, std::uint8_t *L) {
    const float d = -max_scale / 32.0f;
    store_half(y + offsetof(block_iq4_xs, d), d);
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    unsigned scales_h = 0;
    for (int ib = 0; ib < super / kSub; ++ib) {
        const int l = std::clamp(nearest_int(id * scales[ib]), -32, 31);
        const float dl = d * static_cast<float>(l);
        const float idl = dl != 0.0f ? 1.0f / dl : 0.0f;
        for (int j = 0; j < kSub; ++j) L[kSub * ib + j] = static_cast<std::uint8_t>(nearest_code(idl * x[kSub * ib + j]));
        const int ls = l + 32;
        std::uint8_t &sl = y[offsetof(block_iq4_xs, scales_l) + static_cast<std::size_t>(ib / 2)];
        sl = static_cast<std::uint8_t>(ib % 2 ? sl | (ls & 0xF) << 4 : ls & 0xF);
        scales_h |= static_cast<unsigned>(ls >> 4) << (2 * (ib % 8));
    }
    y[offsetof(block_iq4_xs, scales_h)] = static_cast<std::uint8_t>(scales_h);
    y[offsetof(block_iq4_xs, scales_h) + 1] = static_cast<std::uint8_t>(scales_h >> 8);
}

}  // namespace

bool iq4_block(int super, int ntry, const float *x, std::uint8_t *y) {
    const int nb = super / kSub;
    std::uint8_t L[256] = {};
    float scales[8] = {};
    float max_scale = 0.0f, amax_scale = 0.0f;
    bool all_written = true;
    for (int ib = 0; ib < nb; ++ib) {
        all_written = sub_scale(x + kSub * ib, ntry, scales[ib], L + kSub * ib) && all_written;
        if (std::fabs(scales[ib]) > amax_scale) {
            amax_scale = std::fabs(scales[ib]);
            max_scale = scales[ib];
        }
    }
    std::uint8_t *qs = y + (nb > 1 ? offsetof(block_iq4_xs, qs) : offsetof(block_iq4_nl, qs));
    if (nb > 1) {
        xs_scales(super, x, scales, max_scale, y, L);
    } else {
        if (ntry <= 0 && !all_written) return false;
        store_half(y + offsetof(block_iq4_nl, d), scales[0]);
        if (ntry > 0) {
            const float id = scales[0] != 0.0f ? 1.0f / scales[0] : 0.0f;
            for (int j = 0; j < super; ++j) L[j] = static_cast<std::uint8_t>(nearest_code(id * x[j]));
        }
    }
    for (int i = 0; i < super / 32; ++i)
        for (int j = 0; j < 16; ++j) qs[16 * i + j] = static_cast<std::uint8_t>(L[32 * i + j] | L[32 * i + 16 + j] << 4);
    return true;
}

}  // namespace ninfer::reference::gguf_blocks
