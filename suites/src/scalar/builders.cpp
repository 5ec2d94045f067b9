// SPDX-License-Identifier: Apache-2.0
// The word family's (folder scalar/) shared case builders (builders.hpp): word tables from format geometry,
// the lesson's worked inputs, level and seed plumbing.
#include "builders.hpp"

#include "../plumbing.hpp"
#include "ninfer/abi/word_classes.hpp"

#include <memory>
#include <mutex>
#include <stdexcept>

namespace ninfer::suites::scalar {

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
    return abi::class_is_nan(c) || c == NINFER_CLASS_OUTSIDE;
}
bool is_negative_word(const WordFormat &f, std::uint64_t w) { return (word_class_byte(f, w) & NINFER_CLASS_SIGN) != 0; }

std::uint64_t name_hash(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
    return h;
}

const Rule &rule_of(const std::string &id) {
    const Rule *r = find_rule(id);
    if (!r) throw std::logic_error("scalar generators: rule " + id + " is not in the catalog");
    return *r;
}

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

Words domain_words(const WordFormat &f) {
    Words out(f.mask() + 1);
    for (std::uint64_t w = 0; w <= f.mask(); ++w) out[w] = w;
    return out;
}

Words outside_words(const WordFormat &f) {
    Words out;
    const std::uint64_t container = (1ull << (8 * f.bytes())) - 1;
    if (f.mask() == container) return out;
    for (std::uint64_t w : Words{f.mask() + 1, (f.mask() + 1) | 1, container}) out.push_back(w);
    return unique(out);
}

bool format_word_is_reading(const WordFormat &f, std::uint64_t w) {
    if (w > f.mask()) return true;                                      // outside the format
    if (f.special == Special::E8M0 && is_nan_word(f, w)) return true;   // 0xFF NaN (OCP MX)
    if (!f.has_sign && f.special == Special::FN && is_nan_word(f, w)) return true;  // UE4M3 0x7F
    return false;
}

