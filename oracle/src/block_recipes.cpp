// SPDX-License-Identifier: Apache-2.0
// Recipe lattices of block quantizers (issue 34 item 6; suites/RECIPES.md): every point's bytes
// exactly. A binary32 word is M * 2^E with integer M; each scale rule is an integer comparison of
// M against the binade (log2f's one rounding through MPFR), each element an exact comparison.
#include "ninfer/oracle/block_recipes.hpp"

#include <bit>

#include <algorithm>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace ninfer::oracle::recipes {

namespace {

/// |w| = m * 2^e for a finite binary32 word (m < 2^24).
struct Dyadic {
    std::uint64_t m = 0;
    long e = 0;
};

Dyadic dyadic_of(std::uint32_t w) {
    const std::uint32_t field = (w >> 23) & 0xFFu, frac = w & 0x7FFFFFu;
    if (field == 0) return {frac, -149};
    return {frac | 0x800000u, static_cast<long>(field) - 150};
}

bool finite32(std::uint32_t w) { return (w & 0x7F800000u) != 0x7F800000u; }

/// floor(log2(m * 2^e)), m > 0.
long floor_log2(const Dyadic &d) { return d.e + static_cast<long>(std::bit_width(d.m)) - 1; }

/// floorf(log2f(a)): the exact log2 rounded once to binary32 (nearest-even), then floored.
long log2f_floor(std::uint32_t a) {
    const auto &f32 = word_format(NINFER_FORMAT_fp32);
    Real l = exact_zero();
    mpfr_log2(l.backend().data(), word_info(f32, a).value.backend().data(), MPFR_RNDN);
    Real r = word_info(f32, round_real(l, f32, 1, 1)).value;
    mpfr_floor(r.backend().data(), r.backend().data());
    return mpfr_get_si(r.backend().data(), MPFR_RNDN);
}

Rational pow2(long s) {
    const Rational one(1);
    return s >= 0 ? one * Rational(boost::multiprecision::mpz_int(1) << static_cast<unsigned>(s))
                  : one / Rational(boost::multiprecision::mpz_int(1) << static_cast<unsigned>(-s));
}

/// The E2M1 table scan of the lesson and ggml: the code of least |v_i * 2^s - x|, the first
/// (strict <) or the last (<=) of equals.
std::uint8_t table_scan(std::uint32_t x, long s, bool last) {
    const auto &e2m1 = word_format(NINFER_FORMAT_e2m1);
    const Rational xv = exact_word_value(word_format(NINFER_FORMAT_fp32), x), unit = pow2(s);
    std::uint8_t best = 0;
    Rational best_err = abs(xv);
    for (std::uint8_t i = 1; i < 16; ++i) {
        const Rational err = abs(exact_word_value(e2m1, i) * unit - xv);
        if (err < best_err || (last && err == best_err)) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

/// Nearest-even E2M1 of x / 2^s, saturating at 6, the sign of x kept (zero included).
std::uint8_t nearest_even(std::uint32_t x, long s) {
    static constexpr int kTwice[8] = {0, 1, 2, 3, 4, 6, 8, 12};  // 2 * (0, 0.5, 1, 1.5, 2, 3, 4, 6)
    const Dyadic d = dyadic_of(x);
    const Rational v2 = Rational(boost::multiprecision::mpz_int(d.m)) * pow2(d.e - s + 1);
    const std::uint8_t sign = (x >> 31) ? 8 : 0;
    if (v2 >= 12) return sign | 7;
    std::uint8_t i = 0;
    while (v2 >= kTwice[i + 1]) ++i;
    const Rational lo = v2 - kTwice[i], hi = kTwice[i + 1] - v2;
    const std::uint8_t c = lo < hi ? i : hi < lo ? i + 1 : (i % 2 == 0 ? i : i + 1);
    return sign | c;
}

}  // namespace

long mxfp4_scale_exponent(Mxfp4Scale scale, std::uint32_t amax) {
    const Dyadic d = dyadic_of(amax);
    const long f = floor_log2(d);
    // m = amax / 2^f = d.m / 2^k in [1, 2): compared against 1, 1.5, 1.75 in integers.
    const int k = static_cast<int>(std::bit_width(d.m)) - 1;
    const std::uint64_t one = std::uint64_t{1} << k;
    switch (scale) {
    case floor_rule: return f - 2;
    case floor_log2f: return log2f_floor(amax) - 2;
    case ceil_rule: return (d.m == one ? f : f + 1) - 2;
    case even_rule: return (4 * d.m >= 7 * one ? f + 1 : f) - 2;
    case rceil_rule: return 2 * d.m <= 3 * one ? f - 2 : f - 1;  // 6 * 2^(f-2) = 1.5 * 2^f
    }
    return f - 2;
}

std::uint8_t fp4_element(Fp4Elements elements, std::uint32_t x, long s) {
    if (elements == rne) return nearest_even(x, s);
    return table_scan(x, s, elements == nearest_last);
}

std::optional<std::uint32_t> finite_amax_word(std::span<const std::uint32_t> x) {
    std::uint32_t amax = 0;
    for (const auto w : x) {
        if (!finite32(w)) return std::nullopt;
        amax = std::max(amax, w & 0x7FFFFFFFu);
    }
    return amax;
}

RecipeBlock mxfp4_recipe_block(Mxfp4Scale scale, Fp4Elements elements, std::span<const std::uint32_t> x) {
    RecipeBlock out;
    const auto found = finite_amax_word(x);
    if (!found) {
        out.status = NINFER_E_NONFINITE;
        return out;
    }
    const std::uint32_t amax = *found;
    const long s = amax == 0 ? -127 : mxfp4_scale_exponent(scale, amax);
    if (s + 127 < 0 || s + 127 > 254) {
        out.status = NINFER_E_SCALE_OVERFLOW;
        return out;
    }
    out.bytes.assign(1 + x.size() / 2, 0);
    out.bytes[0] = static_cast<std::uint8_t>(s + 127);
    const std::size_t half = x.size() / 2;
    for (std::size_t j = 0; j < half; ++j)
        out.bytes[1 + j] = static_cast<std::uint8_t>(fp4_element(elements, x[j], s) | fp4_element(elements, x[j + half], s) << 4);
    return out;
}

long grouped_recipe_code(GroupedNormalize normalize, GroupedCodes codes, std::uint32_t x, std::uint16_t scale16) {
    const auto &f32 = word_format(NINFER_FORMAT_fp32);
    const Real s32 = word_info(word_format(NINFER_FORMAT_fp16), scale16).value, xv = word_info(f32, x).value;
    std::uint64_t n = 0;
    if (normalize == division) {
        n = round_quotient(xv, s32, f32, 1, 1);
    } else {
        Real one = exact_zero();
        one = 1;
        const Real inv = word_info(f32, round_quotient(one, s32, f32, 1, 1)).value;
        Real prod = exact_zero();
        prod = xv * inv;
        n = round_real(prod, f32, 1, 1);
    }
    Real v = word_info(f32, n).value;
    if (codes == code_rne) mpfr_rint(v.backend().data(), v.backend().data(), MPFR_RNDN);
    else if (codes == code_rna) mpfr_round(v.backend().data(), v.backend().data());
    else mpfr_trunc(v.backend().data(), v.backend().data());
    return mpfr_get_si(v.backend().data(), MPFR_RNDN);
}

RecipeBlock grouped_recipe_payload(const GroupedFormat &f, GroupedNormalize normalize, GroupedCodes codes,
                                   std::uint64_t rows, std::uint64_t cols, std::span<const std::uint32_t> x) {
    std::vector<std::uint8_t> src(4 * x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        for (int b = 0; b < 4; ++b) src[4 * i + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(x[i] >> (8 * b));
    // Section 7.2's scales (and refusals) are every point's: the axes start after the scale.
    auto r = grouped_absmax(f, NINFER_FORMAT_fp32, rows, cols, src);
    RecipeBlock out;
    out.status = r.status;
    if (r.status != NINFER_OK) return out;
    const std::uint64_t groups = grouped_groups_per_row(f, cols);
    for (std::uint64_t row = 0; row < rows; ++row)
        for (std::uint64_t k = 0; k < cols; ++k) {
            const std::uint16_t s16 = r.m.scales[row * groups + k / f.group];
            if (s16 == 0) continue;  // an all-zero group: +0 scale, zero codes
            const long q = grouped_recipe_code(normalize, codes, x[row * cols + k], s16);
            r.m.codes[row * cols + k] = static_cast<std::int8_t>(std::clamp<long>(q, f.qmin, f.qmax));
        }
    out.bytes = row_split_encode(f, r.m);
    return out;
}

}  // namespace ninfer::oracle::recipes
