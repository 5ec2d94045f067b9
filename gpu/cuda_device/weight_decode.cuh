// SPDX-License-Identifier: Apache-2.0
// cuda_device's per-element weight decoders (tensor-formats.txt Sections 3.2-3.4, 6.2 and the gguf_*
// table; storage-layouts.md Sections 3-7), written once for the device AND the host: every function
// is NINFER_HOST_DEVICE. tensor_kernels.cu runs them on the device (nvcc -fmad=false -ftz=false
// -prec-div=true); the host test (tests/test_cuda_device_decode_host.cpp, -ffp-contract=off, no
// fast-math) runs the same code on the CPU against the golden vectors.
//
// Every binary32 rounding step is named: f32_mul / f32_add / f32_sub / f32_div are __fmul_rn /
// __fadd_rn / __fsub_rn / __fdiv_rn on the device and one IEEE binary32 operation (* + - /) on the
// host. Word widenings (binary16, bf16, E4M3FN, E2M1 to binary32) are exact bit manipulation, the
// same on both sides; no intrinsic decides a value. GGUF values are ggml's dequantize_row_* words:
// ggml's operations in ggml's order (ggml-quants.c), grids and code books from GgmlTables.
#pragma once

#include <cstddef>
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cstring>
#endif

#include "gguf_block_structs.hpp"
#include "ninfer/abi/registry.h"
#include "weight_view.hpp"

