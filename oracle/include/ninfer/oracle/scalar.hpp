// SPDX-License-Identifier: Apache-2.0
// The scalar-word oracle: exact values, classes, validity and correctly rounded conversions
// (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6; number-formats-lesson.txt Examples 1-13; the
// OCP FP8 and MX conversion rules). Computed with MPFR through Boost.Multiprecision
// (precision, emin/emax, subnormalize) or exact integers; never with host float arithmetic.
#pragma once

#include <boost/multiprecision/mpfr.hpp>
#include <cstdint>
#include <string>

#include "ninfer/abi/word_classes.hpp"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

/// An exact real. Callers give it enough precision to hold their value exactly (see exact()).
using Real = boost::multiprecision::mpfr_float;

/// Precision (bits) that holds any sum/product of two words of the registry exactly.
inline constexpr unsigned kExactBits = 2048;

/// A Real with kExactBits of precision, set to zero.
Real exact_zero();

/// The binary64 geometry, used only to write decode results; not a registry format.
inline constexpr WordFormat kBinary64{0, "binary64", 64, 11, 52, 1023, true, Special::IEEE, false};

/// A word's class (tensor-formats.txt Section 3.1 value classes), read from its bits alone.
struct WordClass {
    std::uint8_t cls = 0;      ///< NINFER_CLASS_*
    bool negative = false;     ///< sign bit (false for unsigned formats)
    bool quiet = false;        ///< IEEE NaN quiet bit
    std::uint64_t payload = 0; ///< NaN payload: fraction bits below the quiet bit
};

/// Decomposed word: its class, and for finite words the exact value.
struct WordInfo : WordClass {
    Real value;  ///< exact value of a finite word (zero, subnormal, normal, integer)
};

/// Class of one word of `f` (bits above the format width => CLASS_OUTSIDE), without its value.
WordClass word_class(const WordFormat &f, std::uint64_t word);

/// Class and exact value of one word of `f` (bits above the format width => CLASS_OUTSIDE).
WordInfo word_info(const WordFormat &f, std::uint64_t word);

/// classify op: class | sign bit (tensor-formats.txt Section 3.1 value classes).
std::uint8_t word_class_byte(const WordFormat &f, std::uint64_t word);

/// decode op: the binary64 word of the word's exact value. NaN: 0x7FF8... with the word's sign;
/// CLASS_OUTSIDE: the positive canonical NaN. int32 decodes to its integer value.
std::uint64_t decode_to_binary64(const WordFormat &f, std::uint64_t word);

/// Correct rounding of a finite exact real to `f` under a rounding id (NINFER_ROUNDINGS) and an
/// overflow id (NINFER_OVERFLOWS). Rounding happens with unbounded exponent range above and
/// the format's subnormal grid below; a result beyond the largest finite then follows `overflow`.
std::uint64_t round_real(const Real &x, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow);

/// round_real(a / b) without an intermediate rounding (b != 0).
std::uint64_t round_quotient(const Real &a, const Real &b, const WordFormat &f, std::uint32_t rounding,
                             std::uint32_t overflow);

/// The named conversion of one source word (registry.h NINFER_CONVERSIONS), including the
/// conversion's rules for infinities, NaN and out-of-domain inputs.
std::uint64_t convert_word(const Conversion &c, std::uint64_t src_word);

/// The `sr` conversion of one source word with its random value (registry.h NINFER_STOCHASTIC):
/// SR(x, R) = truncate(|x| + R * 2^(q - r)) with the sign of x, R the low r bits of `random`,
/// the bits of |x| below 2^(q - r) dropped first; then the conversion's overflow and NaN rules.
/// convert_word refuses an `sr` conversion's finite nonzero input (it has no random value).
std::uint64_t convert_word_sr(const Conversion &c, std::uint64_t src_word, std::uint32_t random);

/// True when the source word's exact value lies exactly halfway between two neighbours of the
/// target format under a nearest rounding (rne, rna, rnu); false for directed roundings, exact
/// and special inputs.
bool conversion_is_tie(const Conversion &c, std::uint64_t src_word);

/// Whether `actual` is an acceptable result where the oracle's result is `expected`, under the
/// conversion's nan_rule (equal words otherwise).
bool conversion_accepts(const Conversion &c, std::uint64_t src_word, std::uint64_t expected, std::uint64_t actual);

/// validate op: verdict (NINFER_VERDICT_*) of a word under a role.
std::uint8_t role_verdict(const Role &r, std::uint64_t word);

/// Largest finite value of `f` as a word with the sign bit clear (the registry fact, word_classes.hpp).
using abi::largest_finite_word;

/// Total order index of a non-NaN word of a signed float format (for ulp distances):
/// -largest ... -0 = +0 - 1 ... +largest. Unsigned formats: the word itself.
std::int64_t ordered_index(const WordFormat &f, std::uint64_t word);

/// Hex text of a word, zero-padded to the format's width ("3f80" for bf16).
std::string word_hex(const WordFormat &f, std::uint64_t word);

/// Decimal text of an exact value (shortest exact decimal when dyadic; "nan", "-inf", ...).
std::string word_value_text(const WordFormat &f, std::uint64_t word);

}  // namespace ninfer::oracle
