// SPDX-License-Identifier: Apache-2.0
// Helpers of the scalar oracle tests: exact reals from integers and decimal literals, format and
// conversion shorthands. Decimal literals round to binary32 the way Java float literals do
// (correctly rounded, ties to even), which is how number-formats-lesson.txt builds its inputs.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <cctype>
#include <cstdint>
#include <mpfr.h>
#include <stdexcept>
#include <string>

#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle::test {

using Int = boost::multiprecision::mpz_int;

inline const WordFormat &F(std::uint32_t id) { return word_format(id); }
inline const Conversion &C(std::uint32_t id) { return conversion(id); }

/// The exact real n * 2^e.
inline Real exact(const Int &n, long e = 0) {
    Real r = exact_zero();
    mpfr_set_z_2exp(r.backend().data(), n.backend().data(), e, MPFR_RNDN);
    return r;
}

/// Exact value of a word (NaN/Inf words give NaN/Inf reals).
inline Real value(std::uint32_t format, std::uint64_t word) { return word_info(F(format), word).value; }

/// A decimal literal ("-2.5", "1.0E-8", "3.0e38", "Infinity") split into an exact ratio num/den.
inline void decimal_ratio(const std::string &text, Int &num, Int &den) {
    std::size_t i = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) ++i;
    num = 0;
    den = 1;
    bool point = false;
    for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
        if (text[i] == '.') {
            point = true;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) throw std::invalid_argument("bad literal " + text);
        num = num * 10 + (text[i] - '0');
        if (point) den *= 10;
    }
    if (i < text.size()) {
        const long exp10 = std::stol(text.substr(i + 1));
        for (long k = 0; k < (exp10 < 0 ? -exp10 : exp10); ++k) (exp10 < 0 ? den : num) *= 10;
    }
    if (negative) num = -num;
}

/// The binary32 word of a decimal literal, rounded once to nearest even ("Infinity" allowed).
inline std::uint64_t f32(const std::string &text) {
    if (text == "Infinity") return 0x7F800000;
    if (text == "-Infinity") return 0xFF800000;
    Int num, den;
    decimal_ratio(text, num, den);
    const std::uint64_t w = round_quotient(exact(num), exact(den), F(NINFER_FORMAT_fp32), detail::rounding_rne, detail::overflow_inf);
    // -0.0 literals keep their sign.
    return (num == 0 && text[0] == '-') ? 0x80000000 : w;
}

/// The binary32 word of a word of another format, widened exactly.
inline std::uint64_t widen_to_f32(std::uint32_t format, std::uint64_t word) {
    for (const auto &c : kConversions)
        if (c.src == format && c.dst == NINFER_FORMAT_fp32) return convert_word(c, word);
    throw std::invalid_argument("no widening conversion");
}

/// Java prints integral floats as "1.0"; the oracle's exact text is "1".
inline std::string strip_point_zero(std::string s) {
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

}  // namespace ninfer::oracle::test
