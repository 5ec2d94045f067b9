// SPDX-License-Identifier: Apache-2.0
// The reference's own GGUF block decoders (tensor-formats.txt, the gguf_* table and its
// paragraph "A gguf_* weight is a row-major [N,K] matrix ..."; storage-layouts.md Section 7):
// what ggml's dequantize_row_<type> computes, in host binary32 arithmetic in ggml's evaluation
// order (this file is compiled with -ffp-contract=off: no product is fused into an addition).
// Block layouts are the byte images of ggml-common.h's block_* structs; grids, sign tables and
// code books are the data of oracle/data/ggml-tables.json (ggml_tables.hpp, generated).
#include "gguf_blocks.hpp"

#include <bit>
#include <cstring>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/ggml_tables.hpp"
#include "gguf_block_structs.hpp"

namespace ninfer::reference::gguf_blocks {

namespace tables = ninfer::oracle::ggml;

float fp16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | m << 13);
    if (e != 0) return std::bit_cast<float>(sign | (e + 112) << 23 | m << 13);
    // Subnormal or zero: m * 2^-24, exact in binary32.
    const float mag = static_cast<float>(m) * 0x1p-24f;
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(mag) | sign);
}

std::uint16_t f32_to_fp16(float f) {
    const std::uint32_t w = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((w >> 16) & 0x8000u);
    const std::uint32_t abs = w & 0x7FFFFFFFu;
    if (abs > 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7E00u | ((abs >> 13) & 0x3FFu));  // NaN, quiet
    if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504 (or Inf)
    const int e = static_cast<int>(abs >> 23) - 127;
    if (e >= -14) {  // normal binary16: drop 13 bits, nearest-even (a carry may bump the exponent)
        const std::uint32_t base = (static_cast<std::uint32_t>(e + 15) << 10) | ((abs >> 13) & 0x3FFu);
        const std::uint32_t rest = abs & 0x1FFFu;
        const std::uint32_t up = rest > 0x1000u || (rest == 0x1000u && (base & 1u)) ? 1u : 0u;
        return static_cast<std::uint16_t>(sign | (base + up));
    }
    if (e < -25) return sign;  // below half the smallest subnormal
    // Subnormal binary16: the significand (implicit bit included) shifted right, nearest-even.
    const std::uint32_t sig = (abs & 0x7FFFFFu) | 0x800000u;
    const int shift = -1 - e;  // 14 + 13 - (e + 14) ... value = sig * 2^(e-23), unit 2^-24
    const std::uint32_t base = sig >> shift, rest = sig & ((1u << shift) - 1u), half = 1u << (shift - 1);
    const std::uint32_t up = rest > half || (rest == half && (base & 1u)) ? 1u : 0u;
    return static_cast<std::uint16_t>(sign | (base + up));
}

int nearest_int(float f) {
    const float v = f + 12582912.f;
    return static_cast<int>(std::bit_cast<std::uint32_t>(v) & 0x007FFFFFu) - 0x00400000;
}

namespace {

constexpr std::uint32_t kCanonicalNaN = 0x7FC00000u;

/// Element i of the output as a little-endian binary32 word; an operation's NaN canonical.
inline void put(std::uint8_t *out, std::uint64_t i, float v) {
    abi::store_le32(out + 4 * i, v != v ? kCanonicalNaN : std::bit_cast<std::uint32_t>(v));
}

using abi::load_le32;
using namespace ggml_struct;

// ---- 32-value blocks -----------------------------------------------------------------------------
// Each decoder copies block i of the row into ggml's struct (gguf_block_structs.hpp) and reads
// its members by name.

void gguf_q4_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q4_0>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int j = 0; j < 16; ++j) {
            const int x0 = (b.qs[j] & 0x0F) - 8, x1 = (b.qs[j] >> 4) - 8;
            put(y, 32 * i + j, static_cast<float>(x0) * d);
            put(y, 32 * i + j + 16, static_cast<float>(x1) * d);
        }
    }
}

void gguf_q4_1(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q4_1>(x, i);
        const float d = fp16_to_f32(b.d), m = fp16_to_f32(b.m);
        for (int j = 0; j < 16; ++j) {
            put(y, 32 * i + j, static_cast<float>(b.qs[j] & 0x0F) * d + m);
            put(y, 32 * i + j + 16, static_cast<float>(b.qs[j] >> 4) * d + m);
        }
    }
}

