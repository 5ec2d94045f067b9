// SPDX-License-Identifier: Apache-2.0
// Fast native expected words for `sweep` (ninfer/oracle/native_words.hpp): exact values of the scalar word
// formats as binary64 (tensor-formats.txt Sections 3.1, 3.3, 3.4; number-formats-lesson.txt
// Examples 1-9, 13-15) and the named conversions of registry.h with the oracle's rounding,
// overflow and NaN decisions (oracle/README.md). The formats come from the registry tables.
// Integer bit manipulation only (no host float arithmetic); cross-checked against the MPFR oracle.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace ninfer::native {
namespace {

using abi::NanRule;
using abi::Special;

/// Bit geometry of a word format as a structural value (usable as a template argument).
struct Geom {
    int bits = 0, exp_bits = 0, man_bits = 0, bias = 0;
    bool has_sign = false;
    Special special = Special::IEEE;

    constexpr std::uint32_t mask() const { return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1; }
    constexpr std::uint32_t sign_bit() const { return has_sign ? 1u << (bits - 1) : 0u; }
    constexpr std::uint32_t mag_mask() const { return has_sign ? mask() >> 1 : mask(); }
    constexpr std::uint32_t frac_mask() const { return (1u << man_bits) - 1; }
    constexpr std::uint32_t exp_all() const { return (1u << exp_bits) - 1; }
    /// IEEE infinity magnitude (all-ones exponent, zero fraction).
    constexpr std::uint32_t inf_mag() const { return exp_all() << man_bits; }
    /// Largest finite magnitude: below infinity (IEEE), below the one NaN (FN), all ones (NONE).
    constexpr std::uint32_t max_finite_mag() const {
        if (special == Special::IEEE) return inf_mag() - 1;
        if (special == Special::FN || special == Special::E8M0) return mag_mask() - 1;
        return mag_mask();
    }
    /// The NaN magnitude a conversion writes when it has no payload to keep.
    constexpr std::uint32_t nan_mag() const {
        if (special == Special::IEEE) return inf_mag() | (1u << (man_bits - 1));
        return mag_mask();
    }
    constexpr int emin() const { return 1 - bias; }
};

constexpr Geom geom_of(const abi::WordFormat &f) {
    return Geom{f.bits, f.exp_bits, f.man_bits, f.bias, f.has_sign, f.special};
}

constexpr Geom geom(std::uint32_t format_id) { return geom_of(*abi::find_id(abi::kWordFormats, format_id)); }

/// A finite word as (-1)^neg * sig * 2^exp with an integer significand.
struct Finite {
    bool neg = false;
    std::uint32_t sig = 0;
    int exp = 0;
};

/// Class of a word (no sign bit); CLASS_OUTSIDE for bits above the format.
constexpr std::uint8_t class_of(const Geom &g, std::uint32_t w) {
    if (w & ~g.mask()) return NINFER_CLASS_OUTSIDE;
    const std::uint32_t mag = w & g.mag_mask();
    switch (g.special) {
    case Special::INT: return NINFER_CLASS_INTEGER;
    case Special::E8M0: return mag == g.mag_mask() ? NINFER_CLASS_NAN : NINFER_CLASS_NORMAL;
    default: break;
    }
    const std::uint32_t e = mag >> g.man_bits, f = mag & g.frac_mask();
    if (g.special == Special::IEEE && e == g.exp_all()) {
        if (f == 0) return NINFER_CLASS_INFINITE;
        return (f >> (g.man_bits - 1)) ? NINFER_CLASS_QNAN : NINFER_CLASS_SNAN;
    }
    if (g.special == Special::FN && mag == g.mag_mask()) return NINFER_CLASS_NAN;
    if (e == 0) return f == 0 ? NINFER_CLASS_ZERO : NINFER_CLASS_SUBNORMAL;
    return NINFER_CLASS_NORMAL;
}

/// Sign of a word of `g` (false for unsigned formats).
constexpr bool negative(const Geom &g, std::uint32_t w) { return (w & g.sign_bit()) != 0; }

/// Exact value of a finite float word (zero, subnormal, normal; E8M0 power of two).
constexpr Finite finite_parts(const Geom &g, std::uint32_t w) {
    const std::uint32_t mag = w & g.mag_mask();
    Finite r{negative(g, w), 0, 0};
    if (g.special == Special::E8M0) {
        r.sig = 1;
        r.exp = static_cast<int>(mag) - g.bias;
        return r;
    }
    const std::uint32_t e = mag >> g.man_bits, f = mag & g.frac_mask();
    if (e == 0) {
        r.sig = f;
        r.exp = g.emin() - g.man_bits;
    } else {
        r.sig = f | (1u << g.man_bits);
        r.exp = static_cast<int>(e) - g.bias - g.man_bits;
    }
    return r;
}

/// The binary32 word of an exact finite value that binary32 holds exactly.
constexpr std::uint32_t fp32_of(const Finite &v) {
    const std::uint32_t sign = v.neg ? 0x80000000u : 0u;
    if (v.sig == 0) return sign;
    const int bw = std::bit_width(v.sig);
    const int e = v.exp + bw - 1;
    if (e >= -126)
        return sign | (static_cast<std::uint32_t>(e + 127) << 23) | ((v.sig << (24 - bw)) & 0x7FFFFFu);
    return sign | (v.sig << (v.exp + 149));
}

/// The binary64 word of an exact finite value (every word of the registry fits).
constexpr std::uint64_t fp64_of(bool neg, std::uint64_t sig, int exp) {
    const std::uint64_t sign = neg ? 0x8000000000000000ull : 0ull;
    if (sig == 0) return sign;
    const int bw = std::bit_width(sig);
    const int e = exp + bw - 1;
    return sign | (static_cast<std::uint64_t>(e + 1023) << 52) | ((sig << (53 - bw)) & 0xFFFFFFFFFFFFFull);
}

constexpr std::uint64_t kNan64 = 0x7FF8000000000000ull;
constexpr std::uint32_t kNan32 = 0x7FC00000u;

/// Whether a rounding attribute is one of the nearest roundings (IEEE overflow goes to Inf).
constexpr bool nearest(std::uint32_t rounding) {
    return rounding == abi::detail::rounding_rne || rounding == abi::detail::rounding_rna ||
           rounding == abi::detail::rounding_rnu;
}

/// What step 1 adds below the dropped bits before the shift by `shift`, so that the shifted sum
/// is the magnitude rounded under R: rne half - 1 plus the kept lsb, rna half, rnu half (half - 1
/// for a negative value: its tie goes toward zero), rup all ones for a positive value, rdn all
/// ones for a negative value, rtz none.
template <std::uint32_t R>
constexpr std::uint32_t round_addend(std::uint32_t x, std::uint32_t shift, std::uint32_t neg) {
    const std::uint32_t half = 1u << (shift - 1);
    if constexpr (R == abi::detail::rounding_rne) return half - 1u + ((x >> shift) & 1u);
    else if constexpr (R == abi::detail::rounding_rna) return half;
    else if constexpr (R == abi::detail::rounding_rnu) return half - neg;
    else if constexpr (R == abi::detail::rounding_rup) return ((half << 1) - 1u) & (neg - 1u);
    else if constexpr (R == abi::detail::rounding_rdn) return ((half << 1) - 1u) & (0u - neg);
    else return 0u;  // rtz
}

/// Step 1 of every narrowing: the magnitude word of a finite binary32 magnitude `a` rounded to
/// `G` with unbounded exponent range above and the subnormal grid below (the word may exceed the
/// largest finite; the caller applies the overflow rule). Branch-free 32-bit integer steps:
///   at or above G's smallest normal: a rebased to G's bias, then d = 23 - man_bits bits dropped
///     (a carry moves into the exponent field, as the next binade's word);
///   below it: the significand shifted to G's subnormal quantum 2^(emin - man_bits) (at least
///     d + 1 bits; beyond 31 bits every significand lies below half a quantum).
/// `neg` is 1 for a negative value, else 0. No operand sum passes 2^32 (x < 2^31, addend < 2^31).
template <Geom G, std::uint32_t R>
constexpr std::uint32_t round_fp32_mag(std::uint32_t a, std::uint32_t neg) {
    static_assert(G.man_bits < 23 && G.emin() >= -126, "a narrowing of binary32");
    constexpr std::uint32_t d = 23 - G.man_bits;
    constexpr std::uint32_t min_normal32 = static_cast<std::uint32_t>(G.emin() + 127) << 23;
    constexpr std::uint32_t rebase = static_cast<std::uint32_t>(127 - G.bias) << 23;
    constexpr std::uint32_t sub_base = static_cast<std::uint32_t>(G.emin() - G.man_bits + 150);
    const std::uint32_t e32 = a >> 23;
    const std::uint32_t sig = (a & 0x7FFFFFu) | (e32 != 0 ? 0x800000u : 0u);
    const std::uint32_t sub_shift = sub_base - (e32 | (e32 == 0 ? 1u : 0u));
    const bool normal = a >= min_normal32;
    const std::uint32_t x = normal ? a - rebase : sig;
    const std::uint32_t shift = normal ? d : (sub_shift < 31u ? sub_shift : 31u);
    return (x + round_addend<R>(x, shift, neg)) >> shift;
}

/// Step 2: the magnitude word of a result beyond the largest finite (overflow attribute).
template <Geom G, std::uint32_t R, std::uint32_t O>
constexpr std::uint32_t overflow_mag(bool neg) {
    if constexpr (O == abi::detail::overflow_inf) {
        if constexpr (nearest(R)) return G.inf_mag();
        else if constexpr (R == abi::detail::rounding_rup) return neg ? G.max_finite_mag() : G.inf_mag();
        else if constexpr (R == abi::detail::rounding_rdn) return neg ? G.inf_mag() : G.max_finite_mag();
        else return G.max_finite_mag();
    } else if constexpr (O == abi::detail::overflow_nan) {
        return G.nan_mag();
    } else {
        return G.max_finite_mag();
    }
}

/// The NaN word a narrowing conversion writes for a binary32 NaN `w` (oracle/README.md):
/// BF16/FP16 keep sign and top payload bits with the quiet bit set; other IEEE targets write
/// the canonical quiet NaN of the sign; FN targets their NaN of the sign; E8M0 0xFF; E2M1 and
/// UE4M3 0.
template <Geom G, NanRule N>
constexpr std::uint32_t nan_from_fp32(std::uint32_t w) {
    const std::uint32_t sign = (w >> 31) ? G.sign_bit() : 0u;
    if constexpr (N == NanRule::ZERO || G.special == Special::NONE) return 0;
    else if constexpr (G.special == Special::E8M0) return G.mag_mask();
    else if constexpr (G.special == Special::IEEE && (N == NanRule::QUIET_TRUNC || N == NanRule::ANY_SIGNED))
        return sign | G.inf_mag() | (1u << (G.man_bits - 1)) | ((w & 0x7FFFFFu) >> (23 - G.man_bits));
    else return sign | G.nan_mag();
}

/// fp32 -> E8M0 (OCP MX scale): x <= 0 -> 0x00, NaN -> 0xFF, +Inf -> 0xFE; a finite positive
/// value rounds to a power of two (rtz, rdn: floor of log2; rup: ceil; nearest: up when the bit
/// below the leading one is set, since a tie between 2^k and 2^(k+1) has the even neighbour
/// 2^(k+1) on E8M0's grid), clamped to [2^-127, 2^127].
template <std::uint32_t R>
constexpr std::uint32_t fp32_to_e8m0(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu;
    const std::uint32_t e32 = a >> 23, f32 = a & 0x7FFFFFu;
    const std::uint32_t sig = e32 ? (f32 | 0x800000u) : f32;
    const int exp = e32 ? static_cast<int>(e32) - 150 : -149;
    const int bw = std::bit_width(sig);
    int k = exp + bw - 1;
    if constexpr (R == abi::detail::rounding_rup) k += std::has_single_bit(sig) ? 0 : 1;
    else if constexpr (nearest(R)) k += bw >= 2 && ((sig >> (bw - 2)) & 1u) ? 1 : 0;
    const auto finite = static_cast<std::uint32_t>(std::clamp(k, -127, 127) + 127);
    return a > 0x7F800000u ? 0xFFu : ((w >> 31) || a == 0) ? 0x00u : a == 0x7F800000u ? 0xFEu : finite;
}

/// A narrowing conversion of one binary32 word: rounding (step 1), overflow (step 2), then the
/// infinity, NaN and sign rules selected without branches.
template <Geom G, std::uint32_t R, std::uint32_t O, NanRule N>
constexpr std::uint32_t narrow_fp32(std::uint32_t w) {
    if constexpr (G.special == Special::E8M0) {
        return fp32_to_e8m0<R>(w);
    } else {
        const bool neg = (w >> 31) != 0;
        const std::uint32_t a = w & 0x7FFFFFFFu;
        const std::uint32_t sign = neg ? G.sign_bit() : 0u;
        constexpr std::uint32_t inf_word = O == abi::detail::overflow_inf   ? G.inf_mag()
                                           : O == abi::detail::overflow_nan ? G.nan_mag()
                                                                            : G.max_finite_mag();
        const std::uint32_t rounded = round_fp32_mag<G, R>(a, w >> 31);
        const std::uint32_t finite = rounded > G.max_finite_mag() ? overflow_mag<G, R, O>(neg) : rounded;
        const std::uint32_t mag = a >= 0x7F800000u ? inf_word : finite;
        const std::uint32_t word = a > 0x7F800000u ? nan_from_fp32<G, N>(w) : (sign | mag);
        if constexpr (!G.has_sign) return neg && a <= 0x7F800000u ? 0u : word;  // UE4M3: x <= 0, -Inf -> 0x00
        else return word;
    }
}

/// An exact widening of one word of `G` to binary32; NaN as the oracle writes it (IEEE sources
/// keep sign and payload bits, other NaNs become 0x7FC00000 with the sign); a word outside the
/// format converts as 0x7FC00000, or as 0 where the NaN rule is UNDEFINED (E2M1).
template <Geom G, NanRule N>
constexpr std::uint32_t widen_to_fp32(std::uint32_t w) {
    const std::uint8_t cls = class_of(G, w);
    const std::uint32_t sign = negative(G, w) ? 0x80000000u : 0u;
    switch (cls) {
    case NINFER_CLASS_OUTSIDE: return N == NanRule::UNDEFINED ? 0u : kNan32;
    case NINFER_CLASS_INFINITE: return sign | 0x7F800000u;
    case NINFER_CLASS_QNAN:
    case NINFER_CLASS_SNAN: return sign | 0x7F800000u | ((w & G.frac_mask()) << (23 - G.man_bits));
    case NINFER_CLASS_NAN: return sign | kNan32;
    default: return fp32_of(finite_parts(G, w));
    }
}

/// One conversion of the registry, resolved at compile time.
template <std::uint32_t Id>
struct Conv {
    static constexpr abi::Conversion c = *abi::find_id(abi::kConversions, Id);
    static constexpr Geom src = geom(c.src), dst = geom(c.dst);
    static constexpr int in_bytes = (src.bits + 7) / 8, out_bytes = (dst.bits + 7) / 8;

