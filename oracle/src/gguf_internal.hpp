// SPDX-License-Identifier: Apache-2.0
// Private to the GGUF oracle files (gguf.cpp, gguf_quantize.cpp; tensor-formats.txt's gguf_*
// paragraph): binary32 arithmetic as ggml's C performs it, each operation rounded once by the
// exact oracle (nearest-even; IEEE infinities and NaN), never by host float arithmetic.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "scalar_internal.hpp"

namespace ninfer::oracle::gguf_detail {

inline constexpr std::uint32_t kNaN = 0x7FC00000u;

inline const WordFormat &fp32() { return word_format(NINFER_FORMAT_fp32); }
inline bool is_nan(const WordInfo &i) { return detail::is_nan_class(i.cls); }

/// The exact value of a binary32 word as a Real, keeping the sign of a zero.
Real real_of(std::uint32_t w);

/// One IEEE binary32 operation, rounded once (ggml's arithmetic without contraction).
struct Binary32 {
    using V = std::uint32_t;
    static V word(std::uint32_t w) { return w; }
    static V fp16(std::uint16_t h);
    static V num(long i);
    static V mul(V a, V b);
    static V add(V a, V b);
    static V sub(V a, V b) { return add(a, b ^ 0x80000000u); }
    static V div(V a, V b);
    static V abs(V a) { return a & 0x7FFFFFFFu; }
    /// a < b as IEEE compares (false when either is NaN).
    static bool less(V a, V b);
    /// binary32 -> binary16, nearest-even (GGML_FP32_TO_FP16).
    static std::uint16_t to_fp16(V a);
};

/// ggml's nearest_int: fval + 12582912.f in binary32, then the low 23 bits less 2^22 (ties to
/// even below 2^22; beyond, the bits of the sum as ggml's release build reads them).
int nearest_int(std::uint32_t fval);
/// The integer x86-64's cvttss2si gives for a binary32 word rounded to an integral value by
/// `round_fn` (mpfr_trunc: a C cast; mpfr_round: roundf, lroundf), into a signed integer of
/// `bits` (32 or 64) bits: the value when it fits, else the "integer indefinite" -2^(bits-1)
/// (a NaN, an infinity, a value beyond the range). oracle/GGUF.md, "Blocks whose inverse scale
/// overflows".
long long x86_integer_of(std::uint32_t w, int (*round_fn)(mpfr_ptr, mpfr_srcptr), int bits);

/// ggml_e8m0_to_fp32_half: the binary32 word of 2^(e - 128) (no NaN for e = 0xFF).
std::uint32_t e8m0_half_word(std::uint8_t e);
/// ggml_ue4m3_to_fp32: 0x00 and 0x7F are 0; otherwise the E4M3 magnitude of the low 7 bits (bit
/// 7 ignored; e = 15, m = 7 is 480, not NaN), halved. Exact in binary32.
std::uint32_t ue4m3_half_word(std::uint8_t s);

/// ggml's quantize_row_<type>_ref for one block of finite binary32 words, named by the
/// registry's type name; declared for every row, defined where the registry's ref_quantizer
/// column is 1: gguf_quantize.cpp (q4_0 .. q8_K), gguf_kquants.cpp (q2_K .. q6_K),
/// gguf_quantize_iq4.cpp (iq4_nl, iq4_xs: iq4_nl refuses a block below GROUP_MAX_EPS with
/// NINFER_E_METHOD, oracle/GGUF.md), gguf_quantize_small.cpp (q1_0, q2_0, tq1_0, tq2_0, mxfp4, nvfp4).
/// The outcome of a quantizer that wrote its block (NINFER_OK).
inline GgufQuantized written(std::vector<std::uint8_t> block) {
    GgufQuantized q;
    q.block = std::move(block);
    return q;
}
using Quantizer = GgufQuantized (*)(std::span<const std::uint32_t> x);
namespace quantize_ref {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) GgufQuantized name(std::span<const std::uint32_t> x);
NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
}  // namespace quantize_ref

}  // namespace ninfer::oracle::gguf_detail
