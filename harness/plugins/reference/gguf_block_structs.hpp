// SPDX-License-Identifier: Apache-2.0
// The reference's own view of the GGUF blocks (tensor-formats.txt, the gguf_* paragraph;
// storage-layouts.md Section 7): ggml-common.h's block_* structs, written from their public
// definitions (member names, order, element types and counts) as plain C structs, independently
// of the oracle's field map (oracle/gguf_fields.hpp). ggml's bytes are the image of these structs
// on a little-endian host with no padding; each struct's size and offsets are asserted here, and
// its size against the registry row's block bytes. The codecs copy a block in and out (memcpy):
// a block in a row is not aligned.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ninfer/abi/registry.h"

namespace ninfer::reference::gguf_blocks::ggml_struct {

// (nvcc compiles this header as C++17 for cuda_device's decoders, weight_decode.cuh: std::endian is C++20.)
#if __cplusplus >= 202002L
static_assert(std::endian::native == std::endian::little, "ggml's blocks are little-endian struct images");
#endif

using ggml_half = std::uint16_t;  // a binary16 word
constexpr int QK_K = 256;

struct block_q4_0 { ggml_half d; std::uint8_t qs[16]; };
struct block_q4_1 { ggml_half d, m; std::uint8_t qs[16]; };
struct block_q5_0 { ggml_half d; std::uint8_t qh[4]; std::uint8_t qs[16]; };
struct block_q5_1 { ggml_half d, m; std::uint8_t qh[4]; std::uint8_t qs[16]; };
struct block_q8_0 { ggml_half d; std::int8_t qs[32]; };
struct block_q8_1 { ggml_half d, s; std::int8_t qs[32]; };
struct block_q1_0 { ggml_half d; std::uint8_t qs[128 / 8]; };
struct block_q2_0 { ggml_half d; std::uint8_t qs[64 / 4]; };
struct block_mxfp4 { std::uint8_t e; std::uint8_t qs[16]; };
struct block_nvfp4 { std::uint8_t d[4]; std::uint8_t qs[32]; };
struct block_tq1_0 { std::uint8_t qs[(QK_K - 4 * QK_K / 64) / 5]; std::uint8_t qh[QK_K / 64]; ggml_half d; };
struct block_tq2_0 { std::uint8_t qs[QK_K / 4]; ggml_half d; };
struct block_q2_K { std::uint8_t scales[QK_K / 16]; std::uint8_t qs[QK_K / 4]; ggml_half d, dmin; };
struct block_q3_K { std::uint8_t hmask[QK_K / 8]; std::uint8_t qs[QK_K / 4]; std::uint8_t scales[12]; ggml_half d; };
struct block_q4_K { ggml_half d, dmin; std::uint8_t scales[12]; std::uint8_t qs[QK_K / 2]; };
struct block_q5_K { ggml_half d, dmin; std::uint8_t scales[12]; std::uint8_t qh[QK_K / 8]; std::uint8_t qs[QK_K / 2]; };
struct block_q6_K { std::uint8_t ql[QK_K / 2]; std::uint8_t qh[QK_K / 4]; std::int8_t scales[QK_K / 16]; ggml_half d; };
struct block_q8_K { float d; std::int8_t qs[QK_K]; std::int16_t bsums[QK_K / 16]; };
struct block_iq2_xxs { ggml_half d; std::uint16_t qs[QK_K / 8]; };
struct block_iq2_xs { ggml_half d; std::uint16_t qs[QK_K / 8]; std::uint8_t scales[QK_K / 32]; };
struct block_iq2_s { ggml_half d; std::uint8_t qs[QK_K / 4]; std::uint8_t qh[QK_K / 32]; std::uint8_t scales[QK_K / 32]; };
struct block_iq3_xxs { ggml_half d; std::uint8_t qs[3 * QK_K / 8]; };
struct block_iq3_s {
    ggml_half d;
    std::uint8_t qs[QK_K / 4], qh[QK_K / 32], signs[QK_K / 8], scales[QK_K / 64];
};
struct block_iq1_s { ggml_half d; std::uint8_t qs[QK_K / 8]; std::uint16_t qh[QK_K / 32]; };
struct block_iq1_m { std::uint8_t qs[QK_K / 8]; std::uint8_t qh[QK_K / 16]; std::uint8_t scales[QK_K / 32]; };
struct block_iq4_nl { ggml_half d; std::uint8_t qs[16]; };
struct block_iq4_xs { ggml_half d; std::uint16_t scales_h; std::uint8_t scales_l[QK_K / 64]; std::uint8_t qs[QK_K / 2]; };

// ggml-common.h's static_asserts, and the offsets the codecs rely on (no padding anywhere).
static_assert(sizeof(block_q4_1) == 20 && offsetof(block_q4_1, qs) == 4);
static_assert(sizeof(block_q5_0) == 22 && offsetof(block_q5_0, qs) == 6);
static_assert(sizeof(block_q5_1) == 24 && offsetof(block_q5_1, qh) == 4 && offsetof(block_q5_1, qs) == 8);
static_assert(sizeof(block_q8_1) == 36 && offsetof(block_q8_1, qs) == 4);
static_assert(sizeof(block_tq1_0) == 54 && offsetof(block_tq1_0, qh) == 48 && offsetof(block_tq1_0, d) == 52);
static_assert(sizeof(block_q2_K) == 84 && offsetof(block_q2_K, qs) == 16 && offsetof(block_q2_K, d) == 80);
static_assert(sizeof(block_q3_K) == 110 && offsetof(block_q3_K, scales) == 96 && offsetof(block_q3_K, d) == 108);
static_assert(sizeof(block_q4_K) == 144 && offsetof(block_q4_K, scales) == 4 && offsetof(block_q4_K, qs) == 16);
static_assert(sizeof(block_q5_K) == 176 && offsetof(block_q5_K, qh) == 16 && offsetof(block_q5_K, qs) == 48);
static_assert(sizeof(block_q6_K) == 210 && offsetof(block_q6_K, scales) == 192 && offsetof(block_q6_K, d) == 208);
static_assert(sizeof(block_q8_K) == 292 && offsetof(block_q8_K, bsums) == 260);
static_assert(sizeof(block_iq2_xs) == 74 && offsetof(block_iq2_xs, scales) == 66);
static_assert(sizeof(block_iq2_s) == 82 && offsetof(block_iq2_s, qh) == 66 && offsetof(block_iq2_s, scales) == 74);
static_assert(sizeof(block_iq3_s) == 110 && offsetof(block_iq3_s, signs) == 74 && offsetof(block_iq3_s, scales) == 106);
static_assert(sizeof(block_iq1_s) == 50 && offsetof(block_iq1_s, qh) == 34);
static_assert(sizeof(block_iq1_m) == 56 && offsetof(block_iq1_m, scales) == 48);
static_assert(sizeof(block_iq4_xs) == 136 && offsetof(block_iq4_xs, scales_l) == 4 && offsetof(block_iq4_xs, qs) == 8);

/// The struct of each registry row, by the row's name.
namespace by_row {
using gguf_q4_0 = block_q4_0;
using gguf_q4_1 = block_q4_1;
using gguf_q5_0 = block_q5_0;
using gguf_q5_1 = block_q5_1;
using gguf_q8_0 = block_q8_0;
using gguf_q8_1 = block_q8_1;
using gguf_q1_0 = block_q1_0;
using gguf_q2_0 = block_q2_0;
using gguf_mxfp4 = block_mxfp4;
using gguf_nvfp4 = block_nvfp4;
using gguf_tq1_0 = block_tq1_0;
using gguf_tq2_0 = block_tq2_0;
using gguf_q2_k = block_q2_K;
using gguf_q3_k = block_q3_K;
using gguf_q4_k = block_q4_K;
using gguf_q5_k = block_q5_K;
using gguf_q6_k = block_q6_K;
using gguf_q8_k = block_q8_K;
using gguf_iq2_xxs = block_iq2_xxs;
using gguf_iq2_xs = block_iq2_xs;
using gguf_iq2_s = block_iq2_s;
using gguf_iq3_xxs = block_iq3_xxs;
using gguf_iq3_s = block_iq3_s;
using gguf_iq1_s = block_iq1_s;
using gguf_iq1_m = block_iq1_m;
using gguf_iq4_nl = block_iq4_nl;
using gguf_iq4_xs = block_iq4_xs;
}  // namespace by_row

#define NINFER_X_(id, name, type, values, bytes, registered, refq) \
    static_assert(sizeof(by_row::name) == (bytes), "ggml_struct::" #name ": the struct is not the registry row's block bytes");
NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_

// ---- The packed sub-block scales of q3_K, q4_K and q5_K (bit placement as ggml packs them) ----

/// The 6-bit scale j of a q3_K block, bias 32 kept: low nibble in byte j % 8 (high nibble for
/// j >= 8), the top two bits in byte 8 + j % 4 at bit 2 * (j / 4).
inline int q3_k_scale(const std::uint8_t (&s)[12], int j) {
    const int lo = (s[j % 8] >> (4 * (j / 8))) & 0xF;
    return lo | ((s[8 + j % 4] >> (2 * (j / 4))) & 3) << 4;
}
/// Or the 6-bit scale v (0..63) into place j of zeroed scales.
inline void q3_k_put_scale(std::uint8_t (&s)[12], int j, int v) {
    s[j % 8] = static_cast<std::uint8_t>(s[j % 8] | (v & 0xF) << (4 * (j / 8)));
    s[8 + j % 4] = static_cast<std::uint8_t>(s[8 + j % 4] | (v >> 4) << (2 * (j / 4)));
}

/// The 6-bit scale and min of sub-block j of q4_K / q5_K: j < 4 in the low six bits of bytes j
/// and j + 4; j >= 4 as nibbles of byte j + 4, their top two bits in bytes j - 4 and j.
inline void k4_scale_min(const std::uint8_t (&s)[12], int j, int &sc, int &mn) {
    if (j < 4) {
        sc = s[j] & 63;
        mn = s[j + 4] & 63;
    } else {
        sc = (s[j + 4] & 0xF) | (s[j - 4] >> 6) << 4;
        mn = (s[j + 4] >> 4) | (s[j] >> 6) << 4;
    }
}
/// Or the 6-bit scale and min (0..63) of sub-block j into zeroed scales.
inline void k4_put_scale_min(std::uint8_t (&s)[12], int j, int sc, int mn) {
    if (j < 4) {
        s[j] = static_cast<std::uint8_t>(sc);
        s[j + 4] = static_cast<std::uint8_t>(mn);
    } else {
        s[j + 4] = static_cast<std::uint8_t>((sc & 0xF) | (mn & 0xF) << 4);
        s[j - 4] = static_cast<std::uint8_t>(s[j - 4] | (sc >> 4) << 6);
        s[j] = static_cast<std::uint8_t>(s[j] | (mn >> 4) << 6);
    }
}

/// Block `i` of a row of `Block`s at `row` (unaligned bytes), as a struct.
template <class Block>
Block load(const std::uint8_t *row, std::uint64_t i = 0) {
    Block b;
    std::memcpy(&b, row + i * sizeof(Block), sizeof(Block));
    return b;
}

/// The bytes of `b` at `out`.
template <class Block>
void store(const Block &b, std::uint8_t *out) {
    std::memcpy(out, &b, sizeof(Block));
}

}  // namespace ninfer::reference::gguf_blocks::ggml_struct
