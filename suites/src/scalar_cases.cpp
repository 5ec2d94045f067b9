// SPDX-License-Identifier: Apache-2.0
// The scalar suites and their case generators (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// storage-layouts.md Sections 1, 2; number-formats-lesson.txt Examples 1-9, 13-15). Inputs are
// built from format geometry (TestFloat-style tables of boundary exponents, significand patterns,
// ties and their neighbours); every expected output comes from the oracle API.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "ninfer/oracle/contiguous.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

using namespace ninfer::oracle;
using Words = std::vector<std::uint64_t>;

constexpr std::uint64_t kFp32Sign = 0x80000000u;
constexpr std::uint64_t kFp32Inf = 0x7F800000u;
constexpr std::size_t kChunk = 256;          ///< words per case of a whole 16-bit domain
constexpr std::size_t kRandomChunk = 1024;   ///< words per random case
constexpr std::size_t kRandomFull = 4096;    ///< random words per rule at level full
constexpr std::size_t kRandomExhaustive = 65536;

// ---- small helpers ------------------------------------------------------------------------

std::string hex(std::uint64_t w, int digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, w >>= 4) s[static_cast<std::size_t>(i)] = kDigits[w & 0xF];
    return s;
}

/// Append `w` unless already present (order kept: tables read top to bottom).
void add(Words &out, std::unordered_set<std::uint64_t> &seen, std::uint64_t w) {
    if (seen.insert(w).second) out.push_back(w);
}

Words unique(const Words &in) {
    Words out;
    std::unordered_set<std::uint64_t> seen;
    for (auto w : in) add(out, seen, w);
    return out;
}

std::uint64_t make_word(const WordFormat &f, bool negative, std::uint64_t exp, std::uint64_t frac) {
    const std::uint64_t sign = negative && f.has_sign ? 1ull << (f.bits - 1) : 0;
    return sign | (exp << f.man_bits) | frac;
}

std::uint64_t exp_ones(const WordFormat &f) { return (1ull << f.exp_bits) - 1; }
std::uint64_t frac_ones(const WordFormat &f) { return (1ull << f.man_bits) - 1; }

std::uint8_t class_of(const WordFormat &f, std::uint64_t w) {
    return static_cast<std::uint8_t>(word_class_byte(f, w) & ~NINFER_CLASS_SIGN);
}
bool is_nan_word(const WordFormat &f, std::uint64_t w) {
    const auto c = class_of(f, w);
    return c == NINFER_CLASS_QNAN || c == NINFER_CLASS_SNAN || c == NINFER_CLASS_NAN || c == NINFER_CLASS_OUTSIDE;
}
bool is_negative_word(const WordFormat &f, std::uint64_t w) { return (word_class_byte(f, w) & NINFER_CLASS_SIGN) != 0; }

/// FNV-1a of a name: independent random streams per rule, stable across registry growth.
std::uint64_t name_hash(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
    return h;
}

const Rule &rule_of(const std::string &id) {
    const Rule *r = find_rule(id);
    if (!r) throw std::logic_error("scalar_cases.cpp: rule " + id + " is not in the catalog");
    return *r;
}

// ---- word tables ------------------------------------------------------------------------

/// Special words of a format: signed zeros, subnormal and normal extremes, one, largest
/// finite, infinities and NaNs (quiet and signaling, both signs, small and large payloads).
Words special_words(const WordFormat &f) {
    Words out;
    std::unordered_set<std::uint64_t> seen;
    if (f.special == Special::INT) {
        const std::uint64_t top = 1ull << (f.bits - 1);
        for (std::uint64_t w : Words{0ull, 1ull, f.mask(), top, top - 1, top + 1, top - 2, f.mask() - 1, 0xFFFFull,
                                0x10000ull, f.mask() - 0xFFFFull})
            add(out, seen, w & f.mask());
        return out;
    }
    if (f.special == Special::E8M0) {
        for (std::uint64_t w : Words{0x00ull, 0x01ull, 0x7Full, 0x80ull, 0xFDull, 0xFEull, 0xFFull}) add(out, seen, w);
        return out;
    }
    for (bool neg : {false, true}) {
        if (neg && !f.has_sign) break;
        add(out, seen, make_word(f, neg, 0, 0));
        if (f.man_bits > 0) {
            add(out, seen, make_word(f, neg, 0, 1));
            add(out, seen, make_word(f, neg, 0, frac_ones(f)));
        }
        add(out, seen, make_word(f, neg, 1, 0));
        if (f.bias > 0 && static_cast<std::uint64_t>(f.bias) <= exp_ones(f)) add(out, seen, make_word(f, neg, f.bias, 0));
        add(out, seen, largest_finite_word(f) | make_word(f, neg, 0, 0));
        if (f.special == Special::IEEE) {
            const std::uint64_t quiet = 1ull << (f.man_bits - 1);
            add(out, seen, make_word(f, neg, exp_ones(f), 0));
            add(out, seen, make_word(f, neg, exp_ones(f), quiet));
            add(out, seen, make_word(f, neg, exp_ones(f), quiet | 1));
            add(out, seen, make_word(f, neg, exp_ones(f), frac_ones(f)));
            add(out, seen, make_word(f, neg, exp_ones(f), 1));
            add(out, seen, make_word(f, neg, exp_ones(f), quiet - 1));
        }
        if (f.special == Special::FN) add(out, seen, make_word(f, neg, exp_ones(f), frac_ones(f)));
    }
    return out;
}

