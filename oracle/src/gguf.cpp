// SPDX-License-Identifier: Apache-2.0
// The GGUF block formats (tensor-formats.txt, the gguf_* table and its paragraph;
// storage-layouts.md Section 7): the value of every element of a block is what ggml's
// dequantize_row_<type> computes. Each decoder below is written once, over an arithmetic
// policy, and evaluated twice: with Binary32 (every operation of ggml's expression, in ggml's
// order, rounded once to binary32 nearest-even with IEEE specials) and with Exact (the same
// formula over the rationals). Block layouts are the byte images of ggml-common.h's block_*
// structs; grids, sign tables and code books come from ggml-tables.json (ggml_tables.hpp).
#include "ninfer/oracle/gguf.hpp"

#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/ggml_tables.hpp"
#include "ninfer/oracle/gguf_fields.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "gguf_internal.hpp"

namespace ninfer::oracle {

namespace {

using gguf_detail::Binary32;
using gguf_detail::kNaN;

using gguf_detail::fp32;
using gguf_detail::is_nan;
using gguf_detail::e8m0_half_word;
using gguf_detail::ue4m3_half_word;
constexpr std::uint32_t kRne = 1, kInf = 1;

/// Exact: the same formula over the rationals; a non-finite operand makes the result undefined.
struct Exact {
    using V = std::optional<Rational>;
    static V word(std::uint32_t w) {
        const auto i = word_info(fp32(), w);
        if (i.cls == NINFER_CLASS_INFINITE || is_nan(i)) return std::nullopt;
        return exact_word_value(fp32(), w);
    }
    static V fp16(std::uint16_t h) {
        const auto &f = word_format(NINFER_FORMAT_fp16);
        const auto i = word_info(f, h);
        if (i.cls == NINFER_CLASS_INFINITE || is_nan(i)) return std::nullopt;
        return exact_word_value(f, h);
    }
    static V num(long i) { return Rational(i); }
    static V mul(const V &a, const V &b) { return a && b ? V(*a * *b) : std::nullopt; }
    static V add(const V &a, const V &b) { return a && b ? V(*a + *b) : std::nullopt; }
    static V sub(const V &a, const V &b) { return a && b ? V(*a - *b) : std::nullopt; }
};

/// The byte offset of field `name` of row `row`'s block (gguf_fields.hpp), at compile time.
#define NINFER_AT_(row, name) field_at(block_fields::row, name)

/// Little-endian reads from a block.
struct Bytes {
    std::span<const std::uint8_t> b;
    std::uint8_t u8(std::size_t at) const { return b[at]; }
    std::int8_t i8(std::size_t at) const { return static_cast<std::int8_t>(b[at]); }
    std::uint16_t u16(std::size_t at) const { return abi::load_le16(&b[at]); }
    std::uint32_t u32(std::size_t at) const { return abi::load_le32(&b[at]); }
};

/// Byte j of a grid entry (ggml reads the uint64 / uint32 entry through a byte pointer).
std::uint8_t grid_byte(std::uint64_t entry, int j) { return static_cast<std::uint8_t>(entry >> (8 * j)); }

/// The binary32 words of ggml's float constants used by the decoders.
constexpr std::uint32_t kHalf = 0x3F000000u, kQuarter = 0x3E800000u, kOne = 0x3F800000u, kMinusOne = 0xBF800000u;

template <class A>
using Out = std::vector<typename A::V>;

template <class A>
typename A::V sign_of(bool negative) {
    return A::word(negative ? kMinusOne : kOne);
}

/// IQ1S_DELTA (ggml-common.h, ggml-tables.json constants) as a binary32 word, exactly.
std::uint32_t iq1s_delta_word(bool negative) {
    Real num = exact_zero(), den = exact_zero();
    num = ggml::kIQ1S_DELTA_num;
    den = ggml::kIQ1S_DELTA_den;
    const auto w = static_cast<std::uint32_t>(round_quotient(num, den, fp32(), kRne, kInf));
    return negative ? w | 0x80000000u : w;
}

// ---- Legacy 32-value blocks --------------------------------------------------------------------

template <class A>
void gguf_q4_0(const Bytes &x, Out<A> &y) {  // d, qs[16]: x = (nibble - 8) * d, low nibbles first
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q4_0, "d")));
    for (int j = 0; j < 16; ++j) {
        y[j] = A::mul(A::num((x.u8(NINFER_AT_(gguf_q4_0, "qs") + j) & 0xF) - 8), d);
        y[j + 16] = A::mul(A::num((x.u8(NINFER_AT_(gguf_q4_0, "qs") + j) >> 4) - 8), d);
    }
}

