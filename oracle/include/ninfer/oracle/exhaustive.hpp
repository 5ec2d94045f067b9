// SPDX-License-Identifier: Apache-2.0
// Expected words of whole source ranges by the MPFR oracle itself (scalar.hpp convert_word,
// decode_to_binary64), in parallel over threads: `sweep --expected oracle` and the exhaustive
// proof that the fast native path (native_words.hpp) equals the oracle over all 2^32 inputs of
// every FP32-source conversion (docs/cli.md, "sweep"; docs/RESULTS.md, "Exhaustive proofs").
#pragma once

#include <cstdint>

namespace ninfer::oracle {

/// The target words of conversion `conversion_id` for the source words first .. first+n-1,
/// packed little-endian at the target's byte width into `out`, each from convert_word.
/// `threads` = 0: std::thread::hardware_concurrency(). Throws std::invalid_argument for an
/// unknown conversion or a range past the source domain.
void oracle_convert_range(std::uint32_t conversion_id, std::uint64_t first, std::uint64_t n, std::uint8_t *out,
                          unsigned threads = 0);

/// The binary64 words of decode of the words first .. first+n-1 of a word format (8 bytes each).
void oracle_decode_range(std::uint32_t format_id, std::uint64_t first, std::uint64_t n, std::uint8_t *out,
                         unsigned threads = 0);

}  // namespace ninfer::oracle