/// qh as ggml reads it: memcpy of the four bytes into a uint32_t.
inline std::uint32_t qh_word(const std::uint8_t (&qh)[4]) { return load_le32(qh); }

void gguf_q5_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q5_0>(x, i);
        const float d = fp16_to_f32(b.d);
        const std::uint32_t qh = qh_word(b.qh);
        for (int j = 0; j < 16; ++j) {
            const std::uint32_t xh0 = ((qh >> j) << 4) & 0x10, xh1 = (qh >> (j + 12)) & 0x10;
            const int x0 = static_cast<int>((b.qs[j] & 0x0Fu) | xh0) - 16, x1 = static_cast<int>((b.qs[j] >> 4) | xh1) - 16;
            put(y, 32 * i + j, static_cast<float>(x0) * d);
            put(y, 32 * i + j + 16, static_cast<float>(x1) * d);
        }
    }
}

void gguf_q5_1(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q5_1>(x, i);
        const float d = fp16_to_f32(b.d), m = fp16_to_f32(b.m);
        const std::uint32_t qh = qh_word(b.qh);
        for (int j = 0; j < 16; ++j) {
            const std::uint32_t xh0 = ((qh >> j) << 4) & 0x10, xh1 = (qh >> (j + 12)) & 0x10;
            const auto x0 = static_cast<int>((b.qs[j] & 0x0Fu) | xh0), x1 = static_cast<int>((b.qs[j] >> 4) | xh1);
            put(y, 32 * i + j, static_cast<float>(x0) * d + m);
            put(y, 32 * i + j + 16, static_cast<float>(x1) * d + m);
        }
    }
}

void gguf_q8_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q8_0>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int j = 0; j < 32; ++j) put(y, 32 * i + j, static_cast<float>(b.qs[j]) * d);
    }
}

/// q8_1 has no dequantize_row in ggml: the value of an element is q * d (s is metadata).
void gguf_q8_1(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q8_1>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int j = 0; j < 32; ++j) put(y, 32 * i + j, static_cast<float>(b.qs[j]) * d);
    }
}

void gguf_iq4_nl(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq4_nl>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int j = 0; j < 16; ++j) {
            put(y, 32 * i + j, d * static_cast<float>(tables::kvalues_iq4nl[b.qs[j] & 0x0F]));
            put(y, 32 * i + j + 16, d * static_cast<float>(tables::kvalues_iq4nl[b.qs[j] >> 4]));
        }
    }
}

/// GGML_E8M0_TO_FP32_HALF: 2^(e - 128) as a binary32 word (subnormal patterns for e < 2).
inline float e8m0_half(std::uint8_t e) {
    return std::bit_cast<float>(e < 2 ? 0x00200000u << e : static_cast<std::uint32_t>(e - 1) << 23);
}

void gguf_mxfp4(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_mxfp4>(x, i);
        const float d = e8m0_half(b.e);
        for (int j = 0; j < 16; ++j) {
            put(y, 32 * i + j, static_cast<float>(tables::kvalues_fp4[b.qs[j] & 0x0F]) * d);
            put(y, 32 * i + j + 16, static_cast<float>(tables::kvalues_fp4[b.qs[j] >> 4]) * d);
        }
    }
}

/// ggml_ue4m3_to_fp32: 0x00 and 0x7F are 0; else the E4M3 magnitude of the low seven bits
/// (bias 7, no NaN), halved to match kvalues_fp4's doubled E2M1 values.
inline float ue4m3_half(std::uint8_t s) {
    if (s == 0 || s == 0x7F) return 0.0f;
    const int e = (s >> 3) & 0xF, m = s & 7;
    const float raw = e == 0 ? static_cast<float>(m) * 0x1p-9f
                             : (1.0f + static_cast<float>(m) / 8.0f) * std::bit_cast<float>(static_cast<std::uint32_t>(e - 7 + 127) << 23);
    return raw * 0.5f;
}