template <class A>
void gguf_q4_1(const Bytes &x, Out<A> &y) {  // d, m, qs[16]: x = nibble * d + m
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q4_1, "d")));
    const auto m = A::fp16(x.u16(field_at(block_fields::gguf_q4_1, "m")));
    for (int j = 0; j < 16; ++j) {
        y[j] = A::add(A::mul(A::num(x.u8(NINFER_AT_(gguf_q4_1, "qs") + j) & 0xF), d), m);
        y[j + 16] = A::add(A::mul(A::num(x.u8(NINFER_AT_(gguf_q4_1, "qs") + j) >> 4), d), m);
    }
}

/// The fifth bit of element j (low half) and j + 16 (high half) of a q5 block.
int q5_high(std::uint32_t qh, int j, bool upper) { return upper ? (qh >> (j + 12)) & 0x10 : ((qh >> j) << 4) & 0x10; }

template <class A>
void gguf_q5_0(const Bytes &x, Out<A> &y) {  // d, qh[4], qs[16]: x = (5-bit word - 16) * d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q5_0, "d")));
    const std::uint32_t qh = x.u32(field_at(block_fields::gguf_q5_0, "qh"));
    for (int j = 0; j < 16; ++j) {
        y[j] = A::mul(A::num(((x.u8(NINFER_AT_(gguf_q5_0, "qs") + j) & 0xF) | q5_high(qh, j, false)) - 16), d);
        y[j + 16] = A::mul(A::num(((x.u8(NINFER_AT_(gguf_q5_0, "qs") + j) >> 4) | q5_high(qh, j, true)) - 16), d);
    }
}

template <class A>
void gguf_q5_1(const Bytes &x, Out<A> &y) {  // d, m, qh[4], qs[16]: x = 5-bit word * d + m
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q5_1, "d")));
    const auto m = A::fp16(x.u16(field_at(block_fields::gguf_q5_1, "m")));
    const std::uint32_t qh = x.u32(field_at(block_fields::gguf_q5_1, "qh"));
    for (int j = 0; j < 16; ++j) {
        y[j] = A::add(A::mul(A::num((x.u8(NINFER_AT_(gguf_q5_1, "qs") + j) & 0xF) | q5_high(qh, j, false)), d), m);
        y[j + 16] = A::add(A::mul(A::num((x.u8(NINFER_AT_(gguf_q5_1, "qs") + j) >> 4) | q5_high(qh, j, true)), d), m);
    }
}

template <class A>
void gguf_q8_0(const Bytes &x, Out<A> &y) {  // d, qs[32] int8: x = q * d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q8_0, "d")));
    for (int j = 0; j < 32; ++j) y[j] = A::mul(A::num(x.i8(NINFER_AT_(gguf_q8_0, "qs") + j)), d);
}

template <class A>
void gguf_q8_1(const Bytes &x, Out<A> &y) {  // d, s, qs[32]: x = q * d (s = d * sum(q) is metadata)
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q8_1, "d")));
    for (int j = 0; j < 32; ++j) y[j] = A::mul(A::num(x.i8(NINFER_AT_(gguf_q8_1, "qs") + j)), d);
}

template <class A>
void gguf_q1_0(const Bytes &x, Out<A> &y) {  // d, qs[16]: bit j set -> d, clear -> -d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q1_0, "d")));
    const auto neg_d = A::mul(d, A::word(kMinusOne));
    for (int j = 0; j < 128; ++j) y[j] = (x.u8(NINFER_AT_(gguf_q1_0, "qs") + j / 8) >> (j % 8)) & 1 ? d : neg_d;
}

template <class A>
void gguf_q2_0(const Bytes &x, Out<A> &y) {  // d, qs[16]: 2-bit u, LSB first; x = (u - 1) * d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q2_0, "d")));
    for (int j = 0; j < 64; ++j) y[j] = A::mul(A::num(((x.u8(NINFER_AT_(gguf_q2_0, "qs") + j / 4) >> ((j % 4) * 2)) & 3) - 1), d);
}

template <class A>
void gguf_mxfp4(const Bytes &x, Out<A> &y) {  // e, qs[16]: x = kvalues_fp4[nibble] * 2^(e - 128)
    const std::uint8_t e = x.u8(field_at(block_fields::gguf_mxfp4, "e"));
    const auto d = A::word(e8m0_half_word(e));  // ggml_e8m0_to_fp32_half
    for (int j = 0; j < 16; ++j) {
        y[j] = A::mul(A::num(ggml::kvalues_fp4[x.u8(NINFER_AT_(gguf_mxfp4, "qs") + j) & 0xF]), d);
        y[j + 16] = A::mul(A::num(ggml::kvalues_fp4[x.u8(NINFER_AT_(gguf_mxfp4, "qs") + j) >> 4]), d);
    }
}

