// SPDX-License-Identifier: Apache-2.0
// Case words of the stochastic-rounding conversions (issue 24 item 3; registry.h
// NINFER_STOCHASTIC; suites/SR.md "The exact rule"): each source word of the conversion tables
// with the random values where the result changes.
#include "convert_sr.hpp"

#include <random>

namespace ninfer::suites::scalar {

std::uint64_t sr_source_word(const Conversion &cv, std::uint64_t packed) {
    return abi::is_stochastic(cv) ? packed & 0xFFFFFFFFu : packed;
}

std::uint64_t sr_threshold(const Conversion &cv, std::uint64_t x) {
    // SR(x, R) is monotone in R (a larger sum never truncates lower): bisect on the oracle.
    const std::uint64_t span = 1ull << abi::sr_random_bits(cv.id);
    const std::uint64_t base = convert_word_sr(cv, x, 0);
    std::uint64_t lo = 0, hi = span;  // SR(x, lo) == base; hi: first R known to differ, or span
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        (convert_word_sr(cv, x, static_cast<std::uint32_t>(mid)) == base ? lo : hi) = mid;
    }
    return hi;
}

Words sr_pairs(const Conversion &cv, const Words &xs) {
    const std::uint64_t span = 1ull << abi::sr_random_bits(cv.id);
    Words out;
    for (const std::uint64_t x : xs) {
        const std::uint64_t t = sr_threshold(cv, x);
        std::mt19937_64 rng(name_hash(cv.name) ^ (x * 0x9E3779B97F4A7C15ull));
        for (const std::uint64_t r : Words{0, span - 1, t - 1, t, t + 1})
            if (r < span) out.push_back(r << 32 | x);
        for (int i = 0; i < 2; ++i) out.push_back((rng() & 0xFFFFFFFFu) << 32 | x);
    }
    return unique(out);
}

}  // namespace ninfer::suites::scalar