void gguf_nvfp4(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_nvfp4>(x, i);
        for (int s = 0; s < 4; ++s) {
            const float d = ue4m3_half(b.d[s]);
            const std::uint8_t *q = b.qs + 8 * s;
            const std::uint64_t o = 64 * i + 16 * static_cast<std::uint64_t>(s);
            for (int j = 0; j < 8; ++j) {
                put(y, o + j, static_cast<float>(tables::kvalues_fp4[q[j] & 0x0F]) * d);
                put(y, o + j + 8, static_cast<float>(tables::kvalues_fp4[q[j] >> 4]) * d);
            }
        }
    }
}

void gguf_q1_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q1_0>(x, i);
        const float d = fp16_to_f32(b.d), neg_d = -d;
        // The value is d itself or its negation: a NaN d keeps its word (no operation made it).
        const std::uint32_t wd = std::bit_cast<std::uint32_t>(d), wn = d != d ? kCanonicalNaN : std::bit_cast<std::uint32_t>(neg_d);
        for (int j = 0; j < 128; ++j) {
            const std::uint32_t w = (b.qs[j / 8] >> (j % 8)) & 1 ? wd : wn;
            abi::store_le32(y + 4 * (128 * i + static_cast<std::uint64_t>(j)), w);
        }
    }
}

void gguf_q2_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q2_0>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int j = 0; j < 64; ++j) {
            const int q = (b.qs[j / 4] >> ((j % 4) * 2)) & 3;
            put(y, 64 * i + j, static_cast<float>(q - 1) * d);
        }
    }
}

// ---- Ternary blocks ------------------------------------------------------------------------------

/// Base-3 digit n of a packed tq1_0 byte: (byte * 3^n mod 256) * 3 >> 8.
inline int tq1_trit(std::uint8_t byte, int n) {
    static constexpr std::uint8_t kPow3[6] = {1, 3, 9, 27, 81, 243};
    const auto q = static_cast<std::uint8_t>(byte * kPow3[n]);
    return (static_cast<std::uint16_t>(q) * 3) >> 8;
}

void gguf_tq1_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_tq1_0>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 32; ++m) put(y, o++, static_cast<float>(tq1_trit(b.qs[m], n) - 1) * d);
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 16; ++m) put(y, o++, static_cast<float>(tq1_trit(b.qs[32 + m], n) - 1) * d);
        for (int n = 0; n < 4; ++n)
            for (int j = 0; j < 4; ++j) put(y, o++, static_cast<float>(tq1_trit(b.qh[j], n) - 1) * d);
    }
}

void gguf_tq2_0(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_tq2_0>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; ++l)
                for (int m = 0; m < 32; ++m) put(y, o++, static_cast<float>(((b.qs[j + m] >> (2 * l)) & 3) - 1) * d);
    }
}

// ---- K-quants ------------------------------------------------------------------------------------

void gguf_q2_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q2_K>(x, i);
        const float d = fp16_to_f32(b.d), dmin = fp16_to_f32(b.dmin);
        std::uint64_t o = 256 * i;
        const std::uint8_t *q = b.qs;
        int is = 0;
        for (int n = 0; n < 2; ++n, q += 32)
            for (int shift = 0; shift < 8; shift += 2)
                for (int half = 0; half < 2; ++half) {
                    const std::uint8_t sc = b.scales[is++];
                    const float dl = d * static_cast<float>(sc & 0xF), ml = dmin * static_cast<float>(sc >> 4);
                    for (int l = 0; l < 16; ++l) put(y, o++, dl * static_cast<float>((q[16 * half + l] >> shift) & 3) - ml);
                }
    }
}

void gguf_q3_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q3_K>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        const std::uint8_t *q = b.qs;
        int is = 0;
        unsigned m = 1;
        for (int n = 0; n < 2; ++n, q += 32)
            for (int shift = 0; shift < 8; shift += 2, m <<= 1)
                for (int half = 0; half < 2; ++half) {
                    const float dl = d * static_cast<float>(q3_k_scale(b.scales, is++) - 32);
                    for (int l = 0; l < 16; ++l) {
                        const int v = ((q[16 * half + l] >> shift) & 3) - ((b.hmask[16 * half + l] & m) ? 0 : 4);
                        put(y, o++, dl * static_cast<float>(v));
                    }
                }
    }
}

