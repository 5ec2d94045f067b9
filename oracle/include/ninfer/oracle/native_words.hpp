// SPDX-License-Identifier: Apache-2.0
// Fast native expected words of the scalar word formats for `sweep` (docs/cli.md): decode
// (tensor-formats.txt Sections 3.1, 3.3, 3.4; number-formats-lesson.txt Examples 3-10, 13-15)
// and the named conversions of registry.h with the oracle's rounding, overflow and NaN decisions
// (oracle/README.md). Bit manipulation on the registry's geometry only, no MPFR: a sweep of 2^32
// words needs billions of words per minute. The MPFR oracle stays the definition; every word
// here is cross-checked against it (harness/plugins/reference/tests/test_native_vs_oracle.cpp:
// every word of the 4-, 8- and 16-bit domains, 10^7 sampled binary32 inputs per fp32-source
// conversion). Independent of the reference plugin, which keeps its own codecs.
#pragma once

#include <cstdint>

namespace ninfer::native {

/// Whether `conversion_id` names a registered conversion (NINFER_CONVERSIONS) that the native
/// path serves: every one but the stochastic (`sr`) conversions, which need a random plane.
bool knows_conversion(std::uint32_t conversion_id);

/// One word of the named conversion (source word in the low bits); 0 for an unknown id.
/// A source word wider than its format (E2M1 > 0xF, UE4M3 > 0x7F) converts as a NaN source.
std::uint64_t convert_word(std::uint32_t conversion_id, std::uint64_t src);

/// `n` packed little-endian source words of `in` to `n` packed target words in `out` (word
/// bytes as plugin.h says). False for an unknown conversion id (nothing written).
bool convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n);

/// Whether the source word of the named conversion lies exactly halfway between two neighbours
/// of the target's grid (the target's precision above its smallest normal, its subnormal quantum
/// below, no exponent bound above) under a nearest rounding (rne, rna, rnu): what
/// oracle::conversion_is_tie answers, from the words' bits (a sweep's wrong_tie_side class).
/// False for directed and exact roundings, NaN, infinity, zero, a word wider than its format, a
/// non-positive input of an unsigned target and an unknown id.
bool conversion_is_tie(std::uint32_t conversion_id, std::uint64_t src);

/// Whether `format_id` is a scalar word format of the registry (NINFER_WORD_FORMATS).
bool knows_format(std::uint32_t format_id);

/// decode: the binary64 word of the exact value; NaN -> 0x7FF8... with the word's sign; a word
/// outside the format (or of an unknown format) -> 0x7FF8000000000000; int32 -> its integer value.
std::uint64_t decode_to_binary64(std::uint32_t format_id, std::uint64_t word);

/// decode of `n` packed little-endian words of a word format (its byte width each) to `n`
/// binary64 words (8 bytes LE each), exactly as decode_to_binary64 per word, in one loop
/// specialised for the format. False for an unknown format id (nothing written).
bool decode_batch(std::uint32_t format_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n);

/// The class byte of a word (NINFER_CLASS_* | NINFER_CLASS_SIGN for a negative word);
/// NINFER_CLASS_OUTSIDE for an unknown format or a word wider than the format.
std::uint8_t classify(std::uint32_t format_id, std::uint64_t word);

}  // namespace ninfer::native
