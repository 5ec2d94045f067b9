// SPDX-License-Identifier: Apache-2.0
// The grouped signed-integer formats (tensor-formats Sections 3.2, 5, 6, 7): code words,
// binary16 scale verdicts, reconstruction, grouped_absmax (7.2) and grouped_search (7.3).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

/// A decoded grouped matrix [N,K]: signed codes and binary16 scale words (logical, no padding).
struct GroupedMatrix {
    std::uint64_t rows = 0, cols = 0;
    std::vector<std::int8_t> codes;    ///< rows*cols, row-major, signed code q
    std::vector<std::uint16_t> scales; ///< rows*ceil(cols/G), row-major, binary16 words
};
/// Signed code of a stored word (Section 5; Q2 offset u-1; T2 two's complement), nullopt if
/// the word is outside the artifact language (Q8 0x80, T2 0b10) or wider than the code.
std::optional<int> grouped_code_value(const GroupedFormat &f, std::uint32_t word);
/// Stored word of a legal signed code (throws std::invalid_argument otherwise).
std::uint32_t grouped_code_word(const GroupedFormat &f, int q);
/// Verdict of a scale word (NINFER_VERDICT_*): Section 6 (grouped_fp16_scale role) or the Q2 rules.
std::uint8_t grouped_scale_verdict(const GroupedFormat &f, std::uint16_t scale_word);
/// Section 6.2: binary32 word of binary32(s32 * binary32(q)).
std::uint32_t grouped_reconstruct(std::uint16_t scale_word, int q);
/// logical bits per weight b + 16/G as an exact fraction {num, den}.
std::pair<std::uint64_t, std::uint64_t> logical_bits_per_weight(const GroupedFormat &f);

/// Number of groups along a last axis of `cols` lanes (the last group may be partial).
std::uint64_t grouped_groups_per_row(const GroupedFormat &f, std::uint64_t cols);
/// Section 6.2 for a tensor of any rank >= 1 grouped along its last axis: binary32 words,
/// or nullopt when the shape is empty/zero, sizes disagree, or a code is outside [qmin,qmax].
std::optional<std::vector<std::uint32_t>> grouped_reconstruct_tensor(const GroupedFormat &f,
                                                                     std::span<const std::uint64_t> shape,
                                                                     std::span<const std::int8_t> codes,
                                                                     std::span<const std::uint16_t> scales);

struct EncodeResult {
    std::int32_t status = NINFER_OK;  ///< NINFER_OK, NINFER_E_NONFINITE, NINFER_E_SCALE_OVERFLOW, NINFER_E_METHOD, NINFER_E_INVALID_ARGUMENT
    std::string message;              ///< which rule, which row/group/lane
    GroupedMatrix m;
    std::vector<bool> suite_reading_groups; ///< grouped_search: groups whose result rests on a suite reading (ties of equal error, ...)
};
/// Section 7.2 step by step for one group of binary32 words (for tests, traces and the CLI).
struct AbsmaxGroupTrace {
    std::int32_t status = NINFER_OK;
    std::uint32_t amax32 = 0, raw_scale32 = 0, inv32 = 0;
    std::uint16_t scale16 = 0;
    bool rescued = false;              ///< 0x0001 underflow rescue applied
    std::vector<std::uint32_t> normalized32;
    std::vector<int> codes;
};
/// Section 7.2 steps "scale16 = round_f16(raw_scale32)" and the 0x0001 rescue, for any finite
/// binary32 word: RNE to binary16; a result of zero becomes the smallest subnormal of the value's
/// sign (0x0001; 0x8001 only for grouped_search's negative candidates); nullopt on infinity.
std::optional<std::uint16_t> grouped_scale16_from_f32(std::uint32_t raw_scale32, bool *rescued = nullptr);
/// Section 7.2 code selection under a finite nonzero scale word: inv32 = round_f32(1 / scale32),
/// normalized32 = round_f32(x * inv32), round to integral ties to even, clamp to [qmin, qmax].
struct ScaleCodes {
    std::uint32_t inv32 = 0;
    std::vector<std::uint32_t> normalized32;
    std::vector<int> codes;
};
ScaleCodes grouped_codes_for_scale(const GroupedFormat &f, std::span<const std::uint32_t> x32, std::uint16_t scale16);
/// round_to_integral_ties_to_even of a finite binary32 word, saturated to +-2^40.
std::int64_t f32_round_integral_even(std::uint32_t word);
AbsmaxGroupTrace grouped_absmax_group(const GroupedFormat &f, std::span<const std::uint32_t> x32);
/// Source words (fp32 | bf16 | fp16, LE packed) to binary32 words: RNE, exact for finite; nullopt on a non-finite value.
std::optional<std::vector<std::uint32_t>> grouped_source_to_binary32(std::uint32_t source_format, std::span<const std::uint8_t> words, std::uint64_t count);
/// grouped_absmax over a rank-2 [N,K] source (Section 7.2); refuses q2/t2 with NINFER_E_METHOD.
EncodeResult grouped_absmax(const GroupedFormat &f, std::uint32_t source_format, std::uint64_t rows, std::uint64_t cols, std::span<const std::uint8_t> source_words);
/// grouped_search (Section 7.3 of the spec text "User recipes select these methods..."): candidates, importance (empty: all 1; else K binary32 words), strict improvement, negative scales when enabled.
EncodeResult grouped_search(const GroupedFormat &f, std::uint32_t source_format, std::uint64_t rows, std::uint64_t cols, std::span<const std::uint8_t> source_words, std::span<const std::uint32_t> importance32, bool negative_scales);

namespace detail {
/// Shared by grouped_absmax and grouped_search: method refusal, shape and size checks, then the
/// whole source converted to binary32 before any group is processed (Section 7.2). False with
/// the refusal in `r`, or true with `x32` filled and `r.m` sized.
bool grouped_encoder_prologue(const char *method, const GroupedFormat &f, std::uint32_t source_format,
                              std::uint64_t rows, std::uint64_t cols, std::span<const std::uint8_t> source_words,
                              EncodeResult &r, std::vector<std::uint32_t> &x32);
/// The refusal of one group whose raw scale rounds to binary16 infinity (names row and group).
void grouped_overflow_refusal(const char *method, const GroupedFormat &f, std::uint64_t row, std::uint64_t group,
                              const AbsmaxGroupTrace &t, EncodeResult &r);
}  // namespace detail

}  // namespace ninfer::oracle