namespace ninfer::gpu {

/// ggml's grids, sign table and code books (ggml-common.h data, from ../shared/data/ggml-tables.json
/// through the generated ggml_tables.hpp), and the iq1 deltas as binary32 values. Device memory for
/// the kernels (tensor_kernels.cu uploads them once), host arrays for the host test.
struct GgmlTables {
    const std::uint64_t *iq2xxs_grid = nullptr;  ///< 256
    const std::uint64_t *iq2xs_grid = nullptr;   ///< 512
    const std::uint64_t *iq2s_grid = nullptr;    ///< 1024
    const std::uint64_t *iq1s_grid = nullptr;    ///< 2048
    const std::uint32_t *iq3xxs_grid = nullptr;  ///< 256
    const std::uint32_t *iq3s_grid = nullptr;    ///< 512
    const std::uint8_t *ksigns_iq2xs = nullptr;  ///< 128
    const std::int8_t *kvalues_iq4nl = nullptr;  ///< 16
    const std::int8_t *kvalues_fp4 = nullptr;    ///< 16 (ggml's kvalues_mxfp4: E2M1 values doubled)
    float iq1s_delta = 0.0f, iq1m_delta = 0.0f;  ///< IQ1S_DELTA, IQ1M_DELTA (binary32 of num / den)
};

namespace decode {

// ---- Bits and named binary32 operations ----------------------------------------------------------

NINFER_HOST_DEVICE inline float f32_of(std::uint32_t w) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(w);
#else
    float f;
    std::memcpy(&f, &w, 4);
    return f;
#endif
}

NINFER_HOST_DEVICE inline std::uint32_t bits_of(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
#endif
}

/// RN32(a * b), RN32(a + b), RN32(a - b), RN32(a / b): one IEEE rounding each, never contracted.
NINFER_HOST_DEVICE inline float f32_mul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
NINFER_HOST_DEVICE inline float f32_add(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
NINFER_HOST_DEVICE inline float f32_sub(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
NINFER_HOST_DEVICE inline float f32_div(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

/// An integer of magnitude below 2^24 as binary32 (exact).
NINFER_HOST_DEVICE inline float f32_int(int i) { return static_cast<float>(i); }

/// 2^e for -126 <= e <= 127 (a normal binary32).
NINFER_HOST_DEVICE inline float pow2(int e) { return f32_of(static_cast<std::uint32_t>(e + 127) << 23); }

NINFER_HOST_DEVICE inline std::uint32_t load16(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8;
}
NINFER_HOST_DEVICE inline std::uint32_t load32(const std::uint8_t *p) { return load16(p) | load16(p + 2) << 16; }

// ---- Exact widenings -------------------------------------------------------------------------------

/// binary16 to binary32: exact; a NaN keeps its sign and payload and comes out quiet, as IEEE
/// 754's convertFormat (and ggml's GGML_FP16_TO_FP32) gives it.
NINFER_HOST_DEVICE inline float half_value(std::uint32_t h) {
    const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu;
    std::uint32_t man = h & 0x3FFu;
    if (exp == 0x1F) return f32_of(sign | 0x7F800000u | (man ? 0x400000u : 0u) | man << 13);
    if (exp != 0) return f32_of(sign | (exp + 112u) << 23 | man << 13);
    if (man == 0) return f32_of(sign);
    std::uint32_t e = 113;  // man * 2^-24: normalise the leading one to bit 10
    while ((man & 0x400u) == 0) {
        man <<= 1;
        --e;
    }
    return f32_of(sign | e << 23 | (man & 0x3FFu) << 13);
}

/// bf16 to binary32: the top half of the word.
NINFER_HOST_DEVICE inline float bf16_value(std::uint32_t w) { return f32_of((w & 0xFFFFu) << 16); }

/// E4M3FN to binary32: exact; 0x7F / 0xFF are NaN (the decode boundary refuses them before).
NINFER_HOST_DEVICE inline float e4m3_value(std::uint32_t w) {
    const std::uint32_t sign = (w & 0x80u) << 24, exp = (w >> 3) & 0xFu, man = w & 7u;
    if (exp == 0xF && man == 7) return f32_of(sign | 0x7FC00000u);
    if (exp != 0) return f32_of(sign | (exp + 120u) << 23 | man << 20);
    return f32_of(sign | bits_of(f32_mul(f32_int(static_cast<int>(man)), pow2(-9))));  // man * 2^-9, exact
}

/// E2M1 (low nibble) to binary32: exact.
NINFER_HOST_DEVICE inline float e2m1_value(std::uint32_t w) {
    const std::uint32_t sign = (w & 0x8u) << 28, exp = (w >> 1) & 3u, man = w & 1u;
    if (exp != 0) return f32_of(sign | (exp + 126u) << 23 | man << 22);
    return f32_of(sign | (man ? 0x3F000000u : 0u));
}

// ---- Grouped (Section 6.2; row_split_k128_v1, storage-layouts.md Section 3) ----------------------

/// The stored word of `lane` of a row_split group (BYTE, NIBBLE_HIGH or TWO_BIT_LSB packing).
NINFER_HOST_DEVICE inline std::uint32_t row_split_word(const WeightView &v, const std::uint8_t *base, const std::uint8_t *high,
                                                       std::uint32_t lane) {
    if (v.code_bits == 8) return base[lane];
    if (v.code_bits == 2) return (base[lane / 4] >> (2 * (lane % 4))) & 3u;
    std::uint32_t u = (base[lane / 2] >> (4 * (lane % 2))) & 0xFu;
    const std::uint32_t hb = v.code_bits - 4;
    for (std::uint32_t j = 0; j < hb; ++j) {
        const std::uint32_t t = lane * hb + j;
        u |= ((high[t / 8] >> (t % 8)) & 1u) << (4 + j);
    }
    return u;
}

/// The signed code of a stored word: two's complement, or q = u - 1 for the offset code (q2).
NINFER_HOST_DEVICE inline int grouped_code_of(const WeightView &v, std::uint32_t u) {
    if (v.offset_codes) return static_cast<int>(u) - 1;
    return u >= (1u << (v.code_bits - 1)) ? static_cast<int>(u) - (1 << v.code_bits) : static_cast<int>(u);
}

/// The signed code of element (n, k).
NINFER_HOST_DEVICE inline int grouped_code(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k) {
    const std::uint64_t idx = n * v.groups_per_row + k / v.group;
    const std::uint32_t lane = static_cast<std::uint32_t>(k % v.group);
    return grouped_code_of(v, row_split_word(v, p + idx * v.base_bytes, p + v.high_offset + idx * v.high_bytes, lane));
}

/// w_hat = binary32(s32 * binary32(q)).
NINFER_HOST_DEVICE inline float grouped_value(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k) {
    const float s32 = half_value(load16(p + v.scale_offset + 2 * (n * v.groups_per_row + k / v.group)));
    return f32_mul(s32, f32_int(grouped_code(v, p, n, k)));
}

// ---- nvfp4 (Section 3.3; block_scale_k16_m128x4_v1, storage-layouts.md Section 4) ----------------

/// e2m1 * e4m3 of element (n, k): exact in binary32 (at most 2 x 4 significant bits).
NINFER_HOST_DEVICE inline float nvfp4_numerator(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k) {
    const std::uint64_t i = n * v.k + k;
    const std::uint32_t code = (p[i / 2] >> (4 * (i % 2))) & 0xFu;
    const std::uint32_t scale = p[v.scales_at + nvfp4_scale_offset(v.k, n, k / 16)];
    return f32_mul(e2m1_value(code), e4m3_value(scale));
}

/// d_w of row n: divisor floor(n / (N / D)).
NINFER_HOST_DEVICE inline float nvfp4_divisor(const WeightView &v, const std::uint8_t *p, std::uint64_t n) {
    return f32_of(load32(p + v.divisors_at + 4 * (n / (v.n / v.divisors))));
}

// ---- FP8 rows (Section 3.4; row_scale_v1 / row_interleaved_v1, Sections 5, 6) ---------------------

/// binary32(c32 * s32).
NINFER_HOST_DEVICE inline float fp8_row_value(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k) {
    const float c32 = e4m3_value(p[n * v.row_stride + k]);
    const std::uint32_t s = load16(p + (v.interleaved ? n * v.row_stride + v.k : v.row_scales_at + 2 * n));
    return f32_mul(c32, v.bf16_scale ? bf16_value(s) : half_value(s));
}

// ---- GGUF (ggml-quants.c dequantize_row_*; ggml_blocks_v1, Section 7) ----------------------------

/// q4_K / q5_K: the 6-bit scale and min of sub-block j from the 12 packed bytes at q.
NINFER_HOST_DEVICE inline void scale_min_k4(const std::uint8_t *q, int j, int &sc, int &m) {
    if (j < 4) {
        sc = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

/// q3_K: the 6-bit scale i (0..15) from scales[12]: low 4 bits from bytes 0..7 (low nibbles
/// first), high 2 bits from bytes 8..11.
NINFER_HOST_DEVICE inline int q3k_scale(const std::uint8_t *s, std::uint32_t i) {
    const int lo = i < 8 ? (s[i] & 0xF) : (s[i - 8] >> 4);
    const int hi = (s[8 + i % 4] >> (2 * (i / 4))) & 3;
    return lo | hi << 4;
}

/// Byte j of a grid entry (ggml reads the entry through a byte pointer, little-endian).
NINFER_HOST_DEVICE inline int grid_byte(std::uint64_t entry, std::uint32_t j) { return static_cast<int>((entry >> (8 * j)) & 0xFFu); }

/// d * (0.5 + s) * k in ggml's order (iq2_*: k = 0.25, iq3_xxs: k = 0.5).
NINFER_HOST_DEVICE inline float half_step_scale(float d, std::uint32_t s, float k) {
    return f32_mul(f32_mul(d, f32_add(0.5f, f32_int(static_cast<int>(s)))), k);
}

/// db * grid_byte * (+-1.0f), ggml's order.
NINFER_HOST_DEVICE inline float signed_grid(float db, int g, bool negative) {
    return f32_mul(f32_mul(db, f32_int(g)), negative ? -1.0f : 1.0f);
}

/// Base-3 digit n of a packed byte, ggml's way: q = byte * 3^n mod 256, digit = (q * 3) >> 8.
NINFER_HOST_DEVICE inline int trit(std::uint32_t byte, std::uint32_t n) {
    std::uint32_t pow3 = 1;
    for (std::uint32_t i = 0; i < n; ++i) pow3 *= 3;
    const std::uint32_t q = (byte * pow3) & 0xFFu;
    return static_cast<int>((q * 3) >> 8);
}

/// ggml_ue4m3_to_fp32 halved (gguf nvfp4's sub-block scale): 0x00 and 0x7F are 0; otherwise the
/// E4M3 magnitude of the low 7 bits (bit 7 ignored; e = 15, m = 7 is 480), times 0.5. Exact.
NINFER_HOST_DEVICE inline float ue4m3_half(std::uint32_t s) {
    if (s == 0 || s == 0x7F) return 0.0f;
    const int e = static_cast<int>((s >> 3) & 0xF), m = static_cast<int>(s & 7);
    return e == 0 ? f32_mul(f32_int(m), pow2(-10)) : f32_mul(f32_int(8 + m), pow2(e - 11));
}

/// One element of an iq1 grid: dl * (grid byte (signed) + delta).
NINFER_HOST_DEVICE inline float iq1_element(float dl, std::uint64_t grid, std::uint32_t j, float delta) {
    return f32_mul(dl, f32_add(f32_int(static_cast<std::int8_t>(grid_byte(grid, j))), delta));
}

/// ggml's block structs (ggml-common.h, as the reference plugin writes them: its
/// gguf_block_structs.hpp, sizes and offsets asserted there): every field below is addressed by
/// offsetof of its member, a constant on the device too, never by a literal byte offset.
namespace blocks = ::ninfer::reference::gguf_blocks::ggml_struct;

/// Value j of one ggml block `b`, one function per type named by the registry (registry.h
/// NINFER_GGUF_TYPES): ggml's dequantize_row_<type> operations in ggml's order (binary32, no
/// contraction).
namespace block_value {

/// q4_0: d, qs[16]; (nibble - 8) * d
NINFER_HOST_DEVICE inline float gguf_q4_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q4_0;
    const std::uint8_t *qs = b + offsetof(B, qs);
    const int q = (j < 16 ? (qs[j] & 0xF) : (qs[j - 16] >> 4)) - 8;
    return f32_mul(f32_int(q), half_value(load16(b + offsetof(B, d))));
}

/// q4_1: d, m, qs[16]; nibble * d + m
NINFER_HOST_DEVICE inline float gguf_q4_1(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q4_1;
    const std::uint8_t *qs = b + offsetof(B, qs);
    const int q = j < 16 ? (qs[j] & 0xF) : (qs[j - 16] >> 4);
    return f32_add(f32_mul(f32_int(q), half_value(load16(b + offsetof(B, d)))), half_value(load16(b + offsetof(B, m))));
}

/// q5_0: d, qh[4], qs[16]; (5-bit word - 16) * d
NINFER_HOST_DEVICE inline float gguf_q5_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q5_0;
    const std::uint32_t qh = load32(b + offsetof(B, qh));
    const std::uint8_t *qs = b + offsetof(B, qs);
    const int q = j < 16 ? static_cast<int>((qs[j] & 0xFu) | (((qh >> j) << 4) & 0x10u))
                         : static_cast<int>((qs[j - 16] >> 4) | ((qh >> (j - 16 + 12)) & 0x10u));
    return f32_mul(f32_int(q - 16), half_value(load16(b + offsetof(B, d))));
}

/// q5_1: d, m, qh[4], qs[16]; 5-bit word * d + m
NINFER_HOST_DEVICE inline float gguf_q5_1(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q5_1;
    const std::uint32_t qh = load32(b + offsetof(B, qh));
    const std::uint8_t *qs = b + offsetof(B, qs);
    const int q = j < 16 ? static_cast<int>((qs[j] & 0xFu) | (((qh >> j) << 4) & 0x10u))
                         : static_cast<int>((qs[j - 16] >> 4) | ((qh >> (j - 16 + 12)) & 0x10u));
    return f32_add(f32_mul(f32_int(q), half_value(load16(b + offsetof(B, d)))), half_value(load16(b + offsetof(B, m))));
}

/// q8_0: d, qs[32] int8; q * d
NINFER_HOST_DEVICE inline float gguf_q8_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q8_0;
    return f32_mul(f32_int(static_cast<std::int8_t>(b[offsetof(B, qs) + j])), half_value(load16(b + offsetof(B, d))));
}

/// q8_1: d, s, qs[32] int8; q * d (s is metadata)
NINFER_HOST_DEVICE inline float gguf_q8_1(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q8_1;
    return f32_mul(f32_int(static_cast<std::int8_t>(b[offsetof(B, qs) + j])), half_value(load16(b + offsetof(B, d))));
}

/// q2_K: scales[16], qs[64], d, dmin; d*(sc & 15) * q - dmin*(sc >> 4)
NINFER_HOST_DEVICE inline float gguf_q2_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    const std::uint32_t chunk = j / 128, r = j % 128, s = r / 32, half = (r % 32) / 16, l = r % 16;
    using B = blocks::block_q2_K;
    const std::uint32_t sc = b[offsetof(B, scales) + chunk * 8 + s * 2 + half];
    const float dl = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(static_cast<int>(sc & 0xF)));
    const float ml = f32_mul(half_value(load16(b + offsetof(B, dmin))), f32_int(static_cast<int>(sc >> 4)));
    const int q = (b[offsetof(B, qs) + 32 * chunk + 16 * half + l] >> (2 * s)) & 3;
    return f32_sub(f32_mul(dl, f32_int(q)), ml);
}

/// q3_K: hmask[32], qs[64], scales[12], d; d*(sc - 32) * (q2 - 4 * !hbit)
NINFER_HOST_DEVICE inline float gguf_q3_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    const std::uint32_t chunk = j / 128, r = j % 128, s = r / 32, half = (r % 32) / 16, l = r % 16;
    using B = blocks::block_q3_K;
    const float dl =
        f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(q3k_scale(b + offsetof(B, scales), chunk * 8 + s * 2 + half) - 32));
    const int lo = (b[offsetof(B, qs) + 32 * chunk + 16 * half + l] >> (2 * s)) & 3;
    const int hi = (b[offsetof(B, hmask) + 16 * half + l] & (1u << (4 * chunk + s))) ? 0 : 4;
    return f32_mul(dl, f32_int(lo - hi));
}