    static constexpr std::uint32_t one(std::uint32_t w) {
        if constexpr (c.src == NINFER_FORMAT_fp32) return narrow_fp32<dst, c.rounding, c.overflow, c.nan_rule>(w);
        else return widen_to_fp32<src, c.nan_rule>(w);
    }
};

template <int Bytes>
inline std::uint32_t load_le(const std::uint8_t *p) {
    if constexpr (Bytes == 4 && std::endian::native == std::endian::little) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    } else if constexpr (Bytes == 2 && std::endian::native == std::endian::little) {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    } else {
        return static_cast<std::uint32_t>(abi::load_le(p, Bytes));
    }
}

template <int Bytes>
inline void store_le(std::uint8_t *p, std::uint32_t v) {
    if constexpr (Bytes == 4 && std::endian::native == std::endian::little) {
        std::memcpy(p, &v, 4);
    } else if constexpr (Bytes == 2 && std::endian::native == std::endian::little) {
        const auto h = static_cast<std::uint16_t>(v);
        std::memcpy(p, &h, 2);
    } else {
        abi::store_le(p, v, Bytes);
    }
}

/// fp32 -> bf16 round to nearest even (lesson Example 5), the vectorizing special case of
/// narrow_fp32 (bf16 keeps binary32's exponent range, so no subnormal shift): add 0x7FFF plus
/// the kept lsb and drop 16 bits; NaN keeps sign and top payload, quiet bit set.
/// (The NaN test compares the magnitude as a signed 32-bit integer: it is below 2^31, and SSE2
/// has only the signed compare.)
inline std::uint32_t f32_to_bf16_rne(std::uint32_t w) {
    const std::uint32_t rounded = (w + 0x7FFFu + ((w >> 16) & 1u)) >> 16;
    const std::uint32_t quiet = (w >> 16) | 0x40u;
    return static_cast<std::int32_t>(w & 0x7FFFFFFFu) > 0x7F800000 ? quiet : rounded;
}

