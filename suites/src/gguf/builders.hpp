// SPDX-License-Identifier: Apache-2.0
// The GGUF family's shared case builders (tensor-formats.txt, the gguf_* table and its
// paragraph; storage-layouts.md Sections 1 and 7): block images built field by field from
// ggml-common.h's block_* structs (the scale fields of each type, its coverage blocks: every
// code, grid index, sign table entry and sub-block scale), seeded blocks (portable: integer RNG
// only), and the case of each op with its expected output from the oracle
// (ninfer/oracle/gguf.hpp, scaled.hpp). The suites are one file each in this folder:
// decode.cpp, quantize.cpp, layout.cpp, lesson.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ninfer/oracle/gguf.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites::gguf {

using namespace ninfer::oracle;
using Bytes = std::vector<std::uint8_t>;
using U32 = std::vector<std::uint32_t>;
using Shape = std::vector<std::uint64_t>;

inline constexpr std::uint32_t kBlocks = NINFER_LAYOUT_ggml_blocks_v1;
inline constexpr std::uint64_t kGoldenSeed = 0x6767756600000000ull;  ///< "gguf": the fixed seed of golden random blocks

// ---- small helpers ------------------------------------------------------------------------

std::string name_of(const GgufType &t);
/// "2x3x256"; "rank0" for the empty shape.
std::string shape_slug(const Shape &shape);
/// The product of the dimensions (saturating at UINT64_MAX).
std::uint64_t elements(const Shape &shape);
Bytes le32(const U32 &w);
Bytes le64(const std::vector<std::uint64_t> &w);
void put16(Bytes &b, std::size_t at, std::uint16_t w);
void put32(Bytes &b, std::size_t at, std::uint32_t w);
/// Blocks laid end to end (a row-major payload).
Bytes concat(const std::vector<Bytes> &blocks);

// ---- block fields (ggml-common.h block_*, by the registry column ggml_type) ----------------

/// How a block's scale field is stored.
enum class ScaleKind : std::uint8_t { fp16, fp32, e8m0, ue4m3, iq1m_nibbles };
/// A scale field of a block type: its kind, byte offset, and name in ggml's struct.
struct ScaleField {
    ScaleKind kind;
    std::size_t offset;
    const char *name;
};
/// The scale fields of a type, the super-block scale `d` first (e.g. q4_k: d, dmin; q8_1: d,
/// and s, a binary16 that ggml's dequantizer does not read). Throws for an unknown type.
std::vector<ScaleField> scale_fields(const GgufType &t);
/// Write a scale word into a field (iq1_m: the four top nibbles of its scale words).
void set_scale(Bytes &block, const ScaleField &f, std::uint32_t word);
/// The extreme words of a scale kind with their slugs: zero, subnormal, largest, negative,
/// and the infinities and NaNs ggml lets through.
std::vector<std::pair<std::string, std::uint32_t>> extreme_scales(ScaleKind kind);
/// A word of the kind whose value is a moderate positive number (1.0, or 0.5 for ue4m3).
std::uint32_t unit_scale(ScaleKind kind);

/// A seeded block: random bytes, every scale field a finite word of moderate magnitude.
Bytes seeded_block(const GgufType &t, std::mt19937_64 &rng);
/// Named groups of coverage blocks of a type (every code, grid index, sign-table entry and
/// sub-block scale at least once; high-bit orders, nibble orders, trits, offsets, delta signs).
struct BlockGroup {
    std::string slug;
    std::vector<Bytes> blocks;
};
std::vector<BlockGroup> coverage_blocks(const GgufType &t);

// ---- cases of each op ---------------------------------------------------------------------

/// A call of a GGUF op: format, layout ggml_blocks_v1, shape, count = elements.
Case call_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
               std::uint32_t format, std::uint32_t layout, const Shape &shape);
/// quant_decode (or payload_validate) of a payload; expected values from gguf_dequantize_block,
/// or E_SIZE (detail size) for a shape or payload size the geometry refuses. A case whose
/// expected values hold a NaN compares NaN words under NanPolicy::any (ggml's NaN bits follow
/// the host's NaN propagation).
Case decode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const GgufType &t, const Shape &shape, const Bytes &payload, std::uint32_t op = NINFER_OP_quant_decode);
/// quant_encode by ggml_quantize_ref from fp32 words; expected blocks from gguf_quantize_block_ref.
Case quantize_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                   const GgufType &t, const Shape &shape, const U32 &x);
/// quant_encode by mxfp4_ocp (gguf_mxfp4) from fp32 words; expected blocks from mxfp4_encode_block.
Case mxfp4_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, const Shape &shape,
                const U32 &x);
/// The block_mxfp4 bytes of an encoded MXFP4 block: e, then element j in the low nibble of
/// qs[j] and element j + 16 in its high nibble.
Bytes mxfp4_block_bytes(const Mxfp4Block &b);
/// rows_select of a rank-2 payload: a slice {first, count} or a gather; expected from
/// ggml_blocks_select_rows, or E_INVALID_ARGUMENT for a selection it refuses.
Case select_case(const std::string &rule, const std::string &slug, Level level, const GgufType &t, const Shape &shape,
                 const Bytes &payload, const std::vector<std::uint64_t> &rows_plane, bool gather);

/// The types with a reference quantizer (registry column ref_quantizer).
std::vector<const GgufType *> quantizer_types();

// ---- suites ---------------------------------------------------------------------------------

/// Cases with their suite-reading flags (the rule's).
std::vector<Case> mark_readings(std::vector<Case> cases);
std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level));
/// Golden cases computed once per process, then filtered by level.
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)());

Suite decode_suite();
Suite quantize_suite();
Suite layout_suite();
Suite lesson_suite();

}  // namespace ninfer::suites::gguf
