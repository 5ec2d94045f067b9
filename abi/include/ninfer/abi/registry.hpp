// SPDX-License-Identifier: Apache-2.0
// The constexpr C++ view of the closed registry (registry.h; tensor-formats.txt Section 1,
// storage-layouts.md Section 1): tables generated from the X-macros, one `kAllFormats` view that
// every consumer iterates, and constexpr lookups by id and by name. Header-only, depends on
// nothing but the two C headers beside it. Nothing here is a second list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ninfer/abi/plugin.h"

namespace ninfer::abi {

enum class Special : std::uint8_t { IEEE, FN, NONE, E8M0, INT };
enum class CodeEncoding : std::uint8_t { TWOS, OFFSET };
/// How a group's stored words lie in its base and high bytes (registry.h NINFER_GROUPED_FORMATS).
enum class Packing : std::uint8_t { BYTE, NIBBLE_HIGH, TWO_BIT_LSB };
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
    Packing packing;
    std::uint32_t scale_role;  ///< the validity role of the scale word
    /// Bits of a stored word above the low nibble, kept in the high stream (NIBBLE_HIGH only).
    constexpr int high_bits() const { return packing == Packing::NIBBLE_HIGH ? code_bits - 4 : 0; }
};

/// A scaled floating-point weight format (registry.h NINFER_SCALED_FORMATS): code word + scale
/// word + reach of a scale + layout.
struct ScaledFormat {
    std::uint32_t id;
    std::string_view name;
    std::uint32_t code_format, scale_format;
    int group;      ///< code words per scale word along K; 0: one scale per row
    bool divisors;  ///< the payload ends with fp32_weight_divisor words (nvfp4's d_w)
    std::uint32_t layout;
    std::uint32_t code_role;   ///< validity role of a code word, or 0 (every word valid)
    std::uint32_t scale_role;  ///< validity role of a scale word
    std::uint32_t encoder;     ///< the format's encoder (NINFER_ENCODER_*), or 0
};

/// A GGUF block type (registry.h NINFER_GGUF_TYPES), stored by ggml_blocks_v1.
struct GgufType {
    std::uint32_t id;  ///< format id: 64 + ggml_type
    std::string_view name;
    std::uint32_t ggml_type;
    std::uint32_t block_values, block_bytes;
    bool in_ninfer_registry;  ///< one of the 18 formats of the .ninfer registry
    bool ref_quantizer;       ///< ggml's quantize_row_<type>_ref is reproduced (ggml_quantize_ref)
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
    bool accepts_negative_zero;  ///< -0 is valid under the role
    bool accepts_positive_zero;  ///< +0 is valid under the role
    bool accepts_negative;       ///< a negative nonzero value is valid under the role
    std::string_view summary;
};

enum class Family : std::uint8_t;

struct Encoder {
    std::uint32_t id;
    std::string_view name;
    Family family;  ///< the format family whose formats the encoder targets
};