/// fp32 -> bf16 toward zero: truncation; NaN quieted as in f32_to_bf16_rne.
inline std::uint32_t f32_to_bf16_rtz(std::uint32_t w) {
    return (w & 0x7FFFFFFFu) > 0x7F800000u ? ((w >> 16) | 0x40u) : (w >> 16);
}

/// The target word type of a conversion's packed output (the smallest unsigned type that holds it).
template <int Bytes>
using word_t = std::conditional_t<Bytes == 1, std::uint8_t, std::conditional_t<Bytes == 2, std::uint16_t, std::uint32_t>>;

/// GCC on x86-64 compiles the batch loops twice, for AVX2 (per-lane variable shifts, 8 lanes)
/// and for the baseline, and picks one at load time (function multiversioning).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define NINFER_NATIVE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define NINFER_NATIVE_CLONES
#endif

/// The batch loop of conversion `Id`, specialised at compile time (no dispatch inside the loop).
/// On a little-endian host each packed word is loaded and stored with memcpy, so that the loop
/// body is a plain element-wise map that the compiler vectorizes.
template <std::uint32_t Id>
NINFER_NATIVE_CLONES void batch(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    using C = Conv<Id>;
    const auto map = [](std::uint32_t w) -> std::uint32_t {
        if constexpr (Id == NINFER_CONVERSION_fp32_to_bf16_rne) return f32_to_bf16_rne(w);
        else if constexpr (Id == NINFER_CONVERSION_fp32_to_bf16_rtz) return f32_to_bf16_rtz(w);
        else return C::one(w);
    };
    if constexpr (std::endian::native == std::endian::little && C::in_bytes == 4) {
        using Out = word_t<C::out_bytes>;
        static_assert(sizeof(Out) == C::out_bytes);
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint32_t w;
            std::memcpy(&w, in + 4 * i, 4);
            const auto o = static_cast<Out>(map(w));
            std::memcpy(out + sizeof(Out) * i, &o, sizeof(Out));
        }
    } else {
        for (std::uint64_t i = 0; i < n; ++i)
            store_le<C::out_bytes>(out + C::out_bytes * i, map(load_le<C::in_bytes>(in + C::in_bytes * i)));
    }
}

