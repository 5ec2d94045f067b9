// SPDX-License-Identifier: Apache-2.0
// grouped_search (tensor-formats.txt Section 7, the paragraph after 7.2: "An alternative method
// need not match grouped_absmax bit for bit ... The built-in grouped_search method ..."): the
// candidate scales, codes by the 7.2 reciprocal multiply, exact importance-weighted squared
// error, strict improvement over the 7.2 result. The suite's readings are oracle/GROUPED.md R3, R4.
#include <algorithm>
#include <boost/multiprecision/gmp.hpp>
#include <mpfr.h>
#include <string>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle {

namespace {

using Int = boost::multiprecision::mpz_int;

/// Every binary32 and binary16 value is an integer multiple of 2^-149.
constexpr long kUnitShift = 149;

const WordFormat &f32() { return word_format(NINFER_FORMAT_fp32); }
const WordFormat &f16() { return word_format(NINFER_FORMAT_fp16); }

/// value * 2^149 as an exact integer (value a finite binary32 or binary16 value).
Int scaled_integer(const Real &value) {
    Int m;
    if (mpfr_zero_p(value.backend().data())) return m;
    const mpfr_exp_t e = mpfr_get_z_2exp(m.backend().data(), value.backend().data());
    const long shift = static_cast<long>(e) + kUnitShift;
    if (shift >= 0)
        m <<= static_cast<unsigned>(shift);
    else
        m /= Int(1) << static_cast<unsigned>(-shift);  // exact: the value is on the 2^-149 grid
    return m;
}

/// An exact Real holding an integer.
Real real_of(const Int &z) {
    Real r = exact_zero();
    mpfr_set_z(r.backend().data(), z.backend().data(), MPFR_RNDN);
    return r;
}

/// The binary16 neighbour of a finite nonzero word in value order (up: toward +Inf); nullopt
/// when it is a zero or an infinity.
std::optional<std::uint16_t> f16_neighbour(std::uint16_t w, bool up) {
    const bool negative = (w & 0x8000u) != 0;
    const std::uint16_t n = static_cast<std::uint16_t>((up != negative) ? w + 1 : w - 1);
    if ((n & 0x7FFFu) == 0 || (n & 0x7FFFu) >= 0x7C00u) return std::nullopt;
    return n;
}

/// One group's search state: its values, weights and the incumbent.
struct GroupSearch {
    const GroupedFormat &f;
    std::span<const std::uint32_t> x32;
    std::vector<Int> x, imp;  ///< scaled by 2^149
    bool negative_scales;
    std::uint16_t best_scale = 0;
    std::vector<int> best_codes;
    Int best_error;
    bool replaced = false;

    /// sum_i imp[i] * (x[i] - s*q[i])^2, exactly (in units of 2^-447).
    Int error(std::uint16_t s16, const std::vector<int> &q) const {
        const Int s = scaled_integer(word_info(f16(), s16).value);
        Int sum;
        for (std::size_t i = 0; i < q.size(); ++i) {
            const Int d = x[i] - s * q[i];
            sum += imp[i] * d * d;
        }
        return sum;
    }

    /// Offer one candidate word; it wins only with a strictly smaller error.
    void offer(std::uint16_t s16) {
        if ((s16 & 0x8000u) && !negative_scales) return;
        auto codes = grouped_codes_for_scale(f, x32, s16).codes;
        Int e = error(s16, codes);
        if (e < best_error) {
            best_error = std::move(e);
            best_scale = s16;
            best_codes = std::move(codes);
            replaced = true;
        }
    }

    /// A computed candidate num / den: one rounding to binary32, then binary16 with the rescue
    /// (R3); nullopt when skipped (zero, infinite).
    static std::optional<std::uint16_t> word_of(const Real &num, const Real &den) {
        if (mpfr_zero_p(num.backend().data())) return std::nullopt;
        const auto c32 =
            static_cast<std::uint32_t>(round_quotient(num, den, f32(), detail::rounding_rne, detail::overflow_inf));
        if ((c32 & 0x7F800000u) == 0x7F800000u) return std::nullopt;
        return grouped_scale16_from_f32(c32);
    }

    void offer_computed(const Real &num, const Real &den) {
        if (const auto w = word_of(num, den)) offer(*w);
    }

    /// The weighted least-squares scale of codes q, then its two binary16 neighbours.
    void offer_least_squares(const std::vector<int> &q) {
        Int num, den;
        for (std::size_t i = 0; i < q.size(); ++i) {
            num += imp[i] * x[i] * q[i];
            den += imp[i] * q[i] * q[i];
        }
        if (den == 0) return;
        // (num / 2^298) / (den / 2^149) = num / (den * 2^149)
        Real b = real_of(den);
        mpfr_mul_2si(b.backend().data(), b.backend().data(), kUnitShift, MPFR_RNDN);
        const auto w = word_of(real_of(num), b);
        if (!w) return;
        offer(*w);
        if (const auto d = f16_neighbour(*w, false)) offer(*d);
        if (const auto u = f16_neighbour(*w, true)) offer(*u);
    }
};

}  // namespace

