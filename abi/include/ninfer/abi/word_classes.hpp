// SPDX-License-Identifier: Apache-2.0
// Word classes by format kind (tensor-formats.txt Section 1; the class bytes of plugin.h
// NINFER_CLASSES): which class bytes are NaN or finite, and a word format's largest finite word
// by its special-value kind. The one copy of these registry facts for the oracle, suites, gpu/
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

}  // namespace ninfer::abi
