// SPDX-License-Identifier: Apache-2.0
// The scaled family's shared case builders (tensor-formats.txt Sections 3.3, 3.4, 8;
// storage-layouts.md Sections 1, 4, 5, 6, 8): logical nvfp4 and FP8 row matrices, seeded words
// (portable: integer RNG only), and the cases of each op (layout_encode, layout_decode /
// quant_decode / payload_validate, rows_select, quant_encode) with their expected outputs from
// the oracle API (ninfer/oracle/scaled.hpp) under the call semantics of the family contract
// (suites/SCALED.md). The suites are one file each in this folder: nvfp4.cpp, block_scale.cpp,
// fp8_rows.cpp, maxabs.cpp, lesson.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites::scaled {

using namespace ninfer::oracle;
using Bytes = std::vector<std::uint8_t>;
using U16 = std::vector<std::uint16_t>;
using U32 = std::vector<std::uint32_t>;
using U64 = std::vector<std::uint64_t>;

inline constexpr std::uint32_t kNvfp4 = NINFER_FORMAT_nvfp4;
inline constexpr std::uint32_t kBlockScale = NINFER_LAYOUT_block_scale_k16_m128x4_v1;
inline constexpr std::uint64_t kGoldenSeed = 0x7363616c65640000ull;  ///< "scaled": the fixed seed of golden random words

// ---- small helpers ------------------------------------------------------------------------

std::string shape_slug(std::uint64_t n, std::uint64_t k);
Bytes le16(const U16 &w);
Bytes le32(const U32 &w);
Bytes le64(const U64 &w);
/// The FP8 row formats of the registry (kScaledFormats rows with a row layout), in registry order.
std::vector<Fp8RowFormat> fp8_row_formats();
std::string fp8_name(const Fp8RowFormat &f);

// ---- nvfp4 --------------------------------------------------------------------------------

/// A logical nvfp4 matrix whose words come from functions of the coordinates.
Nvfp4Matrix nv_matrix(std::uint64_t n, std::uint64_t k, const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &code,
                      const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &scale, const U32 &divisors);
/// A seeded matrix: random codes (all 16 words), valid scales (finite sign-zero, +0 rare),
/// the given divisors.
Nvfp4Matrix nv_seeded(std::uint64_t n, std::uint64_t k, const U32 &divisors, std::uint64_t seed);
/// The number of divisors a payload of `bytes` bytes holds for [n, k]; 0 when the size is wrong.
std::uint64_t nv_divisors_of(std::uint64_t n, std::uint64_t k, std::uint64_t bytes);

/// A call of nvfp4 in block_scale_k16_m128x4_v1 with shape {n, k} and count n*k.
Case nv_call(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
             std::uint64_t n, std::uint64_t k);
/// layout_encode of the logical words (planes as given); expected payload or refusal.
Case nv_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                    const Nvfp4Matrix &m);
/// layout_decode / quant_decode / payload_validate of a payload; the divisors follow from its size.
Case nv_payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                     std::uint32_t op, std::uint64_t n, std::uint64_t k, const Bytes &payload);
/// The three payload ops of one payload (payload_validate, layout_decode, quant_decode), slugs
/// suffixed ".validate", ".layout_decode", ".quant_decode".
void nv_payload_triple(std::vector<Case> &out, const std::string &rule, const std::string &slug, Level level,
                       const std::string &source, std::uint64_t n, std::uint64_t k, const Bytes &payload);
/// rows_select of an nvfp4 payload: a gather of `rows` or a slice {first, count}.
Case nv_select_case(const std::string &rule, const std::string &slug, Level level, std::uint64_t n, std::uint64_t k,
                    const Bytes &payload, const U64 &rows, bool gather, const U64 &slice = {});
/// Expected VALUES of a decoded matrix: binary32(e2m1 * e4m3 / d_w) per element.
U32 nv_values(const Nvfp4Matrix &m);

// ---- FP8 rows -----------------------------------------------------------------------------

Fp8RowMatrix f8_matrix(std::uint64_t n, std::uint64_t k, const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &code,
                       const std::function<std::uint16_t(std::uint64_t)> &scale);
/// A seeded matrix: random finite codes (every word but 0x7F/0xFF), valid nonzero multipliers
/// near 1 (exponents in a range that keeps most products finite).
Fp8RowMatrix f8_seeded(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t seed);
Case f8_call(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
             const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k);
Case f8_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                    const Fp8RowFormat &f, const Fp8RowMatrix &m);
Case f8_payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                     std::uint32_t op, const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload);
void f8_payload_triple(std::vector<Case> &out, const std::string &rule, const std::string &slug, Level level,
                       const std::string &source, const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload);
Case f8_select_case(const std::string &rule, const std::string &slug, Level level, const Fp8RowFormat &f, std::uint64_t n,
                    std::uint64_t k, const Bytes &payload, const U64 &rows, bool gather, const U64 &slice = {});
/// quant_encode by fp8_row_maxabs: source words of `source_format` (fp32, bf16, fp16), N rows of
/// K; the expected payload, or the status of the first refused row.
Case maxabs_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const Fp8RowFormat &f, std::uint32_t source_format, std::uint64_t n, std::uint64_t k, const U64 &words);
/// quant_encode by nvfp4_two_level of binary32 words [n, k] (lesson.cpp).
Case two_level_case(const std::string &slug, Level level, const std::string &source, std::uint64_t n, std::uint64_t k, const U32 &x);
/// Byte width of a source format's words (fp32 4, bf16/fp16 2).
int source_bytes(std::uint32_t source_format);

// ---- suites ---------------------------------------------------------------------------------

/// Flag the cases that rest on a suite reading (their rule has one).
std::vector<Case> mark_readings(std::vector<Case> cases);
std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level));
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)());

Suite nvfp4_suite();
Suite block_scale_suite();
Suite fp8_rows_suite();
Suite row_scale_suite();
Suite row_interleaved_suite();
Suite maxabs_suite();
Suite lesson_suite();

}  // namespace ninfer::suites::scaled