template <class A>
void gguf_nvfp4(const Bytes &x, Out<A> &y) {  // d[4] UE4M3, qs[32]: four 16-value sub-blocks
    for (int s = 0; s < 4; ++s) {
        const auto d = A::word(ue4m3_half_word(x.u8(NINFER_AT_(gguf_nvfp4, "d0") + s)));
        for (int j = 0; j < 8; ++j) {
            const std::uint8_t q = x.u8(NINFER_AT_(gguf_nvfp4, "qs") + 8 * s + j);
            y[16 * s + j] = A::mul(A::num(ggml::kvalues_fp4[q & 0xF]), d);
            y[16 * s + j + 8] = A::mul(A::num(ggml::kvalues_fp4[q >> 4]), d);
        }
    }
}

// ---- Ternary blocks ------------------------------------------------------------------------------

/// Base-3 digit n of a packed byte, ggml's way: q = byte * 3^n mod 256, digit = (q * 3) >> 8.
int trit(std::uint8_t byte, int n) {
    static constexpr std::uint8_t pow3[6] = {1, 3, 9, 27, 81, 243};
    const auto q = static_cast<std::uint8_t>(byte * pow3[n]);
    return (q * 3) >> 8;
}

template <class A>
void gguf_tq1_0(const Bytes &x, Out<A> &y) {  // qs[48], qh[4], d: x = (trit - 1) * d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_tq1_0, "d")));
    std::size_t o = 0;
    for (int j = 0; j < 32; j += 32)
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 32; ++m) y[o++] = A::mul(A::num(trit(x.u8(NINFER_AT_(gguf_tq1_0, "qs") + j + m), n) - 1), d);
    for (int j = 32; j < 48; j += 16)
        for (int n = 0; n < 5; ++n)
            for (int m = 0; m < 16; ++m) y[o++] = A::mul(A::num(trit(x.u8(NINFER_AT_(gguf_tq1_0, "qs") + j + m), n) - 1), d);
    for (int n = 0; n < 4; ++n)
        for (int j = 0; j < 4; ++j) y[o++] = A::mul(A::num(trit(x.u8(NINFER_AT_(gguf_tq1_0, "qh") + j), n) - 1), d);
}

template <class A>
void gguf_tq2_0(const Bytes &x, Out<A> &y) {  // qs[64], d: x = (2-bit - 1) * d
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_tq2_0, "d")));
    std::size_t o = 0;
    for (int j = 0; j < 64; j += 32)
        for (int l = 0; l < 4; ++l)
            for (int m = 0; m < 32; ++m) y[o++] = A::mul(A::num(((x.u8(NINFER_AT_(gguf_tq2_0, "qs") + j + m) >> (2 * l)) & 3) - 1), d);
}

// ---- K-quants (256-value super-blocks) -----------------------------------------------------------

/// The 6-bit scale and min of sub-block j from the 12 packed bytes at `at` (q4_K, q5_K).
void scale_min_k4(const Bytes &x, std::size_t at, int j, int &sc, int &m) {
    if (j < 4) {
        sc = x.u8(at + j) & 63;
        m = x.u8(at + j + 4) & 63;
    } else {
        sc = (x.u8(at + j + 4) & 0xF) | ((x.u8(at + j - 4) >> 6) << 4);
        m = (x.u8(at + j + 4) >> 4) | ((x.u8(at + j) >> 6) << 4);
    }
}

template <class A>
void gguf_q2_k(const Bytes &x, Out<A> &y) {  // scales[16], qs[64], d, dmin: x = d*sc * q - dmin*m
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q2_k, "d")));
    const auto dmin = A::fp16(x.u16(field_at(block_fields::gguf_q2_k, "dmin")));
    std::size_t o = 0, q = NINFER_AT_(gguf_q2_k, "qs");
    int is = 0;
    for (int n = 0; n < 256; n += 128) {
        for (int shift = 0; shift < 8; shift += 2)
            for (int half = 0; half < 2; ++half) {
                const std::uint8_t sc = x.u8(NINFER_AT_(gguf_q2_k, "scales") + static_cast<std::size_t>(is++));
                const auto dl = A::mul(d, A::num(sc & 0xF)), ml = A::mul(dmin, A::num(sc >> 4));
                for (int l = 0; l < 16; ++l)
                    y[o++] = A::sub(A::mul(dl, A::num((x.u8(q + 16 * half + l) >> shift) & 3)), ml);
            }
        q += 32;
    }
}