/// One word of conversion `Id`; a source word wider than its format converts as a NaN source.
template <std::uint32_t Id>
std::uint64_t one(std::uint64_t src) {
    using C = Conv<Id>;
    if (src > C::src.mask()) return C::one(C::src.bits == 32 ? kNan32 : C::src.mask() + 1);
    return C::one(static_cast<std::uint32_t>(src));
}

/// decode of one word of the compile-time format G: the binary64 word, as decode_to_binary64
/// writes it, with the classes selected without branches for the float formats.
template <Geom G>
constexpr std::uint64_t decode_word(std::uint32_t w) {
    if (w > G.mask()) return kNan64;
    const bool neg = negative(G, w);
    const std::uint64_t sign = neg ? 0x8000000000000000ull : 0ull;
    if constexpr (G.special == Special::INT) {
        return fp64_of(neg, neg ? (0x100000000ull - w) : w, 0);
    } else if constexpr (G.special == Special::E8M0) {
        return w == G.mag_mask() ? kNan64 : static_cast<std::uint64_t>(static_cast<int>(w) - G.bias + 1023) << 52;
    } else {
        const std::uint32_t mag = w & G.mag_mask(), e = mag >> G.man_bits, f = mag & G.frac_mask();
        const std::uint64_t normal = sign | (static_cast<std::uint64_t>(static_cast<int>(e) - G.bias + 1023) << 52) |
                                     (static_cast<std::uint64_t>(f) << (52 - G.man_bits));
        // Subnormal: f * 2^(emin - man_bits), normalised by f's bit width (zero: bw = 0, f = 0).
        const int bw = std::bit_width(f);
        const std::uint64_t sub_exp = static_cast<std::uint64_t>(G.emin() - G.man_bits + bw - 1 + 1023) << 52;
        const std::uint64_t sub = sign | (f ? sub_exp | ((static_cast<std::uint64_t>(f) << (53 - bw)) & 0xFFFFFFFFFFFFFull) : 0);
        bool nan = false, inf = false;
        if constexpr (G.special == Special::IEEE) {
            nan = e == G.exp_all() && f != 0;
            inf = e == G.exp_all() && f == 0;
        } else if constexpr (G.special == Special::FN) {
            nan = mag == G.mag_mask();
        }
        // An IEEE NaN keeps every bit (sign, quiet bit, payload at the top of the fraction), as
        // the exact widenings do; a NaN without a quiet bit is the quiet NaN of its sign.
        const std::uint64_t nan64 = G.special == Special::IEEE
                                        ? sign | 0x7FF0000000000000ull | (static_cast<std::uint64_t>(f) << (52 - G.man_bits))
                                        : sign | kNan64;
        return nan ? nan64 : inf ? (sign | 0x7FF0000000000000ull) : e == 0 ? sub : normal;
    }
}

