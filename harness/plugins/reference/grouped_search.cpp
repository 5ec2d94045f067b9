// SPDX-License-Identifier: Apache-2.0
// Native grouped_search (tensor-formats.txt Section 7, the paragraph after 7.2), read as
// oracle/GROUPED.md R3/R4 say: the 7.2 result, then the 25 max-abs and 25 full-range multiples,
// power-of-two multiples, binary16 neighbours, least-squares scales of the max-abs and winning
// codes with their neighbours; strict improvement of the importance-weighted squared error.
// Sums use a 113-bit binary float (64-bit long double where __float128 is missing): exact for
// groups whose weights span less than about 2^50, which the cross-check test covers.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "grouped_codec.hpp"

namespace ninfer::reference::grouped_codec {

namespace {

#if defined(__SIZEOF_FLOAT128__)
using Wide = __float128;
#else
using Wide = long double;
#endif

float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }

/// round_f32(a / b) of two values held exactly: the wide quotient, then a second rounding
/// repaired where the wide quotient fell exactly on a binary32 midpoint.
float quotient_f32(Wide a, Wide b) {
    const Wide q = a / b;
    const float f = static_cast<float>(q);
    if (!std::isfinite(f) || static_cast<Wide>(f) == q) return f;
    const float other = std::nextafter(f, static_cast<Wide>(f) < q ? INFINITY : -INFINITY);
    if (!std::isfinite(other)) return f;
    const Wide mid = (static_cast<Wide>(f) + static_cast<Wide>(other)) / 2;
    if (mid != q) return f;
    // Compare the exact quotient a / b with the midpoint: sign(a - mid * b) * sign(b).
    const Wide t = a - mid * b;
    if (t == 0) return (std::bit_cast<std::uint32_t>(f) & 1u) ? other : f;  // a true tie: even
    const bool above = (t > 0) == (b > 0);
    const float hi = std::max(f, other), lo = std::min(f, other);
    return above ? hi : lo;
}

/// A computed candidate (R3): one rounding to binary32, binary16 RNE, the mirrored rescue;
/// nullopt for a zero or infinite candidate.
std::optional<std::uint16_t> candidate_word(Wide num, Wide den) {
    if (num == 0) return std::nullopt;
    const float c32 = quotient_f32(num, den);
    if (!std::isfinite(c32)) return std::nullopt;
    std::uint16_t s = f32_to_f16_rne(std::bit_cast<std::uint32_t>(c32));
    if ((s & 0x7FFFu) == 0x7C00u) return std::nullopt;
    if ((s & 0x7FFFu) == 0) s = static_cast<std::uint16_t>((s & 0x8000u) | 0x0001u);
    return s;
}

/// The binary16 neighbour of a finite nonzero word in value order; nullopt at a zero or infinity.
std::optional<std::uint16_t> neighbour(std::uint16_t w, bool up) {
    const bool negative = (w & 0x8000u) != 0;
    const auto n = static_cast<std::uint16_t>((up != negative) ? w + 1 : w - 1);
    if ((n & 0x7FFFu) == 0 || (n & 0x7FFFu) >= 0x7C00u) return std::nullopt;
    return n;
}

struct Search {
    const GroupedFormat &f;
    const float *x;
    const float *imp;  ///< nullptr: every weight 1
    std::size_t count;
    bool negative_scales;
    std::uint16_t best_scale = 0;
    std::vector<std::int8_t> best_codes, trial;
    Wide best_error = 0;

    Wide weight(std::size_t i) const { return imp ? static_cast<Wide>(imp[i]) : Wide(1); }

    Wide error(std::uint16_t s16, const std::vector<std::int8_t> &q) const {
        const Wide s = as_float(f16_to_f32(s16));
        Wide sum = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const Wide d = static_cast<Wide>(x[i]) - s * q[i];
            sum += weight(i) * d * d;
        }
        return sum;
    }