void gguf_q4_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q4_K>(x, i);
        const float d = fp16_to_f32(b.d), dmin = fp16_to_f32(b.dmin);
        const std::uint8_t *q = b.qs;
        std::uint64_t o = 256 * i;
        for (int is = 0; is < 8; is += 2, q += 32) {
            int sc = 0, mn = 0;
            k4_scale_min(b.scales, is, sc, mn);
            const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(mn);
            k4_scale_min(b.scales, is + 1, sc, mn);
            const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(mn);
            for (int l = 0; l < 32; ++l) put(y, o++, d1 * static_cast<float>(q[l] & 0xF) - m1);
            for (int l = 0; l < 32; ++l) put(y, o++, d2 * static_cast<float>(q[l] >> 4) - m2);
        }
    }
}

void gguf_q5_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q5_K>(x, i);
        const float d = fp16_to_f32(b.d), dmin = fp16_to_f32(b.dmin);
        const std::uint8_t *ql = b.qs, *qh = b.qh;
        std::uint64_t o = 256 * i;
        unsigned u1 = 1, u2 = 2;
        for (int is = 0; is < 8; is += 2, ql += 32, u1 <<= 2, u2 <<= 2) {
            int sc = 0, mn = 0;
            k4_scale_min(b.scales, is, sc, mn);
            const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(mn);
            k4_scale_min(b.scales, is + 1, sc, mn);
            const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(mn);
            for (int l = 0; l < 32; ++l) put(y, o++, d1 * static_cast<float>((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1);
            for (int l = 0; l < 32; ++l) put(y, o++, d2 * static_cast<float>((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2);
        }
    }
}

void gguf_q6_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q6_K>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int n = 0; n < 2; ++n) {
            const std::uint8_t *ql = b.ql + 64 * n, *qh = b.qh + 32 * n;
            const std::int8_t *sc = b.scales + 8 * n;
            const std::uint64_t o = 256 * i + 128 * static_cast<std::uint64_t>(n);
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | ((qh[l] >> 0) & 3) << 4) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | ((qh[l] >> 2) & 3) << 4) - 32;
                const int q3 = ((ql[l] >> 4) | ((qh[l] >> 4) & 3) << 4) - 32;
                const int q4 = ((ql[l + 32] >> 4) | ((qh[l] >> 6) & 3) << 4) - 32;
                put(y, o + l, d * static_cast<float>(sc[is + 0]) * static_cast<float>(q1));
                put(y, o + l + 32, d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2));
                put(y, o + l + 64, d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3));
                put(y, o + l + 96, d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4));
            }
        }
    }
}

void gguf_q8_k(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_q8_K>(x, i);
        for (int j = 0; j < 256; ++j) put(y, 256 * i + j, b.d * static_cast<float>(b.qs[j]));
    }
}

// ---- i-quants ------------------------------------------------------------------------------------

/// Byte j of a grid entry, as ggml reads the entry through a byte pointer (little-endian).
inline std::uint8_t grid_byte(std::uint64_t entry, int j) { return static_cast<std::uint8_t>(entry >> (8 * j)); }

/// db * grid * (+-1), ggml's two products.
inline float signed_grid(float db, std::uint8_t g, bool negative) {
    return db * static_cast<float>(g) * (negative ? -1.0f : 1.0f);
}

void gguf_iq2_xxs(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq2_xxs>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            // ggml memcpy's two uint32_t out of qs[4 ib .. 4 ib + 3].
            const std::uint32_t aux0 = b.qs[4 * ib] | static_cast<std::uint32_t>(b.qs[4 * ib + 1]) << 16;
            const std::uint32_t aux1 = b.qs[4 * ib + 2] | static_cast<std::uint32_t>(b.qs[4 * ib + 3]) << 16;
            const float db = d * (0.5f + static_cast<float>(aux1 >> 28)) * 0.25f;
            for (int l = 0; l < 4; ++l) {
                const std::uint64_t grid = tables::iq2xxs_grid[(aux0 >> (8 * l)) & 0xFF];
                const std::uint8_t signs = tables::ksigns_iq2xs[(aux1 >> (7 * l)) & 127];
                for (int j = 0; j < 8; ++j) put(y, o++, signed_grid(db, grid_byte(grid, j), signs & tables::kmask_iq2xs[j]));
            }
        }
    }
}

