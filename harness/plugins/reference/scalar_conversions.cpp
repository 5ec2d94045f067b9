// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scalar word conversions (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// number-formats-lesson.txt Examples 1-9, 13-15; the OCP FP8/MX conversion rules), written from
// the spec independently of ninfer::native (which computes the sweep's expected words), so that a
// sweep of the reference compares two implementations. The four conversions that sweeps time
// (fp32 -> bf16, fp16, e4m3fn satfinite, e2m1 satfinite, all round to nearest even) are
// branch-free batch loops; every other conversion reads its registry row (target geometry,
// rounding attribute, overflow behaviour, NaN rule) and rounds on the target's grid.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <random>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "scalar_codec.hpp"

namespace ninfer::reference {

namespace {

/// The binary32 magnitude bits of a NaN test: a signed compare (SSE2 has no unsigned one; the
/// magnitude is below 2^31).
constexpr bool is_nan32(std::uint32_t w) { return static_cast<std::int32_t>(w & 0x7FFFFFFFu) > 0x7F800000; }

/// fp32 -> bf16, round to nearest even (lesson Example 5): keep the high half; the low half
/// against 0x8000 decides, a tie goes to the even high half; the carry may reach the exponent
/// (up to infinity, the right overflow under rne). NaN: high half with the quiet bit set.
constexpr std::uint16_t fp32_to_bf16_rne(std::uint32_t w) {
    const std::uint32_t high = w >> 16, low = w & 0xFFFFu;
    const std::uint32_t up = (low + (high & 1u)) > 0x8000u ? 1u : 0u;
    return static_cast<std::uint16_t>(is_nan32(w) ? (high | 0x0040u) : high + up);
}

/// A binary32 magnitude rounded to nearest even on the grid of a target with `man` fraction
/// bits, exponent bias `bias` and subnormals (IEEE 754 Section 4.3.1 rounding to the precision
/// and the minimum exponent 1 - bias of the target): the magnitude field (exponent and fraction;
/// beyond the largest finite when it overflows). Branch-free.
template <int man, int bias>
constexpr std::uint32_t rne_magnitude(std::uint32_t a) {
    const std::uint32_t e = a >> 23;
    // Normal targets: biased target exponent e - 127 + bias >= 1, the fraction's 23 - man low bits dropped.
    constexpr std::uint32_t first_normal_e = 128 - bias;
    const std::uint32_t normal_drop = 23 - man;
    const std::uint32_t normal_x = a - ((127u - bias) << 23);
    // Subnormal targets: the significand (hidden bit included) counts units of 2^(max(e, 1) - 150),
    // dropped to units of 2^(1 - bias - man): 151 - bias - man - max(e, 1) bits, at least
    // 24 - man; beyond 31 every significand (< 2^24) lies below half a unit, as with 31.
    const std::uint32_t sig = (a & 0x7FFFFFu) | (e ? 0x800000u : 0u);
    const std::uint32_t e_eff = e ? e : 1u;
    const std::uint32_t sub_drop_raw = (151u - bias - man) - e_eff;
    const std::uint32_t sub_drop = sub_drop_raw > 31u ? 31u : sub_drop_raw;
    const bool normal = e >= first_normal_e;
    const std::uint32_t x = normal ? normal_x : sig;
    const std::uint32_t drop = normal ? normal_drop : sub_drop;
    const std::uint32_t kept = x >> drop, rest = x & ((1u << drop) - 1u), half = 1u << (drop - 1);
    const std::uint32_t up = static_cast<std::uint32_t>(rest > half) | (static_cast<std::uint32_t>(rest == half) & kept & 1u);
    return kept + up;
}

/// fp32 -> fp16 round to nearest even, overflow to infinity (IEEE 754 binary16); NaN: sign,
/// quiet bit and the top 9 payload bits.
constexpr std::uint16_t fp32_to_fp16_rne(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 16) & 0x8000u;
    const std::uint32_t m = rne_magnitude<10, 15>(a);
    const std::uint32_t finite = m >= 0x7C00u ? 0x7C00u : m;
    const std::uint32_t mag = a >= 0x7F800000u ? 0x7C00u : finite;
    return static_cast<std::uint16_t>(is_nan32(w) ? (sign | 0x7E00u | ((a >> 13) & 0x3FFu)) : (sign | mag));
}

/// fp32 -> e4m3fn round to nearest even, saturating (OCP FP8: beyond 448 and +-Inf -> +-448 = 0x7E);
/// NaN -> 0x7F with the sign.
constexpr std::uint8_t fp32_to_e4m3fn_rne_satfinite(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 24) & 0x80u;
    const std::uint32_t m = rne_magnitude<3, 7>(a);
    const std::uint32_t mag = (m > 0x7Eu || a >= 0x7F800000u) ? 0x7Eu : m;
    return static_cast<std::uint8_t>(is_nan32(w) ? (sign | 0x7Fu) : (sign | mag));
}

