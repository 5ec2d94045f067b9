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

using enum abi::detail::RoundingId;
using enum abi::detail::OverflowId;

/// The ids the lattice adds after the registry's (no conversion uses them): rounding away from
/// zero, and saturation of finite values only (an infinity stays infinite, NaN without one).
inline constexpr std::uint32_t rounding_raz = 9;
inline constexpr std::uint32_t overflow_satfinite_finite_only = 5;
static_assert(!find_id(kRoundings, rounding_raz) && !find_id(kOverflows, overflow_satfinite_finite_only),
              "a lattice id is the registry's");

/// The dimensions' choices, each in its fixed preference order (the order ties are broken in).
/// Rounding and overflow are the registry's ids (NINFER_ROUNDINGS without sr, NINFER_OVERFLOWS
/// without none) and the two above.
enum class SubnormalChoice : std::uint8_t { kept, ftz, daz, ftz_daz };
/// constant: one word every NaN input maps to (Policy::nan_word).
/// signed_all_ones: every bit of the magnitude set, the input's sign (a library's E5M2 0x7f / 0xff);
/// offered where it differs from signed_canonical.
enum class NanChoice : std::uint8_t { kept, quieted, signed_canonical, constant, signed_all_ones };
/// Unsigned targets: the word of a negative input (-0 included) and, for a target without zero
/// (E8M0), of a zero: 0x00 (the registry's), the NaN (ml_dtypes' e8m0), or that of |x| (NVIDIA's
/// host __nv_cvt_float_to_e8m0).
enum class SignlessChoice : std::uint8_t { zero, nan, magnitude };
/// A target without zero (E8M0): a value whose rounded result lies below the smallest word
/// becomes the smallest (0x00) or the NaN.
enum class TinyChoice : std::uint8_t { smallest, nan };

struct Policy {
    std::uint32_t rounding = rounding_rne;  ///< RoundingId
    std::uint32_t overflow = overflow_inf;  ///< OverflowId
    SubnormalChoice subnormals = SubnormalChoice::kept;
    NanChoice nan = NanChoice::quieted;
    std::uint64_t nan_word = 0;  ///< the word of NanChoice::constant
    SignlessChoice signless = SignlessChoice::zero;
    TinyChoice tiny = TinyChoice::smallest;
    bool operator==(const Policy &) const = default;
};

/// The residue classes of a source word (docs/cli.md "fingerprint"), one per word.
enum class InputClass : std::uint8_t {
    nan, infinity, overflow, subnormal_input, subnormal_result, tie, inexact, exact, zero, negative
};
inline constexpr int kInputClasses = 10;
const char *class_name(InputClass c);

/// The dimensions a word's output depends on (a region of the domain), as bits.
enum Dim : std::uint8_t {
    dim_rounding = 1, dim_overflow = 2, dim_subnormals = 4, dim_nan = 8, dim_signless = 16, dim_tiny = 32
};
inline constexpr int kDimCombinations = 64;  ///< every subset of the dimensions

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
std::vector<std::uint32_t> rounding_choices(const Shape &s);
std::vector<std::uint32_t> overflow_choices(const Shape &s);
std::vector<SubnormalChoice> subnormal_choices(const Shape &s);
std::vector<NanChoice> nan_choices(const Shape &s);
std::vector<SignlessChoice> signless_choices(const Shape &s);
std::vector<TinyChoice> tiny_choices(const Shape &s);
/// Whether a constant NaN word is what a named choice gives every NaN input (an unsigned target's
/// canonical NaN is signed_canonical's): the fingerprint adds no constant for it.
bool nan_constant_is_choice(const Shape &s, std::uint64_t w);
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
    bool nan = false, infinity = false, zero_value = false;
    /// A negative input of an unsigned target, or a zero of a target without zero (SignlessChoice);
    /// the fields below then describe |x| (negative is false).
    bool signless = false;
    bool subnormal_input = false;     ///< a subnormal source word (daz reads it as a zero)
    // finite nonzero values
    std::uint64_t down = 0, up = 0;   ///< magnitude words of the floor and ceiling neighbours
    bool down_over = false, up_over = false;  ///< beyond the largest finite
    bool down_under = false;          ///< floor below the smallest word of a target without zero (E8M0; TinyChoice)
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
std::string rounding_name(std::uint32_t rounding);
std::string overflow_name(std::uint32_t overflow);
std::string subnormal_name(SubnormalChoice s);
std::string nan_name(const Shape &s, const Policy &p);
std::string signless_name(SignlessChoice c);
std::string tiny_name(TinyChoice c);
std::string rounding_text(std::uint32_t rounding);
std::string overflow_text(std::uint32_t overflow);
std::string subnormal_text(SubnormalChoice s);
std::string nan_text(const Shape &s, const Policy &p);
/// Unsigned targets: "zero and negatives to 0x00", "tiny to 0x00"; "" where the shape has no such choice.
std::string signless_text(const Shape &s, SignlessChoice c);
std::string tiny_text(const Shape &s, TinyChoice c);
/// "nearest-even, to infinity, subnormals kept, NaN payload and sign kept, quieted" (and the
/// unsigned choices of an unsigned target).
std::string policy_text(const Shape &s, const Policy &p);

/// A lattice point as `run --policy` and `sweep --policy` spell it (docs/cli.md "Judging by a
/// policy"): "ROUNDING/OVERFLOW/SUBNORMALS/NAN", then "/SIGNLESS/TINY" where the shape has those
/// dimensions, each a lattice name; NAN a named choice (kept, quieted, signed_canonical,
/// signed_all_ones, canonical_positive, canonical_negative, all_ones) or a constant word 0x...
std::string policy_spelling(const Shape &s, const Policy &p);
/// The reverse of policy_spelling, each coordinate checked against the shape's choices: "" and
/// `out` set, or why the text is no point of the shape's lattice.
std::string parse_policy(const Shape &s, std::string_view text, Policy &out);

}  // namespace ninfer::oracle::lattice
