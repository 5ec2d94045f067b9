// SPDX-License-Identifier: Apache-2.0
// contiguous_le_v1 (storage-layouts.md Section 2): direct words in C order, each little-endian,
// payload_bytes = elements * word bytes, no prefix, padding or trailer; the layout never
// converts or canonicalizes a word. Cross-type encoding is refused (tensor-formats.txt 3.1).
#include <fmt/format.h>

#include <cstring>
#include <string>

#include "scalar_codec.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"

namespace ninfer::reference {
namespace {

LayoutOutcome refuse(std::int32_t status, std::string message) { return {status, 0, std::move(message)}; }

/// Step 3: size of `in` and capacity of `out` against payload_bytes, then the bitwise copy.
LayoutOutcome copy_words(const LayoutOutcome &size, const char *what, const std::uint8_t *in, std::uint64_t in_bytes,
                         std::uint8_t *out, std::uint64_t out_capacity) {
    if (size.status != NINFER_OK) return size;
    if (in_bytes != size.written)
        return refuse(NINFER_E_SIZE, fmt::format("{} holds {} bytes, the shape needs {}", what, in_bytes, size.written));
    if (out_capacity < size.written || (size.written && !out))
        return refuse(NINFER_E_BUFFER, fmt::format("output holds {} bytes, {} needed", out_capacity, size.written));
    if (size.written && !in) return refuse(NINFER_E_INVALID_ARGUMENT, fmt::format("{} is null", what));
    if (size.written) std::memcpy(out, in, size.written);
    return {NINFER_OK, size.written, {}};
}

}  // namespace

LayoutOutcome contiguous_payload_bytes(std::uint32_t format, std::span<const std::uint64_t> shape) {
    // Step 1: the pair must be registered, refused by name before any byte is read.
    const auto *f = abi::find_id(abi::kWordFormats, format);
    if (!f || !f->direct)
        return refuse(NINFER_E_LAYOUT,
                      fmt::format("format {} is not registered for layout contiguous_le_v1", abi::format_label(format)));
    const auto *lo = abi::find_id(abi::kLayouts, NINFER_LAYOUT_contiguous_le_v1);
    if (shape.size() > static_cast<std::size_t>(lo->max_rank))
        return refuse(NINFER_E_INVALID_ARGUMENT,
                      fmt::format("rank {} above contiguous_le_v1's {}", shape.size(), lo->max_rank));
    // Step 2: elements * word bytes in uint64, refusing an overflow instead of wrapping.
    // A zero dimension makes the size 0 whatever the other dimensions (the true product decides).
    for (const auto d : shape)
        if (d == 0) return {NINFER_OK, 0, {}};
    std::uint64_t n = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (__builtin_mul_overflow(n, shape[i], &n))
            return refuse(NINFER_E_SIZE, fmt::format("element count overflows uint64 at dimension {}", i));
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(f->bytes()), &bytes))
        return refuse(NINFER_E_SIZE, fmt::format("payload size {} x {} bytes overflows uint64", n, f->bytes()));
    return {NINFER_OK, bytes, {}};
}

LayoutOutcome contiguous_encode(std::uint32_t format, std::uint32_t format_in, std::span<const std::uint64_t> shape,
                                const std::uint8_t *in, std::uint64_t in_bytes, std::uint8_t *out,
                                std::uint64_t out_capacity) {
    LayoutOutcome size = contiguous_payload_bytes(format, shape);
    if (size.status == NINFER_E_LAYOUT) return size;
    if (format_in != format)
        return refuse(NINFER_E_CONVERSION,
                      fmt::format("{} words offered for a {} tensor: a cross-type encoding needs a named conversion",
                                  abi::format_label(format_in), abi::format_label(format)));
    return copy_words(size, "logical words", in, in_bytes, out, out_capacity);
}

LayoutOutcome contiguous_decode(std::uint32_t format, std::span<const std::uint64_t> shape, const std::uint8_t *in,
                                std::uint64_t in_bytes, std::uint8_t *out, std::uint64_t out_capacity) {
    return copy_words(contiguous_payload_bytes(format, shape), "payload", in, in_bytes, out, out_capacity);
}

}  // namespace ninfer::reference
