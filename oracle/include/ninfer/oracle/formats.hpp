// SPDX-License-Identifier: Apache-2.0
// The C++ view of the closed registry (registry.h): constexpr tables generated from the
// X-macros, lookups by id and by name. Nothing here is a second list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ninfer/harness/plugin.h"

namespace ninfer::oracle {

enum class Special : std::uint8_t { IEEE, FN, NONE, E8M0, INT };
enum class CodeEncoding : std::uint8_t { TWOS, OFFSET };
enum class NanRule : std::uint8_t { QUIET_TRUNC, ANY_SIGNED, ANY, ZERO, UNDEFINED, EXACT };

/// A scalar word format: bit geometry and special-value encoding.
struct WordFormat {
    std::uint32_t id;
    std::string_view name;
    int bits, exp_bits, man_bits, bias;
    bool has_sign;
    Special special;
    bool direct;  ///< also a direct tensor format stored by contiguous_le_v1
    constexpr int bytes() const { return (bits + 7) / 8; }
    constexpr std::uint64_t mask() const { return bits == 64 ? ~0ull : ((1ull << bits) - 1); }
};

/// A grouped signed-integer format: code + binary16 scale + group + layout.
struct GroupedFormat {
    std::uint32_t id;
    std::string_view name;
    int code_bits, group, qmin, qmax;
    CodeEncoding encoding;
    int illegal_word;  ///< stored word outside the artifact language, or -1
    std::uint32_t scale_format;
    bool canonical_encoders;
    std::uint32_t layout;
    int base_bytes, high_bytes;  ///< row_split_k128_v1 bytes per group
};

struct OtherFormat {
    std::uint32_t id;
    std::string_view name;
    std::uint32_t layout;
};

struct Layout {
    std::uint32_t id;
    std::string_view name;
    int min_rank, max_rank, alignment;
};

struct Op {
    std::uint32_t id;
    std::string_view name, summary;
};

struct Rounding {
    std::uint32_t id;
    std::string_view name, summary;
};

struct Overflow {
    std::uint32_t id;
    std::string_view name, summary;
};

struct Conversion {
    std::uint32_t id;
    std::string_view name;
    std::uint32_t src, dst, rounding, overflow;
    NanRule nan_rule;
};

struct Role {
    std::uint32_t id;
    std::string_view name;
    std::uint32_t format;
    std::string_view summary;
};

struct Encoder {
    std::uint32_t id;
    std::string_view name;
};

namespace detail {
enum RoundingId : std::uint32_t {
#define NINFER_X_(id, name, ...) rounding_##name = id,
    NINFER_ROUNDINGS(NINFER_X_)
#undef NINFER_X_
};
enum OverflowId : std::uint32_t {
#define NINFER_X_(id, name, ...) overflow_##name = id,
    NINFER_OVERFLOWS(NINFER_X_)
#undef NINFER_X_
};
}  // namespace detail

inline constexpr std::array kWordFormats = {
#define NINFER_X_(id, name, bits, e, m, bias, sign, special, direct) \
    WordFormat{id, #name, bits, e, m, bias, sign != 0, Special::special, direct != 0},
    NINFER_WORD_FORMATS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kGroupedFormats = {
#define NINFER_X_(id, name, b, g, qmin, qmax, enc, illegal, scale, canon, layout, B, H)           \
    GroupedFormat{id,  #name, b, g, qmin, qmax, CodeEncoding::enc, illegal, NINFER_FORMAT_##scale, \
                  canon != 0, NINFER_LAYOUT_##layout, B, H},
    NINFER_GROUPED_FORMATS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kOtherFormats = {
#define NINFER_X_(id, name, layout) OtherFormat{id, #name, NINFER_LAYOUT_##layout},
    NINFER_OTHER_FORMATS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kLayouts = {
#define NINFER_X_(id, name, lo, hi, align) Layout{id, #name, lo, hi, align},
    NINFER_LAYOUTS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kOps = {
#define NINFER_X_(id, name, summary) Op{id, #name, summary},
    NINFER_OPS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kRoundings = {
#define NINFER_X_(id, name, summary) Rounding{id, #name, summary},
    NINFER_ROUNDINGS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kOverflows = {
#define NINFER_X_(id, name, summary) Overflow{id, #name, summary},
    NINFER_OVERFLOWS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kConversions = {
#define NINFER_X_(id, name, src, dst, rnd, ovf, nan)                                                 \
    Conversion{id, #name, NINFER_FORMAT_##src, NINFER_FORMAT_##dst, detail::rounding_##rnd, \
               detail::overflow_##ovf, NanRule::nan},
    NINFER_CONVERSIONS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kRoles = {
#define NINFER_X_(id, name, fmt, summary) Role{id, #name, NINFER_FORMAT_##fmt, summary},
    NINFER_ROLES(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kEncoders = {
#define NINFER_X_(id, name) Encoder{id, #name},
    NINFER_ENCODERS(NINFER_X_)
#undef NINFER_X_
};

/// Lookup by id in any of the tables above; nullptr when absent.
template <class Table>
constexpr auto find_id(const Table &table, std::uint32_t id) -> const typename Table::value_type * {
    for (const auto &e : table)
        if (e.id == id) return &e;
    return nullptr;
}

/// Lookup by canonical name; nullptr when absent (names are case-sensitive, as artifacts store them).
template <class Table>
constexpr auto find_name(const Table &table, std::string_view name) -> const typename Table::value_type * {
    for (const auto &e : table)
        if (e.name == name) return &e;
    return nullptr;
}

const WordFormat &word_format(std::uint32_t id);          ///< throws std::invalid_argument
const GroupedFormat &grouped_format(std::uint32_t id);    ///< throws std::invalid_argument
const Conversion &conversion(std::uint32_t id);           ///< throws std::invalid_argument
const Role &role(std::uint32_t id);                       ///< throws std::invalid_argument

/// The name of any format id (word, grouped or other), or "" when unknown.
std::string_view format_name(std::uint32_t id);
/// The id of any format name, or nullopt.
std::optional<std::uint32_t> format_id(std::string_view name);
/// The name of an op / layout id, or "".
std::string_view op_name(std::uint32_t id);
std::string_view layout_name(std::uint32_t id);
/// Whether the format/layout pair is registered (storage-layouts.md Section 1).
bool layout_accepts(std::uint32_t layout, std::uint32_t format);

}  // namespace ninfer::oracle
