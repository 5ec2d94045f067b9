// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scalar word codecs (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// number-formats-lesson.txt Examples 1-9, 13-15). The four conversions that sweeps time
// (fp32 -> bf16, fp16, e4m3fn satfinite, e2m1 satfinite, all round to nearest even) are the
// reference's own branch-free batch loops below, written from the spec independently of
// ninfer::native (which computes the sweep's expected words), so that a sweep of the reference
// compares two implementations; classes, exact values and the other conversions are
// ninfer::native's (integer bit manipulation on the registry's geometry, cross-checked against
// the MPFR oracle); the role verdict reads the registry's role columns.
#include <bit>
#include <cstring>

#include "native.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace ninfer::reference {

namespace {

/// The binary32 magnitude bits of a NaN test: a signed compare (SSE2 has no unsigned one; the
/// magnitude is below 2^31).
constexpr bool is_nan32(std::uint32_t w) { return static_cast<std::int32_t>(w & 0x7FFFFFFFu) > 0x7F800000; }

/// fp32 -> bf16, round to nearest even (lesson Example 5): keep the high half; the low half
/// against 0x8000 decides, a tie goes to the even high half; the carry may reach the exponent
/// (up to infinity, the right overflow under rne). NaN: high half with the quiet bit set.
constexpr std::uint16_t fp32_to_bf16_rne(std::uint32_t w) {
    const std::uint32_t high = w >> 16, low = w & 0xFFFFu;
    const std::uint32_t up = (low + (high & 1u)) > 0x8000u ? 1u : 0u;
    return static_cast<std::uint16_t>(is_nan32(w) ? (high | 0x0040u) : high + up);
}

/// A binary32 magnitude rounded to nearest even on the grid of a target with `man` fraction
/// bits, exponent bias `bias` and subnormals (IEEE 754 Section 4.3.1 rounding to the precision
/// and the minimum exponent 1 - bias of the target): the magnitude field (exponent and fraction;
/// beyond the largest finite when it overflows). Branch-free.
template <int man, int bias>
constexpr std::uint32_t rne_magnitude(std::uint32_t a) {
    const std::uint32_t e = a >> 23;
    // Normal targets: biased target exponent e - 127 + bias >= 1, the fraction's 23 - man low bits dropped.
    constexpr std::uint32_t first_normal_e = 128 - bias;
    const std::uint32_t normal_drop = 23 - man;
    const std::uint32_t normal_x = a - ((127u - bias) << 23);
    // Subnormal targets: the significand (hidden bit included) counts units of 2^(max(e, 1) - 150),
    // dropped to units of 2^(1 - bias - man): 151 - bias - man - max(e, 1) bits, at least
    // 24 - man; beyond 31 every significand (< 2^24) lies below half a unit, as with 31.
    const std::uint32_t sig = (a & 0x7FFFFFu) | (e ? 0x800000u : 0u);
    const std::uint32_t e_eff = e ? e : 1u;
    const std::uint32_t sub_drop_raw = (151u - bias - man) - e_eff;
    const std::uint32_t sub_drop = sub_drop_raw > 31u ? 31u : sub_drop_raw;
    const bool normal = e >= first_normal_e;
    const std::uint32_t x = normal ? normal_x : sig;
    const std::uint32_t drop = normal ? normal_drop : sub_drop;
    const std::uint32_t kept = x >> drop, rest = x & ((1u << drop) - 1u), half = 1u << (drop - 1);
    const std::uint32_t up = static_cast<std::uint32_t>(rest > half) | (static_cast<std::uint32_t>(rest == half) & kept & 1u);
    return kept + up;
}

/// fp32 -> fp16 round to nearest even, overflow to infinity (IEEE 754 binary16); NaN: sign,
/// quiet bit and the top 9 payload bits.
constexpr std::uint16_t fp32_to_fp16_rne(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 16) & 0x8000u;
    const std::uint32_t m = rne_magnitude<10, 15>(a);
    const std::uint32_t finite = m >= 0x7C00u ? 0x7C00u : m;
    const std::uint32_t mag = a >= 0x7F800000u ? 0x7C00u : finite;
    return static_cast<std::uint16_t>(is_nan32(w) ? (sign | 0x7E00u | ((a >> 13) & 0x3FFu)) : (sign | mag));
}

/// fp32 -> e4m3fn round to nearest even, saturating (OCP FP8: beyond 448 and +-Inf -> +-448 = 0x7E);
/// NaN -> 0x7F with the sign.
constexpr std::uint8_t fp32_to_e4m3fn_rne_satfinite(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 24) & 0x80u;
    const std::uint32_t m = rne_magnitude<3, 7>(a);
    const std::uint32_t mag = (m > 0x7Eu || a >= 0x7F800000u) ? 0x7Eu : m;
    return static_cast<std::uint8_t>(is_nan32(w) ? (sign | 0x7Fu) : (sign | mag));
}

