// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): the lattice of named
// conversion policies (rounding x overflow x subnormals x NaN) and the oracle's decomposition
// of one source word, from which each policy's word follows by integer logic. Built on the
// exact rounding of scalar_round.cpp (round_dyadic); no host float arithmetic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle::lattice {

/// The dimensions' choices, each in its fixed preference order (the order ties are broken in).
enum class RoundingChoice : std::uint8_t { rne, rna, rnu, rtz, rup, rdn, exact };
enum class OverflowChoice : std::uint8_t { satfinite, satfinite_finite_only, inf, nan };
enum class SubnormalChoice : std::uint8_t { kept, ftz, daz, ftz_daz };
/// constant: one word every NaN input maps to (Policy::nan_word).
enum class NanChoice : std::uint8_t { kept, quieted, signed_canonical, constant };

struct Policy {
    RoundingChoice rounding = RoundingChoice::rne;
    OverflowChoice overflow = OverflowChoice::inf;
    SubnormalChoice subnormals = SubnormalChoice::kept;
    NanChoice nan = NanChoice::quieted;
    std::uint64_t nan_word = 0;  ///< the word of NanChoice::constant
    bool operator==(const Policy &) const = default;
};

/// The residue classes of a source word (docs/cli.md "fingerprint"), one per word.
enum class InputClass : std::uint8_t {
    nan, infinity, overflow, subnormal_input, subnormal_result, tie, inexact, exact, zero, negative
};
inline constexpr int kInputClasses = 10;
const char *class_name(InputClass c);

/// The dimensions a word's output depends on (a region of the domain), as bits.
enum Dim : std::uint8_t { dim_rounding = 1, dim_overflow = 2, dim_subnormals = 4, dim_nan = 8 };

/// A conversion's shape as the lattice sees it: source and target geometry. `dst` may be
/// kBinary64 (the decode op: exact values as binary64 words).
struct Shape {
    const WordFormat *src = nullptr;
    const WordFormat *dst = nullptr;
    bool widening = false;  ///< every source value is exact in the target: rounding is "exact"
};

/// The shape of a registry conversion, and of the decode of a word format.
Shape conversion_shape(const Conversion &c);
Shape decode_shape(const WordFormat &f);

/// The choices of each dimension that make sense for the shape (an overflow to infinity needs
/// a target with infinities, a flush of subnormals a format that has them, ...), in preference
/// order. NaN constants are left to the caller (nan_constants).
std::vector<RoundingChoice> rounding_choices(const Shape &s);
std::vector<OverflowChoice> overflow_choices(const Shape &s);
std::vector<SubnormalChoice> subnormal_choices(const Shape &s);
std::vector<NanChoice> nan_choices(const Shape &s);
/// The constant NaN words with names: canonical positive, canonical negative, all-ones (those the target has).
std::vector<std::uint64_t> nan_constants(const Shape &s);

/// The policy the oracle implements for a registry conversion (its convert_word on every word).
Policy conversion_policy(const Conversion &c);
/// The policy of the oracle's decode_to_binary64 for a word format.
Policy decode_policy(const WordFormat &f);

/// One source word, decomposed once: its class, sign and, for a finite nonzero value, the two
/// neighbours on the target's grid (unbounded exponent above, subnormal grid below) with the
/// remainder against half; for a NaN, the words of the payload-moving rules.
struct Decomposition {
    InputClass cls = InputClass::exact;
    bool negative = false;
    std::uint8_t dims = 0;            ///< the dimensions this word's output depends on
    bool nan = false, infinity = false, zero_value = false, unsigned_negative = false;
    bool subnormal_input = false;     ///< a subnormal source word (daz reads it as a zero)
    // finite nonzero values
    std::uint64_t down = 0, up = 0;   ///< magnitude words of the floor and ceiling neighbours
    bool down_over = false, up_over = false;  ///< beyond the largest finite
    bool down_under = false;          ///< floor below the smallest word of a target without zero (E8M0)
    int half = -1;                    ///< remainder against half a quantum: -1 below, 0 tie, 1 above
    bool inexact = false, odd = false;
    // NaN inputs
    std::uint64_t nan_kept = 0, nan_quieted = 0;
};

/// The decomposition of one source word (MPFR/GMP through round_dyadic).
Decomposition decompose(const Shape &s, std::uint64_t src_word);

/// The word `p` gives a decomposed word, by integer logic (the fast path of the engine).
std::uint64_t policy_word(const Shape &s, const Decomposition &d, const Policy &p);

/// The word `p` gives a source word, computed from scratch with round_dyadic under the policy's
/// rounding and overflow (the brute-force definition the fast path is proven against).
std::uint64_t policy_word_reference(const Shape &s, const Policy &p, std::uint64_t src_word);

/// Lattice names: the JSON value and the text of each choice (docs/cli.md "fingerprint").
std::string rounding_name(RoundingChoice r);
std::string overflow_name(OverflowChoice o);
std::string subnormal_name(SubnormalChoice s);
std::string nan_name(const Shape &s, const Policy &p);
std::string rounding_text(RoundingChoice r);
std::string overflow_text(OverflowChoice o);
std::string subnormal_text(SubnormalChoice s);
std::string nan_text(const Shape &s, const Policy &p);
/// "nearest-even, to infinity, subnormals kept, NaN payload and sign kept, quieted".
std::string policy_text(const Shape &s, const Policy &p);

}  // namespace ninfer::oracle::lattice