/// The decode batch loop of word format `Id`: packed words to packed binary64 words.
template <std::uint32_t Id>
NINFER_NATIVE_CLONES void decode_loop(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    static constexpr Geom G = geom(Id);
    constexpr int in_bytes = (G.bits + 7) / 8;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t d = decode_word<G>(load_le<in_bytes>(in + in_bytes * i));
        abi::store_le64(out + 8 * i, d);
    }
}

struct DecodeEntry {
    std::uint32_t id = 0;
    void (*batch)(const std::uint8_t *, std::uint8_t *, std::uint64_t) = nullptr;
};

template <std::size_t... I>
constexpr auto make_decode_entries(std::index_sequence<I...>) {
    return std::array<DecodeEntry, sizeof...(I)>{DecodeEntry{abi::kWordFormats[I].id, &decode_loop<abi::kWordFormats[I].id>}...};
}

constexpr auto kDecodeEntries = make_decode_entries(std::make_index_sequence<abi::kWordFormats.size()>{});

struct Entry {
    std::uint32_t id = 0;
    std::uint64_t (*one)(std::uint64_t) = nullptr;
    void (*batch)(const std::uint8_t *, std::uint8_t *, std::uint64_t) = nullptr;
};

/// The conversions the native path serves: every one but the stochastic ones (a sweep has no
/// random plane; the oracle alone defines SR).
constexpr std::size_t kNativeCount = [] {
    std::size_t n = 0;
    for (const auto &c : abi::kConversions) n += abi::is_stochastic(c) ? 0 : 1;
    return n;
}();
constexpr auto kNativeIds = [] {
    std::array<std::uint32_t, kNativeCount> ids{};
    std::size_t i = 0;
    for (const auto &c : abi::kConversions)
        if (!abi::is_stochastic(c)) ids[i++] = c.id;
    return ids;
}();

