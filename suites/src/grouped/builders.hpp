// SPDX-License-Identifier: Apache-2.0
// The grouped family's shared case builders (tensor-formats.txt Sections 3.2, 4-9;
// storage-layouts.md Sections 1, 3): exact input words (m * 2^e), logical matrices, seeded
// sources (portable: integer RNG only), lane-level payload corruption, and the cases of each op
// (layout_encode, layout_decode / quant_decode / payload_validate, quant_encode) with their
// expected outputs from the oracle API (ninfer/oracle/grouped.hpp, row_split.hpp). The suites
// are one file each in this folder: codes.cpp, absmax.cpp, search.cpp, row_split.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites::grouped {

using namespace ninfer::oracle;
using Bytes = std::vector<std::uint8_t>;
using U16 = std::vector<std::uint16_t>;
using U32 = std::vector<std::uint32_t>;

inline constexpr std::uint32_t kRowSplit = NINFER_LAYOUT_row_split_k128_v1;
inline constexpr std::uint64_t kGoldenSeed = 0x67726f7570656400ull;  ///< "grouped": the fixed seed of golden random matrices

// ---- small helpers ------------------------------------------------------------------------

std::string name_of(const GroupedFormat &f);
std::string shape_slug(std::uint64_t n, std::uint64_t k);
/// An exact value m * 2^e as a word of a binary float with `man` fraction bits and bias `bias`
/// (input construction only; throws when the value is not representable).
std::uint32_t float_word(std::int64_t m, int e, int man, int bias, int exp_bits);
std::uint32_t f32w(std::int64_t m, int e);
std::uint16_t f16w(std::int64_t m, int e);
/// The exact value of a finite nonzero binary16 word as m * 2^e.
std::pair<std::int64_t, int> f16_parts(std::uint16_t w);
Bytes le32(const U32 &w);
Bytes le16(const U16 &w);
Bytes le64(const std::vector<std::uint64_t> &w);
Bytes codes_bytes(const std::vector<std::int8_t> &q);
/// The distinct values of a list, first occurrence kept (shape lists that coincide for some G).
std::vector<std::uint64_t> distinct(std::initializer_list<std::uint64_t> v);
std::uint64_t logical_groups(const GroupedFormat &f, std::uint64_t k);

// ---- matrices -----------------------------------------------------------------------------

/// A logical matrix whose codes come from `code(row, col)` and scales from `scale(row, group)`.
GroupedMatrix make_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k,
                          const std::function<int(std::uint64_t, std::uint64_t)> &code,
                          const std::function<std::uint16_t(std::uint64_t, std::uint64_t)> &scale);
/// A seeded matrix of legal codes and valid nonzero scales.
GroupedMatrix seeded_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t seed);

// ---- cases of each op ---------------------------------------------------------------------

Case call_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
               const GroupedFormat &f, std::uint64_t n, std::uint64_t k);
/// layout_encode: codes (int8) and scales (uint16) to the canonical payload.
Case layout_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                        const GroupedFormat &f, const GroupedMatrix &m);
/// layout_decode / quant_decode / payload_validate of a payload, as the oracle decodes it.
Case payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                  std::uint32_t op, const GroupedFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload);
/// quant_encode by grouped_absmax or grouped_search; expected payload or refusal from the oracle.
Case encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const GroupedFormat &f, std::uint32_t source_format, std::uint64_t n, std::uint64_t k, const Bytes &src,
                 std::uint32_t method = NINFER_ENCODER_grouped_absmax, const U32 &importance = {}, bool negative = false);
Case encode32(const std::string &rule, const std::string &slug, Level level, const std::string &source,
              const GroupedFormat &f, std::uint64_t n, std::uint64_t k, const U32 &x);
/// The formats that grouped_absmax and grouped_search serve (registry column canonical_encoders).
std::vector<const GroupedFormat *> canonical_formats();

// ---- random source values (portable: integer RNG only) -----------------------------------

/// A seeded binary32 weight: random sign and fraction, biased exponent in [lo, hi]; 1 in 16 zero.
std::uint32_t seeded_f32(std::mt19937_64 &rng, int lo, int hi);
/// A seeded [n,k] source: rows of different magnitudes (weights ~2^-12..2^-1), a few outliers.
U32 seeded_source(std::uint64_t n, std::uint64_t k, std::uint64_t seed);

// ---- payload corruption: the oracle's corrupt_* (ninfer/oracle/row_split.hpp) ---------------

/// The stored words of nonzero codes whose base-plane bits are all zero (q5 -16; q6 -32, -16,
/// 16): only the high plane tells them from code 0.
std::vector<std::uint32_t> high_only_words(const GroupedFormat &f);

// ---- suites ---------------------------------------------------------------------------------

/// Seeded cases of a suite, with their suite-reading flags (mark_readings).
std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level));
/// Golden cases computed once per process, then filtered by level.
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)());

/// The suites of the family, one per file.
Suite codes_suite();
Suite absmax_suite();
Suite search_suite();
Suite row_split_suite();

}  // namespace ninfer::suites::grouped