template <class A>
void gguf_q3_k(const Bytes &x, Out<A> &y) {  // hmask[32], qs[64], scales[12], d: x = d*(s-32) * (q - 4*!h)
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q3_k, "d")));
    // The 16 6-bit scales: low 4 bits from bytes 0..7, high 2 bits from bytes 8..11.
    constexpr std::size_t scales = field_at(block_fields::gguf_q3_k, "scales");
    std::uint32_t aux[4] = {x.u32(scales), x.u32(scales + 4), x.u32(scales + 8), 0};
    const std::uint32_t tmp = aux[2], kmask1 = 0x03030303u, kmask2 = 0x0f0f0f0fu;
    aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
    aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
    aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
    aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
    auto scale = [&](int i) { return static_cast<int>(static_cast<std::int8_t>(aux[i / 4] >> (8 * (i % 4)))); };
    std::size_t o = 0, q = NINFER_AT_(gguf_q3_k, "qs");
    int is = 0;
    std::uint8_t m = 1;
    for (int n = 0; n < 256; n += 128) {
        for (int shift = 0; shift < 8; shift += 2) {
            for (int half = 0; half < 2; ++half) {
                const auto dl = A::mul(d, A::num(scale(is++) - 32));
                for (int l = 0; l < 16; ++l) {
                    const int lo = (x.u8(q + 16 * half + l) >> shift) & 3;
                    const int hi = (x.u8(NINFER_AT_(gguf_q3_k, "hmask") + static_cast<std::size_t>(16 * half + l)) & m) ? 0 : 4;
                    y[o++] = A::mul(dl, A::num(lo - hi));
                }
            }
            m = static_cast<std::uint8_t>(m << 1);
        }
        q += 32;
    }
}

template <class A>
void gguf_q4_k(const Bytes &x, Out<A> &y) {  // d, dmin, scales[12], qs[128]: x = d*sc * q - dmin*m
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q4_k, "d")));
    const auto dmin = A::fp16(x.u16(field_at(block_fields::gguf_q4_k, "dmin")));
    constexpr std::size_t scales = NINFER_AT_(gguf_q4_k, "scales");
    std::size_t o = 0, q = NINFER_AT_(gguf_q4_k, "qs");
    for (int is = 0; is < 8; is += 2) {
        int sc = 0, mn = 0;
        scale_min_k4(x, scales, is, sc, mn);
        const auto d1 = A::mul(d, A::num(sc)), m1 = A::mul(dmin, A::num(mn));
        scale_min_k4(x, scales, is + 1, sc, mn);
        const auto d2 = A::mul(d, A::num(sc)), m2 = A::mul(dmin, A::num(mn));
        for (int l = 0; l < 32; ++l) y[o++] = A::sub(A::mul(d1, A::num(x.u8(q + l) & 0xF)), m1);
        for (int l = 0; l < 32; ++l) y[o++] = A::sub(A::mul(d2, A::num(x.u8(q + l) >> 4)), m2);
        q += 32;
    }
}

template <class A>
void gguf_q5_k(const Bytes &x, Out<A> &y) {  // d, dmin, scales[12], qh[32], qs[128]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q5_k, "d")));
    const auto dmin = A::fp16(x.u16(field_at(block_fields::gguf_q5_k, "dmin")));
    constexpr std::size_t scales = NINFER_AT_(gguf_q5_k, "scales"), qh = NINFER_AT_(gguf_q5_k, "qh");
    std::size_t o = 0, ql = NINFER_AT_(gguf_q5_k, "qs");
    std::uint8_t u1 = 1, u2 = 2;
    for (int is = 0; is < 8; is += 2) {
        int sc = 0, mn = 0;
        scale_min_k4(x, scales, is, sc, mn);
        const auto d1 = A::mul(d, A::num(sc)), m1 = A::mul(dmin, A::num(mn));
        scale_min_k4(x, scales, is + 1, sc, mn);
        const auto d2 = A::mul(d, A::num(sc)), m2 = A::mul(dmin, A::num(mn));
        for (int l = 0; l < 32; ++l)
            y[o++] = A::sub(A::mul(d1, A::num((x.u8(ql + l) & 0xF) + (x.u8(qh + l) & u1 ? 16 : 0))), m1);
        for (int l = 0; l < 32; ++l)
            y[o++] = A::sub(A::mul(d2, A::num((x.u8(ql + l) >> 4) + (x.u8(qh + l) & u2 ? 16 : 0))), m2);
        ql += 32;
        u1 = static_cast<std::uint8_t>(u1 << 2);
        u2 = static_cast<std::uint8_t>(u2 << 2);
    }
}