template <std::size_t... I>
constexpr auto make_entries(std::index_sequence<I...>) {
    return std::array<Entry, sizeof...(I)>{Entry{kNativeIds[I], &one<kNativeIds[I]>, &batch<kNativeIds[I]>}...};
}

constexpr auto kEntries = make_entries(std::make_index_sequence<kNativeCount>{});

const Entry *entry(std::uint32_t id) {
    for (const auto &e : kEntries)
        if (e.id == id) return &e;
    return nullptr;
}

const abi::WordFormat *word_format_or_null(std::uint32_t id) { return abi::find_id(abi::kWordFormats, id); }

}  // namespace

bool knows_conversion(std::uint32_t conversion_id) { return entry(conversion_id) != nullptr; }

std::uint64_t convert_word(std::uint32_t conversion_id, std::uint64_t src) {
    const Entry *e = entry(conversion_id);
    return e ? e->one(src) : 0;
}

bool convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    const Entry *e = entry(conversion_id);
    if (!e) return false;
    e->batch(in, out, n);
    return true;
}

namespace {

/// A conversion's source and target geometry for the tie test, by id (a sweep asks per word).
struct TieGeom {
    bool nearest = false;
    Geom src, dst;
};

constexpr std::uint32_t kMaxConversionId = [] {
    std::uint32_t m = 0;
    for (const auto &c : abi::kConversions) m = std::max(m, c.id);
    return m;
}();

constexpr auto kTieGeoms = [] {
    std::array<TieGeom, kMaxConversionId + 1> t{};
    for (const auto &c : abi::kConversions) t[c.id] = {nearest(c.rounding), geom(c.src), geom(c.dst)};
    return t;
}();

}  // namespace