/// Binade boundaries: for every exponent field, the first words and the last words of the
/// binade and a middle significand pattern; int32: powers of two and their neighbours.
Words binade_words(const WordFormat &f) {
    Words out;
    std::unordered_set<std::uint64_t> seen;
    if (f.special == Special::INT) {
        for (int k = 0; k < f.bits; ++k)
            for (std::uint64_t d : Words{0ull, 1ull, f.mask()}) {
                const std::uint64_t p = (1ull << k) + d;
                add(out, seen, p & f.mask());
                add(out, seen, (~p + 1) & f.mask());
            }
        return out;
    }
    if (f.special == Special::E8M0) {
        for (std::uint64_t w = 0; w <= 0xFF; ++w) add(out, seen, w);
        return out;
    }
    const std::uint64_t fo = frac_ones(f);
    for (bool neg : {false, true}) {
        if (neg && !f.has_sign) break;
        for (std::uint64_t e = 0; e <= exp_ones(f); ++e) {
            if (f.special == Special::IEEE && e == exp_ones(f)) break;  // specials cover the last exponent
            for (std::uint64_t fr : Words{0ull, 1ull, fo / 2, fo / 2 + 1, fo - 1, fo})
                if (fr <= fo) add(out, seen, make_word(f, neg, e, fr));
        }
    }
    return out;
}

/// Every word of a format's domain (no word wider than the format).
Words domain_words(const WordFormat &f) {
    Words out(f.mask() + 1);
    for (std::uint64_t w = 0; w <= f.mask(); ++w) out[w] = w;
    return out;
}

/// Bytes with bits above a sub-byte or unsigned format's width (CLASS_OUTSIDE).
Words outside_words(const WordFormat &f) {
    Words out;
    const std::uint64_t container = (1ull << (8 * f.bytes())) - 1;
    if (f.mask() == container) return out;
    for (std::uint64_t w : Words{f.mask() + 1, (f.mask() + 1) | 1, container}) out.push_back(w);
    return unique(out);
}

// ---- cases ---------------------------------------------------------------------------------

/// Whether a word's expected result rests on a suite reading (rules_scalar.cpp says which).
bool format_word_is_reading(const WordFormat &f, std::uint64_t w) {
    if (w > f.mask()) return true;                                      // outside the format
    if (f.special == Special::E8M0 && is_nan_word(f, w)) return true;   // 0xFF NaN (OCP MX)
    if (!f.has_sign && f.special == Special::FN && is_nan_word(f, w)) return true;  // UE4M3 0x7F
    return false;
}

/// The NaN payload profile of a conversion (nan_principle.hpp): its NaN source words, compared
/// bit for bit with the oracle's word under rule convert.<name>.nan_payload.
Case nan_payload_case(const Conversion &cv, const std::string &slug, Level level, const std::string &source, const Words &words);

/// Whether a conversion's result for a source word rests on the reading its rule names (NaN,
/// and for unsigned targets negative and infinite inputs; every E8M0 result).
bool conversion_word_is_reading(const Conversion &c, std::uint64_t w, bool rule_reading) {
    if (!rule_reading) return false;
    const auto &src = word_format(c.src);
    const auto &dst = word_format(c.dst);
    if (is_nan_word(src, w) || format_word_is_reading(src, w)) return true;
    if (dst.special == Special::E8M0) return true;  // the E8M0 roundings and clamps are readings
    if (!dst.has_sign && (is_negative_word(src, w) || class_of(src, w) == NINFER_CLASS_INFINITE)) return true;
    return false;
}

Case decode_case(const WordFormat &f, const std::string &slug, Level level, const std::string &source,
                 const Words &words) {
    Case c = base_case("decode." + std::string(f.name), slug, level, source);
    c.op = NINFER_OP_decode;
    c.format = f.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_VALUES), decode_to_binary64(f, w), 8);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    c.nan = NanPolicy::same_sign;
    return c;
}

Case classify_case(const WordFormat &f, const std::string &slug, Level level, const std::string &source,
                   const Words &words) {
    Case c = base_case("classify." + std::string(f.name), slug, level, source);
    c.op = NINFER_OP_classify;
    c.format = f.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_CLASSES), word_class_byte(f, w), 1);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    return c;
}

Case validate_case(const Role &r, const std::string &slug, Level level, const std::string &source, const Words &words) {
    const auto &f = word_format(r.format);
    Case c = base_case("validity." + std::string(r.name), slug, level, source);
    c.op = NINFER_OP_validate;
    c.format = f.id;
    c.method = r.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_VERDICTS), role_verdict(r, w), 1);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    return c;
}

/// The NaN policy of a conversion's rule: the NaN principle's (nan_principle.hpp).
NanPolicy nan_policy(const Conversion &c) { return nan_principle(c).policy; }

/// Whether a source word is inside the conversion's domain (UNDEFINED: NaN is not).
bool in_domain(const Conversion &c, std::uint64_t w) {
    const auto &src = word_format(c.src);
    if (w > src.mask()) return false;
    return !(c.nan_rule == NanRule::UNDEFINED && is_nan_word(src, w));
}

