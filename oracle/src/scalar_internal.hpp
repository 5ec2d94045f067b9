// SPDX-License-Identifier: Apache-2.0
// Private helpers shared by the scalar oracle's value and rounding files (tensor-formats.txt
// Section 3.1, number-formats-lesson.txt Examples 1-13): word fields, special words, and the
// exact-integer rounding core.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <cstdint>

#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle::detail {

using Int = boost::multiprecision::mpz_int;

/// Sign, biased exponent and trailing fraction of a float word (unsigned formats: sign false).
struct Fields {
    bool negative = false;
    std::uint64_t exp = 0;
    std::uint64_t frac = 0;
};

/// Whether a class byte (without sign) is one of the NaN classes.
inline bool is_nan_class(std::uint8_t cls) { return abi::class_is_nan(cls); }

/// Split a word that fits the format's width into its fields.
Fields fields(const WordFormat &f, std::uint64_t word);

/// The sign bit of a signed format (0 for unsigned formats).
std::uint64_t sign_bit(const WordFormat &f);

/// The NaN word the oracle produces for `f`: IEEE quiet NaN with an empty payload, the FN
/// all-ones word, E8M0 0xFF. Throws std::invalid_argument for formats without NaN.
std::uint64_t canonical_nan(const WordFormat &f, bool negative);

/// The infinity word of an IEEE format; throws std::invalid_argument for the others.
std::uint64_t infinity_word(const WordFormat &f, bool negative);

/// A rounded word plus what happened on the way (before overflow handling).
struct Rounded {
    std::uint64_t word = 0;
    bool inexact = false; ///< the source value was not on the target grid
    bool tie = false;     ///< the source value was exactly halfway between two grid neighbours
};

/// Whether a rounding (NINFER_ROUNDINGS, not sr) takes the ceiling neighbour of a magnitude whose
/// remainder is nonzero (`inexact`) and compares with half a quantum as `vs_half` (-1, 0, 1), the
/// floor being `odd`: the one decision of round_dyadic and of the fingerprint lattice.
bool rounds_up(std::uint32_t rounding, bool negative, bool inexact, int vs_half, bool odd);

/// Round (-1)^negative * m * 2^e (m >= 0) to `f`: grid with unbounded exponent above and the
/// format's subnormal grid below, then the overflow rule.
Rounded round_dyadic(bool negative, const Int &m, long e, const WordFormat &f, std::uint32_t rounding,
                     std::uint32_t overflow);

/// qe of 2^qe, the quantum of f's grid around m * 2^e (m >= 0): precision man_bits + 1 above the
/// smallest normal exponent, the fixed subnormal quantum below it (E8M0: 2^-127; int32 and 0: 1).
long grid_quantum(const Int &m, long e, const WordFormat &f);

/// Stochastic rounding of |x| = m * 2^e (m > 0) to f (registry.h NINFER_STOCHASTIC): the low r
/// bits of `random` added at 2^(qe - r) to |x| truncated there, the sum truncated to the grid,
/// then the overflow rule (scalar_stochastic.cpp).
Rounded round_stochastic(bool negative, const Int &m, long e, const WordFormat &f, int r, std::uint32_t random,
                         std::uint32_t overflow);

/// The word of a finite result beyond the largest finite value under a rounding and an overflow
/// rule (IEEE 754 Section 7.4 for `inf`).
std::uint64_t overflow_word(bool negative, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow);

/// The word an infinite source value becomes under an overflow rule.
std::uint64_t round_infinity(bool negative, const WordFormat &f, std::uint32_t overflow);

/// word_info written into `info`, whose value already holds at least 64 bits of precision (every
/// word of the registry exactly): the same class and exact value, in storage the caller reuses
/// (the per-word path of exhaustive ranges).
void word_info_into(const WordFormat &f, std::uint64_t word, WordInfo &info);

/// Raise Boost's default mpfr_float precision to kExactBits so that expressions of Reals stay exact.
void ensure_exact_default_precision();

/// x = m * 2^e exactly (m signed); x must be finite and nonzero.
long split_dyadic(const Real &x, Int &m);

}  // namespace ninfer::oracle::detail