/// q4_K: d, dmin, scales[12], qs[128]; d*sc * q - dmin*m
NINFER_HOST_DEVICE inline float gguf_q4_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    const std::uint32_t chunk = j / 64, within = j % 64, l = within % 32;
    int sc = 0, m = 0;
    using B = blocks::block_q4_K;
    scale_min_k4(b + offsetof(B, scales), static_cast<int>(2 * chunk + within / 32), sc, m);
    const std::uint8_t byte = b[offsetof(B, qs) + 32 * chunk + l];
    const int q = within < 32 ? (byte & 0xF) : (byte >> 4);
    const float d1 = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(sc));
    const float m1 = f32_mul(half_value(load16(b + offsetof(B, dmin))), f32_int(m));
    return f32_sub(f32_mul(d1, f32_int(q)), m1);
}

/// q5_K: d, dmin, scales[12], qh[32], qs[128]; d*sc * (q4 + 16 h) - dmin*m
NINFER_HOST_DEVICE inline float gguf_q5_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    const std::uint32_t chunk = j / 64, upper = (j % 64) / 32, l = j % 32;
    int sc = 0, m = 0;
    using B = blocks::block_q5_K;
    scale_min_k4(b + offsetof(B, scales), static_cast<int>(2 * chunk + upper), sc, m);
    const std::uint8_t byte = b[offsetof(B, qs) + 32 * chunk + l];
    const int q = (upper ? (byte >> 4) : (byte & 0xF)) + ((b[offsetof(B, qh) + l] & (1u << (2 * chunk + upper))) ? 16 : 0);
    const float d1 = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(sc));
    const float m1 = f32_mul(half_value(load16(b + offsetof(B, dmin))), f32_int(m));
    return f32_sub(f32_mul(d1, f32_int(q)), m1);
}