Case convert_case(const Conversion &cv, const std::string &slug, Level level, const std::string &source,
                  const Words &words) {
    const auto &src = word_format(cv.src);
    const auto &dst = word_format(cv.dst);
    Case c = base_case("convert." + std::string(cv.name), slug, level, source);
    const bool rule_reading = rule_of(c.rule).suite_reading;
    c.op = NINFER_OP_convert;
    c.format = dst.id;
    c.format_in = src.id;
    c.method = cv.id;
    for (auto w : words) {
        if (!in_domain(cv, w)) throw std::logic_error("case " + c.id + ": word outside the conversion's domain");
        put_word(c.input(NINFER_PLANE_WORDS), w, src.bytes());
        put_word(c.expect.output(NINFER_PLANE_WORDS), convert_word(cv, w), dst.bytes());
        c.suite_reading = c.suite_reading || conversion_word_is_reading(cv, w, rule_reading);
    }
    c.count = words.size();
    c.nan = nan_policy(cv);
    return c;
}

Case nan_payload_case(const Conversion &cv, const std::string &slug, Level level, const std::string &source, const Words &words) {
    Case c = convert_case(cv, slug, level, source, words);
    c.rule = nan_payload_rule(cv);
    c.id = c.rule + "/" + slug;
    c.nan = NanPolicy::exact;
    c.suite_reading = true;
    return c;
}

/// The conversion from `format` to fp32 that the registry names (every target has one).
const Conversion &widening_of(std::uint32_t format) {
    for (const auto &c : kConversions)
        if (c.src == format && c.dst == NINFER_FORMAT_fp32) return c;
    throw std::logic_error("no <format>_to_fp32 conversion for " + std::string(format_name(format)));
}

/// fp32 word of x/2 for a positive power of two x (exact: fp32 holds every power down to 2^-149).
std::uint64_t fp32_half(std::uint64_t w) {
    const std::uint64_t e = (w >> 23) & 0xFF;
    if (e > 1) return w - (1ull << 23);
    if (e == 1) return 0x00400000u;
    return w >> 1;
}

// ---- lesson worked examples (number-formats-lesson.txt) -------------------------------------

struct LessonWords {
    int example;
    std::string_view rule;  ///< "decode.fp32", "convert.fp32_to_fp16_rne", ...
    Words words;
};

