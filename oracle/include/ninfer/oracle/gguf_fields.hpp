// SPDX-License-Identifier: Apache-2.0
// The GGUF block layouts, named once on the truth side (tensor-formats.txt, the gguf_* paragraph;
// ggml-common.h's block_* structs): per registry row, every field of a block in order, with its
// byte offset, size and kind. The fields tile the block exactly (static_assert against the row's
// block bytes), so a transcription slip in an offset fails to compile. The oracle's decoders and
// quantizers and the suites' block builders read every field from here (field_at); the reference
// plugin keeps its own view, written from ggml's structs (reference/gguf_block_structs.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/abi/registry.hpp"

namespace ninfer::oracle {

/// What a block field holds.
enum class BlockFieldKind : std::uint8_t {
    fp16,          ///< a binary16 scale or min
    fp32,          ///< a binary32 scale (q8_K's d)
    e8m0,          ///< an E8M0 scale byte (mxfp4's e)
    ue4m3,         ///< a UE4M3 scale byte (nvfp4's d[4])
    iq1m_scales,   ///< iq1_m's four uint16 scale words: 3-bit sub-scales, d in their top nibbles
    u16,           ///< little-endian uint16 words (iq4_xs's scales_h)
    i16,           ///< little-endian int16 words (q8_K's bsums)
    bytes,         ///< packed quants, high bits, signs or 6/4-bit sub-scales: bytes read by the decoder
};

/// One field of a block: ggml's member name, byte offset, size in bytes, kind.
struct BlockField {
    std::string_view name;
    std::uint32_t offset, size;
    BlockFieldKind kind;
};

namespace block_fields {
using K = BlockFieldKind;
inline constexpr BlockField gguf_q4_0[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 16, K::bytes}};
inline constexpr BlockField gguf_q4_1[] = {{"d", 0, 2, K::fp16}, {"m", 2, 2, K::fp16}, {"qs", 4, 16, K::bytes}};
inline constexpr BlockField gguf_q5_0[] = {{"d", 0, 2, K::fp16}, {"qh", 2, 4, K::bytes}, {"qs", 6, 16, K::bytes}};
inline constexpr BlockField gguf_q5_1[] = {
    {"d", 0, 2, K::fp16}, {"m", 2, 2, K::fp16}, {"qh", 4, 4, K::bytes}, {"qs", 8, 16, K::bytes}};
inline constexpr BlockField gguf_q8_0[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 32, K::bytes}};
inline constexpr BlockField gguf_q8_1[] = {{"d", 0, 2, K::fp16}, {"s", 2, 2, K::fp16}, {"qs", 4, 32, K::bytes}};
inline constexpr BlockField gguf_q1_0[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 16, K::bytes}};
inline constexpr BlockField gguf_q2_0[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 16, K::bytes}};
inline constexpr BlockField gguf_q2_k[] = {
    {"scales", 0, 16, K::bytes}, {"qs", 16, 64, K::bytes}, {"d", 80, 2, K::fp16}, {"dmin", 82, 2, K::fp16}};
inline constexpr BlockField gguf_q3_k[] = {
    {"hmask", 0, 32, K::bytes}, {"qs", 32, 64, K::bytes}, {"scales", 96, 12, K::bytes}, {"d", 108, 2, K::fp16}};
inline constexpr BlockField gguf_q4_k[] = {
    {"d", 0, 2, K::fp16}, {"dmin", 2, 2, K::fp16}, {"scales", 4, 12, K::bytes}, {"qs", 16, 128, K::bytes}};
inline constexpr BlockField gguf_q5_k[] = {{"d", 0, 2, K::fp16},
                                           {"dmin", 2, 2, K::fp16},
                                           {"scales", 4, 12, K::bytes},
                                           {"qh", 16, 32, K::bytes},
                                           {"qs", 48, 128, K::bytes}};
inline constexpr BlockField gguf_q6_k[] = {
    {"ql", 0, 128, K::bytes}, {"qh", 128, 64, K::bytes}, {"scales", 192, 16, K::bytes}, {"d", 208, 2, K::fp16}};