/// fp32 -> e2m1 round to nearest even, saturating at 6 (OCP MX FP4: magnitudes 0, 0.5, 1, 1.5,
/// 2, 3, 4, 6 at codes 0..7): the code counts the midpoints passed, a tie going to the even code
/// (0.25 -> 0, 0.75 -> 2, 1.25 -> 2, 1.75 -> 4, 2.5 -> 4, 3.5 -> 6, 5 -> 6); NaN -> 0.
constexpr std::uint8_t fp32_to_e2m1_rne_satfinite(std::uint32_t w) {
    const std::uint32_t a = w & 0x7FFFFFFFu, sign = (w >> 28) & 0x8u;
    const std::uint32_t code = (a > 0x3E800000u) + (a >= 0x3F400000u) + (a > 0x3FA00000u) + (a >= 0x3FE00000u) +
                               (a > 0x40200000u) + (a >= 0x40600000u) + (a > 0x40A00000u);
    return static_cast<std::uint8_t>(is_nan32(w) ? 0u : (sign | code));
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define REFERENCE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define REFERENCE_CLONES
#endif

/// One of the reference's own batch loops: packed little-endian binary32 words to packed target
/// words (memcpy loads and stores on a little-endian host, so that the loop vectorizes).
template <class Out, Out (*Map)(std::uint32_t)>
REFERENCE_CLONES void own_batch(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t w;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(&w, in + 4 * i, 4);
        } else {
            w = abi::load_le32(in + 4 * i);
        }
        const Out o = Map(w);
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(out + sizeof(Out) * i, &o, sizeof(Out));
        } else {
            abi::store_le(out + sizeof(Out) * i, o, sizeof(Out));
        }
    }
}

/// One of the four batch-loop conversions of one word, or false for the others.
bool own_convert(std::uint32_t conversion_id, std::uint64_t src, std::uint64_t &dst) {
    const auto w = static_cast<std::uint32_t>(src);
    switch (conversion_id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: dst = fp32_to_bf16_rne(w); return true;
    case NINFER_CONVERSION_fp32_to_fp16_rne: dst = fp32_to_fp16_rne(w); return true;
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite: dst = fp32_to_e4m3fn_rne_satfinite(w); return true;
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite: dst = fp32_to_e2m1_rne_satfinite(w); return true;
    default: return false;
    }
}

