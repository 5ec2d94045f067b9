// SPDX-License-Identifier: Apache-2.0
// The SR convention subjects (issue 34 item 2; suites/SR.md "Convention subjects"): each plugin
// implements one named stochastic-rounding convention of real hardware or software natively, in
// integer operations on the binary32 word (no oracle, no reference), for the sr conversions its
// source documents. A convention C is a struct with
//   static constexpr const char *name;                 the plugin's name
//   static constexpr std::uint32_t conversions[];      the sr conversions it serves
//   static Grid round(const Lane &x, std::uint32_t R); the result n 2^q of |x| with random value R
//   static void draw(std::uint32_t *R, std::uint64_t n);  optional: its own bits for n lanes (default:
//                                                      one 32-bit draw per lane)
// The plugin reads the random plane when offered (profile 0) and draws its own bits otherwise.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::conventions {

/// A target of an sr conversion, as data: its encoding parameters, largest finite and NaN word.
struct Target {
    std::uint32_t conversion, format;
    int bits, man_bits, bias;
    std::uint64_t max_finite, nan;  ///< nan: the word of a NaN input (sign added), e2m1: none offered
};
inline constexpr Target kTargets[] = {
    {NINFER_CONVERSION_fp32_to_bf16_sr_satfinite, NINFER_FORMAT_bf16, 16, 7, 127, 0x7F7F, 0x7FC0},
    {NINFER_CONVERSION_fp32_to_fp16_sr_satfinite, NINFER_FORMAT_fp16, 16, 10, 15, 0x7BFF, 0x7E00},
    {NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite, NINFER_FORMAT_e4m3fn, 8, 3, 7, 0x7E, 0x7F},
    {NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite, NINFER_FORMAT_e5m2, 8, 2, 15, 0x7B, 0x7F},
    {NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite, NINFER_FORMAT_e2m1, 4, 1, 1, 0x7, 0x7},
};

/// The sr conversions of a convention documented for any target.
inline constexpr std::uint32_t kEverySr[] = {
    NINFER_CONVERSION_fp32_to_bf16_sr_satfinite, NINFER_CONVERSION_fp32_to_fp16_sr_satfinite,
    NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite, NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite,
    NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite};

/// One finite nonzero lane: |x| = m 2^e (m < 2^24), its binary32 magnitude bits, and the grid's
/// quantum 2^q at |x| in the target (the subnormal quantum below the normal range).
struct Lane {
    std::uint32_t magnitude;
    std::uint64_t m;
    int e, q;
    const Target *t;
    int r() const { return 23 - t->man_bits; }  ///< every bit a normal result drops
};

/// A result before encoding: n 2^q (n may reach the next binade's first point).
struct Grid {
    std::uint64_t n;
    int q;
};

inline Lane lane_of(std::uint32_t magnitude, const Target &t) {
    const std::uint32_t field = magnitude >> 23, frac = magnitude & 0x7FFFFFu;
    Lane l{magnitude, field ? frac | 0x800000u : frac, field ? static_cast<int>(field) - 150 : -149, 0, &t};
    const int binade = std::bit_width(l.m) - 1 + l.e, emin = 1 - t.bias;
    l.q = std::max(binade, emin) - t.man_bits;
    return l;
}

/// floor(m 2^e / 2^low) and what was cut: `rest` the cut bits (as they lie, when they fit) and
/// whether they were more than, exactly or less than half of 2^low.
struct Cut {
    std::uint64_t t;
    bool inexact;
    int half;  ///< -1 below half, 0 exactly half, 1 above
};
inline Cut cut_at(const Lane &x, int low) {
    if (x.e >= low) return {x.m << (x.e - low), false, -1};
    const int shift = low - x.e;
    if (shift > 25) return {0, x.m != 0, -1};  // m < 2^24 < half of 2^shift
    const std::uint64_t rest = x.m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    return {x.m >> shift, rest != 0, rest > half ? 1 : rest == half ? 0 : -1};
}

inline std::uint64_t low_bits(std::uint32_t R, int k) { return k >= 32 ? R : R & ((1u << k) - 1); }

/// The target word of n 2^q with the sign, satfinite (beyond the largest finite: the largest finite).
inline std::uint64_t encode(const Target &t, bool negative, Grid g) {
    const std::uint64_t sign = negative ? 1ull << (t.bits - 1) : 0;
    if (g.n == 0) return sign;
    const int b = std::bit_width(g.n) - 1, exponent = b + g.q, emin = 1 - t.bias;
    if (exponent < emin) return sign | g.n;  // subnormal: q is the subnormal quantum
    const int shift = t.man_bits - b;
    const std::uint64_t full = shift >= 0 ? g.n << shift : g.n >> -shift;
    if (exponent + t.bias > static_cast<int>(t.max_finite >> t.man_bits)) return sign | t.max_finite;  // past the top binade
    const std::uint64_t word = static_cast<std::uint64_t>(exponent + t.bias) << t.man_bits | (full - (1ull << t.man_bits));
    return sign | std::min(word, t.max_finite);
}