inline constexpr BlockField gguf_q8_k[] = {{"d", 0, 4, K::fp32}, {"qs", 4, 256, K::bytes}, {"bsums", 260, 32, K::i16}};
inline constexpr BlockField gguf_iq2_xxs[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 64, K::bytes}};
inline constexpr BlockField gguf_iq2_xs[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 64, K::bytes}, {"scales", 66, 8, K::bytes}};
inline constexpr BlockField gguf_iq2_s[] = {
    {"d", 0, 2, K::fp16}, {"qs", 2, 64, K::bytes}, {"qh", 66, 8, K::bytes}, {"scales", 74, 8, K::bytes}};
inline constexpr BlockField gguf_iq3_xxs[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 96, K::bytes}};
inline constexpr BlockField gguf_iq3_s[] = {{"d", 0, 2, K::fp16},
                                            {"qs", 2, 64, K::bytes},
                                            {"qh", 66, 8, K::bytes},
                                            {"signs", 74, 32, K::bytes},
                                            {"scales", 106, 4, K::bytes}};
inline constexpr BlockField gguf_iq1_s[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 32, K::bytes}, {"qh", 34, 16, K::u16}};
inline constexpr BlockField gguf_iq1_m[] = {{"qs", 0, 32, K::bytes}, {"qh", 32, 16, K::bytes}, {"scales", 48, 8, K::iq1m_scales}};
inline constexpr BlockField gguf_iq4_nl[] = {{"d", 0, 2, K::fp16}, {"qs", 2, 16, K::bytes}};
inline constexpr BlockField gguf_iq4_xs[] = {
    {"d", 0, 2, K::fp16}, {"scales_h", 2, 2, K::u16}, {"scales_l", 4, 4, K::bytes}, {"qs", 8, 128, K::bytes}};
inline constexpr BlockField gguf_tq1_0[] = {{"qs", 0, 48, K::bytes}, {"qh", 48, 4, K::bytes}, {"d", 52, 2, K::fp16}};
inline constexpr BlockField gguf_tq2_0[] = {{"qs", 0, 64, K::bytes}, {"d", 64, 2, K::fp16}};
inline constexpr BlockField gguf_mxfp4[] = {{"e", 0, 1, K::e8m0}, {"qs", 1, 16, K::bytes}};
inline constexpr BlockField gguf_nvfp4[] = {
    {"d0", 0, 1, K::ue4m3}, {"d1", 1, 1, K::ue4m3}, {"d2", 2, 1, K::ue4m3}, {"d3", 3, 1, K::ue4m3}, {"qs", 4, 32, K::bytes}};
}  // namespace block_fields

/// Whether `fields` tile a block of `bytes` bytes: in order, each starting where the last ended.
constexpr bool fields_tile(std::span<const BlockField> fields, std::uint32_t bytes) {
    std::uint32_t at = 0;
    for (const auto &f : fields) {
        if (f.offset != at || f.size == 0) return false;
        at += f.size;
    }
    return at == bytes;
}

#define NINFER_X_(id, name, type, values, bytes, registered, refq) \
    static_assert(fields_tile(block_fields::name, bytes), "block_fields::" #name ": the fields do not tile the row's block bytes");
NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_

/// The byte offset of field `name` of `fields`; a name the block lacks does not compile.
consteval std::uint32_t field_at(std::span<const BlockField> fields, std::string_view name) {
    for (const auto &f : fields)
        if (f.name == name) return f.offset;
    throw "no such block field";
}

/// The bytes of a block of `fields` (the end of its last field).
consteval std::uint32_t block_size(std::span<const BlockField> fields) { return fields.back().offset + fields.back().size; }

/// The fields of each registry row, by row.
inline constexpr abi::GgufTable<std::span<const BlockField>> kBlockFields = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) std::span<const BlockField>(block_fields::name),
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

/// The fields of a GGUF type (its registry id); empty for an id of no row.
constexpr std::span<const BlockField> block_fields_of(std::uint32_t id) { return abi::gguf_entry(kBlockFields, id); }

}  // namespace ninfer::oracle