void gguf_iq2_xs(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq2_xs>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint8_t s = b.scales[ib];
            const float db[2] = {d * (0.5f + static_cast<float>(s & 0xF)) * 0.25f, d * (0.5f + static_cast<float>(s >> 4)) * 0.25f};
            for (int l = 0; l < 4; ++l) {
                const std::uint16_t q = b.qs[4 * ib + l];
                const std::uint64_t grid = tables::iq2xs_grid[q & 511];
                const std::uint8_t signs = tables::ksigns_iq2xs[q >> 9];
                for (int j = 0; j < 8; ++j) put(y, o++, signed_grid(db[l / 2], grid_byte(grid, j), signs & tables::kmask_iq2xs[j]));
            }
        }
    }
}

void gguf_iq2_s(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq2_s>(x, i);
        const float d = fp16_to_f32(b.d);
        const std::uint8_t *signs = b.qs + QK_K / 8;  // ggml: the sign bytes follow the 32 grid bytes in qs
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint8_t s = b.scales[ib], qh = b.qh[ib];
            const float db[2] = {d * (0.5f + static_cast<float>(s & 0xF)) * 0.25f, d * (0.5f + static_cast<float>(s >> 4)) * 0.25f};
            for (int l = 0; l < 4; ++l) {
                const std::uint64_t grid = tables::iq2s_grid[b.qs[4 * ib + l] | ((qh << (8 - 2 * l)) & 0x300)];
                for (int j = 0; j < 8; ++j) put(y, o++, signed_grid(db[l / 2], grid_byte(grid, j), signs[4 * ib + l] & tables::kmask_iq2xs[j]));
            }
        }
    }
}

void gguf_iq3_xxs(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq3_xxs>(x, i);
        const float d = fp16_to_f32(b.d);
        const std::uint8_t *scales_and_signs = b.qs + QK_K / 4;  // ggml: after the 64 grid indices
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint32_t aux = load_le32(scales_and_signs + 4 * ib);
            const float db = d * (0.5f + static_cast<float>(aux >> 28)) * 0.5f;
            for (int l = 0; l < 4; ++l) {
                const std::uint8_t signs = tables::ksigns_iq2xs[(aux >> (7 * l)) & 127];
                const std::uint32_t g1 = tables::iq3xxs_grid[b.qs[8 * ib + 2 * l]], g2 = tables::iq3xxs_grid[b.qs[8 * ib + 2 * l + 1]];
                for (int j = 0; j < 4; ++j) put(y, o + j, signed_grid(db, grid_byte(g1, j), signs & tables::kmask_iq2xs[j]));
                for (int j = 0; j < 4; ++j) put(y, o + 4 + j, signed_grid(db, grid_byte(g2, j), signs & tables::kmask_iq2xs[j + 4]));
                o += 8;
            }
        }
    }
}

void gguf_iq3_s(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq3_s>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        const std::uint8_t *qs = b.qs, *signs = b.signs;
        for (int ib = 0; ib < 8; ib += 2) {
            const std::uint8_t s = b.scales[ib / 2];
            const float db[2] = {d * static_cast<float>(1 + 2 * (s & 0xF)), d * static_cast<float>(1 + 2 * (s >> 4))};
            for (int half = 0; half < 2; ++half, qs += 8, signs += 4) {
                const std::uint8_t qh = b.qh[ib + half];
                for (int l = 0; l < 4; ++l) {
                    const std::uint32_t g1 = tables::iq3s_grid[qs[2 * l] | ((qh << (8 - 2 * l)) & 256)];
                    const std::uint32_t g2 = tables::iq3s_grid[qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256)];
                    for (int j = 0; j < 4; ++j) put(y, o + j, signed_grid(db[half], grid_byte(g1, j), signs[l] & tables::kmask_iq2xs[j]));
                    for (int j = 0; j < 4; ++j)
                        put(y, o + 4 + j, signed_grid(db[half], grid_byte(g2, j), signs[l] & tables::kmask_iq2xs[j + 4]));
                    o += 8;
                }
            }
        }
    }
}

