// SPDX-License-Identifier: Apache-2.0
// Typed rule ids of the catalog (rules.hpp): a constant for every rule that stands alone, and
// generators for the families that the registry (ninfer/abi/registry.hpp) spells out, one rule
// per row: decode.<format>, classify.<format>, validity.<role>, convert.<conversion>,
// convert.<conversion>.nan_payload, convert.<conversion>.nan_sign, grouped.code.<format>,
// gguf.decode.<type>, gguf.quantize.<type>. A misspelt id is a compile error; the
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
    X(convert_sr_random_plane_size, "convert.sr.random_plane_size")                   \
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

/// The scaled family's rules (nvfp4 in block_scale_k16_m128x4_v1, the FP8 row formats,
/// fp8_row_maxabs, the lesson's NVFP4 recipe; rules_scaled.cpp): X(constant, id).
#define NINFER_SCALED_RULES(X)                                                        \
    X(nvfp4_code_e2m1, "nvfp4.code.e2m1")                                             \
    X(nvfp4_scale_validity, "nvfp4.scale.validity")                                   \
    X(nvfp4_scale_zero, "nvfp4.scale.zero")                                           \
    X(nvfp4_divisor_validity, "nvfp4.divisor.validity")                               \
    X(nvfp4_divisor_row_owner, "nvfp4.divisor.row_owner")                             \
    X(nvfp4_reconstruct, "nvfp4.reconstruct")                                         \
    X(block_scale_registry, "block_scale.registry")                                   \
    X(block_scale_geometry, "block_scale.geometry")                                   \
    X(block_scale_size, "block_scale.size")                                           \
    X(block_scale_code_plane, "block_scale.code_plane")                               \
    X(block_scale_swizzle, "block_scale.swizzle")                                     \
    X(block_scale_divisor_plane, "block_scale.divisor_plane")                         \
    X(block_scale_slice, "block_scale.slice")                                         \
    X(block_scale_gather, "block_scale.gather")                                       \
    X(block_scale_decode_boundary, "block_scale.decode_boundary")                     \
    X(fp8_row_code_validity, "fp8_row.code.validity")                                 \
    X(fp8_row_scale_validity, "fp8_row.scale.validity")                               \
    X(fp8_row_zero_row, "fp8_row.zero_row")                                           \
    X(fp8_row_reconstruct, "fp8_row.reconstruct")                                     \
    X(fp8_row_size, "fp8_row.size")                                                   \
    X(fp8_row_decode_boundary, "fp8_row.decode_boundary")                             \
    X(fp8_row_slice, "fp8_row.slice")                                                 \
    X(fp8_row_gather, "fp8_row.gather")                                               \
    X(row_scale_layout, "row_scale.layout")                                           \
    X(row_scale_gap, "row_scale.gap")                                                 \
    X(row_interleaved_layout, "row_interleaved.layout")                               \
    X(fp8_row_maxabs_bf16_inputs, "fp8_row_maxabs.bf16_inputs")                       \
    X(fp8_row_maxabs_scale_rounding, "fp8_row_maxabs.scale_rounding")                 \
    X(fp8_row_maxabs_rescue, "fp8_row_maxabs.rescue")                                 \
    X(fp8_row_maxabs_scale_overflow, "fp8_row_maxabs.scale_overflow")                 \
    X(fp8_row_maxabs_nonfinite, "fp8_row_maxabs.nonfinite")                           \
    X(fp8_row_maxabs_reciprocal_multiply, "fp8_row_maxabs.reciprocal_multiply")       \
    X(fp8_row_maxabs_clamp, "fp8_row_maxabs.clamp")                                   \
    X(fp8_row_maxabs_ties_to_even, "fp8_row_maxabs.ties_to_even")                     \
    X(fp8_row_maxabs_zero_row, "fp8_row_maxabs.zero_row")                             \
    X(fp8_row_maxabs_chunking, "fp8_row_maxabs.chunking")                             \
    X(fp8_row_maxabs_bit_exact, "fp8_row_maxabs.bit_exact")                           \
    X(lesson_nvfp4_two_level, "lesson.nvfp4_two_level")