/// The inputs the lesson's programs print, as words (fp32 inputs are the words of the float
/// literals the programs use; outputs are re-read by the decode and widening cases).
const std::vector<LessonWords> &lesson_words() {
    static const std::vector<LessonWords> k = {
        // Example 1: 1.0f, -2.5f, 0.1f
        {1, "decode.fp32", {0x3F800000, 0xC0200000, 0x3DCCCCCD}},
        {1, "classify.fp32", {0x3F800000, 0xC0200000, 0x3DCCCCCD}},
        // Example 2: 0.1f, 1, 1000, 1e6, 2^24, their ulps 2^-23, 2^-14 (6.1035156E-5), 0.0625, 2
        {2, "decode.fp32", {0x3DCCCCCD, 0x3F800000, 0x447A0000, 0x49742400, 0x4B800000, 0x34000000, 0x38800000,
                            0x3D800000, 0x40000000, 0x4B800001}},
        // Example 3: 0.1f, 1f/3, 3.14159265f, 1000.3f, 65504f, 65519f, 65520f, 100000f, 1 + 1/1024
        {3, "convert.fp32_to_fp16_rne", {0x3DCCCCCD, 0x3EAAAAAB, 0x40490FDB, 0x447A1333, 0x477FE000, 0x477FEF00,
                                         0x477FF000, 0x47C35000, 0x3F802000}},
        {3, "decode.fp16", {0x2E66, 0x3555, 0x4248, 0x63D1, 0x7BFF, 0x7C00, 0x3C01}},
        {3, "convert.fp16_to_fp32", {0x2E66, 0x3555, 0x4248, 0x63D1, 0x7BFF, 0x7C00, 0x3C01}},
        // Example 4: 2^-14, 2^-24, 1e-4f, 1e-5f, 1e-6f, 1e-7f, 3e-8f, 2.9e-8f
        {4, "convert.fp32_to_fp16_rne", {0x38800000, 0x33800000, 0x38D1B717, 0x3727C5AC, 0x358637BD, 0x33D6BF95,
                                         0x3300D959, 0x32F91BAD}},
        {4, "decode.fp16", {0x0400, 0x0001, 0x068E, 0x00A8, 0x0011, 0x0002, 0x0000}},
        {4, "classify.fp16", {0x0400, 0x0001, 0x068E, 0x00A8, 0x0011, 0x0002, 0x0000}},
        // Example 5: 3.14159265f, 0.1f, 1.00390625f, 1.01171875f, 65520f, 3.0e38f
        {5, "convert.fp32_to_bf16_rne", {0x40490FDB, 0x3DCCCCCD, 0x3F808000, 0x3F818000, 0x477FF000, 0x7F61B1E6}},
        {5, "convert.fp32_to_bf16_rtz", {0x40490FDB, 0x3DCCCCCD, 0x3F808000, 0x3F818000, 0x477FF000, 0x7F61B1E6}},
        {5, "decode.bf16", {0x4049, 0x3DCC, 0x3DCD, 0x3F80, 0x3F81, 0x3F82, 0x477F, 0x4780, 0x7F61, 0x7F62}},
        {5, "convert.bf16_to_fp32", {0x4049, 0x3DCC, 0x3DCD, 0x3F80, 0x3F81, 0x3F82, 0x477F, 0x4780, 0x7F61, 0x7F62}},
        // Example 6: 1e-8f, 1e-6f, 0.1f, 1000.5f, 70000f, 1e10f in both 16-bit formats
        {6, "convert.fp32_to_fp16_rne", {0x322BCC77, 0x358637BD, 0x3DCCCCCD, 0x447A2000, 0x4788B800, 0x501502F9}},
        {6, "convert.fp32_to_bf16_rne", {0x322BCC77, 0x358637BD, 0x3DCCCCCD, 0x447A2000, 0x4788B800, 0x501502F9}},
        // Example 7: 300f, 300^2 = 90000f, the FP32 sum 94097f, the BF16 sum 91136f
        {7, "convert.fp32_to_fp16_rne", {0x43960000, 0x47AFC800, 0x47B7C880, 0x47B20000}},
        {7, "convert.fp32_to_bf16_rne", {0x43960000, 0x47AFC800, 0x47B7C880, 0x47B20000}},
        // Example 8: max 0x7E, min normal 0x08, min subnormal 0x01, the grid 0x30..0x40, and the
        // encoder on 1.06f, 1.07f, 0.3f, 300f, 500f, -2.2f, 0.001f
        {8, "decode.e4m3fn", {0x7E, 0x08, 0x01, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A,
                              0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40}},
        {8, "convert.fp32_to_e4m3fn_rne_satfinite", {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                                     0xC00CCCCD, 0x3A83126F}},
        {8, "convert.fp32_to_e4m3fn_rne_nan", {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                               0xC00CCCCD, 0x3A83126F}},
        {8, "convert.e4m3fn_to_fp32", {0x38, 0x39, 0x2A, 0x79, 0x7E, 0xC1, 0x01}},
        // Example 9: max 0x7B, min normal 0x04, min subnormal 0x01, the grid 0x38..0x40, the same
        // seven inputs, and 1.5f whose FP16 word 0x3E00 has the E5M2 code as its top byte
        {9, "decode.e5m2", {0x7B, 0x04, 0x01, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40}},
        {9, "convert.fp32_to_e5m2_rne_satfinite", {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                                   0xC00CCCCD, 0x3A83126F, 0x3FC00000}},
        {9, "convert.fp32_to_e5m2_rne_inf", {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                             0xC00CCCCD, 0x3A83126F, 0x3FC00000}},
        {9, "convert.fp32_to_fp16_rne", {0x3FC00000}},
        {9, "convert.e5m2_to_fp32", {0x3C, 0x35, 0x5D, 0x60, 0xC0, 0x14, 0x3E, 0x7B}},
        // Example 13: all 16 E2M1 codes
        {13, "decode.e2m1", {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        {13, "classify.e2m1", {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        {13, "convert.e2m1_to_fp32", {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        // Example 14: E8M0 byte 126 = 2^-1
        {14, "decode.e8m0", {0x7E}},
        {14, "convert.e8m0_to_fp32", {0x7E}},
        // Example 15: E4M3 codes 0x77 = 240 and 0x7E = 448, as signed and as unsigned scales
        {15, "decode.e4m3fn", {0x77, 0x7E}},
        {15, "decode.ue4m3", {0x77, 0x7E}},
        {15, "convert.ue4m3_to_fp32", {0x77, 0x7E}},
    };
    return k;
}

/// The lesson cases of one rule (source "lesson Example N").
template <class Make>
void add_lesson_cases(std::vector<Case> &out, const std::string &rule, Make make) {
    for (const auto &l : lesson_words())
        if (l.rule == rule) {
            const std::string n = std::to_string(l.example);
            out.push_back(make("lesson_example_" + n, Level::quick, "lesson Example " + n, l.words));
        }
}

// ---- fp32-source conversion tables (TestFloat genCases style) -------------------------------

/// Annotated fp32 input tables of one conversion: every tie and both neighbours around the
/// chosen target words, the subnormal and overflow thresholds, and the special inputs.
struct Fp32Tables {
    Words grid, ties, tie_neighbours, subnormal, overflow, specials, nans;
};

Fp32Tables build_fp32_tables(const Conversion &c) {
    const auto &dst = word_format(c.dst);
    const auto &widen = widening_of(c.dst);
    const auto fp32_of = [&](std::uint64_t t) { return convert_word(widen, t); };
    const std::uint64_t largest = largest_finite_word(dst);
    Fp32Tables t;
    // 1. The target words whose upper neighbour pairs are examined: every positive finite word of
    //    a format of 8 bits or less; otherwise the first and last significands of every binade.
    Words chosen;
    if (dst.bits <= 8) {
        for (std::uint64_t w = 0; w < largest; ++w) chosen.push_back(w);
    } else {
        const std::uint64_t fo = frac_ones(dst);
        for (std::uint64_t e = 0; (e << dst.man_bits) < largest; ++e)
            for (std::uint64_t fr : Words{0ull, 1ull, 2ull, fo / 2, fo - 1, fo}) {
                const std::uint64_t w = (e << dst.man_bits) | fr;
                if (w < largest) chosen.push_back(w);
            }
        chosen = unique(chosen);
    }
    // 2. Pairs (a, b) of neighbouring target values as fp32 words: the midpoint is exact and lies
    //    halfway in word space too, since fp32 words are linear in value up to b inclusive.
    for (std::uint64_t w : chosen) {
        const std::uint64_t a = fp32_of(w), b = fp32_of(w + 1);
        std::uint64_t mid;
        if (a == 0) mid = fp32_half(b);  // zero to the smallest subnormal: not linear in words
        else if ((a + b) % 2 == 0) mid = (a + b) / 2;
        else throw std::logic_error("fp32 midpoint of " + std::string(dst.name) + " words is not an fp32 word");
        t.grid.push_back(a);
        if (a > 0) t.grid.push_back(a - 1);
        t.grid.push_back(a + 1);
        t.ties.push_back(mid);
        t.tie_neighbours.push_back(mid - 1);
        t.tie_neighbours.push_back(mid + 1);
    }
    // 3. Subnormal thresholds: half and quarter of the smallest positive value with neighbours,
    //    the smallest normal, and fp32's own subnormal extremes.
    {
        const std::uint64_t smallest = dst.special == Special::E8M0 ? 0 : 1;
        const std::uint64_t s = fp32_of(smallest), half = fp32_half(s), quarter = fp32_half(half);
        const std::uint64_t three_quarters = half + (s - half) / 2;  // linear: s starts half's next binade
        for (std::uint64_t w : Words{s, s - 1, s + 1, half, half - 1, half + 1, quarter, quarter + 1, three_quarters})
            t.subnormal.push_back(w);
        if (dst.special != Special::E8M0) {
            const std::uint64_t min_normal = fp32_of(1ull << dst.man_bits);
            for (std::uint64_t w : Words{min_normal - 1, min_normal, min_normal + 1}) t.subnormal.push_back(w);
        }
        for (std::uint64_t w : Words{0x00000001ull, 0x00000002ull, 0x007FFFFFull, 0x00800000ull, 0x00800001ull})
            t.subnormal.push_back(w);
    }
    // 4. Overflow thresholds: the largest finite value, the midpoint to the next grid value
    //    beyond it and that value, each with neighbours; fp32's largest finite.
    {
        const std::uint64_t b = fp32_of(largest), a = fp32_of(largest - 1);
        const std::uint64_t gap = b - a, mid = b + gap / 2, next = b + gap;
        for (std::uint64_t w : Words{b - 1, b, b + 1, mid - 1, mid, mid + 1, next - 1, next, next + 1, next + gap,
                                0x7F7FFFFFull})
            if (w < kFp32Inf) t.overflow.push_back(w);
    }
    // 5. Specials: signed zeros, infinities; NaN payloads, quiet and signaling, both signs.
    t.specials = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x3F800000, 0xBF800000};
    if (c.nan_rule != NanRule::UNDEFINED)
        for (std::uint64_t n : Words{0x7FC00000ull, 0x7FC00001ull, 0x7FFFFFFFull, 0x7FD55555ull, 0x7F800001ull,
                                0x7FBFFFFFull, 0x7FA00000ull, 0x7F812345ull})
            for (std::uint64_t sign : Words{0ull, kFp32Sign}) t.nans.push_back(n | sign);
    // 6. Both signs of every finite row (an unsigned target has no negative ties: negative
    //    inputs are clamped, so their midpoints stay out of the tie row).
    for (Words *row : {&t.grid, &t.ties, &t.tie_neighbours, &t.subnormal, &t.overflow}) {
        const Words pos = *row;
        if (dst.has_sign || row != &t.ties)
            for (auto w : pos) row->push_back(w | kFp32Sign);
        *row = unique(*row);
    }
    return t;
}

const Fp32Tables &fp32_tables(const Conversion &c) {
    static std::mutex m;
    static std::map<std::uint32_t, Fp32Tables> cache;
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(c.id);
    if (it == cache.end()) it = cache.emplace(c.id, build_fp32_tables(c)).first;
    return it->second;
}

/// Split a row into the words that rest on a suite reading and the others (two cases).
void add_split(std::vector<Case> &out, const Conversion &cv, const std::string &slug, const std::string &source,
               const Words &words) {
    const bool rule_reading = rule_of("convert." + std::string(cv.name)).suite_reading;
    Words plain, reading;
    for (auto w : words) (conversion_word_is_reading(cv, w, rule_reading) ? reading : plain).push_back(w);
    if (!plain.empty()) out.push_back(convert_case(cv, slug, Level::quick, source, plain));
    if (!reading.empty()) out.push_back(convert_case(cv, slug + "_suite_reading", Level::quick, source, reading));
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

// ---- the word suites ------------------------------------------------------------------------

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

std::vector<Case> decode_golden() {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        add_format_cases(out, f, "decode." + std::string(f.name),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return decode_case(f, slug, l, src, w);
                         });
    return out;
}

std::vector<Case> classify_golden() {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        add_format_cases(out, f, "classify." + std::string(f.name),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return classify_case(f, slug, l, src, w);
                         });
    return out;
}

std::vector<Case> validate_golden() {
    std::vector<Case> out;
    for (const auto &r : kRoles) {
        const auto &f = word_format(r.format);
        add_format_cases(out, f, "validity." + std::string(r.name),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return validate_case(r, slug, l, src, w);
                         });
    }
    return out;
}

std::vector<Case> convert_golden() {
    std::vector<Case> out;
    for (const auto &cv : kConversions) {
        const std::string rule = "convert." + std::string(cv.name);
        const auto &src = word_format(cv.src);
        const auto make = [&](const std::string &slug, Level l, const std::string &source, const Words &w) {
            return convert_case(cv, slug, l, source, w);
        };
        add_lesson_cases(out, rule, make);
        if (cv.src == NINFER_FORMAT_fp32) {
            const auto &t = fp32_tables(cv);
            add_split(out, cv, "ties", "ties", t.ties);
            add_split(out, cv, "tie_neighbours", "ties", t.tie_neighbours);
            add_split(out, cv, "grid_points", "boundary", t.grid);
            add_split(out, cv, "subnormal_threshold", "boundary", t.subnormal);
            add_split(out, cv, "overflow_threshold", "boundary", t.overflow);
            add_split(out, cv, "specials", "special values", t.specials);
            if (!t.nans.empty()) add_split(out, cv, "nan_payloads", "special values", t.nans);
            if (nan_principle(cv).payload_profile) {
                Words nans;
                for (auto w : t.specials)
                    if (is_nan_word(src, w)) nans.push_back(w);
                for (auto w : t.nans) nans.push_back(w);
                out.push_back(nan_payload_case(cv, "nan_words", Level::quick, "special values", unique(nans)));
            }
            continue;
        }
        if (nan_principle(cv).payload_profile) {
            Words nans;  // every NaN word of the source (at most 2046 for a 16-bit source)
            for (auto w : domain_words(src))
                if (is_nan_word(src, w)) nans.push_back(w);
            out.push_back(nan_payload_case(cv, "nan_words", Level::quick, "domain", nans));
        }
        Words specials, binades;
        for (auto w : special_words(src))
            if (in_domain(cv, w)) specials.push_back(w);
        for (auto w : binade_words(src))
            if (in_domain(cv, w)) binades.push_back(w);
        add_split(out, cv, "specials", "special values", specials);
        add_split(out, cv, "binade_boundaries", "boundary", binades);
        if (src.bits <= 16) add_domain_cases(out, src, Level::full, make);
    }
    return out;
}

// ---- seeded random word cases ---------------------------------------------------------------

/// Weighted random fp32 words for a conversion: uniform bits, near-ties, near-boundaries.
std::uint64_t random_fp32_word(std::mt19937_64 &rng, const Fp32Tables &t) {
    const std::uint64_t r = rng();
    const std::uint64_t kind = r % 4;
    const auto near = [&](const Words &row) {
        const std::uint64_t pick = row[(r >> 8) % row.size()];
        const std::uint64_t delta = (r >> 40) % 7;  // -3 .. +3 words
        return (pick + delta - 3) & 0xFFFFFFFFu;
    };
    switch (kind) {
    case 0:
    case 1: return rng() & 0xFFFFFFFFu;
    case 2: return near(t.ties);
    default: {
        const Words *rows[] = {&t.grid, &t.subnormal, &t.overflow};
        return near(*rows[(r >> 4) % 3]);
    }
    }
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

std::optional<std::uint64_t> uniform_word(std::mt19937_64 &rng, const WordFormat &f) { return rng() & f.mask(); }

std::vector<Case> decode_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        if (f.bits > 16)
            add_random_cases(out, "decode." + std::string(f.name), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return decode_case(f, s, l, src, w);
                             });
    return out;
}

std::vector<Case> classify_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        if (f.bits > 16)
            add_random_cases(out, "classify." + std::string(f.name), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return classify_case(f, s, l, src, w);
                             });
    return out;
}