/// The word of a NaN source under the conversion's NaN rule: 0 where NaN maps to zero (ZERO)
/// or is outside the domain (UNDEFINED); the all-ones NaN of an FN or E8M0 target with the
/// source's sign; an IEEE target's quiet NaN of the sign, keeping the top payload bits where
/// the rule's payload profile asks it (QUIET_TRUNC: bf16; ANY_SIGNED: fp16, as fp32_to_fp16_rne).
std::uint64_t nan_word(const abi::Conversion &c, const abi::WordFormat &t, bool negative, std::uint32_t payload) {
    if (c.nan_rule == abi::NanRule::ZERO || c.nan_rule == abi::NanRule::UNDEFINED) return 0;
    const std::uint64_t sign = t.has_sign && negative ? 1ull << (t.bits - 1) : 0;
    if (t.special != abi::Special::IEEE) return sign | t.mask() >> (t.has_sign ? 1 : 0);
    const std::uint64_t exponent = ((1ull << t.exp_bits) - 1) << t.man_bits, quiet = 1ull << (t.man_bits - 1);
    const bool keeps = c.nan_rule == abi::NanRule::QUIET_TRUNC || c.nan_rule == abi::NanRule::ANY_SIGNED;
    const std::uint64_t kept = keeps ? payload >> (23 - t.man_bits) : 0;
    return sign | exponent | quiet | kept;
}

/// The largest finite magnitude field of a target: below the IEEE infinity, one below the
/// all-ones NaN of FN and E8M0, all ones for a format without specials.
std::uint64_t max_finite_field(const abi::WordFormat &t) {
    const std::uint64_t ones = (1ull << (t.exp_bits + t.man_bits)) - 1;
    if (t.special == abi::Special::IEEE) return ones - ((1ull << t.man_bits) - 1) - 1;
    return t.special == abi::Special::NONE ? ones : ones - 1;
}

/// Whether a finite value of sign `negative` beyond the largest finite stays finite under `inf`
/// (IEEE 754 Section 7.4): a directed rounding reaches infinity only in its own direction.
bool overflow_stays_finite(std::uint32_t rounding, bool negative) {
    switch (rounding) {
    case abi::detail::rounding_rtz: return true;
    case abi::detail::rounding_rup: return negative;
    case abi::detail::rounding_rdn: return !negative;
    default: return false;  // the nearest roundings
    }
}

/// The magnitude field of an infinity or of a finite value beyond the largest finite under the
/// overflow behaviour (registry.h NINFER_OVERFLOWS): infinity (a finite value rounded away from
/// it: the largest finite), the largest finite, or the all-ones NaN.
std::uint64_t overflow_field(const abi::Conversion &c, const abi::WordFormat &t, bool negative, bool infinite) {
    if (c.overflow == abi::detail::overflow_satfinite) return max_finite_field(t);
    if (c.overflow == abi::detail::overflow_nan) return (1ull << (t.exp_bits + t.man_bits)) - 1;
    if (!infinite && overflow_stays_finite(c.rounding, negative)) return max_finite_field(t);
    return ((1ull << t.exp_bits) - 1) << t.man_bits;
}

/// Whether a magnitude `kept` units plus `rest` of `half`-sized half units rounds up under the
/// rounding attribute (registry.h NINFER_ROUNDINGS), for a value of sign `negative`.
bool rounds_up(std::uint32_t rounding, bool negative, std::uint64_t kept, std::uint64_t rest, std::uint64_t half) {
    switch (rounding) {
    case abi::detail::rounding_rne: return rest > half || (rest == half && (kept & 1u));
    case abi::detail::rounding_rna: return rest >= half;
    case abi::detail::rounding_rnu: return negative ? rest > half : rest >= half;
    case abi::detail::rounding_rup: return !negative && rest != 0;
    case abi::detail::rounding_rdn: return negative && rest != 0;
    default: return false;  // rtz
    }
}

/// The smallest exponent of a normal value: E8M0's exponent field 0 is 2^-bias, the others' 1 - bias.
int min_normal_exponent(const abi::WordFormat &t) { return t.special == abi::Special::E8M0 ? -t.bias : 1 - t.bias; }

/// Stochastic rounding's carry (registry.h NINFER_STOCHASTIC): the r bits of a 24-bit
/// significand just below the kept ones (those of weight 2^-1 .. 2^-r units; lower bits are
/// dropped, as r-bit hardware drops them) plus the low r bits of `random` reach 2^r.
std::uint64_t sr_carry(std::uint64_t sig, int drop, int r, std::uint32_t random) {
    const std::uint64_t mask = (1ull << r) - 1;
    const std::uint64_t rest = drop >= 32 ? sig : sig & ((1ull << drop) - 1);
    const int shift = drop - r;  // bits of the significand below R's lowest place
    const std::uint64_t top = shift >= 32 ? 0 : shift >= 0 ? rest >> shift : (rest << -shift) & mask;
    return (top + (random & mask)) >> r;
}