const std::vector<LessonWords> &lesson_words() {
    static const std::vector<LessonWords> k = {
        // Example 1: 1.0f, -2.5f, 0.1f
        {1, rule::decode_id<NINFER_FORMAT_fp32>, {0x3F800000, 0xC0200000, 0x3DCCCCCD}},
        {1, rule::classify_id<NINFER_FORMAT_fp32>, {0x3F800000, 0xC0200000, 0x3DCCCCCD}},
        // Example 2: 0.1f, 1, 1000, 1e6, 2^24, their ulps 2^-23, 2^-14 (6.1035156E-5), 0.0625, 2
        {2, rule::decode_id<NINFER_FORMAT_fp32>, {0x3DCCCCCD, 0x3F800000, 0x447A0000, 0x49742400, 0x4B800000, 0x34000000, 0x38800000,
                            0x3D800000, 0x40000000, 0x4B800001}},
        // Example 3: 0.1f, 1f/3, 3.14159265f, 1000.3f, 65504f, 65519f, 65520f, 100000f, 1 + 1/1024
        {3, rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>, {0x3DCCCCCD, 0x3EAAAAAB, 0x40490FDB, 0x447A1333, 0x477FE000, 0x477FEF00,
                                         0x477FF000, 0x47C35000, 0x3F802000}},
        {3, rule::decode_id<NINFER_FORMAT_fp16>, {0x2E66, 0x3555, 0x4248, 0x63D1, 0x7BFF, 0x7C00, 0x3C01}},
        {3, rule::convert_id<NINFER_CONVERSION_fp16_to_fp32>, {0x2E66, 0x3555, 0x4248, 0x63D1, 0x7BFF, 0x7C00, 0x3C01}},
        // Example 4: 2^-14, 2^-24, 1e-4f, 1e-5f, 1e-6f, 1e-7f, 3e-8f, 2.9e-8f
        {4, rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>, {0x38800000, 0x33800000, 0x38D1B717, 0x3727C5AC, 0x358637BD, 0x33D6BF95,
                                         0x3300D959, 0x32F91BAD}},
        {4, rule::decode_id<NINFER_FORMAT_fp16>, {0x0400, 0x0001, 0x068E, 0x00A8, 0x0011, 0x0002, 0x0000}},
        {4, rule::classify_id<NINFER_FORMAT_fp16>, {0x0400, 0x0001, 0x068E, 0x00A8, 0x0011, 0x0002, 0x0000}},
        // Example 5: 3.14159265f, 0.1f, 1.00390625f, 1.01171875f, 65520f, 3.0e38f
        {5, rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>, {0x40490FDB, 0x3DCCCCCD, 0x3F808000, 0x3F818000, 0x477FF000, 0x7F61B1E6}},
        {5, rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rtz>, {0x40490FDB, 0x3DCCCCCD, 0x3F808000, 0x3F818000, 0x477FF000, 0x7F61B1E6}},
        {5, rule::decode_id<NINFER_FORMAT_bf16>, {0x4049, 0x3DCC, 0x3DCD, 0x3F80, 0x3F81, 0x3F82, 0x477F, 0x4780, 0x7F61, 0x7F62}},
        {5, rule::convert_id<NINFER_CONVERSION_bf16_to_fp32>, {0x4049, 0x3DCC, 0x3DCD, 0x3F80, 0x3F81, 0x3F82, 0x477F, 0x4780, 0x7F61, 0x7F62}},
        // Example 6: 1e-8f, 1e-6f, 0.1f, 1000.5f, 70000f, 1e10f in both 16-bit formats
        {6, rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>, {0x322BCC77, 0x358637BD, 0x3DCCCCCD, 0x447A2000, 0x4788B800, 0x501502F9}},
        {6, rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>, {0x322BCC77, 0x358637BD, 0x3DCCCCCD, 0x447A2000, 0x4788B800, 0x501502F9}},
        // Example 7: 300f, 300^2 = 90000f, the FP32 sum 94097f, the BF16 sum 91136f
        {7, rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>, {0x43960000, 0x47AFC800, 0x47B7C880, 0x47B20000}},
        {7, rule::convert_id<NINFER_CONVERSION_fp32_to_bf16_rne>, {0x43960000, 0x47AFC800, 0x47B7C880, 0x47B20000}},
        // Example 8: max 0x7E, min normal 0x08, min subnormal 0x01, the grid 0x30..0x40, and the
        // encoder on 1.06f, 1.07f, 0.3f, 300f, 500f, -2.2f, 0.001f
        {8, rule::decode_id<NINFER_FORMAT_e4m3fn>, {0x7E, 0x08, 0x01, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A,
                              0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40}},
        {8, rule::convert_id<NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite>, {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                                     0xC00CCCCD, 0x3A83126F}},
        {8, rule::convert_id<NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan>, {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                               0xC00CCCCD, 0x3A83126F}},
        {8, rule::convert_id<NINFER_CONVERSION_e4m3fn_to_fp32>, {0x38, 0x39, 0x2A, 0x79, 0x7E, 0xC1, 0x01}},
        // Example 9: max 0x7B, min normal 0x04, min subnormal 0x01, the grid 0x38..0x40, the same
        // seven inputs, and 1.5f whose FP16 word 0x3E00 has the E5M2 code as its top byte
        {9, rule::decode_id<NINFER_FORMAT_e5m2>, {0x7B, 0x04, 0x01, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40}},
        {9, rule::convert_id<NINFER_CONVERSION_fp32_to_e5m2_rne_satfinite>, {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                                   0xC00CCCCD, 0x3A83126F, 0x3FC00000}},
        {9, rule::convert_id<NINFER_CONVERSION_fp32_to_e5m2_rne_inf>, {0x3F87AE14, 0x3F88F5C3, 0x3E99999A, 0x43960000, 0x43FA0000,
                                             0xC00CCCCD, 0x3A83126F, 0x3FC00000}},
        {9, rule::convert_id<NINFER_CONVERSION_fp32_to_fp16_rne>, {0x3FC00000}},
        {9, rule::convert_id<NINFER_CONVERSION_e5m2_to_fp32>, {0x3C, 0x35, 0x5D, 0x60, 0xC0, 0x14, 0x3E, 0x7B}},
        // Example 13: all 16 E2M1 codes
        {13, rule::decode_id<NINFER_FORMAT_e2m1>, {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        {13, rule::classify_id<NINFER_FORMAT_e2m1>, {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        {13, rule::convert_id<NINFER_CONVERSION_e2m1_to_fp32>, {0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF}},
        // Example 14: E8M0 byte 126 = 2^-1
        {14, rule::decode_id<NINFER_FORMAT_e8m0>, {0x7E}},
        {14, rule::convert_id<NINFER_CONVERSION_e8m0_to_fp32>, {0x7E}},
        // Example 15: E4M3 codes 0x77 = 240 and 0x7E = 448, as signed and as unsigned scales
        {15, rule::decode_id<NINFER_FORMAT_e4m3fn>, {0x77, 0x7E}},
        {15, rule::decode_id<NINFER_FORMAT_ue4m3>, {0x77, 0x7E}},
        {15, rule::convert_id<NINFER_CONVERSION_ue4m3_to_fp32>, {0x77, 0x7E}},
    };
    return k;
}

std::optional<std::uint64_t> uniform_word(std::mt19937_64 &rng, const WordFormat &f) { return rng() & f.mask(); }

std::vector<Case> none(std::uint64_t, Level) { return {}; }

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return random_with(make, nullptr);
}

std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    return cached_golden_with(make, nullptr);
}

}  // namespace ninfer::suites::scalar