/// q6_K: ql[128], qh[64], scales[16] int8, d; d*sc * (q6 - 32)
NINFER_HOST_DEVICE inline float gguf_q6_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    const std::uint32_t half = j / 128, r = j % 128, s = r / 32, l = r % 32;
    using B = blocks::block_q6_K;
    const std::uint8_t *ql = b + offsetof(B, ql) + 64 * half, *qh = b + offsetof(B, qh) + 32 * half;
    const std::int8_t sc = static_cast<std::int8_t>(b[offsetof(B, scales) + 8 * half + l / 16 + 2 * s]);
    const std::uint8_t lo = (s % 2 == 0) ? ql[l] : ql[l + 32];
    const int q = ((s < 2 ? (lo & 0xF) : (lo >> 4)) | (((qh[l] >> (2 * s)) & 3) << 4)) - 32;
    return f32_mul(f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(sc)), f32_int(q));
}

/// q8_K: d (binary32), qs[256] int8, bsums[16]; d * q
NINFER_HOST_DEVICE inline float gguf_q8_k(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q8_K;
    return f32_mul(f32_of(load32(b + offsetof(B, d))), f32_int(static_cast<std::int8_t>(b[offsetof(B, qs) + j])));
}

/// iq2_xxs: d, qs[32] uint16 (per 32 values: 4 grid indices, then 4 x 7 sign bits + 4-bit scale)
NINFER_HOST_DEVICE inline float gguf_iq2_xxs(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq2_xxs;
    const std::uint8_t *qs = b + offsetof(B, qs) + 8 * ib;
    const std::uint32_t a0 = load32(qs), a1 = load32(qs + 4);
    const float db = half_step_scale(half_value(load16(b + offsetof(B, d))), a1 >> 28, 0.25f);
    const std::uint64_t grid = t.iq2xxs_grid[(a0 >> (8 * l)) & 0xFF];
    const std::uint32_t signs = t.ksigns_iq2xs[(a1 >> (7 * l)) & 127];
    return signed_grid(db, grid_byte(grid, e), (signs >> e) & 1u);
}