    void offer(std::uint16_t s16) {
        if ((s16 & 0x8000u) && !negative_scales) return;
        trial.resize(count);
        codes_for_scale(f, x, count, s16, trial.data());
        const Wide e = error(s16, trial);
        if (e < best_error) {
            best_error = e;
            best_scale = s16;
            best_codes = trial;
        }
    }

    void offer_computed(Wide num, Wide den) {
        if (const auto w = candidate_word(num, den)) offer(*w);
    }

    void offer_least_squares(const std::vector<std::int8_t> &q) {
        Wide num = 0, den = 0;
        for (std::size_t i = 0; i < count; ++i) {
            num += weight(i) * static_cast<Wide>(x[i]) * q[i];
            den += weight(i) * q[i] * q[i];
        }
        if (den == 0) return;
        const auto w = candidate_word(num, den);
        if (!w) return;
        offer(*w);
        if (const auto d = neighbour(*w, false)) offer(*d);
        if (const auto u = neighbour(*w, true)) offer(*u);
    }
};

}  // namespace

Outcome search(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::span<const float> x,
               std::span<const float> importance, bool negative_scales, Matrix &m) {
    if (!f.canonical_encoders)
        return {NINFER_E_METHOD, 0, std::string("grouped_search refuses target ") + std::string(f.name)};
    if (!importance.empty() && importance.size() != k)
        return {NINFER_E_INVALID_ARGUMENT, 0, "importance holds " + std::to_string(importance.size()) + " words, expected K"};
    for (std::size_t c = 0; c < importance.size(); ++c)
        if (!std::isfinite(importance[c]) || importance[c] < 0.0f)
            return {NINFER_E_INVALID_ARGUMENT, 0, "importance of column " + std::to_string(c) + " is not finite and non-negative"};
    // The 7.2 result is the incumbent of every group (and its failures are the search's).
    Outcome o = absmax(f, n, k, x, m);
    if (o.status != NINFER_OK) return o;
    const std::uint64_t G = static_cast<std::uint64_t>(f.group);
    const std::uint64_t gpr = k / G + (k % G != 0);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t gi = 0; gi < gpr; ++gi) {
            const std::uint64_t c0 = gi * G, len = std::min(k, c0 + G) - c0;
            std::uint16_t &scale = m.scales[r * gpr + gi];
            if (scale == 0) continue;  // all-zero group: error 0 already
            const float *xs = x.data() + r * k + c0;
            Search s{f, xs, importance.empty() ? nullptr : importance.data() + c0, len, negative_scales, scale,
                     std::vector<std::int8_t>(m.codes.begin() + static_cast<std::ptrdiff_t>(r * k + c0),
                                              m.codes.begin() + static_cast<std::ptrdiff_t>(r * k + c0 + len)),
                     {}, 0};
            s.best_error = s.error(scale, s.best_codes);
            const std::vector<std::int8_t> absmax_codes = s.best_codes;
            float amax = 0.0f, extreme = 0.0f;
            for (std::size_t i = 0; i < len; ++i)
                if (std::fabs(xs[i]) > amax) {
                    amax = std::fabs(xs[i]);
                    extreme = xs[i];  // the first lane of largest magnitude
                }
            const Wide wa = amax, we = extreme;
            for (int j = 35; j <= 59; ++j) s.offer_computed(wa * j, Wide(50 * f.qmax));
            for (int j = 35; j <= 59; ++j) s.offer_computed(we * j, Wide(50 * f.qmin));
            for (const int j : {-2, -1, 1, 2}) s.offer_computed(wa * (j < 0 ? Wide(1) / (1 << -j) : Wide(1 << j)), Wide(f.qmax));
            if (const auto d = neighbour(scale, false)) s.offer(*d);
            if (const auto u = neighbour(scale, true)) s.offer(*u);
            s.offer_least_squares(absmax_codes);
            const std::vector<std::int8_t> winning = s.best_codes;
            s.offer_least_squares(winning);
            scale = s.best_scale;
            std::copy(s.best_codes.begin(), s.best_codes.end(), m.codes.begin() + static_cast<std::ptrdiff_t>(r * k + c0));
        }
    return o;
}

}  // namespace ninfer::reference::grouped_codec