std::vector<Case> validate_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &r : kRoles) {
        const auto &f = word_format(r.format);
        if (f.bits > 16)
            add_random_cases(out, "validity." + std::string(r.name), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return validate_case(r, s, l, src, w);
                             });
    }
    return out;
}

std::vector<Case> convert_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &cv : kConversions) {
        if (cv.src != NINFER_FORMAT_fp32) continue;  // narrower sources are enumerated whole
        const auto &t = fp32_tables(cv);
        add_random_cases(
            out, "convert." + std::string(cv.name), seed, level,
            [&](std::mt19937_64 &rng) -> std::optional<std::uint64_t> {
                const auto w = random_fp32_word(rng, t);
                if (!in_domain(cv, w)) return std::nullopt;
                return w;
            },
            [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                return convert_case(cv, s, l, src, w);
            });
    }
    return out;
}

// ---- layout contiguous_le_v1 and the layout registry ----------------------------------------

constexpr const char *kWordsRule = "layout.contiguous_le_v1.words";
constexpr const char *kSizeRule = "layout.contiguous_le_v1.size";
constexpr const char *kOverflowRule = "layout.contiguous_le_v1.overflow";
constexpr const char *kCrossRule = "layout.contiguous_le_v1.cross_type";
constexpr const char *kRegistryRule = "layout.registry.unregistered_pair";