/// iq2_xs: d, qs[32] uint16 (9-bit grid index, 7-bit sign index), scales[8]
NINFER_HOST_DEVICE inline float gguf_iq2_xs(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq2_xs;
    const std::uint32_t s = b[offsetof(B, scales) + ib];
    const float db = half_step_scale(half_value(load16(b + offsetof(B, d))), l < 2 ? (s & 0xF) : (s >> 4), 0.25f);
    const std::uint32_t q = load16(b + offsetof(B, qs) + 2 * (4 * ib + l));
    const std::uint32_t signs = t.ksigns_iq2xs[q >> 9];
    return signed_grid(db, grid_byte(t.iq2xs_grid[q & 511], e), (signs >> e) & 1u);
}

/// iq3_xxs: d, qs[64] grid indices, scales_and_signs[32]
NINFER_HOST_DEVICE inline float gguf_iq3_xxs(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq3_xxs;
    const std::uint8_t *qs = b + offsetof(B, qs), *scales_and_signs = qs + blocks::QK_K / 4;
    const std::uint32_t aux = load32(scales_and_signs + 4 * ib);
    const float db = half_step_scale(half_value(load16(b + offsetof(B, d))), aux >> 28, 0.5f);
    const std::uint32_t signs = t.ksigns_iq2xs[(aux >> (7 * l)) & 127];
    const std::uint32_t grid = t.iq3xxs_grid[qs[8 * ib + 2 * l + e / 4]];
    return signed_grid(db, grid_byte(grid, e % 4), (signs >> e) & 1u);
}

