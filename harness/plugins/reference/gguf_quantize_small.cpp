// SPDX-License-Identifier: Apache-2.0
// The reference's own small GGUF reference quantizers (the gguf_* paragraph of
// tensor-formats.txt; ggml-quants.c quantize_row_q1_0_ref, q2_0, tq1_0, tq2_0, mxfp4, nvfp4,
// read for their order of operations): host binary32 arithmetic in ggml's order, compiled with
// -ffp-contract=off. A non-finite product (a block whose 1/d overflowed) becomes the integer
// ggml's x86-64 release build gives it, on every host (oracle/GGUF.md, "The small quantizers").
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "gguf_block_structs.hpp"
#include "gguf_blocks.hpp"

namespace ninfer::reference::gguf_blocks {

using namespace ggml_struct;  // the block structs (gguf_block_structs.hpp): offsets by member

namespace {

/// The largest |x| of n values (amax < fabsf(v)).
float amax_of(const float *x, int n) {
    float amax = 0.0f;
    for (int j = 0; j < n; ++j)
        if (amax < std::fabs(x[j])) amax = std::fabs(x[j]);
    return amax;
}

/// (int)(lroundf(v) + 1): x86-64 glibc gives (long)v = LONG_MIN for a NaN or an infinity, whose
/// sum with 1 has low 32 bits 1. Finite products here are at most about 1 in magnitude.
int lround_plus_one(float v) { return std::isfinite(v) ? static_cast<int>(std::lround(v)) + 1 : 1; }

/// q1_0: d = sum |x| / 128, bit j set when x[j] >= 0.
void q1_0(const float *x, std::uint8_t *b) {
    float sum = 0.0f;
    for (int j = 0; j < 128; ++j) sum += std::fabs(x[j]);
    abi::store_le16(b + offsetof(block_q1_0, d), f32_to_fp16(sum / 128.0f));
    for (int j = 0; j < 128; ++j)
        if (x[j] >= 0.0f) b[offsetof(block_q1_0, qs) + j / 8] |= static_cast<std::uint8_t>(1 << (j % 8));
}

/// q2_0: d = amax, code clamp((int)roundf(x / d) + 1, 0, 3), four per byte LSB first.
void q2_0(const float *x, std::uint8_t *b) {
    const float d = amax_of(x, 64);
    const float id = d > 0.0f ? 1.0f / d : 0.0f;
    abi::store_le16(b + offsetof(block_q2_0, d), f32_to_fp16(d));
    for (int j = 0; j < 64; ++j) {
        const long long q = std::clamp(static_cast<long long>(trunc_int(std::round(x[j] * id))) + 1, 0LL, 3LL);
        b[offsetof(block_q2_0, qs) + j / 4] |= static_cast<std::uint8_t>(q << (2 * (j % 4)));
    }
}

/// tq1_0: a run of `bytes` bytes, byte m the base-3 number of the trits of x[m + n * bytes].
void tq1_0_run(const float *x, float id, int bytes, int digits, std::uint8_t *out, int (*trit_of)(float)) {
    for (int m = 0; m < bytes; ++m) {
        int q = 0;
        for (int n = 0; n < digits; ++n) q = (q * 3 + trit_of(x[m + n * bytes] * id)) & 0xFF;
        if (digits == 4) q = (q * 3) & 0xFF;
        out[m] = static_cast<std::uint8_t>((q * 256 + 242) / 243);
    }
}

void tq1_0(const float *x, std::uint8_t *b) { tq1_0_block_with(x, b, lround_plus_one); }

void tq2_0(const float *x, std::uint8_t *b) {
    const float d = amax_of(x, 256);
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    for (int j = 0; j < 64; j += 32)
        for (int m = 0; m < 32; ++m) {
            int q = 0;
            for (int n = 0; n < 4; ++n) q += (lround_plus_one(x[4 * j + m + 32 * n] * id) & 3) << (2 * n);
            b[offsetof(block_tq2_0, qs) + j + m] = static_cast<std::uint8_t>(q);
        }
    abi::store_le16(b + offsetof(block_tq2_0, d), f32_to_fp16(d));
}

/// mxfp4: e = (uint8_t)(floor(log2(amax)) - 2 + 127), the low byte of the integer, as x86-64
/// stores it (below 2^-125 it wraps). floor(log2f(amax)) is the binary exponent of amax, or
/// one more where log2f rounds up to the next integer (amax just below a power of two).
void mxfp4(const float *x, std::uint8_t *b) {
    const float amax = amax_of(x, 32);
    const int e = amax > 0.0f ? (static_cast<int>(std::floor(std::log2(amax))) + 125) & 0xFF : 0;
    b[offsetof(block_mxfp4, e)] = static_cast<std::uint8_t>(e);
    const float d = e < 2 ? std::bit_cast<float>(0x00200000u << e) : std::bit_cast<float>(static_cast<std::uint32_t>(e - 1) << 23);
    for (int j = 0; j < 16; ++j) b[offsetof(block_mxfp4, qs) + j] = static_cast<std::uint8_t>(best_index_mxfp4(x[j], d) | best_index_mxfp4(x[j + 16], d) << 4);
}

/// ggml_fp32_to_ue4m3 (clamp to 448, subnormal codes by (int)(x * 512 + 0.5), else round half
/// up on bit 19) and ggml_ue4m3_to_fp32 halved.
std::uint8_t to_ue4m3(float v) {
    if (!(v > 0.0f)) return 0;
    v = std::min(v, 448.0f);
    const auto bits = std::bit_cast<std::uint32_t>(v);
    int exp = static_cast<int>((bits >> 23) & 0xFF) - 120;
    int man = static_cast<int>((bits >> 20) & 7) + static_cast<int>((bits >> 19) & 1);
    if (exp <= 0) {
        const int sub = std::min(static_cast<int>(v * 512.0f + 0.5f), 7);
        return sub < 1 ? 0 : static_cast<std::uint8_t>(sub);
    }
    if (man > 7) man = 0, ++exp;
    return exp >= 15 ? 0x7E : static_cast<std::uint8_t>(exp << 3 | man);
}
float ue4m3_half(std::uint8_t u) {
    if (u == 0 || u == 0x7F) return 0.0f;
    const int exp = (u >> 3) & 0xF, man = u & 7;
    return (exp == 0 ? std::ldexp(static_cast<float>(man), -9) : std::ldexp(1.0f + static_cast<float>(man) / 8.0f, exp - 7)) * 0.5f;
}

void nvfp4(const float *x, std::uint8_t *b) { nvfp4_block_with(x, b, to_ue4m3); }

}  // namespace

void tq1_0_block_with(const float *x, std::uint8_t *b, int (*trit_of)(float)) {
    const float d = amax_of(x, 256);
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    std::uint8_t *qs = b + offsetof(block_tq1_0, qs);
    tq1_0_run(x, id, 32, 5, qs, trit_of);
    tq1_0_run(x + 160, id, 16, 5, qs + 32, trit_of);  // qs is 32 + 16 bytes
    tq1_0_run(x + 240, id, 4, 4, b + offsetof(block_tq1_0, qh), trit_of);
    abi::store_le16(b + offsetof(block_tq1_0, d), f32_to_fp16(d));
}

void nvfp4_block_with(const float *x, std::uint8_t *b, std::uint8_t (*scale_of)(float)) {
    for (int s = 0; s < 4; ++s) {
        const float *xb = x + 16 * s;
        std::uint8_t &ds = b[offsetof(block_nvfp4, d) + static_cast<std::size_t>(s)];
        ds = scale_of(amax_of(xb, 16) / 6.0f);
        const float d = ue4m3_half(ds);
        for (int j = 0; j < 8; ++j)
            b[offsetof(block_nvfp4, qs) + 8 * s + j] = static_cast<std::uint8_t>(best_index_mxfp4(xb[j], d) | best_index_mxfp4(xb[j + 8], d) << 4);
    }
}

bool quantize_block::gguf_q1_0(const float *x, std::uint8_t *b) {
    q1_0(x, b);
    return true;
}
bool quantize_block::gguf_q2_0(const float *x, std::uint8_t *b) {
    q2_0(x, b);
    return true;
}
bool quantize_block::gguf_tq1_0(const float *x, std::uint8_t *b) {
    tq1_0(x, b);
    return true;
}
bool quantize_block::gguf_tq2_0(const float *x, std::uint8_t *b) {
    tq2_0(x, b);
    return true;
}
bool quantize_block::gguf_mxfp4(const float *x, std::uint8_t *b) {
    mxfp4(x, b);
    return true;
}
bool quantize_block::gguf_nvfp4(const float *x, std::uint8_t *b) {
    nvfp4(x, b);
    return true;
}

}  // namespace ninfer::reference::gguf_blocks