namespace detail {
enum RoundingId : std::uint32_t {
#define NINFER_X_(id, name, ...) rounding_##name = id,
    NINFER_ROUNDINGS(NINFER_X_)
#undef NINFER_X_
};
enum RoleId : std::uint32_t {
    role_none = 0,
#define NINFER_X_(id, name, ...) role_##name = id,
    NINFER_ROLES(NINFER_X_)
#undef NINFER_X_
};
enum EncoderId : std::uint32_t {
    encoder_none = 0,
#define NINFER_X_(id, name, family) encoder_##name = id,
    NINFER_ENCODERS(NINFER_X_)
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
#define NINFER_X_(id, name, b, g, qmin, qmax, enc, illegal, scale, canon, layout, B, H, packing, scale_role) \
    GroupedFormat{id,  #name, b, g, qmin, qmax, CodeEncoding::enc, illegal, NINFER_FORMAT_##scale,              \
                  canon != 0, NINFER_LAYOUT_##layout, B, H, Packing::packing, NINFER_ROLE_##scale_role},
    NINFER_GROUPED_FORMATS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kScaledFormats = {
#define NINFER_X_(id, name, code, scale, group, divisors, layout, code_role, scale_role, encoder)                    \
    ScaledFormat{id, #name, NINFER_FORMAT_##code, NINFER_FORMAT_##scale, group, divisors != 0, NINFER_LAYOUT_##layout, \
                 detail::role_##code_role, detail::role_##scale_role, detail::encoder_##encoder},
    NINFER_SCALED_FORMATS(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kGgufTypes = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) \
    GgufType{id, #name, type, values, bytes, registered != 0, refq != 0},
    NINFER_GGUF_TYPES(NINFER_X_)
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
#define NINFER_X_(id, name, fmt, neg_zero, pos_zero, neg, summary) \
    Role{id, #name, NINFER_FORMAT_##fmt, neg_zero != 0, pos_zero != 0, neg != 0, summary},
    NINFER_ROLES(NINFER_X_)
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

/// A stochastic-rounding conversion and r, its random bits (registry.h NINFER_STOCHASTIC).
struct Stochastic {
    std::uint32_t conversion;  ///< a kConversions id of rounding `sr`
    int random_bits;           ///< r: random bits added below the result's last place
};
inline constexpr std::array kStochastic = {
#define NINFER_X_(conversion, bits) Stochastic{NINFER_CONVERSION_##conversion, bits},
    NINFER_STOCHASTIC(NINFER_X_)
#undef NINFER_X_
};

/// r of an `sr` conversion id, or 0 when the conversion is not stochastic.
constexpr int sr_random_bits(std::uint32_t conversion) {
    for (const auto &s : kStochastic)
        if (s.conversion == conversion) return s.random_bits;
    return 0;
}

/// Whether a conversion rounds stochastically (and so reads the random plane).
constexpr bool is_stochastic(const Conversion &c) { return c.rounding == detail::rounding_sr; }

namespace detail {
/// Every `sr` conversion has a NINFER_STOCHASTIC row, r = 23 - man_bits of its fp32 -> target.
constexpr bool stochastic_table_complete() {
    for (const auto &c : kConversions) {
        if (!is_stochastic(c)) continue;
        const auto *dst = find_id(kWordFormats, c.dst);
        if (c.src != NINFER_FORMAT_fp32 || !dst || sr_random_bits(c.id) != 23 - dst->man_bits) return false;
    }
    for (const auto &s : kStochastic) {
        const auto *c = find_id(kConversions, s.conversion);
        if (!c || !is_stochastic(*c)) return false;
    }
    return true;
}
static_assert(stochastic_table_complete(), "NINFER_STOCHASTIC: one row per sr conversion, r = 23 - man_bits");
}  // namespace detail

/// A family of the registry (registry.h NINFER_FAMILIES): the format families, each the table
/// that holds its formats' rows, then the operator families and the test-only row.
enum class Family : std::uint8_t {
#define NINFER_X_(name, kind, weights) name,
    NINFER_FAMILIES(NINFER_X_)
#undef NINFER_X_
};

/// What a family row is (registry.h NINFER_FAMILIES, `kind`).
enum class FamilyKind : std::uint8_t { formats, op, test };

/// One row of NINFER_FAMILIES.
struct FamilyRow {
    Family id;
    std::string_view name;
    FamilyKind kind;
    bool weights;  ///< `linear` takes its weights in the family's formats
};
inline constexpr std::array kFamilyRows = {
#define NINFER_X_(name, kind, weights) FamilyRow{Family::name, #name, FamilyKind::kind, (weights) != 0},
    NINFER_FAMILIES(NINFER_X_)
#undef NINFER_X_
};

inline constexpr std::array kEncoders = {
#define NINFER_X_(id, name, family) Encoder{id, #name, Family::family},
    NINFER_ENCODERS(NINFER_X_)
#undef NINFER_X_
};

/// A named criterion of an operator (registry.h NINFER_CRITERIA): the rule linear.<name>.
struct Criterion {
    std::uint32_t id;
    std::string_view name, summary;
};
inline constexpr std::array kCriteria = {
#define NINFER_X_(id, name, summary) Criterion{id, #name, summary},
    NINFER_CRITERIA(NINFER_X_)
#undef NINFER_X_
};

/// A compute profile of the `linear` op (registry.h NINFER_PROFILES).
struct Profile {
    std::uint32_t id;
    std::string_view name;
    std::uint32_t criterion;  ///< a kCriteria id
    std::string_view summary;
};
namespace detail {
enum CriterionId : std::uint32_t {
#define NINFER_X_(id, name, summary) criterion_##name = id,
    NINFER_CRITERIA(NINFER_X_)
#undef NINFER_X_
};
}  // namespace detail
inline constexpr std::array kProfiles = {
#define NINFER_X_(id, name, criterion, summary) Profile{id, #name, detail::criterion_##criterion, summary},
    NINFER_PROFILES(NINFER_X_)
#undef NINFER_X_
};

/// A family's name (its row of NINFER_FAMILIES); "" for a value no row has.
constexpr std::string_view family_name(Family f) {
    for (const auto &r : kFamilyRows)
        if (r.id == f) return r.name;
    return {};
}

/// One registered format of any family: what every consumer that iterates formats needs.
/// `layout` is the layout that stores it (a word format that is not a direct tensor format: 0).
/// `in_ninfer_registry`: false only for the GGUF block types outside the .ninfer registry.
struct FormatView {
    std::uint32_t id;
    std::string_view name;
    Family family;
    std::uint32_t layout;
    bool in_ninfer_registry = true;
};

/// Every registered format: word formats, grouped, scaled, GGUF, each in registry order.
inline constexpr std::array kAllFormats = {
#define NINFER_X_(id, name, bits, e, m, bias, sign, special, direct) \
    FormatView{id, #name, Family::word, (direct) ? std::uint32_t{NINFER_LAYOUT_contiguous_le_v1} : std::uint32_t{0}},
    NINFER_WORD_FORMATS(NINFER_X_)
#undef NINFER_X_
#define NINFER_X_(id, name, b, g, qmin, qmax, enc, illegal, scale, canon, layout, B, H, packing, scale_role) \
    FormatView{id, #name, Family::grouped, NINFER_LAYOUT_##layout},
    NINFER_GROUPED_FORMATS(NINFER_X_)
#undef NINFER_X_
#define NINFER_X_(id, name, code, scale, group, divisors, layout, ...) \
    FormatView{id, #name, Family::scaled, NINFER_LAYOUT_##layout},
    NINFER_SCALED_FORMATS(NINFER_X_)
#undef NINFER_X_
#define NINFER_X_(id, name, type, values, bytes, registered, refq) \
    FormatView{id, #name, Family::gguf, NINFER_LAYOUT_ggml_blocks_v1, registered != 0},
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

/// A named code of the ABI (status, class, verdict, payload detail).
struct NamedCode {
    std::int32_t value;
    std::string_view name, summary;
};

inline constexpr std::array kStatuses = {
#define NINFER_X_(value, NAME, name, summary) NamedCode{value, #name, summary},
    NINFER_STATUSES(NINFER_X_)
#undef NINFER_X_
};
inline constexpr std::array kClasses = {
#define NINFER_X_(value, NAME, name, summary) NamedCode{value, #name, summary},
    NINFER_CLASSES(NINFER_X_)
#undef NINFER_X_
};
inline constexpr std::array kVerdicts = {
#define NINFER_X_(value, NAME, name, summary) NamedCode{value, #name, summary},
    NINFER_VERDICTS(NINFER_X_)
#undef NINFER_X_
};
inline constexpr std::array kPayloadDetails = {
#define NINFER_X_(value, NAME, name, summary) NamedCode{value, #name, summary},
    NINFER_PAYLOAD_DETAILS(NINFER_X_)
#undef NINFER_X_
};

/// The named planes of an ABI v2 call (plugin.h NINFER_PLANES).
inline constexpr std::array kPlanes = {
#define NINFER_X_(value, NAME, name, summary) NamedCode{value, #name, summary},
    NINFER_PLANES(NINFER_X_)
#undef NINFER_X_
};

/// The name of a code in one of the tables above, or "" when unknown.
template <class Table>
constexpr std::string_view code_name(const Table &table, std::int32_t value) {
    for (const auto &e : table)
        if (e.value == value) return e.name;
    return {};
}
constexpr std::string_view status_name(std::int32_t status) { return code_name(kStatuses, status); }
constexpr std::string_view plane_name(std::uint32_t plane) {
    return code_name(kPlanes, static_cast<std::int32_t>(plane));
}
/// The id of a plane name, or 0 (NINFER_PLANE_NONE).
constexpr std::uint32_t plane_id(std::string_view name) {
    for (const auto &e : kPlanes)
        if (e.name == name) return static_cast<std::uint32_t>(e.value);
    return 0;
}
constexpr std::string_view detail_name(std::uint32_t detail) {
    return code_name(kPayloadDetails, static_cast<std::int32_t>(detail));
}

/// The registered format of an id, or nullptr.
constexpr const FormatView *find_format(std::uint32_t id) { return find_id(kAllFormats, id); }
/// The registered format of a name, or nullptr (names are case-sensitive, as artifacts store them).
constexpr const FormatView *find_format(std::string_view name) { return find_name(kAllFormats, name); }

/// The name of any format id (any family), or "" when unknown.
constexpr std::string_view format_name(std::uint32_t id) {
    const auto *f = find_format(id);
    return f ? f->name : std::string_view{};
}
/// The id of any format name, or nullopt.
constexpr std::optional<std::uint32_t> format_id(std::string_view name) {
    const auto *f = find_format(name);
    return f ? std::optional<std::uint32_t>{f->id} : std::nullopt;
}
/// The name of an op / layout id, or "".
constexpr std::string_view op_name(std::uint32_t id) {
    const auto *o = find_id(kOps, id);
    return o ? o->name : std::string_view{};
}
constexpr std::string_view layout_name(std::uint32_t id) {
    const auto *l = find_id(kLayouts, id);
    return l ? l->name : std::string_view{};
}
/// Whether the format/layout pair is registered in the .ninfer registry (storage-layouts.md
/// Section 1): a GGUF block type outside it is refused here (gguf_layout_accepts takes it).
constexpr bool layout_accepts(std::uint32_t layout, std::uint32_t format) {
    const auto *f = find_format(format);
    return f && layout != 0 && f->layout == layout && f->in_ninfer_registry;
}
/// The GGUF suites' pair check: any GGUF block type in ggml_blocks_v1, .ninfer registry or not.
constexpr bool gguf_layout_accepts(std::uint32_t layout, std::uint32_t format) {
    const auto *f = find_format(format);
    return f && f->family == Family::gguf && layout == NINFER_LAYOUT_ggml_blocks_v1;
}

}  // namespace ninfer::abi