/// iq1_s: d, qs[32], qh[8] uint16; dl * (grid + delta)
NINFER_HOST_DEVICE inline float gguf_iq1_s(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq1_s;
    const std::uint32_t qh = load16(b + offsetof(B, qh) + 2 * ib);
    const float dl = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(static_cast<int>(2 * ((qh >> 12) & 7) + 1)));
    const std::uint64_t grid = t.iq1s_grid[b[offsetof(B, qs) + 4 * ib + l] | (((qh >> (3 * l)) & 7u) << 8)];
    return iq1_element(dl, grid, e, (qh & 0x8000u) ? -t.iq1s_delta : t.iq1s_delta);
}

/// iq4_nl: d, qs[16]; d * kvalues_iq4nl[nibble]
NINFER_HOST_DEVICE inline float gguf_iq4_nl(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    using B = blocks::block_iq4_nl;
    const std::uint8_t *qs = b + offsetof(B, qs);
    const std::uint32_t nib = j < 16 ? (qs[j] & 0xFu) : (qs[j - 16] >> 4);
    return f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(t.kvalues_iq4nl[nib]));
}

/// iq3_s: d, qs[64], qh[8], signs[32], scales[4]; d * (1 + 2 s) * grid * (+-1)
NINFER_HOST_DEVICE inline float gguf_iq3_s(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq3_s;
    const std::uint32_t s = b[offsetof(B, scales) + ib / 2];
    const float db = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(static_cast<int>(1 + 2 * (ib % 2 ? s >> 4 : s & 0xF))));
    const std::uint32_t qh = b[offsetof(B, qh) + ib];
    const std::uint8_t *qs = b + offsetof(B, qs) + 8 * ib;
    const std::uint32_t idx = e < 4 ? (qs[2 * l] | ((qh << (8 - 2 * l)) & 256u)) : (qs[2 * l + 1] | ((qh << (7 - 2 * l)) & 256u));
    const std::uint32_t sg = b[offsetof(B, signs) + 4 * ib + l];
    return signed_grid(db, grid_byte(t.iq3s_grid[idx], e % 4), (sg >> e) & 1u);
}

