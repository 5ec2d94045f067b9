// SPDX-License-Identifier: Apache-2.0
// The reference's own codecs of the scalar word formats (tensor-formats.txt Sections 3.1, 3.3, 3.4;
// number-formats-lesson.txt Examples 3-10, 13-15; the OCP FP8/MX conversion rules) and of the
// contiguous_le_v1 layout (storage-layouts.md Section 2), written from the spec and the registry's
// geometry independently of ninfer::native. Bit manipulation only; every result is cross-checked
// against the MPFR oracle (tests/test_scalar_codec_vs_oracle.cpp, tests/test_codecs_vs_oracle.cpp).
// The semantics, including the NaN and overflow decisions, are the oracle's (oracle/README.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"

namespace ninfer::reference {

/// Whether `conversion_id` names a registered conversion (the reference implements each).
bool scalar_knows_conversion(std::uint32_t conversion_id);

/// One word of the named conversion (source word in the low bits); 0 for an unknown id.
/// A source word wider than its format (E2M1 > 0xF, UE4M3 > 0x7F) converts as a NaN source.
std::uint64_t scalar_convert(std::uint32_t conversion_id, std::uint64_t src);

/// `n` packed little-endian source words of `in` to `n` packed target words in `out` (word
/// bytes as plugin.h says). False for an unknown conversion id (nothing written).
bool scalar_convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out,
                          std::uint64_t n);

/// `n` binary32 words of an `sr` conversion (registry.h NINFER_STOCHASTIC) with their random
/// values: `random` holds n uint32 words little-endian (the random plane), or is null, and then
/// the reference draws its own (scalar_conversions.cpp own_random_bits). False for a conversion
/// that is not stochastic (nothing written).
bool scalar_convert_sr_batch(std::uint32_t conversion_id, const std::uint8_t *in, const std::uint8_t *random,
                             std::uint8_t *out, std::uint64_t n);

/// Whether `format_id` is a scalar word format of the registry.
bool scalar_knows_format(std::uint32_t format_id);

/// decode: the binary64 word of the exact value; an IEEE NaN keeps sign, quiet bit and payload
/// (at the top of the binary64 fraction), another NaN is 0x7FF8... with the word's sign; a word
/// outside the format or of an unknown format -> 0x7FF8000000000000; int32 -> its integer value.
std::uint64_t scalar_decode(std::uint32_t format_id, std::uint64_t word);
/// scalar_decode of a word of the registry row `f`.
std::uint64_t decode_word(const abi::WordFormat &f, std::uint64_t word);

/// classify: NINFER_CLASS_* | NINFER_CLASS_SIGN for a negative word.
std::uint8_t scalar_classify(std::uint32_t format_id, std::uint64_t word);
/// scalar_classify of a word of the registry row `f` (NINFER_CLASS_OUTSIDE, unsigned, above its mask).
std::uint8_t classify_word(const abi::WordFormat &f, std::uint64_t word);

/// validate: NINFER_VERDICT_* of a word under a role (precedence NaN, Inf, -0, +0, negative);
/// NINFER_VERDICT_OUTSIDE for an unknown role or a word wider than the role's format.
std::uint8_t scalar_verdict(std::uint32_t role_id, std::uint64_t word);

/// The outcome of a contiguous_le_v1 operation: an NINFER_* status and a one-line message.
struct LayoutOutcome {
    std::int32_t status = NINFER_OK;
    std::uint64_t written = 0;
    std::string message;
};

/// payload_bytes of a contiguous_le_v1 tensor (storage-layouts.md 2): elements * word bytes,
/// NINFER_E_SIZE when the arithmetic overflows uint64, NINFER_E_LAYOUT for an unregistered
/// format, NINFER_E_INVALID_ARGUMENT for a rank above 16.
LayoutOutcome contiguous_payload_bytes(std::uint32_t format, std::span<const std::uint64_t> shape);

/// layout_encode of contiguous_le_v1: logical words of `format_in` to the payload of a
/// `format` tensor. Refuses an unregistered pair (E_LAYOUT), `format_in != format` (E_CONVERSION,
/// tensor-formats.txt 3.1: no implicit cross-type encoding), a size overflow or an input of the
/// wrong size (E_SIZE), a short output (E_BUFFER). Words are copied bit for bit.
LayoutOutcome contiguous_encode(std::uint32_t format, std::uint32_t format_in, std::span<const std::uint64_t> shape,
                                const std::uint8_t *in, std::uint64_t in_bytes, std::uint8_t *out,
                                std::uint64_t out_capacity);

/// layout_decode of contiguous_le_v1: a payload back to its logical words, with the same checks.
LayoutOutcome contiguous_decode(std::uint32_t format, std::span<const std::uint64_t> shape, const std::uint8_t *in,
                                std::uint64_t in_bytes, std::uint8_t *out, std::uint64_t out_capacity);

}  // namespace ninfer::reference
