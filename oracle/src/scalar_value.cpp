// SPDX-License-Identifier: Apache-2.0
// Exact values, classes, validity verdicts and text of scalar words (tensor-formats.txt
// Sections 3.1, 3.3, 3.4 and 6; number-formats-lesson.txt Examples 1, 3, 8, 9, 13; the OCP FP8
// and MX definitions of E4M3FN, E5M2, E2M1 and E8M0). Values are built from integer fields with
// MPFR at kExactBits, never through a host float.
#include <algorithm>
#include <mpfr.h>
#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "scalar_internal.hpp"

namespace ninfer::oracle {

namespace detail {

Fields fields(const WordFormat &f, std::uint64_t word) {
    Fields out;
    out.negative = f.has_sign && ((word >> (f.bits - 1)) & 1u);
    out.exp = (word >> f.man_bits) & ((1ull << f.exp_bits) - 1);
    out.frac = word & ((1ull << f.man_bits) - 1);
    return out;
}

std::uint64_t sign_bit(const WordFormat &f) { return f.has_sign ? 1ull << (f.bits - 1) : 0; }

std::uint64_t canonical_nan(const WordFormat &f, bool negative) {
    const std::uint64_t sign = negative ? sign_bit(f) : 0;
    const std::uint64_t exp_ones = ((1ull << f.exp_bits) - 1) << f.man_bits;
    switch (f.special) {
    case Special::IEEE: return sign | exp_ones | (1ull << (f.man_bits - 1));
    case Special::FN: return sign | exp_ones | ((1ull << f.man_bits) - 1);
    case Special::E8M0: return 0xFF;
    default: break;
    }
    throw std::invalid_argument("format " + std::string(f.name) + " has no NaN word");
}

std::uint64_t infinity_word(const WordFormat &f, bool negative) {
    if (f.special != Special::IEEE)
        throw std::invalid_argument("format " + std::string(f.name) + " has no infinity word");
    return (negative ? sign_bit(f) : 0) | (((1ull << f.exp_bits) - 1) << f.man_bits);
}

void ensure_exact_default_precision() {
    // digits10 for which Boost allocates at least kExactBits bits (bits = digits10 * 1000 / 301 + 1).
    constexpr unsigned digits10 = (kExactBits * 301 + 999) / 1000 + 1;
    if (Real::default_precision() < digits10) Real::default_precision(digits10);
}

long split_dyadic(const Real &x, Int &m) {
    const mpfr_exp_t e = mpfr_get_z_2exp(m.backend().data(), x.backend().data());
    const unsigned long zeros = mpz_scan1(m.backend().data(), 0);
    mpz_tdiv_q_2exp(m.backend().data(), m.backend().data(), zeros);
    return static_cast<long>(e) + static_cast<long>(zeros);
}

}  // namespace detail

using detail::fields;
using detail::is_nan_class;

Real exact_zero() {
    detail::ensure_exact_default_precision();
    Real r;
    mpfr_set_prec(r.backend().data(), kExactBits);
    mpfr_set_zero(r.backend().data(), 1);
    return r;
}

namespace {

/// value = (-1)^negative * sig * 2^exp, exactly.
void set_dyadic(Real &v, bool negative, std::uint64_t sig, long exp) {
    if (sig == 0) {
        mpfr_set_zero(v.backend().data(), negative ? -1 : 1);
        return;
    }
    mpfr_set_ui_2exp(v.backend().data(), sig, exp, MPFR_RNDN);
    if (negative) mpfr_neg(v.backend().data(), v.backend().data(), MPFR_RNDN);
}

/// The exact value of a finite word of class `c` (NaN for NaN and outside words, signed infinity).
void value_into(const WordFormat &f, std::uint64_t word, const WordClass &c, Real &v) {
    if (c.cls == NINFER_CLASS_OUTSIDE || is_nan_class(c.cls)) {
        mpfr_set_nan(v.backend().data());
        return;
    }
    if (c.cls == NINFER_CLASS_INFINITE) {
        mpfr_set_inf(v.backend().data(), c.negative ? -1 : 1);
        return;
    }
    switch (f.special) {
    case Special::INT:  // value = u - 2^bits when the top bit is set (two's complement)
        set_dyadic(v, c.negative, c.negative ? ((~word + 1) & f.mask()) : word, 0);
        return;
    case Special::E8M0: set_dyadic(v, false, 1, static_cast<long>(word) - f.bias); return;
    default: break;
    }
    const auto fl = fields(f, word);
    const long emin = 1 - f.bias;  // exponent of the smallest normal
    if (fl.exp == 0) set_dyadic(v, fl.negative, fl.frac, emin - f.man_bits);
    else set_dyadic(v, fl.negative, (1ull << f.man_bits) | fl.frac, static_cast<long>(fl.exp) - f.bias - f.man_bits);
}

}  // namespace

WordClass word_class(const WordFormat &f, std::uint64_t word) {
    WordClass c;
    if (word > f.mask()) {
        c.cls = NINFER_CLASS_OUTSIDE;
        return c;
    }
    switch (f.special) {
    case Special::INT:
        c.cls = NINFER_CLASS_INTEGER;
        c.negative = (word >> (f.bits - 1)) & 1u;
        return c;
    case Special::E8M0: c.cls = word == 0xFF ? NINFER_CLASS_NAN : NINFER_CLASS_NORMAL; return c;
    default: break;
    }
    // Float formats with an exponent/fraction split (IEEE, FN, NONE).
    const auto fl = fields(f, word);
    const std::uint64_t exp_ones = (1ull << f.exp_bits) - 1;
    const std::uint64_t frac_ones = (1ull << f.man_bits) - 1;
    c.negative = fl.negative;
    if (f.special == Special::IEEE && fl.exp == exp_ones) {
        if (fl.frac == 0) {
            c.cls = NINFER_CLASS_INFINITE;
            return c;
        }
        c.quiet = (fl.frac >> (f.man_bits - 1)) & 1u;
        c.payload = fl.frac & (frac_ones >> 1);
        c.cls = c.quiet ? NINFER_CLASS_QNAN : NINFER_CLASS_SNAN;
        return c;
    }
    if (f.special == Special::FN && fl.exp == exp_ones && fl.frac == frac_ones) c.cls = NINFER_CLASS_NAN;
    else if (fl.exp == 0) c.cls = fl.frac == 0 ? NINFER_CLASS_ZERO : NINFER_CLASS_SUBNORMAL;
    else c.cls = NINFER_CLASS_NORMAL;
    return c;
}

WordInfo word_info(const WordFormat &f, std::uint64_t word) {
    WordInfo info;
    info.value = exact_zero();
    detail::word_info_into(f, word, info);
    return info;
}

void detail::word_info_into(const WordFormat &f, std::uint64_t word, WordInfo &info) {
    static_cast<WordClass &>(info) = word_class(f, word);
    value_into(f, word, info, info.value);
}

std::uint8_t word_class_byte(const WordFormat &f, std::uint64_t word) {
    const auto info = word_class(f, word);
    return static_cast<std::uint8_t>(info.cls | (info.negative ? NINFER_CLASS_SIGN : 0u));
}

std::uint64_t decode_to_binary64(const WordFormat &f, std::uint64_t word) {
    const auto info = word_info(f, word);
    constexpr std::uint64_t kQuietNan = 0x7FF8000000000000ull;
    if (info.cls == NINFER_CLASS_OUTSIDE) return kQuietNan;
    const std::uint64_t sign = info.negative ? 1ull << 63 : 0;
    // An IEEE NaN keeps every bit, as the exact widenings do (the NaN principle, oracle/README.md):
    // sign, quiet bit and payload at the top of the binary64 fraction. Other NaNs: quiet, signed.
    if (is_nan_class(info.cls) && f.special == Special::IEEE)
        return sign | 0x7FF0000000000000ull | (detail::fields(f, word).frac << (52 - f.man_bits));
    if (is_nan_class(info.cls)) return kQuietNan | sign;
    // Every registry value is a binary64 value, so this rounding is exact (assembled from fields).
    return round_real(info.value, kBinary64, detail::rounding_exact, detail::overflow_none);
}

std::uint8_t role_verdict(const Role &r, std::uint64_t word) {
    // What the role accepts is a registry column (registry.h NINFER_ROLES).
    const auto info = word_class(word_format(r.format), word);
    // Precedence: outside, NaN, infinity, -0, +0, negative.
    if (info.cls == NINFER_CLASS_OUTSIDE) return NINFER_VERDICT_OUTSIDE;
    if (is_nan_class(info.cls)) return NINFER_VERDICT_NAN;
    if (info.cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
    if (info.cls == NINFER_CLASS_ZERO && info.negative)
        return r.accepts_negative_zero ? NINFER_VERDICT_VALID : NINFER_VERDICT_NEGATIVE_ZERO;
    if (info.cls == NINFER_CLASS_ZERO) return r.accepts_positive_zero ? NINFER_VERDICT_VALID : NINFER_VERDICT_ZERO;
    if (info.negative && !r.accepts_negative) return NINFER_VERDICT_NEGATIVE;
    return NINFER_VERDICT_VALID;
}

std::int64_t ordered_index(const WordFormat &f, std::uint64_t word) {
    const auto info = word_info(f, word);
    if (info.cls == NINFER_CLASS_OUTSIDE || is_nan_class(info.cls))
        throw std::invalid_argument("ordered_index: word 0x" + word_hex(f, word) + " of " + std::string(f.name) +
                                    " is NaN or outside the format");
    if (f.special == Special::INT) return info.negative ? static_cast<std::int64_t>(word) - (1ll << f.bits)
                                                        : static_cast<std::int64_t>(word);
    if (!f.has_sign) return static_cast<std::int64_t>(word);
    // Magnitude words are monotone in value; -m sits at -m - 1 so that -0 = -1 and +0 = 0.
    const auto magnitude = static_cast<std::int64_t>(word & ~detail::sign_bit(f));
    return info.negative ? -magnitude - 1 : magnitude;
}

std::string word_hex(const WordFormat &f, std::uint64_t word) {
    // The format's digit count at least; a word wider than the format (CLASS_OUTSIDE) keeps all its digits.
    int digits = std::max(1, (f.bits + 3) / 4);
    while (digits < 16 && (word >> (4 * digits)) != 0) ++digits;
    return abi::hex_word(word, digits);
}

std::string word_value_text(const WordFormat &f, std::uint64_t word) {
    const auto info = word_info(f, word);
    if (info.cls == NINFER_CLASS_OUTSIDE || is_nan_class(info.cls)) return "nan";
    if (info.cls == NINFER_CLASS_INFINITE) return info.negative ? "-inf" : "inf";
    if (mpfr_zero_p(info.value.backend().data())) return info.negative ? "-0" : "0";
    detail::Int m;
    const long e = detail::split_dyadic(info.value, m);
    const bool negative = m < 0;
    if (negative) m = -m;
    std::string digits;
    if (e >= 0) {
        digits = detail::Int(m << e).str();
    } else {
        // m * 2^e = m * 5^-e / 10^-e: an exact decimal with -e fraction digits, m odd so no trailing zero.
        detail::Int scaled = m;
        for (long i = 0; i < -e; ++i) scaled *= 5;
        digits = scaled.str();
        const auto frac_digits = static_cast<std::size_t>(-e);
        if (digits.size() <= frac_digits) digits.insert(0, frac_digits - digits.size() + 1, '0');
        digits.insert(digits.size() - frac_digits, 1, '.');
    }
    return negative ? "-" + digits : digits;
}

}  // namespace ninfer::oracle
