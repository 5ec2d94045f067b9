// SPDX-License-Identifier: Apache-2.0
// binary32 inputs of an fp32-source conversion for cross-checks (TestFloat genCases style):
// every grid value of the target and every midpoint (tie) with +-8 ulps around each, the
// overflow thresholds, the binary32 subnormal boundaries, NaN payloads, then seeded random
// words. Shared by the reference's cross-check and the cuda_host survey (gpu/tests/).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "ninfer/oracle/scalar.hpp"

namespace ninfer::testing {

inline std::uint32_t f32_bits(float x) { return std::bit_cast<std::uint32_t>(x); }

/// binary32 inputs of an fp32 -> `dst` conversion: every grid value of the target and every
/// midpoint between neighbours (the ties), +-8 ulps around each, both signs; the overflow
/// thresholds; the binary32 subnormal boundaries; NaN payloads; specials.
inline std::vector<std::uint32_t> boundary_inputs(const oracle::WordFormat &dst, std::uint64_t &midpoints) {
    std::vector<std::uint32_t> out;
    const auto around = [&](std::uint32_t a) {
        for (int k = -8; k <= 8; ++k) {
            const std::int64_t w = static_cast<std::int64_t>(a) + k;
            if (w < 0 || w > 0x7F800000) continue;
            out.push_back(static_cast<std::uint32_t>(w));
            out.push_back(static_cast<std::uint32_t>(w) | 0x80000000u);
        }
    };
    const std::uint64_t top = oracle::largest_finite_word(dst);
    // Input generation only: each grid value is a binary64 word of the oracle's decode, and the
    // midpoint of two grid values is exact in binary32 (target precision <= 11 bits).
    const auto value = [&](std::uint64_t w) { return std::bit_cast<double>(oracle::decode_to_binary64(dst, w)); };
    midpoints = 0;
    double prev = 0;
    for (std::uint64_t t = 0; t <= top; ++t) {
        const double v = value(t);
        around(f32_bits(static_cast<float>(v)));
        if (t > 0) {
            around(f32_bits(static_cast<float>((prev + v) / 2)));
            ++midpoints;
        }
        prev = v;
    }
    // Overflow thresholds: the next grid value above the largest finite and the midpoint below it.
    if (top >= 1) {
        const double ulp = value(top) - value(top - 1);
        if (value(top) + ulp < 3.4e38) {
            around(f32_bits(static_cast<float>(value(top) + ulp / 2)));
            around(f32_bits(static_cast<float>(value(top) + ulp)));
            ++midpoints;
        }
    }
    for (std::uint32_t a : {0u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x7F800000u, 0x3F800000u}) around(a);
    for (std::uint32_t nan : {0x7F800001u, 0x7F800002u, 0x7F801000u, 0x7F808000u, 0x7F80FFFFu, 0x7F810000u, 0x7F820000u,
                              0x7FA00000u, 0x7FBFFFFFu, 0x7FC00000u, 0x7FC00001u, 0x7FC12345u, 0x7FE00000u, 0x7FF00000u,
                              0x7FFFE000u, 0x7FFFFFFFu}) {
        out.push_back(nan);
        out.push_back(nan | 0x80000000u);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// Seeded random binary32 words: half uniform over all 2^32 words, half with an exponent near
/// the target's range (so that random inputs round to every part of the target grid).
inline void add_random(std::vector<std::uint32_t> &out, std::uint64_t total, const oracle::WordFormat &dst,
                std::uint64_t conversion_seed) {
    std::mt19937_64 rng(conversion_seed);
    const int emin = dst.special == oracle::Special::E8M0 ? -127 : 1 - dst.bias - dst.man_bits;
    const int emax = dst.special == oracle::Special::E8M0 ? 127 : (1 << dst.exp_bits) - dst.bias;
    std::uniform_int_distribution<int> biased(std::max(0, emin + 127 - 4), std::min(254, emax + 127 + 4));
    while (out.size() < total) {
        const std::uint64_t r = rng();
        if (r & 1) {
            out.push_back(static_cast<std::uint32_t>(r >> 32));
        } else {
            const auto e = static_cast<std::uint32_t>(biased(rng));
            out.push_back((static_cast<std::uint32_t>(r >> 63) << 31) | (e << 23) |
                          (static_cast<std::uint32_t>(r >> 8) & 0x7FFFFFu));
        }
    }
}

}  // namespace ninfer::testing