/// fp32 -> e2m1 round to nearest even, saturating at 6 (OCP MX FP4: magnitudes 0, 0.5, 1, 1.5,
/// 2, 3, 4, 6 at codes 0..7): the code counts the midpoints passed, a tie going to the even code
/// (0.25 -> 0, 0.75 -> 2, 1.25 -> 2, 1.75 -> 4, 2.5 -> 4, 3.5 -> 6, 5 -> 6); NaN -> 0.
constexpr std::uint8_t fp32_to_e2m1_rne_satfinite(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 28) & 0x8u;
    const std::uint32_t code = (a > 0x3E800000u) + (a >= 0x3F400000u) + (a > 0x3FA00000u) + (a >= 0x3FE00000u) +
                               (a > 0x40200000u) + (a >= 0x40600000u) + (a > 0x40A00000u);
    return static_cast<std::uint8_t>(is_nan32(w) ? 0u : (sign | code));
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define REFERENCE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define REFERENCE_CLONES
#endif

/// One of the reference's own batch loops: packed little-endian binary32 words to packed target
/// words (memcpy loads and stores on a little-endian host, so that the loop vectorizes).
template <class Out, Out (*Map)(std::uint32_t)>
REFERENCE_CLONES void own_batch(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t w;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(&w, in + 4 * i, 4);
        } else {
            w = static_cast<std::uint32_t>(in[4 * i]) | static_cast<std::uint32_t>(in[4 * i + 1]) << 8 |
                static_cast<std::uint32_t>(in[4 * i + 2]) << 16 | static_cast<std::uint32_t>(in[4 * i + 3]) << 24;
        }
        const Out o = Map(w);
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(out + sizeof(Out) * i, &o, sizeof(Out));
        } else {
            for (std::size_t b = 0; b < sizeof(Out); ++b) out[sizeof(Out) * i + b] = static_cast<std::uint8_t>(o >> (8 * b));
        }
    }
}

/// The reference's own conversion of one word, or false where ninfer::native's is used.
bool own_convert(std::uint32_t conversion_id, std::uint64_t src, std::uint64_t &dst) {
    const auto w = static_cast<std::uint32_t>(src);
    switch (conversion_id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: dst = fp32_to_bf16_rne(w); return true;
    case NINFER_CONVERSION_fp32_to_fp16_rne: dst = fp32_to_fp16_rne(w); return true;
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite: dst = fp32_to_e4m3fn_rne_satfinite(w); return true;
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite: dst = fp32_to_e2m1_rne_satfinite(w); return true;
    default: return false;
    }
}

}  // namespace

bool native_knows_conversion(std::uint32_t conversion_id) { return native::knows_conversion(conversion_id); }

std::uint64_t native_convert(std::uint32_t conversion_id, std::uint64_t src) {
    std::uint64_t dst = 0;
    if (src <= 0xFFFFFFFFu && own_convert(conversion_id, src, dst)) return dst;
    return native::knows_conversion(conversion_id) ? native::convert_word(conversion_id, src) : 0;
}

bool native_convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    // One dispatch per batch, to a loop specialised for the conversion.
    switch (conversion_id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: own_batch<std::uint16_t, fp32_to_bf16_rne>(in, out, n); return true;
    case NINFER_CONVERSION_fp32_to_fp16_rne: own_batch<std::uint16_t, fp32_to_fp16_rne>(in, out, n); return true;
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite:
        own_batch<std::uint8_t, fp32_to_e4m3fn_rne_satfinite>(in, out, n);
        return true;
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite:
        own_batch<std::uint8_t, fp32_to_e2m1_rne_satfinite>(in, out, n);
        return true;
    default: return native::convert_batch(conversion_id, in, out, n);
    }
}

bool native_knows_format(std::uint32_t format_id) { return native::knows_format(format_id); }

std::uint8_t native_classify(std::uint32_t format_id, std::uint64_t word) { return native::classify(format_id, word); }

std::uint64_t native_decode(std::uint32_t format_id, std::uint64_t word) { return native::decode_to_binary64(format_id, word); }

std::uint8_t native_verdict(std::uint32_t role_id, std::uint64_t word) {
    const auto *r = abi::find_id(abi::kRoles, role_id);
    if (!r) return NINFER_VERDICT_OUTSIDE;
    const std::uint8_t byte = native::classify(r->format, word);
    const std::uint8_t cls = byte & 0x0Fu;
    const bool neg = (byte & NINFER_CLASS_SIGN) != 0;
    if (cls == NINFER_CLASS_OUTSIDE) return NINFER_VERDICT_OUTSIDE;
    if (cls == NINFER_CLASS_QNAN || cls == NINFER_CLASS_SNAN || cls == NINFER_CLASS_NAN) return NINFER_VERDICT_NAN;
    if (cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
    // What the role accepts beyond NaN and infinity is a registry column (registry.h NINFER_ROLES).
    if (cls == NINFER_CLASS_ZERO && neg && !r->accepts_negative_zero) return NINFER_VERDICT_NEGATIVE_ZERO;
    if (cls == NINFER_CLASS_ZERO && !neg && !r->accepts_positive_zero) return NINFER_VERDICT_ZERO;
    if (neg && cls != NINFER_CLASS_ZERO && !r->accepts_negative) return NINFER_VERDICT_NEGATIVE;
    return NINFER_VERDICT_VALID;
}

}  // namespace ninfer::reference
