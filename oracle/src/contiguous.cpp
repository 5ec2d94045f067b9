// SPDX-License-Identifier: Apache-2.0
// contiguous_le_v1 (storage-layouts.md Sections 1 and 2): size rule, C-order little-endian words.
// The layout never converts or canonicalizes a word, so encode and decode move bytes only.
#include "ninfer/oracle/contiguous.hpp"

#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

namespace {

/// The word format of a registered contiguous_le_v1 pair, or a loud refusal naming the format.
const WordFormat &contiguous_format(std::uint32_t format) {
    if (!layout_accepts(NINFER_LAYOUT_contiguous_le_v1, format)) {
        throw std::invalid_argument("contiguous_le_v1: format " + abi::format_label(format) +
                                    " is not registered for this layout (expected bf16, fp32 or int32)");
    }
    return word_format(format);
}

/// Elements * word bytes with every product checked (storage-layouts.md: reject, never wrap).
std::optional<std::uint64_t> checked_size(const WordFormat &f, std::span<const std::uint64_t> shape) {
    const auto &layout = *find_id(kLayouts, NINFER_LAYOUT_contiguous_le_v1);
    if (shape.size() > static_cast<std::size_t>(layout.max_rank))
        throw std::invalid_argument("contiguous_le_v1: rank " + std::to_string(shape.size()) + " is above " +
                                    std::to_string(layout.max_rank));
    std::uint64_t size = static_cast<std::uint64_t>(f.bytes());
    // The mathematical size decides: a zero dimension makes it 0 even where a partial product would wrap.
    for (const auto d : shape)
        if (d == 0) return 0;
    for (const auto d : shape)
        if (__builtin_mul_overflow(size, d, &size)) return std::nullopt;
    return size;
}

std::uint64_t require_size(const WordFormat &f, std::span<const std::uint64_t> shape) {
    const auto size = checked_size(f, shape);
    if (!size) throw std::invalid_argument("contiguous_le_v1: the payload size of this shape overflows uint64");
    return *size;
}

}  // namespace

std::optional<std::uint64_t> contiguous_payload_bytes(std::uint32_t format, std::span<const std::uint64_t> shape) {
    return checked_size(contiguous_format(format), shape);
}

std::vector<std::uint8_t> contiguous_encode(std::uint32_t format, std::span<const std::uint64_t> shape,
                                            std::span<const std::uint64_t> words) {
    const auto &f = contiguous_format(format);
    const std::uint64_t size = require_size(f, shape);
    const auto width = static_cast<std::uint64_t>(f.bytes());
    if (words.size() != size / width)
        throw std::invalid_argument("contiguous_le_v1: " + std::to_string(words.size()) + " words given, the shape holds " +
                                    std::to_string(size / width));
    std::vector<std::uint8_t> payload;
    payload.reserve(size);
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] > f.mask())
            throw std::invalid_argument("contiguous_le_v1: word " + std::to_string(i) + " is wider than " +
                                        std::string(f.name));
        abi::append_le(payload, words[i], static_cast<int>(width));
    }
    return payload;
}

std::vector<std::uint64_t> contiguous_decode(std::uint32_t format, std::span<const std::uint64_t> shape,
                                             std::span<const std::uint8_t> payload) {
    const auto &f = contiguous_format(format);
    const std::uint64_t size = require_size(f, shape);
    if (payload.size() != size)
        throw std::invalid_argument("contiguous_le_v1: payload has " + std::to_string(payload.size()) +
                                    " bytes, the shape needs " + std::to_string(size));
    const auto width = static_cast<std::size_t>(f.bytes());
    std::vector<std::uint64_t> words(payload.size() / width);
    for (std::size_t i = 0; i < words.size(); ++i)
        words[i] = abi::load_le(&payload[i * width], static_cast<int>(width));
    return words;
}

}  // namespace ninfer::oracle
