// SPDX-License-Identifier: Apache-2.0
// The exhaustive proof of the fast native path (ninfer/oracle/native_words.hpp) against the
// MPFR oracle (ninfer/oracle/exhaustive.hpp; docs/RESULTS.md, "Exhaustive proofs"): every source word of
// a range, converted by native::convert_batch and by the oracle (several conversions of one
// source in one pass: oracle::convert_word_many), compared bit for bit.
// Shared by the program prove_native and its Catch2 test (oracle/tests/test_native_proof.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace ninfer::proof {

/// One source word whose native target word differs from the oracle's.
struct Mismatch {
    std::uint64_t input = 0;
    std::uint64_t native = 0;
    std::uint64_t oracle = 0;
};

/// The outcome of one conversion over one range.
struct Result {
    std::uint64_t words = 0;          ///< source words compared
    std::uint64_t mismatches = 0;     ///< words whose native and oracle words differ
    std::vector<Mismatch> first;      ///< the lowest `keep` mismatching inputs, in input order
    double seconds = 0;               ///< wall time of the whole comparison
};

/// A batch conversion under test: native::convert_batch's signature.
using Batch = bool (*)(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n);

/// Called about every 5% with the words compared so far and the mismatches among them (from a
/// worker thread, serialised), so that a long run that is stopped still tells what it proved.
using Progress = std::function<void(std::uint64_t done, std::uint64_t mismatches)>;

/// Compares `batch` (default native::convert_batch) with oracle_convert_range for the source words first ..
/// first + count - 1 of `conversion_id`, in chunks taken by `threads` threads (0: all cores);
/// keeps the lowest `keep` mismatches. Throws std::invalid_argument for an unknown conversion or
/// a range past the source domain.
Result prove_conversion(std::uint32_t conversion_id, std::uint64_t first, std::uint64_t count, unsigned threads,
                        std::size_t keep, const Progress &progress = {}, Batch batch = nullptr);

/// prove_conversion of several conversions of one source format in ONE pass over the range: the
/// oracle decomposes each source word once and rounds it under every conversion
/// (oracle::convert_word_many). One Result per conversion, in the order given; each Result's
/// seconds is the whole pass's. Throws std::invalid_argument for an unknown conversion, an empty
/// list, conversions of different sources or a range past the source domain.
std::vector<Result> prove_conversions(const std::vector<std::uint32_t> &conversion_ids, std::uint64_t first,
                                      std::uint64_t count, unsigned threads, std::size_t keep,
                                      const Progress &progress = {}, Batch batch = nullptr);

}  // namespace ninfer::proof