/// The GGUF family's rules that stand alone (rules_gguf.cpp); one rule per block type besides:
/// gguf.decode.<type>, and gguf.quantize.<type> for the types with a reference quantizer.
#define NINFER_GGUF_RULES(X)                                                          \
    X(gguf_registry, "gguf.registry")                                                 \
    X(gguf_geometry, "gguf.geometry")                                                 \
    X(gguf_size, "gguf.size")                                                         \
    X(gguf_rows_slice, "gguf.rows.slice")                                             \
    X(gguf_rows_gather, "gguf.rows.gather")                                           \
    X(lesson_mxfp4, "lesson.mxfp4")

/// The `linear` operator's structural rules (suites/LINEAR.md); its criteria are generated, one
/// rule per row of abi::kCriteria: rule::linear_criterion(c), "linear.<criterion>".
#define NINFER_LINEAR_RULES(X)                                                        \
    X(linear_registry, "linear.registry")                                             \
    X(linear_shape, "linear.shape")                                                   \
    X(linear_profile, "linear.profile")                                               \
    X(linear_payload, "linear.payload")                                               \
    X(linear_nonfinite, "linear.nonfinite")

namespace rule {

#define NINFER_X_(constant, id) inline constexpr RuleId constant{id};
NINFER_FIXED_RULES(NINFER_X_)
NINFER_SCALED_RULES(NINFER_X_)
NINFER_GGUF_RULES(NINFER_X_)
NINFER_LINEAR_RULES(NINFER_X_)
#undef NINFER_X_

/// The `linear` operator's standalone rules, in catalog order.
inline constexpr RuleId kLinear[] = {
#define NINFER_X_(constant, id) constant,
    NINFER_LINEAR_RULES(NINFER_X_)
#undef NINFER_X_
};

/// The scaled and GGUF families' standalone rules, in catalog order.
inline constexpr RuleId kScaled[] = {
#define NINFER_X_(constant, id) constant,
    NINFER_SCALED_RULES(NINFER_X_)
#undef NINFER_X_
};
inline constexpr RuleId kGguf[] = {
#define NINFER_X_(constant, id) constant,
    NINFER_GGUF_RULES(NINFER_X_)
#undef NINFER_X_
};

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
/// The NaN sign profile of a conversion whose main rule leaves the sign open (suites/nan_principle.hpp).
inline std::string convert_nan_sign(const abi::Conversion &c) { return generated("convert.", c.name, ".nan_sign"); }
inline std::string grouped_code(const abi::GroupedFormat &f) { return generated("grouped.code.", f.name); }
/// ggml's dequantize_row_<type>, bit for bit (one rule per GGUF block type).
inline std::string gguf_decode(const abi::GgufType &t) { return generated("gguf.decode.", t.name); }
/// A named criterion of the `linear` op (abi::kCriteria): "linear.<criterion>".
inline std::string linear_criterion(const abi::Criterion &c) { return generated("linear.", c.name); }
/// ggml's quantize_row_<type>_ref, byte for byte (the types with ref_quantizer).
inline std::string gguf_quantize(const abi::GgufType &t) { return generated("gguf.quantize.", t.name); }

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
template <std::uint32_t Conversion>
inline constexpr GeneratedId convert_nan_sign_id =
    make_generated("convert.", detail::row_name(abi::kConversions, Conversion), ".nan_sign");
template <std::uint32_t Format>
inline constexpr GeneratedId grouped_code_id = make_generated("grouped.code.", detail::row_name(abi::kGroupedFormats, Format));
template <std::uint32_t Format>
inline constexpr GeneratedId gguf_decode_id = make_generated("gguf.decode.", detail::row_name(abi::kGgufTypes, Format));
template <std::uint32_t Criterion>
inline constexpr GeneratedId linear_criterion_id = make_generated("linear.", detail::row_name(abi::kCriteria, Criterion));
template <std::uint32_t Format>
inline constexpr GeneratedId gguf_quantize_id = make_generated("gguf.quantize.", detail::row_name(abi::kGgufTypes, Format));

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
