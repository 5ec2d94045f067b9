// SPDX-License-Identifier: Apache-2.0
// The reference's own decode and classify of the scalar word formats (tensor-formats.txt Sections
// 3.1, 3.3, 3.4; number-formats-lesson.txt Examples 3-9, 13-15), read from the registry row's
// geometry (bits, exponent and fraction widths, bias, sign, special-value encoding) and written
// independently of ninfer::native (which gives `sweep` its expected words), so that a sweep of the
// reference compares two implementations; cross-checked against the MPFR oracle
// (tests/test_scalar_codec_vs_oracle.cpp). The role verdict reads the registry's role columns.
#include <bit>
#include <cmath>

#include "ninfer/abi/registry.hpp"
#include "scalar_codec.hpp"

namespace ninfer::reference {

namespace {

using abi::Special;
using abi::WordFormat;

/// binary64's quiet NaN without payload: the value of every NaN without an IEEE payload.
constexpr std::uint64_t kQuietNan64 = 0x7FF8000000000000ull;
constexpr std::uint64_t kSign64 = 0x8000000000000000ull;

/// A word split by the row's geometry: sign (bit bits-1 when signed), exponent above the fraction.
struct Fields {
    bool negative;
    std::uint32_t exponent, fraction;
};

Fields fields_of(const WordFormat &f, std::uint64_t w) {
    const bool negative = f.has_sign && ((w >> (f.bits - 1)) & 1u) != 0;
    const auto fraction = static_cast<std::uint32_t>(w & ((1ull << f.man_bits) - 1));
    const auto exponent = static_cast<std::uint32_t>((w >> f.man_bits) & ((1ull << f.exp_bits) - 1));
    return {negative, exponent, fraction};
}

/// The value class of a word (classify's low nibble) by the format's special-value encoding.
std::uint8_t class_of(const WordFormat &f, std::uint64_t w) {
    if (w > f.mask()) return NINFER_CLASS_OUTSIDE;
    if (f.special == Special::INT) return NINFER_CLASS_INTEGER;
    const Fields x = fields_of(f, w);
    const std::uint32_t top_exponent = (1u << f.exp_bits) - 1, top_fraction = (1u << f.man_bits) - 1;
    switch (f.special) {
    case Special::E8M0: return x.exponent == top_exponent ? NINFER_CLASS_NAN : NINFER_CLASS_NORMAL;
    case Special::FN:
        if (x.exponent == top_exponent && x.fraction == top_fraction) return NINFER_CLASS_NAN;
        break;
    case Special::IEEE:
        if (x.exponent == top_exponent && x.fraction == 0) return NINFER_CLASS_INFINITE;
        // The quiet bit is the fraction's most significant bit (IEEE 754 Section 6.2.1).
        if (x.exponent == top_exponent)
            return (x.fraction >> (f.man_bits - 1)) & 1u ? NINFER_CLASS_QNAN : NINFER_CLASS_SNAN;
        break;
    default: break;
    }
    if (x.exponent != 0) return NINFER_CLASS_NORMAL;
    return x.fraction == 0 ? NINFER_CLASS_ZERO : NINFER_CLASS_SUBNORMAL;
}

bool is_nan_class(std::uint8_t cls) {
    return cls == NINFER_CLASS_QNAN || cls == NINFER_CLASS_SNAN || cls == NINFER_CLASS_NAN;
}

/// int32: u below 2^31 is u, else u - 2^32 (Section 3.1); exact in binary64.
std::uint64_t int32_value(std::uint64_t w) {
    return std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(w))));
}

/// A NaN in binary64: an IEEE NaN keeps its sign, quiet bit and payload at the top of the
/// binary64 fraction; a NaN without payload (FN, E8M0) is the quiet NaN of its sign.
std::uint64_t nan_value(const WordFormat &f, const Fields &x) {
    const std::uint64_t sign = x.negative ? kSign64 : 0;
    if (f.special != Special::IEEE) return sign | kQuietNan64;
    return sign | 0x7FF0000000000000ull | (static_cast<std::uint64_t>(x.fraction) << (52 - f.man_bits));
}

