// SPDX-License-Identifier: Apache-2.0
// Word classes by format kind (tensor-formats.txt Section 1; the class bytes of plugin.h
// NINFER_CLASSES): which class bytes are NaN or finite, a word format's largest finite word
// by its special-value kind, and the class predicates of a word read from its bits. The one copy of these registry facts for the oracle, suites, gpu/
// and their tests (the reference plugin keeps its own by design: it is the independent side).
// Header-only, depends on nothing but the standard library and the headers beside it.
#pragma once

#include <cstdint>

#include "ninfer/abi/registry.hpp"

namespace ninfer::abi {

/// A class byte without its sign bit (NINFER_CLASS_SIGN): the class alone.
constexpr std::uint8_t class_without_sign(std::uint8_t cls) { return static_cast<std::uint8_t>(cls & ~NINFER_CLASS_SIGN); }

/// Whether a class byte (sign bit ignored) is a NaN class: QNAN, SNAN or NAN.
constexpr bool class_is_nan(std::uint8_t cls) {
    const auto c = class_without_sign(cls);
    return c == NINFER_CLASS_QNAN || c == NINFER_CLASS_SNAN || c == NINFER_CLASS_NAN;
}

/// Whether a class byte (sign bit ignored) is a finite float class: zero, subnormal or normal.
constexpr bool class_is_finite(std::uint8_t cls) {
    const auto c = class_without_sign(cls);
    return c == NINFER_CLASS_ZERO || c == NINFER_CLASS_SUBNORMAL || c == NINFER_CLASS_NORMAL;
}

/// The largest finite word of `f`, sign clear: below the Inf/NaN exponent (IEEE), below the
/// all-ones NaN (FN, E8M0), the all-ones word (NONE: every word finite), 2^(bits-1) - 1 (INT).
constexpr std::uint64_t largest_finite_word(const WordFormat &f) {
    const std::uint64_t exp_ones = (1ull << f.exp_bits) - 1, frac_ones = (1ull << f.man_bits) - 1;
    switch (f.special) {
    case Special::IEEE: return ((exp_ones - 1) << f.man_bits) | frac_ones;
    case Special::FN: return (exp_ones << f.man_bits) | (frac_ones - 1);
    case Special::NONE: return (exp_ones << f.man_bits) | frac_ones;
    case Special::E8M0: return f.mask() - 1;
    case Special::INT: return (1ull << (f.bits - 1)) - 1;
    }
    return 0;  // unreachable: every Special kind is a case above
}

/// The fields of a word (bits above the format ignored), for the predicates below.
constexpr std::uint64_t word_exponent_field(const WordFormat &f, std::uint64_t w) {
    return ((w & f.mask()) >> f.man_bits) & ((1ull << f.exp_bits) - 1);
}
constexpr std::uint64_t word_fraction_field(const WordFormat &f, std::uint64_t w) { return w & ((1ull << f.man_bits) - 1); }
constexpr std::uint64_t word_sign_bit(const WordFormat &f) { return f.has_sign ? 1ull << (f.bits - 1) : 0; }

/// Whether a word is a NaN, from its bits (the fast reading of the class bytes for per-element
/// comparison; harness tests hold it to the oracle's classes on every word of <= 16 bits).
constexpr bool word_is_nan(const WordFormat &f, std::uint64_t w) {
    const std::uint64_t e = word_exponent_field(f, w), m = word_fraction_field(f, w);
    const std::uint64_t e_ones = (1ull << f.exp_bits) - 1, m_ones = (1ull << f.man_bits) - 1;
    switch (f.special) {
    case Special::IEEE: return e == e_ones && m != 0;
    case Special::FN: return e == e_ones && m == m_ones;
    case Special::E8M0: return (w & f.mask()) == f.mask();
    case Special::NONE:
    case Special::INT: return false;
    }
    return false;
}
/// Whether a word is an infinity (IEEE formats only have them).
constexpr bool word_is_inf(const WordFormat &f, std::uint64_t w) {
    return f.special == Special::IEEE && word_exponent_field(f, w) == (1ull << f.exp_bits) - 1 &&
           word_fraction_field(f, w) == 0;
}
/// Whether a word is a zero of either sign (E8M0 has none; INT's is the word 0).
constexpr bool word_is_zero(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    if (f.special == Special::E8M0) return false;
    if (f.special == Special::INT) return w == 0;
    return (w & ~word_sign_bit(f)) == 0;
}
/// Whether a word is subnormal (zero exponent field, nonzero fraction; E8M0 and INT have none).
constexpr bool word_is_subnormal(const WordFormat &f, std::uint64_t w) {
    if (f.special == Special::E8M0 || f.special == Special::INT) return false;
    return word_exponent_field(f, w) == 0 && word_fraction_field(f, w) != 0;
}
/// Whether a word's sign bit is set.
constexpr bool word_is_negative(const WordFormat &f, std::uint64_t w) { return (w & f.mask() & word_sign_bit(f)) != 0; }

}  // namespace ninfer::abi
