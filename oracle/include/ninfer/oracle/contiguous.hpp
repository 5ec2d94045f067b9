// SPDX-License-Identifier: Apache-2.0
// The contiguous_le_v1 layout oracle (storage-layouts.md Section 2): direct words of bf16, fp32
// or int32 in C order, each little-endian at its byte width, nothing else in the payload.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ninfer::oracle {

/// Payload bytes of a contiguous_le_v1 tensor: elements * word bytes (rank 0 holds one word);
/// nullopt when that size overflows uint64. Throws std::invalid_argument for a format the
/// layout does not register or a rank above 16.
std::optional<std::uint64_t> contiguous_payload_bytes(std::uint32_t format, std::span<const std::uint64_t> shape);

/// The payload of `words` (one per element, C order). Throws std::invalid_argument when the
/// word count differs from the shape's elements, a word is wider than the format, the size
/// overflows, or the format/layout pair is not registered.
std::vector<std::uint8_t> contiguous_encode(std::uint32_t format, std::span<const std::uint64_t> shape,
                                            std::span<const std::uint64_t> words);

/// The words of a payload, bit for bit. Throws std::invalid_argument when the payload size is
/// not payload_bytes(shape), the size overflows, or the pair is not registered.
std::vector<std::uint64_t> contiguous_decode(std::uint32_t format, std::span<const std::uint64_t> shape,
                                             std::span<const std::uint8_t> payload);

}  // namespace ninfer::oracle