/// iq2_s: d, qs[64] (32 grid low bytes, 32 sign bytes), qh[8], scales[8]
NINFER_HOST_DEVICE inline float gguf_iq2_s(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq2_s;
    const std::uint8_t *qs = b + offsetof(B, qs), *sign_bytes = qs + blocks::QK_K / 8;
    const std::uint32_t s = b[offsetof(B, scales) + ib], qh = b[offsetof(B, qh) + ib];
    const float db = half_step_scale(half_value(load16(b + offsetof(B, d))), l < 2 ? (s & 0xF) : (s >> 4), 0.25f);
    const std::uint64_t grid = t.iq2s_grid[qs[4 * ib + l] | ((qh << (8 - 2 * l)) & 0x300u)];
    const std::uint32_t signs = sign_bytes[4 * ib + l];
    return signed_grid(db, grid_byte(grid, e), (signs >> e) & 1u);
}

/// iq4_xs: d, scales_h, scales_l[4], qs[128]; d * (ls - 32) * kvalues_iq4nl[nibble]
NINFER_HOST_DEVICE inline float gguf_iq4_xs(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, r = j % 32;
    using B = blocks::block_iq4_xs;
    const std::uint32_t sh = load16(b + offsetof(B, scales_h));
    const int ls = static_cast<int>(((b[offsetof(B, scales_l) + ib / 2] >> (4 * (ib % 2))) & 0xFu) | (((sh >> (2 * ib)) & 3u) << 4));
    const float dl = f32_mul(half_value(load16(b + offsetof(B, d))), f32_int(ls - 32));
    const std::uint32_t q = b[offsetof(B, qs) + 16 * ib + r % 16];
    return f32_mul(dl, f32_int(t.kvalues_iq4nl[r < 16 ? (q & 0xF) : (q >> 4)]));
}

/// iq1_m: qs[32], qh[16], scales[8] (four uint16; the binary16 d in their top nibbles)
NINFER_HOST_DEVICE inline float gguf_iq1_m(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t ib = j / 32, l = (j % 32) / 8, e = j % 8;
    using B = blocks::block_iq1_m;
    const std::uint8_t *scales = b + offsetof(B, scales);
    const std::uint32_t sc0 = load16(scales), sc1 = load16(scales + 2), sc2 = load16(scales + 4), sc3 = load16(scales + 6);
    const float d = half_value((sc0 >> 12) | ((sc1 >> 8) & 0x00F0u) | ((sc2 >> 4) & 0x0F00u) | (sc3 & 0xF000u));
    const std::uint32_t sc = load16(scales + 2 * (ib / 2));
    const std::uint32_t shift = 6 * (ib % 2) + (l < 2 ? 0 : 3);
    const float dl = f32_mul(d, f32_int(static_cast<int>(2 * ((sc >> shift) & 7) + 1)));
    const std::uint32_t qh = b[offsetof(B, qh) + 2 * ib + l / 2];
    const std::uint32_t idx = b[offsetof(B, qs) + 4 * ib + l] | ((l % 2 == 0 ? (qh << 8) : (qh << 4)) & 0x700u);
    const bool neg = (qh & (l % 2 == 0 ? 0x08u : 0x80u)) != 0;
    return iq1_element(dl, t.iq1s_grid[idx], e, neg ? -t.iq1m_delta : t.iq1m_delta);
}

/// tq1_0: qs[48], qh[4], d; (trit - 1) * d
NINFER_HOST_DEVICE inline float gguf_tq1_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_tq1_0;
    const std::uint8_t *qs = b + offsetof(B, qs), *qh = b + offsetof(B, qh);
    int q = 0;
    if (j < 160) q = trit(qs[j % 32], j / 32);
    else if (j < 240) q = trit(qs[32 + (j - 160) % 16], (j - 160) / 16);
    else q = trit(qh[(j - 240) % 4], (j - 240) / 4);
    return f32_mul(f32_int(q - 1), half_value(load16(b + offsetof(B, d))));
}

/// tq2_0: qs[64], d; (2-bit - 1) * d
NINFER_HOST_DEVICE inline float gguf_tq2_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_tq2_0;
    const std::uint32_t byte = b[offsetof(B, qs) + (j / 128) * 32 + j % 32];
    return f32_mul(f32_int(static_cast<int>((byte >> (2 * ((j % 128) / 32))) & 3u) - 1), half_value(load16(b + offsetof(B, d))));
}