/// A layout call and the oracle's answer: E_LAYOUT for an unregistered pair, E_CONVERSION for
/// words of another format, E_SIZE when the size overflows or `in` has the wrong size, else the
/// payload (encode) or the words (decode).
Case layout_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 std::uint32_t op, std::uint32_t layout, std::uint32_t format, std::uint32_t format_in, Words shape,
                 std::vector<std::uint8_t> in) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.layout = layout;
    c.format = format;
    c.format_in = op == NINFER_OP_layout_encode ? format_in : 0;
    c.shape = std::move(shape);
    c.input(op_planes(op, format, layout).inputs[0]) = std::move(in);
    if (!layout_accepts(layout, format)) {
        c.expect.status = NINFER_E_LAYOUT;
        return c;
    }
    if (op == NINFER_OP_layout_encode && format_in != format) {
        c.expect.status = NINFER_E_CONVERSION;
        return c;
    }
    const auto size = contiguous_payload_bytes(format, c.shape);
    if (!size || *size != c.inputs[0].bytes.size()) {
        c.expect.status = NINFER_E_SIZE;
        return c;
    }
    const int bytes = word_format(format).bytes();
    Words words;
    for (std::size_t i = 0; i < c.inputs[0].bytes.size() / static_cast<std::size_t>(bytes); ++i) words.push_back(get_word(c.inputs[0].bytes, i, bytes));
    if (op == NINFER_OP_layout_encode) {
        c.expect.output(NINFER_PLANE_PAYLOAD) = contiguous_encode(format, c.shape, words);
    } else {
        for (auto w : contiguous_decode(format, c.shape, c.inputs[0].bytes)) put_word(c.expect.output(NINFER_PLANE_WORDS), w, bytes);
    }
    return c;
}