bool conversion_is_tie(std::uint32_t conversion_id, std::uint64_t src) {
    // oracle/src/scalar_round.cpp round_dyadic: |x| = m * 2^e against the grid quantum 2^qe
    if (conversion_id > kMaxConversionId || !kTieGeoms[conversion_id].nearest) return false;  // unknown ids too
    const Geom s = kTieGeoms[conversion_id].src, d = kTieGeoms[conversion_id].dst;
    if (src > s.mask()) return false;
    const auto w = static_cast<std::uint32_t>(src);
    const std::uint8_t cls = class_of(s, w);
    if (cls != NINFER_CLASS_NORMAL && cls != NINFER_CLASS_SUBNORMAL && cls != NINFER_CLASS_INTEGER) return false;
    if (!d.has_sign && negative(s, w)) return false;  // an unsigned target maps x <= 0 to 0x00
    std::uint64_t m = 0;
    int e = 0;
    if (s.special == Special::INT) {
        m = negative(s, w) ? (std::uint64_t{1} << s.bits) - w : w;
    } else {
        const Finite v = finite_parts(s, w);
        m = v.sig;
        e = v.exp;
    }
    if (m == 0) return false;
    // The quantum of the target's grid at |x| (oracle grid_quantum): 1 for an integer target.
    int qe = 0;
    if (d.special != Special::INT) {
        const int k = std::bit_width(m) - 1 + e;
        const int emin = d.special == Special::E8M0 ? -d.bias : d.emin();
        qe = std::max(k - d.man_bits, emin - d.man_bits);
    }
    if (e >= qe) return false;  // on the grid
    const int shift = qe - e;
    if (shift > 64) return false;  // |x| below 2^64 units, half a quantum at least 2^64
    const std::uint64_t below = shift == 64 ? m : m & ((std::uint64_t{1} << shift) - 1);
    return below == std::uint64_t{1} << (shift - 1);
}

bool knows_format(std::uint32_t format_id) { return word_format_or_null(format_id) != nullptr; }

std::uint8_t classify(std::uint32_t format_id, std::uint64_t word) {
    const auto *f = word_format_or_null(format_id);
    if (!f || word > f->mask()) return NINFER_CLASS_OUTSIDE;
    const Geom g = geom_of(*f);
    const auto w = static_cast<std::uint32_t>(word);
    return static_cast<std::uint8_t>(class_of(g, w) | (negative(g, w) ? NINFER_CLASS_SIGN : 0u));
}

std::uint64_t decode_to_binary64(std::uint32_t format_id, std::uint64_t word) {
    const auto *f = word_format_or_null(format_id);
    if (!f || word > f->mask()) return kNan64;
    const Geom g = geom_of(*f);
    const auto w = static_cast<std::uint32_t>(word);
    const bool neg = negative(g, w);
    switch (class_of(g, w)) {
    case NINFER_CLASS_INTEGER: return fp64_of(neg, neg ? (0x100000000ull - w) : w, 0);
    case NINFER_CLASS_INFINITE: return (neg ? 0x8000000000000000ull : 0ull) | 0x7FF0000000000000ull;
    case NINFER_CLASS_QNAN:
    case NINFER_CLASS_SNAN:  // an IEEE NaN keeps every bit, as decode_word
        return (neg ? 0x8000000000000000ull : 0ull) | 0x7FF0000000000000ull |
               (static_cast<std::uint64_t>(w & g.frac_mask()) << (52 - g.man_bits));
    case NINFER_CLASS_NAN: return (neg ? 0x8000000000000000ull : 0ull) | kNan64;
    default: {
        const Finite v = finite_parts(g, w);
        return fp64_of(v.neg, v.sig, v.exp);
    }
    }
}

bool decode_batch(std::uint32_t format_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    for (const auto &e : kDecodeEntries)
        if (e.id == format_id) {
            e.batch(in, out, n);
            return true;
        }
    return false;
}

}  // namespace ninfer::native
