// SPDX-License-Identifier: Apache-2.0
// ggml's small deterministic reference quantizers (ggml-quants.c quantize_row_q1_0_ref,
// q2_0, tq1_0, tq2_0, mxfp4, nvfp4 with ggml_fp32_to_ue4m3; the gguf_* paragraph of
// tensor-formats.txt): the bytes of one block, each binary32 operation in ggml's order rounded
// once by the exact oracle (gguf_internal.hpp). Conversions of a non-finite product to an
// integer follow ggml's x86-64 release build (oracle/GGUF.md, "The small quantizers").
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/gguf_fields.hpp"
#include "gguf_internal.hpp"
#include "ninfer/oracle/ggml_tables.hpp"

namespace ninfer::oracle::gguf_detail {

namespace {

using B = Binary32;
using W = std::uint32_t;
using Block = std::vector<std::uint8_t>;
namespace F = ninfer::oracle::block_fields;

constexpr W kZero = 0, kOne = 0x3F800000u, kHalf = 0x3F000000u;
constexpr W k448 = 0x43E00000u, k512 = 0x44000000u;  // 448.0f, 512.0f

/// The largest magnitude of x (amax < fabsf(v), or MAX(amax, fabsf(v)): the same word).
W amax_of(std::span<const W> x) {
    W amax = kZero;
    for (const W v : x)
        if (B::less(amax, B::abs(v))) amax = B::abs(v);
    return amax;
}

/// (int)roundf(v) as x86-64 computes it: ties away from zero; 0x80000000 for a NaN or infinity.
long long roundf_int(W v) { return x86_integer_of(v, mpfr_round, 32); }

/// (int)(lroundf(v) + 1): glibc's lroundf returns (long)v beyond the long range, which x86-64's
/// cvttss2si gives as 0x8000000000000000 for a NaN or an infinity; plus one, its low 32 bits
/// are 1. So a non-finite product is the trit 1 (the value 0).
int lroundf_plus_one(W v) {
    const auto sum = static_cast<unsigned long long>(x86_integer_of(v, mpfr_round, 64)) + 1u;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
}

/// q1_0: d = (sum of |x|) / 128 in ggml's order; bit j set when x[j] >= 0 (-0 included).
Block q1_0(std::span<const W> x) {
    constexpr auto &f = F::gguf_q1_0;
    Block b(block_size(f), 0);
    W sum = kZero;
    for (const W v : x) sum = B::add(sum, B::abs(v));
    abi::store_le16(&b[field_at(f, "d")], B::to_fp16(B::div(sum, B::num(128))));
    for (std::size_t j = 0; j < 128; ++j)
        if (!B::less(x[j], kZero)) b[field_at(f, "qs") + j / 8] |= static_cast<std::uint8_t>(1u << (j % 8));
    return b;
}

/// q2_0: d = amax, id = d > 0 ? 1/d : 0, u = clamp((int)roundf(x * id) + 1, 0, 3), LSB first.
Block q2_0(std::span<const W> x) {
    constexpr auto &f = F::gguf_q2_0;
    Block b(block_size(f), 0);
    const W d = amax_of(x);
    const W id = B::less(kZero, d) ? B::div(kOne, d) : kZero;
    abi::store_le16(&b[field_at(f, "d")], B::to_fp16(d));
    for (std::size_t j = 0; j < 64; ++j) {
        const long long u = std::clamp(roundf_int(B::mul(x[j], id)) + 1, 0LL, 3LL);
        b[field_at(f, "qs") + j / 4] |= static_cast<std::uint8_t>(u << ((j % 4) * 2));
    }
    return b;
}

/// d = amax and id = d ? 1/d : 0 of the ternary types; the trit of x is lroundf(x * id) + 1.
struct Ternary {
    W d, id;
    explicit Ternary(std::span<const W> x) : d(amax_of(x)), id((d & 0x7FFFFFFFu) ? B::div(kOne, d) : kZero) {}
    int trit(W v) const { return lroundf_plus_one(B::mul(v, id)); }
};

/// tq1_0: `bytes` bytes from value `base` on, byte m holding the trits of values base + m +
/// n * bytes (n < digits) as base-3 digits, most significant first (4 digits: shifted once
/// more), then stored as ceil(q * 256 / 243) in uint8_t.
void tq1_0_run(std::span<const W> x, const Ternary &t, std::size_t base, std::size_t bytes, int digits, std::uint8_t *out) {
    for (std::size_t m = 0; m < bytes; ++m) {
        std::uint8_t q = 0;
        for (int n = 0; n < digits; ++n) q = static_cast<std::uint8_t>(q * 3 + t.trit(x[base + m + static_cast<std::size_t>(n) * bytes]));
        if (digits == 4) q = static_cast<std::uint8_t>(q * 3);
        out[m] = static_cast<std::uint8_t>((static_cast<unsigned>(q) * 256 + 242) / 243);
    }
}

/// tq1_0 = qs[48], qh[4], binary16 d: 32 bytes of 5 trits (values 0..159), 16 bytes of 5
/// (160..239), 4 bytes of 4 (240..255).
Block tq1_0(std::span<const W> x) {
    constexpr auto &f = F::gguf_tq1_0;
    constexpr std::size_t qs = field_at(f, "qs");
    Block b(block_size(f), 0);
    const Ternary t(x);
    tq1_0_run(x, t, 0, 32, 5, b.data() + qs);
    tq1_0_run(x, t, 160, 16, 5, b.data() + qs + 32);  // qs holds 32 + 16 bytes
    tq1_0_run(x, t, 240, 4, 4, b.data() + field_at(f, "qh"));
    abi::store_le16(&b[field_at(f, "d")], B::to_fp16(t.d));
    return b;
}

/// tq2_0 = qs[64], binary16 d: byte j + m (j = 0, 32) holds the trits of values 4j + m + 32n
/// (n < 4) in bits 2n.
Block tq2_0(std::span<const W> x) {
    constexpr auto &f = F::gguf_tq2_0;
    Block b(block_size(f), 0);
    const Ternary t(x);
    for (std::size_t j = 0; j < 64; j += 32)
        for (std::size_t m = 0; m < 32; ++m) {
            unsigned q = 0;
            for (std::size_t n = 0; n < 4; ++n) q += static_cast<unsigned>(t.trit(x[4 * j + m + 32 * n]) & 3) << (2 * n);
            b[field_at(f, "qs") + j + m] = static_cast<std::uint8_t>(q);
        }
    abi::store_le16(&b[field_at(f, "d")], B::to_fp16(t.d));
    return b;
}

/// ggml's best_index_mxfp4: the index of the least |kvalues_fp4[i] * d - x|, the first on
/// ties (strict <; a NaN error never wins).
std::uint8_t best_index_fp4(W x, W d) {
    std::uint8_t best = 0;
    W best_err = B::abs(B::sub(B::mul(B::num(ggml::kvalues_fp4[0]), d), x));
    for (std::uint8_t i = 1; i < 16; ++i) {
        const W err = B::abs(B::sub(B::mul(B::num(ggml::kvalues_fp4[i]), d), x));
        if (B::less(err, best_err)) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

/// floorf(log2f(a)) for a positive finite word: glibc's log2f rounds to the nearest binary32
/// (its floor equals the correctly rounded one's on every positive binary32, checked
/// exhaustively: oracle/GGUF.md), so the exact log2 rounded once, then floored (exact).
long floor_log2f(W a) {
    Real l = exact_zero();
    mpfr_log2(l.backend().data(), real_of(a).backend().data(), MPFR_RNDN);  // 2048 bits: no double rounding
    const W rounded = static_cast<W>(round_real(l, fp32(), 1, 1));
    return static_cast<long>(x86_integer_of(rounded, mpfr_floor, 32));
}

/// mxfp4 = E8M0 e, qs[16]: e = (uint8_t)(floorf(log2f(amax)) - 2 + 127) (0 for amax 0; the
/// float arithmetic is exact on these integers; below 2^-125 the conversion's low byte wraps,
/// as x86-64's cvttss2si leaves it), d = ggml_e8m0_to_fp32_half(e), codes best_index_mxfp4.
Block mxfp4(std::span<const W> x) {
    constexpr auto &f = F::gguf_mxfp4;
    Block b(block_size(f), 0);
    const W amax = amax_of(x);
    const auto e = static_cast<std::uint8_t>(B::less(kZero, amax) ? (floor_log2f(amax) - 2 + 127) & 0xFF : 0);
    const W d = e8m0_half_word(e);
    b[field_at(f, "e")] = e;
    for (std::size_t j = 0; j < 16; ++j) b[field_at(f, "qs") + j] = static_cast<std::uint8_t>(best_index_fp4(x[j], d) | best_index_fp4(x[j + 16], d) << 4);
    return b;
}

/// ggml_fp32_to_ue4m3: 0 unless x > 0; clamped to 448; below 2^-6 the subnormal code
/// (int)(x * 512 + 0.5) clamped to 7 (0 below 1); else the top three mantissa bits rounded
/// half up by bit 19, 0x7E from exponent 15 on.
std::uint8_t fp32_to_ue4m3(W v) {
    if (!B::less(kZero, v)) return 0;
    if (B::less(k448, v)) v = k448;
    int exp = static_cast<int>((v >> 23) & 0xFF) - 127 + 7;
    int man = static_cast<int>((v >> 20) & 7);
    if (exp <= 0) {
        const long long sub = std::min(x86_integer_of(B::add(B::mul(v, k512), kHalf), mpfr_trunc, 32), 7LL);
        return sub < 1 ? 0 : static_cast<std::uint8_t>(sub);
    }
    if (exp >= 15) return 0x7E;
    man += static_cast<int>((v >> 19) & 1);
    if (man > 7) {
        man = 0;
        if (++exp >= 15) return 0x7E;
    }
    return static_cast<std::uint8_t>(exp << 3 | man);
}

/// ggml's nvfp4 = d[4] UE4M3, qs[32]: per 16 values ue = fp32_to_ue4m3(amax / 6), d =
/// ggml_ue4m3_to_fp32(ue) (halved), byte 8s + j holds values j (low) and j + 8 (high).
Block nvfp4(std::span<const W> x) {
    constexpr auto &f = F::gguf_nvfp4;
    Block b(block_size(f), 0);
    for (std::size_t s = 0; s < 4; ++s) {
        const auto xb = x.subspan(16 * s, 16);
        const std::uint8_t ue = fp32_to_ue4m3(B::div(amax_of(xb), B::num(6)));
        b[field_at(f, "d0") + s] = ue;  // d0 .. d3
        const W d = ue4m3_half_word(ue);
        for (std::size_t j = 0; j < 8; ++j)
            b[field_at(f, "qs") + 8 * s + j] = static_cast<std::uint8_t>(best_index_fp4(xb[j], d) | best_index_fp4(xb[j + 8], d) << 4);
    }
    return b;
}

}  // namespace

GgufQuantized quantize_ref::gguf_q1_0(std::span<const std::uint32_t> x) { return written(q1_0(x)); }
GgufQuantized quantize_ref::gguf_q2_0(std::span<const std::uint32_t> x) { return written(q2_0(x)); }
GgufQuantized quantize_ref::gguf_tq1_0(std::span<const std::uint32_t> x) { return written(tq1_0(x)); }
GgufQuantized quantize_ref::gguf_tq2_0(std::span<const std::uint32_t> x) { return written(tq2_0(x)); }
GgufQuantized quantize_ref::gguf_mxfp4(std::span<const std::uint32_t> x) { return written(mxfp4(x)); }
GgufQuantized quantize_ref::gguf_nvfp4(std::span<const std::uint32_t> x) { return written(nvfp4(x)); }

}  // namespace ninfer::oracle::gguf_detail
