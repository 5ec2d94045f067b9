// SPDX-License-Identifier: Apache-2.0
// Private pieces of the `linear` operator oracle (oracle/src/linear*.cpp): exact word values as
// integer significand and exponent, the exact fixed-point accumulator (a Kulisch accumulator:
// every product of the registry's words lands on one common exponent), and the binary32
// arithmetic of the f32_sequential profile by exact integer rounding. No host float arithmetic.
#pragma once

#include <array>
#include <cstdint>

#include "ninfer/oracle/formats.hpp"
#include "scalar_internal.hpp"

namespace ninfer::oracle::linear_detail {

using U128 = unsigned __int128;

enum Kind : std::uint8_t { kFinite = 0, kInf = 1, kNan = 2 };

/// An exact value (-1)^neg * m * 2^e, or an infinity (sign neg), or NaN.
struct Val {
    std::uint8_t kind = kFinite;
    bool neg = false;
    std::int16_t e = 0;
    std::uint32_t m = 0;
};

/// The exact value of a word of an IEEE, FN or NONE float format (registry geometry, integers only).
Val decode_float_word(const WordFormat &f, std::uint64_t word);

/// The binary32 word of (-1)^neg * m * 2^e rounded to nearest-even (subnormals; overflow to infinity).
std::uint32_t round_b32(bool neg, U128 m, int e);

/// IEEE binary32 multiply and add of binary32 words (nearest-even, subnormals, overflow to
/// infinity, the IEEE rules for infinities, NaN and signed zeros; the NaN produced is 0x7FC00000).
std::uint32_t mul_b32(std::uint32_t a, std::uint32_t b);
std::uint32_t add_b32(std::uint32_t a, std::uint32_t b);
/// binary32 word of a finite or special Val that binary32 holds exactly (or rounded, nearest-even).
std::uint32_t val_to_b32(const Val &v);

/// The exact sum of products at the common exponent kAccBase, two's complement over kAccLimbs
/// 64-bit limbs. Covers every product of two registry words and sums of up to 2^40 of them.
inline constexpr int kAccBase = -352;
inline constexpr int kAccLimbs = 12;
struct Acc {
    std::array<std::uint64_t, kAccLimbs> l{};
    /// Add (or subtract, neg) v * 2^e; e >= kAccBase.
    void add(U128 v, int e, bool neg);
    /// The value as a signed integer times 2^kAccBase.
    detail::Int value() const;
};

}  // namespace ninfer::oracle::linear_detail
