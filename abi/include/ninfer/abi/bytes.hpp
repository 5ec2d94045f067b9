// SPDX-License-Identifier: Apache-2.0
// Little-endian words in byte images (tensor-formats.txt Section 1: every multi-byte word of a
// payload is stored little-endian) and hex text of words and byte images. The one copy of these
// helpers: every module, plugin and test reads and writes payload bytes through them.
// Header-only, depends on nothing but the standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ninfer::abi {

/// The unsigned word of `bytes` (0..8) little-endian bytes at `p`.
constexpr std::uint64_t load_le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);
    return v;
}
constexpr std::uint16_t load_le16(const std::uint8_t *p) { return static_cast<std::uint16_t>(load_le(p, 2)); }
constexpr std::uint32_t load_le32(const std::uint8_t *p) { return static_cast<std::uint32_t>(load_le(p, 4)); }
constexpr std::uint64_t load_le64(const std::uint8_t *p) { return load_le(p, 8); }

/// The low `bytes` (0..8) bytes of `v`, least significant first, at `p`.
constexpr void store_le(std::uint8_t *p, std::uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) p[b] = static_cast<std::uint8_t>(v >> (8 * b));
}
constexpr void store_le16(std::uint8_t *p, std::uint16_t v) { store_le(p, v, 2); }
constexpr void store_le32(std::uint8_t *p, std::uint32_t v) { store_le(p, v, 4); }
constexpr void store_le64(std::uint8_t *p, std::uint64_t v) { store_le(p, v, 8); }

/// Appends the low `bytes` bytes of `v`, least significant first.
inline void append_le(std::vector<std::uint8_t> &out, std::uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

namespace detail {
inline constexpr char kHexDigits[] = "0123456789abcdef";
}

/// Hex of a word, most significant digit first, exactly `digits` lowercase digits (the word is
/// cut to them): how vectors, reports and messages write one word.
inline std::string hex_word(std::uint64_t w, int digits) {
    std::string s(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, w >>= 4) s[static_cast<std::size_t>(i)] = detail::kHexDigits[w & 0xF];
    return s;
}

/// Hex of a byte image in buffer order (byte 0 first), two lowercase digits a byte; "" when empty.
inline std::string hex_bytes(std::span<const std::uint8_t> b) {
    std::string s;
    s.reserve(2 * b.size());
    for (auto v : b) {
        s += detail::kHexDigits[v >> 4];
        s += detail::kHexDigits[v & 0xF];
    }
    return s;
}

/// Hex of the little-endian field `b[at, at + n)` as one number, most significant byte first
/// (bytes past the end of `b` are left out): how a mismatch shows a multi-byte field of a payload.
inline std::string hex_field_le(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
    std::string s;
    for (std::size_t i = at + n; i-- > at;)
        if (i < b.size()) {
            s += detail::kHexDigits[b[i] >> 4];
            s += detail::kHexDigits[b[i] & 0xF];
        }
    return s;
}

/// The value of a hex digit (either case), or -1.
constexpr int hex_digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Parses a byte image written in buffer order into `out`; "" on success, else why not (the
/// offset of the first bad character, or an odd digit count).
inline std::string parse_hex_bytes(std::string_view s, std::vector<std::uint8_t> &out) {
    if (s.size() % 2 != 0) return "has an odd number of hex digits (" + std::to_string(s.size()) + ")";
    out.resize(s.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const int hi = hex_digit_value(s[2 * i]), lo = hex_digit_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return "has a non-hex character at offset " + std::to_string(hi < 0 ? 2 * i : 2 * i + 1);
        out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
    }
    return "";
}

}  // namespace ninfer::abi