EncodeResult grouped_search(const GroupedFormat &f, std::uint32_t source_format, std::uint64_t rows,
                            std::uint64_t cols, std::span<const std::uint8_t> source_words,
                            std::span<const std::uint32_t> importance32, bool negative_scales) {
    EncodeResult r;
    std::vector<std::uint32_t> x32;
    if (!detail::grouped_encoder_prologue("grouped_search", f, source_format, rows, cols, source_words, r, x32))
        return r;
    // R4: the importance vector holds K finite non-negative binary32 words (or is empty).
    if (!importance32.empty() && importance32.size() != cols) {
        r = EncodeResult{};
        r.status = NINFER_E_INVALID_ARGUMENT;
        r.message = "grouped_search: importance holds " + std::to_string(importance32.size()) +
                    " words, expected K = " + std::to_string(cols);
        return r;
    }
    std::vector<Int> imp_all(cols, Int(1) << kUnitShift);
    for (std::size_t c = 0; c < importance32.size(); ++c) {
        const auto info = word_info(f32(), importance32[c]);
        const bool finite = info.cls == NINFER_CLASS_ZERO || info.cls == NINFER_CLASS_SUBNORMAL ||
                            info.cls == NINFER_CLASS_NORMAL;
        if (!finite || (info.negative && info.cls != NINFER_CLASS_ZERO)) {
            r = EncodeResult{};
            r.status = NINFER_E_INVALID_ARGUMENT;
            r.message = "grouped_search: importance word " + word_hex(f32(), importance32[c]) + " (" +
                        word_value_text(f32(), importance32[c]) + ") of column " + std::to_string(c) +
                        " is not finite and non-negative";
            return r;
        }
        imp_all[c] = scaled_integer(info.value);
    }
    const std::uint64_t gpr = grouped_groups_per_row(f, cols), g = static_cast<std::uint64_t>(f.group);
    r.suite_reading_groups.assign(rows * gpr, false);
    Real qmax = exact_zero(), fifty_qmax = exact_zero(), fifty_qmin = exact_zero();
    qmax = f.qmax;
    fifty_qmax = 50 * f.qmax;
    fifty_qmin = 50 * f.qmin;
    for (std::uint64_t row = 0; row < rows; ++row)
        for (std::uint64_t grp = 0; grp < gpr; ++grp) {
            const std::uint64_t c0 = grp * g, len = std::min(g, cols - c0);
            const auto xs = std::span<const std::uint32_t>(x32).subspan(row * cols + c0, len);
            const auto t = grouped_absmax_group(f, xs);
            if (t.status != NINFER_OK) {
                detail::grouped_overflow_refusal("grouped_search", f, row, grp, t, r);
                r.suite_reading_groups.clear();
                return r;
            }
            GroupSearch s{f, xs, {}, {}, negative_scales, t.scale16, t.codes, {}, false};
            if (t.amax32 != 0) {
                s.x.reserve(len);
                s.imp.assign(imp_all.begin() + static_cast<std::ptrdiff_t>(c0),
                             imp_all.begin() + static_cast<std::ptrdiff_t>(c0 + len));
                std::uint32_t extreme32 = 0;
                for (const std::uint32_t w : xs) {
                    s.x.push_back(scaled_integer(word_info(f32(), w).value));
                    if (extreme32 == 0 && (w & 0x7FFFFFFFu) == t.amax32) extreme32 = w;  // first lane of largest magnitude
                }
                s.best_error = s.error(t.scale16, t.codes);
                const Real amax = word_info(f32(), t.amax32).value, extreme = word_info(f32(), extreme32).value;
                // 1, 2: the 25 multiples k/50, k = 35..59, of amax/qmax and of extreme/qmin.
                for (int k = 35; k <= 59; ++k) s.offer_computed(amax * k, fifty_qmax);
                for (int k = 35; k <= 59; ++k) s.offer_computed(extreme * k, fifty_qmin);
                // 3: power-of-two multiples 2^j * amax/qmax, j = -2, -1, 1, 2.
                for (const int j : {-2, -1, 1, 2}) {
                    Real a = amax;
                    mpfr_mul_2si(a.backend().data(), a.backend().data(), j, MPFR_RNDN);
                    s.offer_computed(a, qmax);
                }
                // 4: binary16 neighbours of the max-abs scale word.
                if (const auto d = f16_neighbour(t.scale16, false)) s.offer(*d);
                if (const auto u = f16_neighbour(t.scale16, true)) s.offer(*u);
                // 5, 6: least squares of the max-abs codes, then of the winning codes.
                s.offer_least_squares(t.codes);
                const std::vector<int> winning = s.best_codes;
                s.offer_least_squares(winning);
            }
            r.m.scales[row * gpr + grp] = s.best_scale;
            for (std::uint64_t i = 0; i < len; ++i)
                r.m.codes[row * cols + c0 + i] = static_cast<std::int8_t>(s.best_codes[i]);
            r.suite_reading_groups[row * gpr + grp] = s.replaced;
        }
    return r;
}

}  // namespace ninfer::oracle