template <class A>
void gguf_q6_k(const Bytes &x, Out<A> &y) {  // ql[128], qh[64], scales[16] int8, d: x = d*sc * (q6 - 32)
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_q6_k, "d")));
    for (int n = 0; n < 2; ++n) {
        const std::size_t ql = NINFER_AT_(gguf_q6_k, "ql") + 64 * n, qh = NINFER_AT_(gguf_q6_k, "qh") + 32 * n,
                          sc = NINFER_AT_(gguf_q6_k, "scales") + 8 * n, o = 128 * n;
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const std::uint8_t h = x.u8(qh + l);
            const int q[4] = {((x.u8(ql + l) & 0xF) | ((h >> 0) & 3) << 4) - 32, ((x.u8(ql + l + 32) & 0xF) | ((h >> 2) & 3) << 4) - 32,
                              ((x.u8(ql + l) >> 4) | ((h >> 4) & 3) << 4) - 32, ((x.u8(ql + l + 32) >> 4) | ((h >> 6) & 3) << 4) - 32};
            for (int t = 0; t < 4; ++t)
                y[o + static_cast<std::size_t>(l + 32 * t)] = A::mul(A::mul(d, A::num(x.i8(sc + static_cast<std::size_t>(is + 2 * t)))), A::num(q[t]));
        }
    }
}

template <class A>
void gguf_q8_k(const Bytes &x, Out<A> &y) {  // d (binary32), qs[256] int8, bsums[16]: x = d * q
    const auto d = A::word(x.u32(field_at(block_fields::gguf_q8_k, "d")));
    for (int j = 0; j < 256; ++j) y[j] = A::mul(d, A::num(x.i8(NINFER_AT_(gguf_q8_k, "qs") + static_cast<std::size_t>(j))));
}

// ---- i-quants ------------------------------------------------------------------------------------

/// d * (0.5 + s) * k in ggml's order: three binary32 operations (k = 0.25 or 0.5).
template <class A>
typename A::V half_step_scale(const typename A::V &d, std::uint32_t s, std::uint32_t k) {
    return A::mul(A::mul(d, A::add(A::word(kHalf), A::num(s))), A::word(k));
}

/// One element of a signed grid: db * grid_byte * (+-1).
template <class A>
typename A::V signed_grid(const typename A::V &db, std::uint8_t g, bool negative) {
    return A::mul(A::mul(db, A::num(g)), sign_of<A>(negative));
}

template <class A>
void gguf_iq2_xxs(const Bytes &x, Out<A> &y) {  // d, qs[32] uint16
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq2_xxs, "d")));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint32_t a0 = x.u32(NINFER_AT_(gguf_iq2_xxs, "qs") + 8 * ib), a1 = x.u32(NINFER_AT_(gguf_iq2_xxs, "qs") + 4 + 8 * ib);
        const auto db = half_step_scale<A>(d, a1 >> 28, kQuarter);
        for (int l = 0; l < 4; ++l) {
            const std::uint64_t grid = ggml::iq2xxs_grid[(a0 >> (8 * l)) & 0xFF];
            const std::uint8_t signs = ggml::ksigns_iq2xs[(a1 >> (7 * l)) & 127];
            for (int j = 0; j < 8; ++j) y[o++] = signed_grid<A>(db, grid_byte(grid, j), signs & ggml::kmask_iq2xs[j]);
        }
    }
}

template <class A>
void gguf_iq2_xs(const Bytes &x, Out<A> &y) {  // d, qs[32] uint16, scales[8]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq2_xs, "d")));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint8_t s = x.u8(NINFER_AT_(gguf_iq2_xs, "scales") + static_cast<std::size_t>(ib));
        const typename A::V db[2] = {half_step_scale<A>(d, s & 0xF, kQuarter), half_step_scale<A>(d, s >> 4, kQuarter)};
        for (int l = 0; l < 4; ++l) {
            const std::uint16_t q = x.u16(NINFER_AT_(gguf_iq2_xs, "qs") + 2 * static_cast<std::size_t>(4 * ib + l));
            const std::uint64_t grid = ggml::iq2xs_grid[q & 511];
            const std::uint8_t signs = ggml::ksigns_iq2xs[q >> 9];
            for (int j = 0; j < 8; ++j) y[o++] = signed_grid<A>(db[l / 2], grid_byte(grid, j), signs & ggml::kmask_iq2xs[j]);
        }
    }
}

