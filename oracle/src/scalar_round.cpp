// SPDX-License-Identifier: Apache-2.0
// Correct rounding and the named conversions (registry.h NINFER_CONVERSIONS; tensor-formats.txt
// Section 3.1; number-formats-lesson.txt Examples 3-5, 8, 9, 13-15; OCP FP8 saturating and
// NaN-producing conversion; ggml's half-up UE4M3 scale encoder). Exact integer arithmetic on
// m * 2^e (GMP through Boost.Multiprecision); no host float is ever involved.
#include <algorithm>
#include <mpfr.h>
#include <span>
#include <stdexcept>
#include <string>

#include "ninfer/oracle/convert_many.hpp"
#include "ninfer/oracle/sr_conventions.hpp"
#include "scalar_stochastic.hpp"

namespace ninfer::oracle {

namespace detail {

namespace {

bool is_nearest(std::uint32_t rounding) {
    return rounding == rounding_rne || rounding == rounding_rna || rounding == rounding_rnu ||
           rounding == rounding_exact;
}

void require_ids(std::uint32_t rounding, std::uint32_t overflow) {
    if (!find_id(kRoundings, rounding)) throw std::invalid_argument("unknown rounding id " + std::to_string(rounding));
    if (!find_id(kOverflows, overflow)) throw std::invalid_argument("unknown overflow id " + std::to_string(overflow));
}

}  // namespace

/// The word of a finite result beyond the largest finite value (IEEE 754 Section 7.4 for `inf`).
std::uint64_t overflow_word(bool negative, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow) {
    const std::uint64_t largest = largest_finite_word(f) | (negative ? sign_bit(f) : 0);
    switch (overflow) {
    case overflow_inf:
        if (f.special != Special::IEEE)
            throw std::invalid_argument("overflow 'inf' needs a format with infinities; " + std::string(f.name) +
                                        " has none");
        if (is_nearest(rounding)) return infinity_word(f, negative);
        if (rounding == rounding_rtz) return largest;
        if (rounding == rounding_rdn) return negative ? infinity_word(f, true) : largest;
        return negative ? largest : infinity_word(f, false);  // rup: toward +infinity
    case overflow_satfinite: return largest;
    case overflow_nan: return canonical_nan(f, negative);
    default: break;
    }
    throw std::domain_error("a value beyond the largest finite " + std::string(f.name) +
                            " under overflow 'none' (the conversion claims it cannot overflow)");
}

namespace {

/// Per-thread GMP integers of round_dyadic and convert_detail, allocated once per thread and
/// reused: an exhaustive range rounds 2^32 words, and allocation dominated the per-word cost.
/// The source word's value needs 64 bits at most (every word format of the registry has at most
/// 53 significand bits, int32 32), so the value holds it exactly with 64 bits of precision.
constexpr bool every_word_fits_64_bits() {
    for (const auto &f : kWordFormats)
        if (f.bits > 64 || f.man_bits + 1 > 64) return false;
    return true;
}
static_assert(every_word_fits_64_bits(), "a word format needs more than 64 bits of precision");

struct Scratch {
    Int n, rem, half, high, m;
    WordInfo info;
    Scratch() {
        info.value = exact_zero();
        mpfr_set_prec(info.value.backend().data(), 64);
        mpz_realloc2(m.backend().data(), 128);
    }
};

Scratch &scratch() {
    thread_local Scratch s;
    return s;
}

/// n * 2^qe (n > 0, at most man_bits + 2 bits) as a float word; false beyond the largest finite.
bool encode_float(bool negative, const Int &n, long qe, const WordFormat &f, std::uint64_t &word) {
    const long top = static_cast<long>(msb(n));  // n * 2^qe = 1.x * 2^(top + qe)
    const long kk = top + qe;
    if (f.special == Special::E8M0) {
        const long exp_field = kk + f.bias;
        if (exp_field > 254) return false;
        word = static_cast<std::uint64_t>(exp_field);
        return true;
    }
    const long emin = 1 - f.bias;
    std::uint64_t magnitude = 0;
    if (kk < emin) {
        magnitude = n.convert_to<std::uint64_t>();  // subnormal: qe is the subnormal quantum
    } else {
        const long exp_field = kk + f.bias;
        if (exp_field > static_cast<long>((1ull << f.exp_bits) - 1)) return false;
        Int &high = scratch().high;
        mpz_tdiv_q_2exp(high.backend().data(), n.backend().data(), static_cast<mp_bitcnt_t>(top - f.man_bits));
        const std::uint64_t frac = high.convert_to<std::uint64_t>() - (1ull << f.man_bits);
        magnitude = (static_cast<std::uint64_t>(exp_field) << f.man_bits) | frac;
        if (magnitude > largest_finite_word(f)) return false;
    }
    word = magnitude | (negative ? sign_bit(f) : 0);
    return true;
}

}  // namespace

std::uint64_t round_infinity(bool negative, const WordFormat &f, std::uint32_t overflow) {
    if (negative && !f.has_sign)
        throw std::invalid_argument("-inf has no word in unsigned format " + std::string(f.name));
    switch (overflow) {
    case overflow_inf:
    case overflow_none: return infinity_word(f, negative);
    case overflow_satfinite: return largest_finite_word(f) | (negative ? sign_bit(f) : 0);
    case overflow_nan: return canonical_nan(f, negative);
    default: break;
    }
    throw std::invalid_argument("unknown overflow id " + std::to_string(overflow));
}

long grid_quantum(const Int &m, long e, const WordFormat &f) {
    if (m == 0 || f.special == Special::INT) return 0;
    const long k = static_cast<long>(msb(m)) + e;
    const long emin = f.special == Special::E8M0 ? -f.bias : 1 - f.bias;
    return std::max(k - f.man_bits, emin - f.man_bits);
}

bool rounds_up(std::uint32_t rounding, bool negative, bool inexact, int vs_half, bool odd) {
    if (!inexact) return false;
    switch (rounding) {
    case rounding_rne:
    case rounding_exact: return vs_half > 0 || (vs_half == 0 && odd);
    case rounding_rna: return vs_half >= 0;
    case rounding_rnu: return vs_half > 0 || (vs_half == 0 && !negative);
    case rounding_rup: return !negative;
    case rounding_rdn: return negative;
    default: return false;  // rtz
    }
}

Rounded round_dyadic(bool negative, const Int &m, long e, const WordFormat &f, std::uint32_t rounding,
                     std::uint32_t overflow) {
    require_ids(rounding, overflow);
    if (rounding == rounding_sr)
        throw std::invalid_argument("rounding 'sr' needs a random value per word (convert_word_sr)");
    Rounded out;
    if (negative && m != 0 && !f.has_sign)
        throw std::invalid_argument("a negative value has no word in unsigned format " + std::string(f.name));
    // 1. The quantum 2^qe of the grid around |x| (grid_quantum).
    const long qe = grid_quantum(m, e, f);
    // 2. n = |x| / 2^qe rounded to an integer: the two directed neighbours are floor and floor + 1,
    //    and rem against half compares the distances to them exactly.
    // n, rem and half live in the thread's scratch (m >= 0, so the truncating quotient and
    // remainder by 2^shift are floor and m - floor * 2^shift).
    auto &s = scratch();
    Int &n = s.n;
    if (m == 0 || e >= qe) {
        mpz_mul_2exp(n.backend().data(), m.backend().data(), static_cast<mp_bitcnt_t>(std::max(0L, e - qe)));
    } else {
        const auto shift = static_cast<unsigned long>(qe - e);
        // |x| far below half a quantum: decided without building 2^(shift - 1).
        const bool tiny = shift > msb(m) + 1;
        Int &rem = s.rem;
        int c = -1;
        if (tiny) {
            mpz_set_ui(n.backend().data(), 0);
            mpz_set(rem.backend().data(), m.backend().data());
        } else {
            mpz_tdiv_q_2exp(n.backend().data(), m.backend().data(), shift);
            mpz_tdiv_r_2exp(rem.backend().data(), m.backend().data(), shift);
            mpz_set_ui(s.half.backend().data(), 0);
            mpz_setbit(s.half.backend().data(), shift - 1);
            c = rem.compare(s.half);
        }
        out.inexact = rem != 0;
        out.tie = c == 0;
        if (rounds_up(rounding, negative, out.inexact, c, bit_test(n, 0)))
            mpz_add_ui(n.backend().data(), n.backend().data(), 1);
    }
    if (rounding == rounding_exact && out.inexact)
        throw std::domain_error("an 'exact' rounding met a value that " + std::string(f.name) + " cannot hold");
    // 3. Encode, then apply the overflow rule to a result beyond the largest finite value.
    if (f.special == Special::INT) {
        const Int limit = negative ? Int(1) << (f.bits - 1) : (Int(1) << (f.bits - 1)) - 1;
        if (n > limit) {
            if (overflow != overflow_satfinite)
                throw std::domain_error("an integer beyond " + std::string(f.name) + " needs overflow 'satfinite'");
            n = limit;
        }
        const auto magnitude = n.convert_to<std::uint64_t>();
        out.word = negative ? (~magnitude + 1) & f.mask() : magnitude;
        return out;
    }
    if (n == 0) {
        if (f.special == Special::E8M0) {  // no zero: underflow saturates to the smallest word
            if (overflow == overflow_nan) out.word = canonical_nan(f, false);
            else if (overflow == overflow_satfinite) out.word = 0x00;
            else throw std::domain_error("e8m0 has no zero; an underflow needs overflow 'satfinite' or 'nan'");
            return out;
        }
        out.word = negative ? sign_bit(f) : 0;
        return out;
    }
    if (!encode_float(negative, n, qe, f, out.word)) out.word = overflow_word(negative, f, rounding, overflow);
    return out;
}

}  // namespace detail

using detail::Int;

std::uint64_t round_real(const Real &x, const WordFormat &f, std::uint32_t rounding, std::uint32_t overflow) {
    const auto *p = x.backend().data();
    if (mpfr_nan_p(p)) throw std::invalid_argument("round_real: NaN is not a real; a conversion's NaN rule handles it");
    const bool negative = mpfr_signbit(p) != 0;
    if (mpfr_inf_p(p)) return detail::round_infinity(negative, f, overflow);
    if (mpfr_zero_p(p)) return detail::round_dyadic(negative, Int(0), 0, f, rounding, overflow).word;
    Int m;
    const long e = detail::split_dyadic(x, m);
    return detail::round_dyadic(negative, abs(m), e, f, rounding, overflow).word;
}

std::uint64_t round_quotient(const Real &a, const Real &b, const WordFormat &f, std::uint32_t rounding,
                             std::uint32_t overflow) {
    const auto *pa = a.backend().data();
    const auto *pb = b.backend().data();
    if (!mpfr_number_p(pa) || !mpfr_number_p(pb) || mpfr_zero_p(pb))
        throw std::invalid_argument("round_quotient needs a finite dividend and a finite nonzero divisor");
    const bool negative = (mpfr_signbit(pa) != 0) != (mpfr_signbit(pb) != 0);
    if (mpfr_zero_p(pa)) return detail::round_dyadic(negative, Int(0), 0, f, rounding, overflow).word;
    Int A, B;
    const long ea = detail::split_dyadic(a, A);
    const long eb = detail::split_dyadic(b, B);
    A = abs(A);
    B = abs(B);
    // N = floor(A * 2^s / B) gets man_bits + 3 bits and a unit <= 2^-2 (for int32), so that no grid
    // point or midpoint lies strictly between N and N + 1 units; a nonzero remainder then rounds
    // exactly like N + 1/2 (the sticky bit).
    const long s = std::max({0L, static_cast<long>(msb(B)) - static_cast<long>(msb(A)) + f.man_bits + 3,
                             ea - eb + 2});
    const Int scaled = A << static_cast<unsigned>(s);
    const Int N = scaled / B;
    const bool sticky = scaled % B != 0;
    if (sticky) return detail::round_dyadic(negative, 2 * N + 1, ea - eb - s - 1, f, rounding, overflow).word;
    return detail::round_dyadic(negative, N, ea - eb - s, f, rounding, overflow).word;
}

namespace {

/// A source word decomposed once (word_info, split_dyadic): its class flags, its sign and, for a
/// finite nonzero value, |value| = m * 2^e with m in the thread's scratch (round_dyadic leaves it).
struct Source {
    std::uint64_t word = 0;
    bool outside = false, nan = false, infinite = false, zero = false, negative = false;
    long e = 0;
};

Source decompose(const WordFormat &src, std::uint64_t src_word) {
    auto &s = detail::scratch();
    auto &info = s.info;
    detail::word_info_into(src, src_word, info);
    Source x;
    x.word = src_word;
    x.outside = info.cls == NINFER_CLASS_OUTSIDE;
    x.nan = x.outside || detail::is_nan_class(info.cls);
    x.infinite = info.cls == NINFER_CLASS_INFINITE;
    x.zero = !x.nan && !x.infinite && mpfr_zero_p(info.value.backend().data());
    x.negative = info.negative;
    if (x.nan || x.infinite || x.zero) return x;
    x.e = detail::split_dyadic(info.value, s.m);
    mpz_abs(s.m.backend().data(), s.m.backend().data());
    return x;
}

/// The word of a NaN source under the conversion's nan_rule.
std::uint64_t nan_result(const Conversion &c, const WordFormat &src, const WordFormat &dst, const Source &x) {
    const bool negative = x.negative && dst.has_sign;
    const std::uint64_t dst_sign = negative ? detail::sign_bit(dst) : 0;
    const std::uint64_t dst_exp_ones = ((1ull << dst.exp_bits) - 1) << dst.man_bits;
    const bool ieee_pair = !x.outside && src.special == Special::IEEE && dst.special == Special::IEEE;
    // Sign and payload moved to the top of the target fraction; `quiet` forces the quiet bit.
    const auto move_payload = [&](bool quiet) {
        const auto frac = detail::fields(src, x.word).frac;
        std::uint64_t moved = dst.man_bits >= src.man_bits ? frac << (dst.man_bits - src.man_bits)
                                                          : frac >> (src.man_bits - dst.man_bits);
        if (quiet) moved |= 1ull << (dst.man_bits - 1);
        return dst_sign | dst_exp_ones | moved;
    };
    switch (c.nan_rule) {
    case NanRule::ZERO:
    case NanRule::UNDEFINED: return 0;
    case NanRule::ANY: return detail::canonical_nan(dst, negative);
    case NanRule::ANY_SIGNED:
    case NanRule::QUIET_TRUNC: return ieee_pair ? move_payload(true) : detail::canonical_nan(dst, negative);
    case NanRule::EXACT: return ieee_pair ? move_payload(false) : detail::canonical_nan(dst, negative);
    }
    return 0;
}

/// A conversion's result and its tie flag for a decomposed source word of c.src; special inputs
/// (NaN, infinity, out of domain) never tie.
detail::Rounded round_source(const Conversion &c, const WordFormat &src, const Source &x,
                             const std::uint32_t *random = nullptr) {
    const auto &dst = word_format(c.dst);
    detail::Rounded out;
    // 1. Unsigned targets (UE4M3 half-up encoder, E8M0): NaN, then every value <= 0 maps to 0x00.
    if (!dst.has_sign && (x.nan || x.negative || x.zero || x.infinite)) {
        if (x.nan) out.word = c.nan_rule == NanRule::ZERO ? 0 : detail::canonical_nan(dst, false);
        else if (x.infinite && !x.negative) out.word = detail::round_infinity(false, dst, c.overflow);
        else out.word = 0x00;
        return out;
    }
    // 2. NaN inputs follow the conversion's nan_rule.
    if (x.nan) {
        out.word = nan_result(c, src, dst, x);
        return out;
    }
    // 3. Infinities follow the overflow rule; 4. finite values round.
    if (x.infinite) {
        out.word = detail::round_infinity(x.negative, dst, c.overflow);
        return out;
    }
    // (a zero is on every grid: SR adds R below its last place and truncates back to it)
    const std::uint32_t rounding = c.rounding == detail::rounding_sr && x.zero ? detail::rounding_rtz : c.rounding;
    if (x.zero) return detail::round_dyadic(x.negative, Int(0), 0, dst, rounding, c.overflow);
    if (rounding == detail::rounding_sr) {
        if (!random) throw std::invalid_argument(std::string(c.name) + " rounds stochastically: use convert_word_sr");
        return detail::round_stochastic(x.negative, detail::scratch().m, x.e, dst, abi::sr_random_bits(c.id), *random,
                                        c.overflow);
    }
    return detail::round_dyadic(x.negative, detail::scratch().m, x.e, dst, rounding, c.overflow);
}

/// `random`: the word's random value for an `sr` conversion, else nullptr.
detail::Rounded convert_detail(const Conversion &c, std::uint64_t src_word, const std::uint32_t *random = nullptr) {
    const auto &src = word_format(c.src);
    return round_source(c, src, decompose(src, src_word), random);
}

}  // namespace

std::uint64_t convert_word(const Conversion &c, std::uint64_t src_word) { return convert_detail(c, src_word).word; }

void convert_word_many(std::span<const Conversion *const> cs, std::uint64_t src_word, std::uint64_t *out) {
    if (cs.empty()) return;
    const auto &src = word_format(cs.front()->src);
    for (const auto *c : cs)
        if (c->src != src.id) throw std::invalid_argument("convert_word_many: conversions of different sources");
    const Source x = decompose(src, src_word);
    for (std::size_t i = 0; i < cs.size(); ++i) out[i] = round_source(*cs[i], src, x).word;
}

std::uint64_t convert_word_sr(const Conversion &c, std::uint64_t src_word, std::uint32_t random) {
    if (!abi::is_stochastic(c)) throw std::invalid_argument(std::string(c.name) + " is not a stochastic (sr) conversion");
    return convert_detail(c, src_word, &random).word;
}

std::optional<SrConvention> find_sr_convention(std::string_view name) {
    for (const auto &v : kSrConventions)
        if (v.name == name) return v;
    return std::nullopt;
}

namespace {

/// The rule of a convention on one binary32 source word (k: the pin's, the convention's, or r).
detail::SrRule sr_rule_of(const Conversion &c, std::uint64_t src_word, const SrConvention &v, int k) {
    if (!abi::is_stochastic(c)) throw std::invalid_argument(std::string(c.name) + " is not a stochastic (sr) conversion");
    detail::SrRule rule;
    rule.k = k ? k : (v.k ? v.k : abi::sr_random_bits(c.id));
    if (rule.k < 1 || rule.k > 32) throw std::invalid_argument("convert_word_sr_as: k outside 1..32");
    rule.place = static_cast<int>(v.place);
    rule.reduce = static_cast<int>(v.reduce);
    const auto biased = static_cast<long>((src_word >> 23) & 0xFF);  // binary32 (every sr source)
    rule.input_lsb = biased ? biased - 150 : -149;
    return rule;
}

}  // namespace

std::uint64_t convert_word_sr_as(const Conversion &c, std::uint64_t src_word, std::uint32_t random,
                                 const SrConvention &v, int k) {
    // issue 34 item 2 (sr_conventions.hpp): the sr conversion's rule with the convention's bits
    const detail::SrRule rule = sr_rule_of(c, src_word, v, k);
    const Source x = decompose(word_format(c.src), src_word);
    if (x.nan || x.infinite || x.zero) return convert_detail(c, src_word, &random).word;
    return detail::round_stochastic_as(x.negative, detail::scratch().m, x.e, word_format(c.dst), rule, random,
                                       c.overflow)
        .word;
}

SrFraction sr_up_fraction_as(const Conversion &c, std::uint64_t src_word, const SrConvention &v, int k) {
    const detail::SrRule rule = sr_rule_of(c, src_word, v, k);
    const Source x = decompose(word_format(c.src), src_word);
    if (x.nan || x.infinite || x.zero) return {0, 0};
    const int bits = detail::sr_bits_read(detail::scratch().m, x.e, word_format(c.dst), rule);
    // the result reads random & (2^bits - 1) and grows with it: the first R that leaves `down`
    const std::uint64_t down = convert_word_sr_as(c, src_word, 0, v, k), all = std::uint64_t{1} << bits;
    std::uint64_t lo = 0, hi = all;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (convert_word_sr_as(c, src_word, static_cast<std::uint32_t>(mid), v, k) != down) hi = mid;
        else lo = mid + 1;
    }
    return {all - lo, bits};
}

bool conversion_is_tie(const Conversion &c, std::uint64_t src_word) {
    // a midpoint is a tie only for the nearest roundings; directed roundings have no tie rule
    const bool nearest = c.rounding == detail::rounding_rne || c.rounding == detail::rounding_rna ||
                         c.rounding == detail::rounding_rnu;
    return nearest && convert_detail(c, src_word).tie;
}

bool conversion_accepts(const Conversion &c, std::uint64_t src_word, std::uint64_t expected, std::uint64_t actual) {
    (void)src_word;  // the oracle's expected word already carries what the input decides (its sign)
    if (expected == actual) return true;
    const auto &dst = word_format(c.dst);
    const auto e = word_info(dst, expected);
    const auto a = word_info(dst, actual);
    if (!detail::is_nan_class(e.cls) || !detail::is_nan_class(a.cls)) return false;
    switch (c.nan_rule) {
    case NanRule::ANY: return true;
    case NanRule::ANY_SIGNED: return e.negative == a.negative;
    default: return false;  // QUIET_TRUNC, EXACT, ZERO, UNDEFINED: bit-equal only
    }
}

}  // namespace ninfer::oracle