/// A finite nonzero binary32 magnitude sig * 2^ex rounded onto the target's grid (quantum
/// 2^(max(floor(log2 x), emin) - man), IEEE 754 Section 4.3): the magnitude field, carries into
/// the exponent included; beyond the largest finite, the overflow field. `random`: an sr
/// conversion's random value for this word.
std::uint64_t rounded_field(const abi::Conversion &c, const abi::WordFormat &t, bool negative, std::uint64_t sig, int ex,
                            std::uint32_t random) {
    const int emin = min_normal_exponent(t), log2_floor = ex + static_cast<int>(std::bit_width(sig)) - 1;
    const int quantum = std::max(log2_floor, emin) - t.man_bits;
    // Beyond 40 dropped bits every 24-bit significand lies below half a unit, as with 40.
    const int drop = std::min(quantum - ex, 40);
    std::uint64_t kept = drop <= 0 ? sig << -drop : sig >> drop;
    if (drop > 0 && c.rounding == abi::detail::rounding_sr)
        kept += sr_carry(sig, quantum - ex, abi::sr_random_bits(c.id), random);
    else if (drop > 0)
        kept += rounds_up(c.rounding, negative, kept, sig & ((1ull << drop) - 1), 1ull << (drop - 1));
    // Zero: the signed zero, or E8M0's smallest word (it has no zero).
    if (kept == 0) return 0;
    // The exponent field of the quantum's binade plus the fraction; a subnormal (kept below
    // 2^man at the lowest quantum) reads as its bare fraction, a carry moves into the exponent.
    const std::uint64_t field =
        (static_cast<std::uint64_t>(quantum + t.man_bits + t.bias) << t.man_bits) + kept - (1ull << t.man_bits);
    return field > max_finite_field(t) ? overflow_field(c, t, negative, false) : field;
}

/// A binary32 word to the conversion's target (src fp32): NaN by the NaN rule, a negative
/// value (or -0) of an unsigned target to word 0, infinity as an overflow, the rest rounded.
std::uint64_t narrow_fp32(const abi::Conversion &c, const abi::WordFormat &t, std::uint32_t w, std::uint32_t random = 0) {
    const bool negative = (w >> 31) != 0;
    const std::uint32_t exponent = (w >> 23) & 0xFFu, fraction = w & 0x7FFFFFu;
    if (exponent == 0xFFu && fraction != 0) return nan_word(c, t, negative, fraction);
    if (negative && !t.has_sign) return 0;
    const std::uint64_t sign = negative ? 1ull << (t.bits - 1) : 0;
    if (exponent == 0xFFu) return sign | overflow_field(c, t, negative, true);
    if (exponent == 0 && fraction == 0) return sign;
    const std::uint64_t sig = fraction | (exponent ? 0x800000u : 0u);
    return sign | rounded_field(c, t, negative, sig, (exponent ? static_cast<int>(exponent) : 1) - 150, random);
}

/// A word of the conversion's source to binary32 (dst fp32): every value is exact in binary32;
/// an IEEE NaN keeps sign, quiet bit and payload, a NaN without payload is the quiet NaN of
/// its sign; a word outside a domain without NaN (UNDEFINED) gives 0.
std::uint64_t widen_to_fp32(const abi::Conversion &c, const abi::WordFormat &s, std::uint64_t w) {
    const std::uint64_t d = decode_word(s, w);
    if ((d & 0x7FFFFFFFFFFFFFFFull) <= 0x7FF0000000000000ull)
        return std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(d)));
    if (c.nan_rule == abi::NanRule::UNDEFINED) return 0;
    return ((d >> 32) & 0x80000000u) | 0x7F800000u | ((d & 0xFFFFFFFFFFFFFull) >> 29);
}

