// SPDX-License-Identifier: Apache-2.0
// ggml's deterministic reference quantizers (ggml-quants.c quantize_row_<type>_ref; the gguf_*
// paragraph of tensor-formats.txt): the bytes of one block, each binary32 operation in ggml's
// order rounded once by the exact oracle (gguf_internal.hpp), never by host float arithmetic.
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/gguf_fields.hpp"
#include "gguf_internal.hpp"

namespace ninfer::oracle {

namespace {

using B = gguf_detail::Binary32;
using W = std::uint32_t;
namespace F = ninfer::oracle::block_fields;

constexpr W kZero = 0, kOne = 0x3F800000u, kHalf = 0x3F000000u, kFltMax = 0x7F7FFFFFu;

/// The integer of an integral exact value as x86-64's cvttss2si gives it, the conversion ggml's
/// release build compiles a C float-to-integer cast to (oracle/GGUF.md, "Blocks whose inverse
/// scale overflows"): the value when it fits in int32, else 0x80000000 (INT32_MIN). A NaN or
/// infinite word (a product with 1/d once 1/d overflowed) gives INT32_MIN too.
long x86_int32_of(W w, int (*round_fn)(mpfr_ptr, mpfr_srcptr)) {
    return static_cast<long>(gguf_detail::x86_integer_of(w, round_fn, 32));
}

/// A C float-to-integer conversion: truncation toward zero (x86-64: x86_int32_of).
long trunc_to_int(W w) { return x86_int32_of(w, mpfr_trunc); }

/// roundf then a conversion: the nearest integer, ties away from zero (x86-64: x86_int32_of).
long roundf_to_int(W w) { return x86_int32_of(w, mpfr_round); }

/// (int8_t) of a float: the low byte of the conversion, as a signed value.
long int8_of(long converted) { return static_cast<std::int8_t>(static_cast<std::uint8_t>(converted & 0xFF)); }

bool nonzero(W w) { return (w & 0x7FFFFFFFu) != 0; }

/// The block bytes of a GGUF type (the registry's column).
std::size_t block_bytes(std::uint32_t id) { return abi::find_id(abi::kGgufTypes, id)->block_bytes; }

/// The signed extreme of a block (q4_0, q5_0): the value of largest magnitude, the first on ties.
W signed_absmax(std::span<const W> x) {
    W amax = kZero, max = kZero;
    for (const W v : x)
        if (B::less(amax, B::abs(v))) {
            amax = B::abs(v);
            max = v;
        }
    return max;
}

/// The minimum and maximum of a block (q4_1, q5_1), from FLT_MAX and -FLT_MAX.
void min_max(std::span<const W> x, W &min, W &max) {
    min = kFltMax;
    max = kFltMax | 0x80000000u;
    for (const W v : x) {
        if (B::less(v, min)) min = v;
        if (B::less(max, v)) max = v;
    }
}

/// d ? 1.0f / d : 0.0f
W inverse_or_zero(W d) { return nonzero(d) ? B::div(kOne, d) : kZero; }

/// q4_0 and q5_0: d = max / -2^(bits-1); codes MIN(qmax, (int8_t)(x * id + 2^(bits-1) + 0.5)).
std::vector<std::uint8_t> symmetric_nibbles(std::span<const W> x, int bits, std::size_t block_bytes) {
    std::vector<std::uint8_t> b(block_bytes, 0);
    const long half = 1L << (bits - 1), qmax = (1L << bits) - 1;
    const W d = B::div(signed_absmax(x), B::num(-half));
    const W id = inverse_or_zero(d);
    abi::store_le16(&b[field_at(F::gguf_q4_0, "d")], B::to_fp16(d));
    static_assert(field_at(F::gguf_q4_0, "d") == field_at(F::gguf_q5_0, "d"));
    const W offset = B::add(B::num(half), kHalf);  // 8.5f, 16.5f: exact
    std::uint32_t qh = 0;
    for (std::size_t j = 0; j < 16; ++j) {
        const long xi0 = std::min(qmax, int8_of(trunc_to_int(B::add(B::mul(x[j], id), offset))));
        const long xi1 = std::min(qmax, int8_of(trunc_to_int(B::add(B::mul(x[j + 16], id), offset))));
        const std::size_t qs = bits == 4 ? field_at(F::gguf_q4_0, "qs") : field_at(F::gguf_q5_0, "qs");
        b[qs + j] = static_cast<std::uint8_t>((xi0 & 0xF) | (xi1 & 0xF) << 4);
        qh |= static_cast<std::uint32_t>((xi0 & 0x10) >> 4) << j;
        qh |= static_cast<std::uint32_t>((xi1 & 0x10) >> 4) << (j + 16);
    }
    if (bits == 5)
        abi::store_le32(&b[field_at(F::gguf_q5_0, "qh")], qh);
    return b;
}

/// q4_1 and q5_1: d = (max - min) / (2^bits - 1), m = min; codes (x - min) * id + 0.5 truncated.
std::vector<std::uint8_t> affine_nibbles(std::span<const W> x, int bits, std::size_t block_bytes) {
    std::vector<std::uint8_t> b(block_bytes, 0);
    W min = 0, max = 0;
    min_max(x, min, max);
    const W d = B::div(B::sub(max, min), B::num((1L << bits) - 1));
    const W id = inverse_or_zero(d);
    static_assert(field_at(F::gguf_q4_1, "d") == field_at(F::gguf_q5_1, "d") && field_at(F::gguf_q4_1, "m") == field_at(F::gguf_q5_1, "m"));
    abi::store_le16(&b[field_at(F::gguf_q4_1, "d")], B::to_fp16(d));
    abi::store_le16(&b[field_at(F::gguf_q4_1, "m")], B::to_fp16(min));
    std::uint32_t qh = 0;
    for (std::size_t j = 0; j < 16; ++j) {
        long xi0 = trunc_to_int(B::add(B::mul(B::sub(x[j], min), id), kHalf));
        long xi1 = trunc_to_int(B::add(B::mul(B::sub(x[j + 16], min), id), kHalf));
        if (bits == 4) {  // q4_1 clamps with MIN(15, (int8_t)...); q5_1 stores (uint8_t) unclamped
            xi0 = std::min(15L, int8_of(xi0));
            xi1 = std::min(15L, int8_of(xi1));
        }
        const std::size_t qs = bits == 4 ? field_at(F::gguf_q4_1, "qs") : field_at(F::gguf_q5_1, "qs");
        b[qs + j] = static_cast<std::uint8_t>((xi0 & 0xF) | (xi1 & 0xF) << 4);
        qh |= static_cast<std::uint32_t>((xi0 & 0x10) >> 4) << j;
        qh |= static_cast<std::uint32_t>((xi1 & 0x10) >> 4) << (j + 16);
    }
    if (bits == 5)
        abi::store_le32(&b[field_at(F::gguf_q5_1, "qh")], qh);
    return b;
}

/// q8_0 and q8_1: d = amax / 127, codes roundf(x * id) as int8 (wrapped as x86 stores them);
/// q8_1 also stores s = binary16(sum * d).
std::vector<std::uint8_t> q8_blocks(std::span<const W> x, bool with_sum, std::size_t block_bytes) {
    std::vector<std::uint8_t> b(block_bytes, 0);
    W amax = kZero;
    for (const W v : x) amax = B::less(amax, B::abs(v)) ? B::abs(v) : amax;  // MAX(amax, fabsf(v))
    const W d = B::div(amax, B::num(127));
    const W id = inverse_or_zero(d);
    static_assert(field_at(F::gguf_q8_0, "d") == field_at(F::gguf_q8_1, "d"));
    abi::store_le16(&b[field_at(F::gguf_q8_0, "d")], B::to_fp16(d));
    const std::size_t qs = with_sum ? field_at(F::gguf_q8_1, "qs") : field_at(F::gguf_q8_0, "qs");
    long sum = 0;
    for (std::size_t j = 0; j < 32; ++j) {
        const auto q = static_cast<std::int8_t>(int8_of(roundf_to_int(B::mul(x[j], id))));
        b[qs + j] = static_cast<std::uint8_t>(q);
        sum += q;
    }
    if (with_sum) abi::store_le16(&b[field_at(F::gguf_q8_1, "s")], B::to_fp16(B::mul(B::num(sum), d)));
    return b;
}

/// q8_K: iscale = -127 / max (the signed extreme), codes MIN(127, nearest_int(iscale * x)),
/// bsums per 16, d = 1 / iscale as binary32. An all-zero block stores d = 0, codes 0 and (suite
/// reading: ggml leaves them unwritten) bsums 0.
std::vector<std::uint8_t> q8_k_block(std::span<const W> x) {
    constexpr std::size_t qs = field_at(F::gguf_q8_k, "qs"), bsums = field_at(F::gguf_q8_k, "bsums");
    std::vector<std::uint8_t> b(block_size(F::gguf_q8_k), 0);
    W amax = kZero, max = kZero;
    for (const W v : x)
        if (B::less(amax, B::abs(v))) {
            amax = B::abs(v);
            max = v;
        }
    if (!nonzero(amax)) return b;
    const W iscale = B::div(B::num(-127), max);
    for (std::size_t j = 0; j < 256; ++j) b[qs + j] = static_cast<std::uint8_t>(std::min(127, gguf_detail::nearest_int(B::mul(iscale, x[j]))));
    for (std::size_t g = 0; g < 16; ++g) {
        int sum = 0;
        for (std::size_t i = 0; i < 16; ++i) sum += static_cast<std::int8_t>(b[qs + 16 * g + i]);
        abi::store_le16(&b[bsums + 2 * g], static_cast<std::uint16_t>(sum));
    }
    const W d = B::div(kOne, iscale);
    abi::store_le32(&b[field_at(F::gguf_q8_k, "d")], d);
    return b;
}

}  // namespace

namespace gguf_detail::quantize_ref {

GgufQuantized gguf_q4_0(std::span<const W> x) { return gguf_detail::written(symmetric_nibbles(x, 4, block_bytes(NINFER_FORMAT_gguf_q4_0))); }
GgufQuantized gguf_q5_0(std::span<const W> x) { return gguf_detail::written(symmetric_nibbles(x, 5, block_bytes(NINFER_FORMAT_gguf_q5_0))); }
GgufQuantized gguf_q4_1(std::span<const W> x) { return gguf_detail::written(affine_nibbles(x, 4, block_bytes(NINFER_FORMAT_gguf_q4_1))); }
GgufQuantized gguf_q5_1(std::span<const W> x) { return gguf_detail::written(affine_nibbles(x, 5, block_bytes(NINFER_FORMAT_gguf_q5_1))); }
GgufQuantized gguf_q8_0(std::span<const W> x) { return gguf_detail::written(q8_blocks(x, false, block_bytes(NINFER_FORMAT_gguf_q8_0))); }
GgufQuantized gguf_q8_1(std::span<const W> x) { return gguf_detail::written(q8_blocks(x, true, block_bytes(NINFER_FORMAT_gguf_q8_1))); }
GgufQuantized gguf_q8_k(std::span<const W> x) { return gguf_detail::written(q8_k_block(x)); }

}  // namespace gguf_detail::quantize_ref

namespace {

/// ggml's reference quantizers by registry row: the registry's ref_quantizer column decides
/// which types have one (nullptr elsewhere).
constexpr abi::GgufTable<gguf_detail::Quantizer> kQuantizers = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) NINFER_GGUF_IF_REFQ(refq, &gguf_detail::quantize_ref::name),
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

}  // namespace

bool gguf_has_reference_quantizer(const GgufType &t) { return t.ref_quantizer; }

GgufQuantized gguf_quantize_block_ref(const GgufType &t, std::span<const std::uint32_t> x) {
    GgufQuantized out;
    if (x.size() != t.block_values)
        throw std::invalid_argument(fmt::format("gguf_quantize_block_ref: {} takes {} values, not {}", t.name, t.block_values, x.size()));
    const auto quantize = abi::gguf_entry(kQuantizers, t.id);
    if (!quantize) {
        out.status = NINFER_E_UNSUPPORTED;
        out.message = fmt::format("no reference quantizer for {} in the oracle", t.name);
        return out;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
        if ((x[i] & 0x7F800000u) == 0x7F800000u) {
            out.status = NINFER_E_NONFINITE;
            out.message = fmt::format("element {} is not finite", i);
            return out;
        }
    return quantize(x);
}

}  // namespace ninfer::oracle
