// SPDX-License-Identifier: Apache-2.0
// The exact rule of a stochastic-rounding conversion (issue 24 item 3; registry.h
// NINFER_STOCHASTIC; suites/SR.md): its case words carry the random value too. A case word of an
// sr conversion packs the source binary32 word in bits 0..31 and the word's random value in bits
// 32..63; convert_case puts them in the `words` and `random` planes.
#pragma once

#include "builders.hpp"

namespace ninfer::suites::scalar {

/// The source word of a case word (the low 32 bits of an sr conversion's packed word).
std::uint64_t sr_source_word(const Conversion &cv, std::uint64_t packed);

/// The random value of an sr conversion's packed case word.
constexpr std::uint32_t sr_random_value(std::uint64_t packed) { return static_cast<std::uint32_t>(packed >> 32); }

/// The smallest R of 0 .. 2^r - 1 for which SR(x, R) differs from SR(x, 0) (the oracle's word),
/// or 2^r when none does (x on the grid, or every sum truncates to the same word).
std::uint64_t sr_threshold(const Conversion &cv, std::uint64_t x);

/// Each source word paired with the random values at the boundaries: 0, 2^r - 1, the threshold
/// T and T - 1, T + 1 (those inside 0 .. 2^r - 1), and two values of all 32 bits drawn from a
/// generator seeded by the conversion and the word (bits above r must not count).
Words sr_pairs(const Conversion &cv, const Words &xs);

}  // namespace ninfer::suites::scalar