template <class A>
void gguf_iq2_s(const Bytes &x, Out<A> &y) {  // d, qs[32] grid low bits, signs[32], qh[8], scales[8]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq2_s, "d")));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint8_t s = x.u8(NINFER_AT_(gguf_iq2_s, "scales") + static_cast<std::size_t>(ib)),
                           qh = x.u8(NINFER_AT_(gguf_iq2_s, "qh") + static_cast<std::size_t>(ib));
        const typename A::V db[2] = {half_step_scale<A>(d, s & 0xF, kQuarter), half_step_scale<A>(d, s >> 4, kQuarter)};
        for (int l = 0; l < 4; ++l) {
            const std::uint8_t lo = x.u8(NINFER_AT_(gguf_iq2_s, "qs") + 4 * static_cast<std::size_t>(ib) + static_cast<std::size_t>(l));
            // The sign bytes are the second half of qs.
            const std::uint8_t signs = x.u8(NINFER_AT_(gguf_iq2_s, "qs") + 32 + 4 * static_cast<std::size_t>(ib) + static_cast<std::size_t>(l));
            const std::uint64_t grid = ggml::iq2s_grid[lo | ((qh << (8 - 2 * l)) & 0x300)];
            for (int j = 0; j < 8; ++j) y[o++] = signed_grid<A>(db[l / 2], grid_byte(grid, j), signs & ggml::kmask_iq2xs[j]);
        }
    }
}

template <class A>
void gguf_iq3_xxs(const Bytes &x, Out<A> &y) {  // d, qs[64] grid indices, scales_and_signs[32]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq3_xxs, "d")));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint32_t aux = x.u32(NINFER_AT_(gguf_iq3_xxs, "qs") + 64 + 4 * static_cast<std::size_t>(ib));  // scales_and_signs follow 64 grid bytes
        const auto db = half_step_scale<A>(d, aux >> 28, kHalf);
        for (int l = 0; l < 4; ++l) {
            const std::uint8_t signs = ggml::ksigns_iq2xs[(aux >> (7 * l)) & 127];
            const std::size_t qs = NINFER_AT_(gguf_iq3_xxs, "qs") + 8 * static_cast<std::size_t>(ib) + 2 * static_cast<std::size_t>(l);
            const std::uint32_t g1 = ggml::iq3xxs_grid[x.u8(qs)], g2 = ggml::iq3xxs_grid[x.u8(qs + 1)];
            for (int j = 0; j < 4; ++j) y[o + static_cast<std::size_t>(j)] = signed_grid<A>(db, grid_byte(g1, j), signs & ggml::kmask_iq2xs[j]);
            for (int j = 0; j < 4; ++j)
                y[o + 4 + static_cast<std::size_t>(j)] = signed_grid<A>(db, grid_byte(g2, j), signs & ggml::kmask_iq2xs[j + 4]);
            o += 8;
        }
    }
}

template <class A>
void gguf_iq3_s(const Bytes &x, Out<A> &y) {  // d, qs[64], qh[8], signs[32], scales[4]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq3_s, "d")));
    std::size_t o = 0, qs = NINFER_AT_(gguf_iq3_s, "qs"), signs = NINFER_AT_(gguf_iq3_s, "signs");
    for (int ib = 0; ib < 8; ib += 2) {
        const std::uint8_t s = x.u8(NINFER_AT_(gguf_iq3_s, "scales") + static_cast<std::size_t>(ib / 2));
        const typename A::V db[2] = {A::mul(d, A::num(1 + 2 * (s & 0xF))), A::mul(d, A::num(1 + 2 * (s >> 4)))};
        for (int half = 0; half < 2; ++half) {
            const std::uint8_t qh = x.u8(NINFER_AT_(gguf_iq3_s, "qh") + static_cast<std::size_t>(ib + half));
            for (int l = 0; l < 4; ++l) {
                const std::uint32_t g1 = ggml::iq3s_grid[x.u8(qs + 2 * static_cast<std::size_t>(l)) | ((qh << (8 - 2 * l)) & 256)];
                const std::uint32_t g2 = ggml::iq3s_grid[x.u8(qs + 2 * static_cast<std::size_t>(l) + 1) | ((qh << (7 - 2 * l)) & 256)];
                const std::uint8_t sg = x.u8(signs + static_cast<std::size_t>(l));
                for (int j = 0; j < 4; ++j) y[o + static_cast<std::size_t>(j)] = signed_grid<A>(db[half], grid_byte(g1, j), sg & ggml::kmask_iq2xs[j]);
                for (int j = 0; j < 4; ++j)
                    y[o + 4 + static_cast<std::size_t>(j)] = signed_grid<A>(db[half], grid_byte(g2, j), sg & ggml::kmask_iq2xs[j + 4]);
                o += 8;
            }
            qs += 8;
            signs += 4;
        }
    }
}

/// One element of an iq1 grid: dl * (grid + delta), grid bytes signed.
template <class A>
typename A::V iq1_element(const typename A::V &dl, std::uint64_t grid, int j, bool negative_delta) {
    return A::mul(dl, A::add(A::num(static_cast<std::int8_t>(grid_byte(grid, j))), A::word(iq1s_delta_word(negative_delta))));
}