/// A finite value: E8M0 is 2^(e - bias); otherwise exponent 0 scales the bare fraction by
/// 2^(1 - bias - man), exponent e the fraction with its hidden bit by 2^(e - bias - man).
double finite_value(const WordFormat &f, const Fields &x) {
    if (f.special == Special::E8M0) return std::ldexp(1.0, static_cast<int>(x.exponent) - f.bias);
    const bool normal = x.exponent != 0;
    const double significand = static_cast<double>(x.fraction + (normal ? (1u << f.man_bits) : 0u));
    const int scale = (normal ? static_cast<int>(x.exponent) : 1) - f.bias - f.man_bits;
    const double magnitude = std::ldexp(significand, scale);
    return x.negative ? -magnitude : magnitude;
}

}  // namespace

std::uint64_t decode_word(const WordFormat &f, std::uint64_t word) {
    const std::uint8_t cls = class_of(f, word);
    if (cls == NINFER_CLASS_OUTSIDE) return kQuietNan64;
    if (cls == NINFER_CLASS_INTEGER) return int32_value(word);
    const Fields x = fields_of(f, word);
    if (is_nan_class(cls)) return nan_value(f, x);
    if (cls == NINFER_CLASS_INFINITE) return (x.negative ? kSign64 : 0) | 0x7FF0000000000000ull;
    return std::bit_cast<std::uint64_t>(finite_value(f, x));
}

std::uint8_t classify_word(const WordFormat &f, std::uint64_t word) {
    const std::uint8_t cls = class_of(f, word);
    if (cls == NINFER_CLASS_OUTSIDE) return cls;
    const bool negative = cls == NINFER_CLASS_INTEGER ? (word >> 31) & 1u : fields_of(f, word).negative;
    return static_cast<std::uint8_t>(cls | (negative ? NINFER_CLASS_SIGN : 0u));
}

bool scalar_knows_format(std::uint32_t format_id) { return abi::find_id(abi::kWordFormats, format_id) != nullptr; }

std::uint64_t scalar_decode(std::uint32_t format_id, std::uint64_t word) {
    const auto *f = abi::find_id(abi::kWordFormats, format_id);
    return f ? decode_word(*f, word) : kQuietNan64;
}

std::uint8_t scalar_classify(std::uint32_t format_id, std::uint64_t word) {
    const auto *f = abi::find_id(abi::kWordFormats, format_id);
    return f ? classify_word(*f, word) : static_cast<std::uint8_t>(NINFER_CLASS_OUTSIDE);
}

std::uint8_t scalar_verdict(std::uint32_t role_id, std::uint64_t word) {
    const auto *r = abi::find_id(abi::kRoles, role_id);
    if (!r) return NINFER_VERDICT_OUTSIDE;
    const std::uint8_t byte = scalar_classify(r->format, word);
    const std::uint8_t cls = byte & 0x0Fu;
    const bool neg = (byte & NINFER_CLASS_SIGN) != 0;
    if (cls == NINFER_CLASS_OUTSIDE) return NINFER_VERDICT_OUTSIDE;
    if (is_nan_class(cls)) return NINFER_VERDICT_NAN;
    if (cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
    // What the role accepts beyond NaN and infinity is a registry column (registry.h NINFER_ROLES).
    if (cls == NINFER_CLASS_ZERO && neg && !r->accepts_negative_zero) return NINFER_VERDICT_NEGATIVE_ZERO;
    if (cls == NINFER_CLASS_ZERO && !neg && !r->accepts_positive_zero) return NINFER_VERDICT_ZERO;
    if (neg && cls != NINFER_CLASS_ZERO && !r->accepts_negative) return NINFER_VERDICT_NEGATIVE;
    return NINFER_VERDICT_VALID;
}

}  // namespace ninfer::reference