std::uint64_t elements_of(const Words &shape) {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

/// Small dims of a rank-r shape (at most 576 elements at rank 16).
Words shape_of_rank(int r) {
    static constexpr std::uint64_t kDims[] = {2, 3, 1, 2, 1, 1, 2, 1};
    Words s;
    for (int i = 0; i < r; ++i) s.push_back(kDims[i % 8]);
    return s;
}

/// Logical words of a direct format: its special and boundary words first, then seeded fill.
std::vector<std::uint8_t> fill_words(const WordFormat &f, std::uint64_t n, std::uint64_t salt) {
    Words pool = special_words(f);
    for (auto w : binade_words(f)) pool.push_back(w);
    pool = unique(pool);
    std::mt19937_64 rng(0x5eed0000u + salt);
    std::vector<std::uint8_t> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t w = i < pool.size() ? pool[(i * 7 + salt * 5 + 11) % pool.size()] : rng() & f.mask();
        put_word(out, w, f.bytes());
    }
    return out;
}

std::vector<const WordFormat *> direct_formats() {
    std::vector<const WordFormat *> out;
    for (const auto &f : kWordFormats)
        if (layout_accepts(NINFER_LAYOUT_contiguous_le_v1, f.id)) out.push_back(&f);
    return out;
}

std::vector<Case> contiguous_golden() {
    std::vector<Case> out;
    const std::uint32_t L = NINFER_LAYOUT_contiguous_le_v1;
    const std::uint32_t enc = NINFER_OP_layout_encode, dec = NINFER_OP_layout_decode;
    for (const auto *fp : direct_formats()) {
        const auto &f = *fp;
        const std::string n(f.name);
        // Words: ranks 0..16, every special and boundary word, zero-size shapes.
        for (int r = 0; r <= static_cast<int>(NINFER_MAX_RANK); ++r) {
            const Words shape = shape_of_rank(r);
            const auto in = fill_words(f, elements_of(shape), static_cast<std::uint64_t>(r));
            const std::string slug = n + "_rank" + std::to_string(r);
            out.push_back(layout_case(kWordsRule, slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, shape, in));
            out.push_back(layout_case(kWordsRule, slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, shape, in));
        }
        {
            Words pool = special_words(f);
            for (auto w : binade_words(f)) pool.push_back(w);
            pool = unique(pool);
            std::vector<std::uint8_t> in;
            for (auto w : pool) put_word(in, w, f.bytes());
            const Words shape{pool.size()};
            out.push_back(layout_case(kWordsRule, n + "_all_specials_encode", Level::quick, "special values", enc, L, f.id, f.id, shape, in));
            out.push_back(layout_case(kWordsRule, n + "_all_specials_decode", Level::quick, "special values", dec, L, f.id, f.id, shape, in));
        }
        const Words zero_shapes[] = {{0}, {3, 0}, {0, 5, 2}, Words(NINFER_MAX_RANK, 0), {1, 1, 1, 0}};
        for (std::size_t i = 0; i < std::size(zero_shapes); ++i) {
            const std::string slug = n + "_zero_size_" + std::to_string(i);
            out.push_back(layout_case(kWordsRule, slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, zero_shapes[i], {}));
            out.push_back(layout_case(kWordsRule, slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, zero_shapes[i], {}));
        }
        // Size: in_bytes that do not match elements * word bytes.
        const std::uint64_t b = static_cast<std::uint64_t>(f.bytes());
        struct Sized {
            const char *slug;
            Words shape;
            std::uint64_t bytes;
        };
        const Sized sized[] = {{"one_word_short", {2, 3}, 5 * b},  {"one_word_long", {2, 3}, 7 * b},
                               {"one_byte_short", {2, 3}, 6 * b - 1}, {"one_byte_long", {2, 3}, 6 * b + 1},
                               {"empty_for_rank0", {}, 0},        {"bytes_for_zero_size", {4, 0}, b},
                               {"rank0_two_words", {}, 2 * b},
                               // the true product decides: a zero dimension after huge ones is size 0
                               {"zero_after_huge_dims", {1ull << 40, 1ull << 40, 0}, 0}};
        for (const auto &s : sized) {
            const auto in = fill_words(f, (s.bytes + b - 1) / b, 99);
            const std::vector<std::uint8_t> cut(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(s.bytes));
            out.push_back(layout_case(kSizeRule, n + "_" + s.slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, s.shape, cut));
            out.push_back(layout_case(kSizeRule, n + "_" + s.slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, s.shape, cut));
        }
        // Overflow: element counts or byte sizes beyond uint64 (no zero dimension anywhere); the
        // "wrap" shapes wrap around to exactly the size of `in`, which a wrapping reader accepts.
        const std::uint64_t max64 = ~0ull;
        struct Over {
            const char *slug;
            Words shape;
            std::uint64_t words;
        };
        const Over overs[] = {{"elements_2p64", {1ull << 32, 1ull << 32}, 4},
                              {"elements_max_times_2", {max64, 2}, 4},
                              {"elements_wrap_to_one", {3, 0xAAAAAAAAAAAAAAABull}, 1},
                              {"bytes_2p64", {(max64 / b) + 1}, 4},
                              {"bytes_wrap_to_one_word", {(max64 / b) + 2}, 1},
                              {"bytes_max", {max64}, 4},
                              {"rank16_of_16", Words(NINFER_MAX_RANK, 16), 4}};
        for (const auto &o : overs) {
            if (contiguous_payload_bytes(f.id, o.shape))
                throw std::logic_error("overflow shape " + std::string(o.slug) + " does not overflow");
            const auto in = fill_words(f, o.words, 7);
            out.push_back(layout_case(kOverflowRule, n + "_" + o.slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, o.shape, in));
            out.push_back(layout_case(kOverflowRule, n + "_" + o.slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, o.shape, in));
        }
        // Cross-type: words of any other word format offered for this direct tensor.
        for (const auto &g : kWordFormats) {
            if (g.id == f.id) continue;
            const auto in = fill_words(g, 4, 5);
            out.push_back(layout_case(kCrossRule, std::string(g.name) + "_words_for_" + n, Level::quick, "boundary", enc, L,
                                      f.id, g.id, {4}, in));
        }
    }
    return out;
}