template <class A>
void gguf_iq1_s(const Bytes &x, Out<A> &y) {  // d, qs[32], qh[8] uint16
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq1_s, "d")));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const std::uint16_t qh = x.u16(NINFER_AT_(gguf_iq1_s, "qh") + 2 * static_cast<std::size_t>(ib));
        const auto dl = A::mul(d, A::num(2 * ((qh >> 12) & 7) + 1));
        for (int l = 0; l < 4; ++l) {
            const std::uint64_t grid = ggml::iq1s_grid[x.u8(NINFER_AT_(gguf_iq1_s, "qs") + 4 * static_cast<std::size_t>(ib) + static_cast<std::size_t>(l)) | (((qh >> (3 * l)) & 7) << 8)];
            for (int j = 0; j < 8; ++j) y[o++] = iq1_element<A>(dl, grid, j, qh & 0x8000);
        }
    }
}

template <class A>
void gguf_iq1_m(const Bytes &x, Out<A> &y) {  // qs[32], qh[16], scales[8] (four uint16)
    constexpr std::size_t scales = field_at(block_fields::gguf_iq1_m, "scales");
    const std::uint16_t sc[4] = {x.u16(scales), x.u16(scales + 2), x.u16(scales + 4), x.u16(scales + 6)};
    // The binary16 super-scale is assembled from the top nibble of each scale word.
    const auto d = A::fp16(static_cast<std::uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000)));
    std::size_t o = 0;
    for (int ib = 0; ib < 8; ++ib) {
        const auto dl1 = A::mul(d, A::num(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 7) + 1));
        const auto dl2 = A::mul(d, A::num(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1));
        const std::size_t qs = NINFER_AT_(gguf_iq1_m, "qs") + 4 * static_cast<std::size_t>(ib),
                          qh = NINFER_AT_(gguf_iq1_m, "qh") + 2 * static_cast<std::size_t>(ib);
        const int idx[4] = {x.u8(qs) | ((x.u8(qh) << 8) & 0x700), x.u8(qs + 1) | ((x.u8(qh) << 4) & 0x700),
                            x.u8(qs + 2) | ((x.u8(qh + 1) << 8) & 0x700), x.u8(qs + 3) | ((x.u8(qh + 1) << 4) & 0x700)};
        const bool neg[4] = {(x.u8(qh) & 0x08) != 0, (x.u8(qh) & 0x80) != 0, (x.u8(qh + 1) & 0x08) != 0, (x.u8(qh + 1) & 0x80) != 0};
        for (int l = 0; l < 4; ++l)
            for (int j = 0; j < 8; ++j) y[o++] = iq1_element<A>(l < 2 ? dl1 : dl2, ggml::iq1s_grid[static_cast<std::size_t>(idx[l])], j, neg[l]);
    }
}

template <class A>
void gguf_iq4_nl(const Bytes &x, Out<A> &y) {  // d, qs[16]: x = d * kvalues_iq4nl[nibble]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq4_nl, "d")));
    for (int j = 0; j < 16; ++j) {
        y[j] = A::mul(d, A::num(ggml::kvalues_iq4nl[x.u8(NINFER_AT_(gguf_iq4_nl, "qs") + j) & 0xF]));
        y[j + 16] = A::mul(d, A::num(ggml::kvalues_iq4nl[x.u8(NINFER_AT_(gguf_iq4_nl, "qs") + j) >> 4]));
    }
}

template <class A>
void gguf_iq4_xs(const Bytes &x, Out<A> &y) {  // d, scales_h, scales_l[4], qs[128]
    const auto d = A::fp16(x.u16(field_at(block_fields::gguf_iq4_xs, "d")));
    const std::uint16_t sh = x.u16(field_at(block_fields::gguf_iq4_xs, "scales_h"));
    for (int ib = 0; ib < 8; ++ib) {
        const int ls = ((x.u8(NINFER_AT_(gguf_iq4_xs, "scales_l") + static_cast<std::size_t>(ib / 2)) >> (4 * (ib % 2))) & 0xF) | (((sh >> (2 * ib)) & 3) << 4);
        const auto dl = A::mul(d, A::num(ls - 32));
        for (int j = 0; j < 16; ++j) {
            const std::uint8_t q = x.u8(NINFER_AT_(gguf_iq4_xs, "qs") + 16 * static_cast<std::size_t>(ib) + static_cast<std::size_t>(j));
            y[32 * ib + j] = A::mul(dl, A::num(ggml::kvalues_iq4nl[q & 0xF]));
            y[32 * ib + j + 16] = A::mul(dl, A::num(ggml::kvalues_iq4nl[q >> 4]));
        }
    }
}

