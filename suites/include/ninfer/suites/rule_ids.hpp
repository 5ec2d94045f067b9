// SPDX-License-Identifier: Apache-2.0
// Typed rule ids of the catalog (rules.hpp): a constant for every rule that stands alone, and
// generators for the families that the registry (ninfer/abi/registry.hpp) spells out, one rule
// per row: decode.<format>, classify.<format>, validity.<role>, convert.<conversion>,
// convert.<conversion>.nan_payload, grouped.code.<format>. A misspelt id is a compile error; the
// test "rule ids: every constant is in the catalog ..." (suites/tests/test_rules.cpp) ties the
// constants to the rules tables. Header-only, depends on the abi module only, so that plugins
// (the mutants' `breaks`) can name the rule they break.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ninfer/abi/registry.hpp"

namespace ninfer::suites {

/// A rule id: "<family>.<subject>[.<aspect>]". Converts to the string forms its users take.
struct RuleId {
    const char *id;
    constexpr std::string_view view() const { return id; }
    constexpr const char *c_str() const { return id; }
    constexpr operator const char *() const { return id; }
    constexpr operator std::string_view() const { return id; }
    operator std::string() const { return id; }
    friend constexpr bool operator==(RuleId a, RuleId b) { return a.view() == b.view(); }
};

/// The rules that stand alone (not one per registry row), in catalog order: X(constant, id).
#define NINFER_FIXED_RULES(X)                                                         \
    X(layout_contiguous_le_v1_words, "layout.contiguous_le_v1.words")                 \
    X(layout_contiguous_le_v1_size, "layout.contiguous_le_v1.size")                   \
    X(layout_contiguous_le_v1_overflow, "layout.contiguous_le_v1.overflow")           \
    X(layout_contiguous_le_v1_cross_type, "layout.contiguous_le_v1.cross_type")       \
    X(layout_registry_unregistered_pair, "layout.registry.unregistered_pair")         \
    X(grouped_code_q8_0x80_illegal, "grouped.code.q8_0x80_illegal")                   \
    X(grouped_code_q8_never_emitted, "grouped.code.q8_never_emitted")                 \
    X(grouped_code_t2_0b10_illegal, "grouped.code.t2_0b10_illegal")                   \
    X(grouped_code_q2_offset, "grouped.code.q2_offset")                               \
    X(grouped_scale_validity, "grouped.scale.validity")                               \
    X(grouped_scale_subnormal, "grouped.scale.subnormal")                             \
    X(grouped_scale_q2, "grouped.scale.q2")                                           \
    X(grouped_scale_signed_multiply, "grouped.scale.signed_multiply")                 \
    X(grouped_scale_zero_group_codes, "grouped.scale.zero_group_codes")               \
    X(grouped_scale_zero_converse, "grouped.scale.zero_converse")                     \
    X(grouped_reconstruct, "grouped.reconstruct")                                     \
    X(grouped_reconstruct_zero_point_free, "grouped.reconstruct.zero_point_free")     \
    X(grouped_reconstruct_no_bf16_scale, "grouped.reconstruct.no_bf16_scale")         \
    X(grouped_group_last_axis, "grouped.group.last_axis")                             \
    X(grouped_group_partial, "grouped.group.partial")                                 \
    X(grouped_absmax_source_conversion, "grouped.absmax.source_conversion")           \
    X(grouped_absmax_nonfinite, "grouped.absmax.nonfinite")                           \
    X(grouped_absmax_scale_rounding, "grouped.absmax.scale_rounding")                 \
    X(grouped_absmax_rescue, "grouped.absmax.rescue")                                 \
    X(grouped_absmax_scale_overflow, "grouped.absmax.scale_overflow")                 \
    X(grouped_absmax_reciprocal_multiply, "grouped.absmax.reciprocal_multiply")       \
    X(grouped_absmax_ties_to_even, "grouped.absmax.ties_to_even")                     \
    X(grouped_absmax_clamp_after_rounding, "grouped.absmax.clamp_after_rounding")     \
    X(grouped_absmax_zero_group, "grouped.absmax.zero_group")                         \
    X(grouped_absmax_refuses_q2_t2, "grouped.absmax.refuses_q2_t2")                   \
    X(grouped_absmax_denominator_qmax, "grouped.absmax.denominator_qmax")             \
    X(grouped_absmax_bit_exact, "grouped.absmax.bit_exact")                           \
    X(grouped_absmax_rank2, "grouped.absmax.rank2")                                   \
    X(grouped_search_strict_improvement, "grouped.search.strict_improvement")         \
    X(grouped_search_candidates, "grouped.search.candidates")                         \
    X(grouped_search_importance, "grouped.search.importance")                         \
    X(grouped_search_negative_scales, "grouped.search.negative_scales")               \
    X(grouped_search_valid_words, "grouped.search.valid_words")                       \
    X(row_split_registry, "row_split.registry")                                       \
    X(row_split_geometry, "row_split.geometry")                                       \
    X(row_split_size, "row_split.size")                                               \
    X(row_split_plane_order, "row_split.plane_order")                                 \
    X(row_split_nibble_order, "row_split.nibble_order")                               \
    X(row_split_q8_bytes, "row_split.q8_bytes")                                       \
    X(row_split_high_bit_order, "row_split.high_bit_order")                           \
    X(row_split_two_bit_packing, "row_split.two_bit_packing")                         \
    X(row_split_scale_plane, "row_split.scale_plane")                                 \
    X(row_split_padding, "row_split.padding")                                         \
    X(row_split_gaps, "row_split.gaps")                                               \
    X(row_split_row_view, "row_split.row_view")                                       \
    X(row_split_slice, "row_split.slice")                                             \
    X(row_split_gather, "row_split.gather")                                           \
    X(row_split_decode_boundary, "row_split.decode_boundary")

namespace rule {

#define NINFER_X_(constant, id) inline constexpr RuleId constant{id};
NINFER_FIXED_RULES(NINFER_X_)
#undef NINFER_X_

/// Every fixed rule, in catalog order.
inline constexpr RuleId kFixed[] = {
#define NINFER_X_(constant, id) constant,
    NINFER_FIXED_RULES(NINFER_X_)
#undef NINFER_X_
};

// ---- the families the registry spells out: one rule per row --------------------------------

/// The id of a registry-generated rule: prefix + row name + suffix (run time).
inline std::string generated(std::string_view prefix, std::string_view name, std::string_view suffix = {}) {
    std::string s(prefix);
    s += name;
    s += suffix;
    return s;
}

inline std::string decode(const abi::WordFormat &f) { return generated("decode.", f.name); }
inline std::string classify(const abi::WordFormat &f) { return generated("classify.", f.name); }
inline std::string validity(const abi::Role &r) { return generated("validity.", r.name); }
inline std::string convert(const abi::Conversion &c) { return generated("convert.", c.name); }
/// The stricter NaN payload profile of a conversion (suites/nan_principle.hpp).
inline std::string convert_nan_payload(const abi::Conversion &c) { return generated("convert.", c.name, ".nan_payload"); }
inline std::string grouped_code(const abi::GroupedFormat &f) { return generated("grouped.code.", f.name); }

/// A registry-generated id built at compile time, for code that needs a constant (a mutant's
/// `breaks`): `rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>`.
struct GeneratedId {
    char text[96]{};
    constexpr const char *c_str() const { return text; }
    constexpr operator const char *() const { return text; }
    constexpr operator std::string_view() const { return text; }
};

constexpr GeneratedId make_generated(std::string_view prefix, std::string_view name, std::string_view suffix = {}) {
    GeneratedId g;
    std::size_t n = 0;
    for (std::string_view part : {prefix, name, suffix})
        for (char ch : part) g.text[n++] = ch;  // ids are far below 96 characters; overflow is a compile error
    return g;
}

namespace detail {
template <class Table>
constexpr std::string_view row_name(const Table &table, std::uint32_t id) {
    const auto *row = abi::find_id(table, id);
    return row ? row->name : std::string_view{};  // an unknown id yields an id that no catalog holds
}
}  // namespace detail

template <std::uint32_t Format>
inline constexpr GeneratedId decode_id = make_generated("decode.", detail::row_name(abi::kWordFormats, Format));
template <std::uint32_t Format>
inline constexpr GeneratedId classify_id = make_generated("classify.", detail::row_name(abi::kWordFormats, Format));
template <std::uint32_t Role>
inline constexpr GeneratedId validity_id = make_generated("validity.", detail::row_name(abi::kRoles, Role));
template <std::uint32_t Conversion>
inline constexpr GeneratedId convert_id = make_generated("convert.", detail::row_name(abi::kConversions, Conversion));
template <std::uint32_t Conversion>
inline constexpr GeneratedId convert_nan_payload_id =
    make_generated("convert.", detail::row_name(abi::kConversions, Conversion), ".nan_payload");
template <std::uint32_t Format>
inline constexpr GeneratedId grouped_code_id = make_generated("grouped.code.", detail::row_name(abi::kGroupedFormats, Format));

/// The rule of a grouped format's illegal stored word, chosen by the registry column
/// `illegal_word` (tensor-formats.txt Section 5: Q8's 0x80, T2's 0b10).
/// A format whose illegal word has no rule is a logic error (std::logic_error).
constexpr RuleId illegal_word(const abi::GroupedFormat &f) {
    if (f.illegal_word == 0x80 && f.code_bits == 8) return grouped_code_q8_0x80_illegal;
    if (f.illegal_word == 0x2 && f.code_bits == 2) return grouped_code_t2_0b10_illegal;
    throw std::logic_error("rule_ids.hpp: no rule for the illegal word of " + std::string(f.name));
}

}  // namespace rule

}  // namespace ninfer::suites