/// The seed of a subject's own bits: NINFER_SR_SEED (as the reference; default 0xC0DE).
inline std::mt19937_64 &own_generator() {
    static std::mt19937_64 g([] {
        const char *s = std::getenv("NINFER_SR_SEED");
        return s ? std::strtoull(s, nullptr, 0) : 0xC0DEull;
    }());
    return g;
}

/// The default of C::draw: one 32-bit draw per lane.
inline void draw_per_lane(std::uint32_t *R, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) R[i] = static_cast<std::uint32_t>(own_generator()());
}

inline std::int32_t refuse(ninfer_result_v2 *r, std::int32_t status, const char *why) {
    if (NINFER_HAS_FIELD(r, ninfer_result_v2, message)) std::snprintf(r->message, sizeof r->message, "%s", why);
    return status;
}

inline std::uint64_t load_le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}
inline void store_le(std::uint8_t *p, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// One lane: specials as the conversion's rules (zero keeps its sign, infinity saturates, NaN the
/// target's NaN of the input's sign), else C::round's grid point encoded.
template <class C>
std::uint64_t convert_lane(const Target &t, std::uint32_t x, std::uint32_t R) {
    const bool negative = (x >> 31) != 0;
    const std::uint32_t magnitude = x & 0x7FFFFFFFu;
    const std::uint64_t sign = negative ? 1ull << (t.bits - 1) : 0;
    if (magnitude > 0x7F800000u) return sign | t.nan;
    if (magnitude == 0x7F800000u) return sign | t.max_finite;
    if (magnitude == 0) return sign;
    return encode(t, negative, C::round(lane_of(magnitude, t), R));
}

template <class C>
std::int32_t convert(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const Target *t = nullptr;
    for (const auto conversion : C::conversions)
        if (conversion == c->method)
            for (const auto &candidate : kTargets)
                if (candidate.conversion == conversion) t = &candidate;
    if (!t) return refuse(r, NINFER_E_UNSUPPORTED, "convert: not a conversion of this convention");
    const ninfer_input_plane *in = ninfer_find_input(c, NINFER_PLANE_WORDS), *random = ninfer_find_input(c, NINFER_PLANE_RANDOM);
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_WORDS);
    const int ob = (t->bits + 7) / 8;
    if (!in || !out) return refuse(r, NINFER_E_INVALID_ARGUMENT, "convert: words in and out needed");
    if (c->count > (1ull << 40) || in->bytes < c->count * 4) return refuse(r, NINFER_E_SIZE, "words holds fewer than count words");
    if (out->capacity < c->count * ob) return refuse(r, NINFER_E_BUFFER, "the output plane is too small");
    if (random && random->bytes != c->count * 4) return refuse(r, NINFER_E_INVALID_ARGUMENT, "random holds not count x 4 bytes");
    std::vector<std::uint32_t> R(c->count);
    if (random) {
        for (std::uint64_t i = 0; i < c->count; ++i)
            R[i] = static_cast<std::uint32_t>(load_le(static_cast<const std::uint8_t *>(random->data) + 4 * i, 4));
    } else if constexpr (requires { C::draw(R.data(), c->count); }) {
        C::draw(R.data(), c->count);
    } else {
        draw_per_lane(R.data(), c->count);
    }
    const auto *src = static_cast<const std::uint8_t *>(in->data);
    auto *dst = static_cast<std::uint8_t *>(out->data);
    for (std::uint64_t i = 0; i < c->count; ++i)
        store_le(dst + ob * i, convert_lane<C>(*t, static_cast<std::uint32_t>(load_le(src + 4 * i, 4)), R[i]), ob);
    out->written = c->count * ob;
    return NINFER_OK;
}

template <class C>
struct Table {
    static constexpr std::size_t n = std::size(C::conversions);
    static constexpr auto capabilities = [] {
        std::array<ninfer_capability_v2, n> caps{};
        for (std::size_t i = 0; i < n; ++i)
            for (const auto &t : kTargets)
                if (t.conversion == C::conversions[i])
                    caps[i] = {NINFER_OP_convert, t.format, NINFER_FORMAT_fp32, 0, C::conversions[i], 0};
        return caps;
    }();
    static ninfer_plugin_v2 make() {
        ninfer_plugin_v2 p{};
        p.abi_version = 2;
        p.struct_size = sizeof(ninfer_plugin_v2);
        p.name = C::name;
        p.version = "1.0";
        p.capabilities = capabilities.data();
        p.capability_count = static_cast<std::uint32_t>(n);
        p.capability_size = sizeof(ninfer_capability_v2);
        p.ops[NINFER_OP_convert - 1] = convert<C>;
        return p;
    }
};

}  // namespace ninfer::conventions

/// Exports ninfer_plugin_entry of convention C (ABI 2 only).
#define NINFER_SR_CONVENTION(C)                                                                    \
    extern "C" NINFER_EXPORT const ninfer_plugin_v2 *ninfer_plugin_entry(std::uint32_t harness_abi) { \
        static const ninfer_plugin_v2 table = ninfer::conventions::Table<C>::make();             \
        return harness_abi >= 2 ? &table : nullptr;                                              \
    }