#undef NINFER_AT_

/// A decoder of one block, evaluated with policy A.
template <class A>
using Decoder = void (*)(const Bytes &, Out<A> &);

/// The decoders by registry row (abi::kGgufTypes), named by the registry's type names.
template <class A>
constexpr abi::GgufTable<Decoder<A>> kDecoders = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) &name<A>,
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

/// The block's values under policy A, by the type's decoder.
template <class A>
Out<A> dequantize(const GgufType &t, const Bytes &x) {
    Out<A> y(t.block_values);
    const auto decoder = abi::gguf_entry(kDecoders<A>, t.id);
    if (!decoder) throw std::invalid_argument("gguf: no decoder for ggml type " + std::to_string(t.ggml_type));
    decoder(x, y);
    return y;
}

}  // namespace

const GgufType *find_gguf_type(std::string_view name) {
    for (const auto &t : kGgufTypes)
        if (t.name == name) return &t;
    return nullptr;
}

std::string ggml_blocks_shape_error(const GgufType &t, std::span<const std::uint64_t> shape) {
    if (shape.empty() || shape.size() > 16) return "rank " + std::to_string(shape.size()) + " is outside 1..16";
    std::uint64_t rows = 1;
    for (std::size_t i = 0; i + 1 < shape.size(); ++i)
        if (shape[i] == 0 || __builtin_mul_overflow(rows, shape[i], &rows)) return "the leading dimensions are zero or overflow uint64";
    const std::uint64_t k = shape.back();
    if (k == 0 || k % t.block_values != 0)
        return "K = " + std::to_string(k) + " is not a positive multiple of " + std::to_string(t.block_values);
    std::uint64_t row_bytes = 0, payload = 0;
    if (__builtin_mul_overflow(k / t.block_values, std::uint64_t{t.block_bytes}, &row_bytes) ||
        __builtin_mul_overflow(rows, row_bytes, &payload))
        return "the payload size overflows uint64";
    return {};
}

std::optional<GgmlBlocksGeometry> ggml_blocks_geometry(const GgufType &t, std::span<const std::uint64_t> shape) {
    if (!ggml_blocks_shape_error(t, shape).empty()) return std::nullopt;
    GgmlBlocksGeometry g{1, shape.back() / t.block_values, 0, 0};
    for (std::size_t i = 0; i + 1 < shape.size(); ++i) g.rows *= shape[i];
    g.row_bytes = g.blocks_per_row * t.block_bytes;
    g.payload_bytes = g.rows * g.row_bytes;
    return g;
}

std::vector<std::uint8_t> ggml_blocks_select_rows(const GgufType &t, std::span<const std::uint64_t> shape,
                                                  std::span<const std::uint8_t> payload, std::span<const std::uint64_t> rows) {
    const auto g = ggml_blocks_geometry(t, shape);
    if (!g || payload.size() != g->payload_bytes)
        throw std::invalid_argument("ggml_blocks_select_rows: the payload does not match the shape");
    if (rows.empty()) throw std::invalid_argument("ggml_blocks_select_rows: no rows selected");
    std::vector<std::uint8_t> out;
    out.reserve(rows.size() * g->row_bytes);
    for (const auto r : rows) {
        if (r >= g->rows) throw std::invalid_argument("ggml_blocks_select_rows: row " + std::to_string(r) + " out of range");
        const auto *p = payload.data() + r * g->row_bytes;
        out.insert(out.end(), p, p + g->row_bytes);
    }
    return out;
}

GgufBlock gguf_dequantize_block(const GgufType &t, std::span<const std::uint8_t> block) {
    if (block.size() != t.block_bytes)
        throw std::invalid_argument("gguf_dequantize_block: " + std::string(t.name) + " blocks are " +
                                    std::to_string(t.block_bytes) + " bytes, not " + std::to_string(block.size()));
    const Bytes x{block};
    return {dequantize<Binary32>(t, x), dequantize<Exact>(t, x)};
}

// Declared in linear_internal.hpp (the `linear` oracle reads GGUF weights through it).
std::vector<std::uint32_t> gguf_dequantize_block_binary32(const GgufType &t, std::span<const std::uint8_t> block) {
    if (block.size() != t.block_bytes)
        throw std::invalid_argument("gguf_dequantize_block_binary32: " + std::string(t.name) + " blocks are " +
                                    std::to_string(t.block_bytes) + " bytes, not " + std::to_string(block.size()));
    return dequantize<Binary32>(t, Bytes{block});
}

}  // namespace ninfer::oracle