/// IQ1S_DELTA (ggml-common.h; ggml-tables.json constants), exact in binary32.
constexpr float kIq1Delta = static_cast<float>(tables::kIQ1S_DELTA_num) / static_cast<float>(tables::kIQ1S_DELTA_den);
static_assert(kIq1Delta == 0.125f, "IQ1S_DELTA is 0.125 in ggml-common.h");

/// dl * (grid + delta) over the eight signed bytes of an iq1 grid entry.
inline void iq1_group(float dl, std::uint64_t grid, float delta, std::uint8_t *y, std::uint64_t o) {
    for (int j = 0; j < 8; ++j) put(y, o + j, dl * (static_cast<float>(static_cast<std::int8_t>(grid_byte(grid, j))) + delta));
}

void gguf_iq1_s(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq1_s>(x, i);
        const float d = fp16_to_f32(b.d);
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint16_t qh = b.qh[ib];
            const float dl = d * static_cast<float>(2 * ((qh >> 12) & 7) + 1);
            const float delta = qh & 0x8000 ? -kIq1Delta : kIq1Delta;
            for (int l = 0; l < 4; ++l, o += 8) iq1_group(dl, tables::iq1s_grid[b.qs[4 * ib + l] | (((qh >> (3 * l)) & 7) << 8)], delta, y, o);
        }
    }
}

void gguf_iq1_m(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq1_m>(x, i);
        // ggml reads the eight scale bytes as four uint16_t (iq1m_scale_t).
        std::uint16_t sc[4];
        std::memcpy(sc, b.scales, sizeof sc);
        const float d = fp16_to_f32(static_cast<std::uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) |
                                                               (sc[3] & 0xF000)));
        std::uint64_t o = 256 * i;
        for (int ib = 0; ib < 8; ++ib) {
            const float dl1 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 7) + 1);
            const float dl2 = d * static_cast<float>(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1);
            const std::uint8_t *qs = b.qs + 4 * ib, *qh = b.qh + 2 * ib;
            const int idx[4] = {qs[0] | ((qh[0] << 8) & 0x700), qs[1] | ((qh[0] << 4) & 0x700), qs[2] | ((qh[1] << 8) & 0x700),
                                qs[3] | ((qh[1] << 4) & 0x700)};
            const float delta[4] = {qh[0] & 0x08 ? -kIq1Delta : kIq1Delta, qh[0] & 0x80 ? -kIq1Delta : kIq1Delta,
                                    qh[1] & 0x08 ? -kIq1Delta : kIq1Delta, qh[1] & 0x80 ? -kIq1Delta : kIq1Delta};
            for (int l = 0; l < 4; ++l, o += 8) iq1_group(l < 2 ? dl1 : dl2, tables::iq1s_grid[idx[l]], delta[l], y, o);
        }
    }
}

void gguf_iq4_xs(const std::uint8_t *x, std::uint64_t nb, std::uint8_t *y) {
    for (std::uint64_t i = 0; i < nb; ++i) {
        const auto b = load<block_iq4_xs>(x, i);
        const float d = fp16_to_f32(b.d);
        for (int ib = 0; ib < 8; ++ib) {
            const int ls = ((b.scales_l[ib / 2] >> (4 * (ib % 2))) & 0xF) | (((b.scales_h >> (2 * ib)) & 3) << 4);
            const float dl = d * static_cast<float>(ls - 32);
            const std::uint8_t *q = b.qs + 16 * ib;
            const std::uint64_t o = 256 * i + 32 * static_cast<std::uint64_t>(ib);
            for (int j = 0; j < 16; ++j) {
                put(y, o + j, dl * static_cast<float>(tables::kvalues_iq4nl[q[j] & 0xF]));
                put(y, o + j + 16, dl * static_cast<float>(tables::kvalues_iq4nl[q[j] >> 4]));
            }
        }
    }
}

/// The row decoders by registry row (abi::kGgufTypes), named by the registry's type names.
constexpr abi::GgufTable<RowDecoder> kRowDecoders = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) &name,
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

}  // namespace

RowDecoder row_decoder(std::uint32_t ggml_type) { return abi::gguf_entry_of_ggml_type(kRowDecoders, ggml_type); }

}  // namespace ninfer::reference::gguf_blocks