std::vector<Case> contiguous_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level == Level::quick) return out;
    for (const auto *fp : direct_formats()) {
        const auto &f = *fp;
        std::mt19937_64 rng(seed ^ name_hash(std::string(kWordsRule) + "/" + std::string(f.name)));
        const int total = level == Level::full ? 16 : 64;
        for (int i = 0; i < total; ++i) {
            const int rank = static_cast<int>(rng() % (NINFER_MAX_RANK + 1));
            Words shape;
            std::uint64_t n = 1;
            for (int k = 0; k < rank; ++k) {
                const std::uint64_t d = n > 256 ? 1 : rng() % 5;  // keeps cases small; 0 gives a zero-size shape
                shape.push_back(d);
                n *= d;
            }
            std::vector<std::uint8_t> in;
            for (std::uint64_t k = 0; k < n; ++k) put_word(in, rng() & f.mask(), f.bytes());
            const Level l = i < 16 ? Level::full : Level::exhaustive;
            const std::string slug = std::string(f.name) + "_random_s" + std::to_string(seed) + "_" + std::to_string(i);
            const std::string source = "random seed=" + std::to_string(seed);
            const std::uint32_t op = (i % 2 == 0) ? NINFER_OP_layout_encode : NINFER_OP_layout_decode;
            out.push_back(layout_case(kWordsRule, slug, l, source, op, NINFER_LAYOUT_contiguous_le_v1, f.id, f.id, shape, in));
        }
    }
    return out;
}

std::vector<Case> registry_golden() {
    std::vector<Case> out;
    std::vector<std::pair<std::uint32_t, std::string_view>> formats;
    for (const auto &f : kWordFormats) formats.emplace_back(f.id, f.name);
    for (const auto &f : kGroupedFormats) formats.emplace_back(f.id, f.name);
    for (const auto &f : kOtherFormats) formats.emplace_back(f.id, f.name);
    for (const auto &l : kLayouts)
        for (const auto &[id, name] : formats) {
            if (layout_accepts(l.id, id)) continue;
            const std::string slug = std::string(name) + "_in_" + std::string(l.name);
            const std::vector<std::uint8_t> in(256, 0);
            for (std::uint32_t op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode}) {
                const char *what = op == NINFER_OP_layout_encode ? "_encode" : "_decode";
                out.push_back(layout_case(kRegistryRule, slug + what, Level::quick, "registry", op, l.id, id, id, {1, 128}, in));
            }
        }
    return out;
}

// ---- suites ---------------------------------------------------------------------------------

/// Golden cases computed once per process, then filtered by level.
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    auto cache = std::make_shared<std::pair<std::once_flag, std::vector<Case>>>();
    return [cache, make](Level level) {
        std::call_once(cache->first, [&] { cache->second = make(); });
        std::vector<Case> out;
        for (const auto &c : cache->second)
            if (c.level <= level) out.push_back(c);
        return out;
    };
}

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return [make](std::uint64_t seed, Level level) { return make(seed, level); };
}

std::vector<Case> none(std::uint64_t, Level) { return {}; }

}  // namespace

std::vector<Suite> scalar_suites() {
    return {
        {"scalar.decode", "Exact value of every word of every scalar format, as a binary64 word (decode op)",
         cached_golden(decode_golden), random_of(decode_random)},
        {"scalar.classify", "Value class and sign of every word of every scalar format (classify op)",
         cached_golden(classify_golden), random_of(classify_random)},
        {"scalar.validate", "Validity verdict of words under every role of the spec (validate op)",
         cached_golden(validate_golden), random_of(validate_random)},
        {"scalar.convert",
         "Every named conversion: ties and their neighbours, binade, subnormal and overflow thresholds, "
         "specials, NaN payloads, whole narrow domains (convert op)",
         cached_golden(convert_golden), random_of(convert_random)},
        {"layout.contiguous_le_v1",
         "contiguous_le_v1 words bit for bit at ranks 0..16, the size rule, size overflow, and refusal of "
         "implicit cross-type encoding (layout_encode, layout_decode)",
         cached_golden(contiguous_golden), random_of(contiguous_random)},
        {"layout.registry", "Every unregistered format/layout pair is refused by name (E_LAYOUT)",
         cached_golden(registry_golden), random_of(none)},
    };
}

}  // namespace ninfer::suites
