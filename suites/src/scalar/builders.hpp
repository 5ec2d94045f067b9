// SPDX-License-Identifier: Apache-2.0
// The word family's (folder scalar/) shared case builders (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// storage-layouts.md Sections 1, 2; number-formats-lesson.txt Examples 1-9, 13-15): word tables
// built from format geometry (TestFloat-style boundary exponents, significand patterns, whole
// narrow domains), the lesson's worked inputs, and the level and seed plumbing that every scalar
// suite (decode.cpp, classify.cpp, validate.cpp, convert.cpp, layout.cpp) shares.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites::scalar {

using namespace ninfer::oracle;
using Words = std::vector<std::uint64_t>;

inline constexpr std::uint64_t kFp32Sign = 0x80000000u;
inline constexpr std::uint64_t kFp32Inf = 0x7F800000u;
inline constexpr std::size_t kChunk = 256;          ///< words per case of a whole 16-bit domain
inline constexpr std::size_t kRandomChunk = 1024;   ///< words per random case
inline constexpr std::size_t kRandomFull = 4096;    ///< random words per rule at level full
inline constexpr std::size_t kRandomExhaustive = 65536;

// ---- small helpers ------------------------------------------------------------------------

/// Append `w` unless already present (order kept: tables read top to bottom).
void add(Words &out, std::unordered_set<std::uint64_t> &seen, std::uint64_t w);
Words unique(const Words &in);
std::uint64_t make_word(const WordFormat &f, bool negative, std::uint64_t exp, std::uint64_t frac);
std::uint64_t exp_ones(const WordFormat &f);
std::uint64_t frac_ones(const WordFormat &f);
std::uint8_t class_of(const WordFormat &f, std::uint64_t w);
bool is_nan_word(const WordFormat &f, std::uint64_t w);
bool is_negative_word(const WordFormat &f, std::uint64_t w);
/// FNV-1a of a name: independent random streams per rule, stable across registry growth.
std::uint64_t name_hash(std::string_view s);
/// The catalog's rule of this id (std::logic_error when absent).
const Rule &rule_of(const std::string &id);

// ---- word tables ------------------------------------------------------------------------

/// Special words of a format: signed zeros, subnormal and normal extremes, one, largest
/// finite, infinities and NaNs (quiet and signaling, both signs, small and large payloads).
Words special_words(const WordFormat &f);
/// Binade boundaries: for every exponent field, the first words and the last words of the
/// binade and a middle significand pattern; int32: powers of two and their neighbours.
Words binade_words(const WordFormat &f);
/// Every word of a format's domain (no word wider than the format).
Words domain_words(const WordFormat &f);
/// Bytes with bits above a sub-byte or unsigned format's width (CLASS_OUTSIDE).
Words outside_words(const WordFormat &f);

/// Whether a word's expected result rests on a suite reading (the rules table says which).
bool format_word_is_reading(const WordFormat &f, std::uint64_t w);

// ---- lesson worked examples (number-formats-lesson.txt) -------------------------------------

struct LessonWords {
    int example;
    std::string_view rule;  ///< "decode.fp32", "convert.fp32_to_fp16_rne", ...
    Words words;
};

/// The inputs the lesson's programs print, as words (fp32 inputs are the words of the float
/// literals the programs use; outputs are re-read by the decode and widening cases).
const std::vector<LessonWords> &lesson_words();

/// The lesson cases of one rule (source "lesson Example N").
template <class Make>
void add_lesson_cases(std::vector<Case> &out, const std::string &rule, Make make) {
    for (const auto &l : lesson_words())
        if (l.rule == rule) {
            const std::string n = std::to_string(l.example);
            out.push_back(make("lesson_example_" + n, Level::quick, "lesson Example " + n, l.words));
        }
}

/// Whole-domain cases: one case for a domain of at most 256 words, else one per 256 words.
template <class Make>
void add_domain_cases(std::vector<Case> &out, const WordFormat &f, Level level, Make make) {
    const Words all = domain_words(f);
    if (all.size() <= kChunk) {
        out.push_back(make("domain", level, "domain", all));
        return;
    }
    const int digits = (f.bits + 3) / 4;
    for (std::size_t i = 0; i < all.size(); i += kChunk) {
        const Words part(all.begin() + static_cast<std::ptrdiff_t>(i), all.begin() + static_cast<std::ptrdiff_t>(i + kChunk));
        out.push_back(make("domain_" + hex(part.front(), digits), level, "domain", part));
    }
}

template <class Make>
void add_format_cases(std::vector<Case> &out, const WordFormat &f, const std::string &rule, Make make) {
    out.push_back(make("specials", Level::quick, "special values", special_words(f)));
    out.push_back(make("binade_boundaries", Level::quick, "boundary", binade_words(f)));
    const Words outside = outside_words(f);
    if (!outside.empty()) out.push_back(make("outside_bits", Level::quick, "boundary", outside));
    add_lesson_cases(out, rule, make);
    // Every word of a format of 16 bits or less at level full (65 536 words are cheap).
    if (f.bits <= 16) add_domain_cases(out, f, Level::full, make);
}

/// Random cases of one rule: chunks of kRandomChunk words, the first kRandomFull at level full.
template <class Draw, class Make>
void add_random_cases(std::vector<Case> &out, const std::string &rule, std::uint64_t seed, Level level, Draw draw,
                      Make make) {
    if (level == Level::quick) return;
    std::mt19937_64 rng(seed ^ name_hash(rule));
    const std::size_t total = level == Level::full ? kRandomFull : kRandomExhaustive;
    for (std::size_t i = 0; i < total; i += kRandomChunk) {
        Words words;
        while (words.size() < kRandomChunk) {
            const auto w = draw(rng);
            if (w) words.push_back(*w);
        }
        const Level l = i < kRandomFull ? Level::full : Level::exhaustive;
        const std::string source = "random seed=" + std::to_string(seed);
        out.push_back(make("random_s" + std::to_string(seed) + "_" + std::to_string(i / kRandomChunk), l, source, words));
    }
}

std::optional<std::uint64_t> uniform_word(std::mt19937_64 &rng, const WordFormat &f);

// ---- suites ---------------------------------------------------------------------------------

/// Golden cases computed once per process, then filtered by level.
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)());
std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level));
std::vector<Case> none(std::uint64_t, Level);

/// The suites of the family, one per file.
Suite decode_suite();
Suite classify_suite();
Suite validate_suite();
Suite convert_suite();
Suite contiguous_suite();
Suite registry_suite();

}  // namespace ninfer::suites::scalar