/// The reference's own random values when a call of an sr conversion offers no random plane
/// (harness/README.md "Stochastic rounding"): one std::mt19937_64 per process, seeded once from
/// NINFER_SR_SEED (an integer; default 0x5EED) and advancing across calls, so that repeated
/// calls with the same words draw fresh bits; each word takes the low 32 bits of one draw.
std::uint32_t own_random_bits() {
    static std::mt19937_64 rng = [] {
        const char *s = std::getenv("NINFER_SR_SEED");
        return std::mt19937_64(s ? std::strtoull(s, nullptr, 0) : 0x5EEDull);
    }();
    return static_cast<std::uint32_t>(rng());
}

/// One word of a registered conversion by its registry row: a 32-bit source wider than its
/// word converts as a quiet NaN.
std::uint64_t convert_by_row(const abi::Conversion &c, std::uint64_t src) {
    const auto &s = *abi::find_id(abi::kWordFormats, c.src), &t = *abi::find_id(abi::kWordFormats, c.dst);
    if (c.src == NINFER_FORMAT_fp32) return narrow_fp32(c, t, src > 0xFFFFFFFFu ? 0x7FC00000u : static_cast<std::uint32_t>(src));
    return widen_to_fp32(c, s, src);
}

/// Every registered conversion's words through its registry row, one word at a time.
void batch_by_row(const abi::Conversion &c, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    const int in_width = abi::find_id(abi::kWordFormats, c.src)->bytes(), out_width = abi::find_id(abi::kWordFormats, c.dst)->bytes();
    for (std::uint64_t i = 0; i < n; ++i)
        abi::store_le(out + out_width * i, convert_by_row(c, abi::load_le(in + in_width * i, in_width)), out_width);
}

}  // namespace

bool scalar_knows_conversion(std::uint32_t conversion_id) {
    return abi::find_id(abi::kConversions, conversion_id) != nullptr;
}

std::uint64_t scalar_convert(std::uint32_t conversion_id, std::uint64_t src) {
    std::uint64_t dst = 0;
    if (src <= 0xFFFFFFFFu && own_convert(conversion_id, src, dst)) return dst;
    const auto *c = abi::find_id(abi::kConversions, conversion_id);
    return c ? convert_by_row(*c, src) : 0;
}

bool scalar_convert_sr_batch(std::uint32_t conversion_id, const std::uint8_t *in, const std::uint8_t *random,
                             std::uint8_t *out, std::uint64_t n) {
    const auto *c = abi::find_id(abi::kConversions, conversion_id);
    if (!c || !abi::is_stochastic(*c)) return false;
    const auto &t = *abi::find_id(abi::kWordFormats, c->dst);
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint32_t r = random ? abi::load_le32(random + 4 * i) : own_random_bits();
        abi::store_le(out + t.bytes() * i, narrow_fp32(*c, t, abi::load_le32(in + 4 * i), r), t.bytes());
    }
    return true;
}

bool scalar_convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    // One dispatch per batch, to a loop specialised for the conversion.
    switch (conversion_id) {
    case NINFER_CONVERSION_fp32_to_bf16_rne: own_batch<std::uint16_t, fp32_to_bf16_rne>(in, out, n); return true;
    case NINFER_CONVERSION_fp32_to_fp16_rne: own_batch<std::uint16_t, fp32_to_fp16_rne>(in, out, n); return true;
    case NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite:
        own_batch<std::uint8_t, fp32_to_e4m3fn_rne_satfinite>(in, out, n);
        return true;
    case NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite:
        own_batch<std::uint8_t, fp32_to_e2m1_rne_satfinite>(in, out, n);
        return true;
    default: break;
    }
    const auto *c = abi::find_id(abi::kConversions, conversion_id);
    if (!c) return false;
    batch_by_row(*c, in, out, n);
    return true;
}

}  // namespace ninfer::reference