/// mxfp4: e, qs[16]; kvalues_mxfp4[nibble] * 2^(e - 128) (ggml_e8m0_to_fp32_half)
NINFER_HOST_DEVICE inline float gguf_mxfp4(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    using B = blocks::block_mxfp4;
    const std::uint32_t e = b[offsetof(B, e)];
    const float d = f32_of(e < 2 ? 0x00200000u << e : (e - 1) << 23);
    const std::uint8_t *qs = b + offsetof(B, qs);
    const std::uint32_t nib = j < 16 ? (qs[j] & 0xFu) : (qs[j - 16] >> 4);
    return f32_mul(f32_int(t.kvalues_fp4[nib]), d);
}

/// nvfp4 (ggml block): d[4] UE4M3, qs[32]; kvalues[nibble] * ue4m3(d[s]) / 2
NINFER_HOST_DEVICE inline float gguf_nvfp4(const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    const std::uint32_t s = j / 16, r = j % 16;
    using B = blocks::block_nvfp4;
    const std::uint32_t q = b[offsetof(B, qs) + 8 * s + r % 8];
    return f32_mul(f32_int(t.kvalues_fp4[r < 8 ? (q & 0xF) : (q >> 4)]), ue4m3_half(b[offsetof(B, d) + s]));
}

/// q1_0: d, qs[16]; bit set: d, clear: d * -1
NINFER_HOST_DEVICE inline float gguf_q1_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q1_0;
    const float d = half_value(load16(b + offsetof(B, d)));
    return ((b[offsetof(B, qs) + j / 8] >> (j % 8)) & 1u) ? d : f32_mul(d, -1.0f);
}

/// q2_0: d, qs[16]; 2-bit u (LSB first) - 1, times d
NINFER_HOST_DEVICE inline float gguf_q2_0(const std::uint8_t *b, std::uint32_t j, const GgmlTables &) {
    using B = blocks::block_q2_0;
    return f32_mul(f32_int(static_cast<int>((b[offsetof(B, qs) + j / 4] >> (2 * (j % 4))) & 3u) - 1),
                   half_value(load16(b + offsetof(B, d))));
}

}  // namespace block_value

/// Value j of one ggml block `b` of ggml type `type`, by the type's function. An unknown type
/// gives a NaN (weight_geometry refuses such a format before).
NINFER_HOST_DEVICE inline float gguf_block_value(std::uint32_t type, const std::uint8_t *b, std::uint32_t j, const GgmlTables &t) {
    switch (type) {  // generated: one case per registry row
#define NINFER_X_(id, name, ggml_type, values, bytes, registered, refq) \
    case ggml_type: return block_value::name(b, j, t);
        NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
    default: return f32_of(0x7FC00000u);
    }
}

NINFER_HOST_DEVICE inline float gguf_value(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k,
                                           const GgmlTables &t) {
    const std::uint8_t *block = p + n * v.row_bytes + (k / v.block_values) * v.block_bytes;
    return gguf_block_value(v.ggml_type, block, static_cast<std::uint32_t>(k % v.block_values), t);
}

// ---- One element -----------------------------------------------------------------------------------

/// The factor of element (n, k) a product uses: W_hat itself, except nvfp4, whose exact
/// W_hat = e2m1 * e4m3 / d_w is applied as the exact numerator here and the row's divisor once
/// at the end (row_result).
NINFER_HOST_DEVICE inline float weight_factor(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k,
                                              const GgmlTables &t) {
    switch (v.kind) {
    case WeightKind::grouped: return grouped_value(v, p, n, k);
    case WeightKind::nvfp4: return nvfp4_numerator(v, p, n, k);
    case WeightKind::fp8_rows: return fp8_row_value(v, p, n, k);
    case WeightKind::gguf: return gguf_value(v, p, n, k, t);
    default: return 0.0f;
    }
}

/// A row's accumulated factor to its result: nvfp4 divides by the row's d_w, the others keep it.
NINFER_HOST_DEVICE inline float row_result(const WeightView &v, const std::uint8_t *p, std::uint64_t n, float acc) {
    return v.kind == WeightKind::nvfp4 ? f32_div(acc, nvfp4_divisor(v, p, n)) : acc;
}

/// quant_decode's VALUES word of element (n, k) of a validated payload (nvfp4: binary32(e2m1 *
/// e4m3 / d_w), one rounding, the division).
NINFER_HOST_DEVICE inline float weight_value(const WeightView &v, const std::uint8_t *p, std::uint64_t n, std::uint64_t k,
                                             const GgmlTables &t) {
    return row_result(v, p, n, weight_factor(v, p, n, k, t));
}

}  // namespace decode
}  // namespace ninfer::gpu
