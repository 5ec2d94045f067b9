// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): the policy lattice, the
// decomposition of a source word through round_dyadic (scalar_round.cpp), the integer map from a
// decomposition to each policy's word, and the brute-force definition it is proven against.
#include "ninfer/oracle/fingerprint_lattice.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <fmt/format.h>
#include <mpfr.h>

#include "scalar_internal.hpp"

namespace ninfer::oracle::lattice {

namespace {

using detail::Int;

bool has_inf(const WordFormat &f) { return f.special == Special::IEEE; }
bool has_nan(const WordFormat &f) { return f.special == Special::IEEE || f.special == Special::FN || f.special == Special::E8M0; }
bool has_zero(const WordFormat &f) { return f.special != Special::E8M0; }
bool has_subnormals(const WordFormat &f) {
    return (f.special == Special::IEEE || f.special == Special::FN || f.special == Special::NONE) && f.man_bits > 0;
}
bool ieee_pair(const Shape &s) { return s.src->special == Special::IEEE && s.dst->special == Special::IEEE; }
bool daz(SubnormalChoice c) { return c == SubnormalChoice::daz || c == SubnormalChoice::ftz_daz; }
bool ftz(SubnormalChoice c) { return c == SubnormalChoice::ftz || c == SubnormalChoice::ftz_daz; }

/// The overflow id round_dyadic applies for a finite value beyond the largest (both saturations
/// saturate finite values).
std::uint32_t finite_overflow_id(std::uint32_t o) { return o == overflow_satfinite_finite_only ? overflow_satfinite : o; }
/// The registry rounding that raz is for a value of this sign (away from zero: up or down).
std::uint32_t signed_rounding_id(std::uint32_t r, bool negative) {
    return r != rounding_raz ? r : (negative ? rounding_rdn : rounding_rup);
}

std::uint64_t sign_of(const WordFormat &f, bool negative) { return negative && f.has_sign ? detail::sign_bit(f) : 0; }
std::uint64_t zero_word(const WordFormat &f, bool negative) { return sign_of(f, negative); }
std::uint64_t nan_of_sign(const WordFormat &f, bool negative) { return detail::canonical_nan(f, negative && f.has_sign); }
/// Every magnitude bit set, with the input's sign.
std::uint64_t all_ones_of_sign(const WordFormat &f, bool negative) {
    return (f.mask() & ~(f.has_sign ? detail::sign_bit(f) : 0)) | sign_of(f, negative);
}
/// The word of a value below the smallest word of a target without zero (E8M0).
std::uint64_t tiny_word(const WordFormat &f, TinyChoice t) { return t == TinyChoice::nan ? detail::canonical_nan(f, false) : 0; }

/// The word of an infinite input (round_infinity, and the lattice's satfinite_finite_only).
std::uint64_t infinity_input_word(const WordFormat &f, std::uint32_t o, bool negative) {
    if (o != overflow_satfinite_finite_only) return detail::round_infinity(negative, f, o);
    return has_inf(f) ? detail::infinity_word(f, negative) : nan_of_sign(f, negative);
}

/// A NaN input, a negative input of an unsigned target or a zero of a target without zero.
bool signless_input(const WordFormat &dst, bool negative, bool zero) { return !dst.has_sign && (negative || (zero && !has_zero(dst))); }

/// A nonzero magnitude word below the smallest normal.
bool subnormal_magnitude(const WordFormat &f, std::uint64_t mag) {
    return has_subnormals(f) && mag != 0 && abi::word_exponent_field(f, mag) == 0;
}

/// The NaN words of the payload-moving rules: the source fraction's top bits at the top of the
/// target fraction; `quiet` sets the quiet bit, else a moved fraction of zero becomes 1.
std::uint64_t moved_nan(const Shape &s, std::uint64_t src_word, bool negative, bool quiet) {
    const auto &src = *s.src, &dst = *s.dst;
    const std::uint64_t frac = abi::word_fraction_field(src, src_word);
    std::uint64_t moved = dst.man_bits >= src.man_bits ? frac << (dst.man_bits - src.man_bits)
                                                      : frac >> (src.man_bits - dst.man_bits);
    if (quiet) moved |= 1ull << (dst.man_bits - 1);
    if (moved == 0) moved = 1;  // a NaN stays a NaN (numpy)
    const std::uint64_t exp_ones = ((1ull << dst.exp_bits) - 1) << dst.man_bits;
    return sign_of(dst, negative) | exp_ones | moved;
}

/// |x| = m * 2^e of a finite word, in exact integers (every registry word's significand fits 64 bits).
struct Dyadic {
    std::uint64_t m = 0;
    long e = 0;
};

Dyadic magnitude_of(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    switch (f.special) {
    case Special::E8M0: return {1, static_cast<long>(w) - f.bias};
    case Special::INT: return {abi::word_is_negative(f, w) ? (~w + 1) & f.mask() : w, 0};  // two's complement
    default: break;
    }
    const std::uint64_t exp = abi::word_exponent_field(f, w), frac = abi::word_fraction_field(f, w);
    if (exp == 0) return {frac, 1L - f.bias - f.man_bits};
    return {frac | 1ull << f.man_bits, static_cast<long>(exp) - f.bias - f.man_bits};
}

long top_of(const Dyadic &x) { return static_cast<long>(std::bit_width(x.m)) - 1 + x.e; }

/// Compares two positive dyadics exactly (-1, 0, 1).
int compare(const Dyadic &a, const Dyadic &b) {
    const long ka = top_of(a), kb = top_of(b);
    if (ka != kb) return ka < kb ? -1 : 1;
    // same binade: the exponents differ by less than 64
    const std::uint64_t ma = a.e >= b.e ? a.m << (a.e - b.e) : a.m, mb = b.e > a.e ? b.m << (b.e - a.e) : b.m;
    return ma < mb ? -1 : (ma > mb ? 1 : 0);
}

/// The neighbours of a finite nonzero |x| on the target's grid (unbounded exponent above, the
/// subnormal grid below), by the arithmetic of round_dyadic (scalar_round.cpp) on 64-bit integers:
/// the brute-force tests hold them to round_dyadic on every policy.
void neighbours(const Shape &s, Decomposition &d, const Dyadic &x) {
    const auto &dst = *s.dst;
    const std::uint64_t largest = largest_finite_word(dst);
    const Dyadic big = magnitude_of(dst, largest);
    const bool e8m0 = dst.special == Special::E8M0;
    if (compare(x, big) > 0) {  // beyond the largest: the word depends on the rounding's direction only
        d.inexact = true;
        if (compare(x, Dyadic{big.m + 1, big.e}) >= 0) {  // at or beyond the grid point above it
            d.down_over = d.up_over = true;
            return;
        }
        d.down = largest;
        d.up = largest + 1;
        d.odd = dst.man_bits > 0 ? (largest & 1) != 0 : true;
        d.up_over = true;
        d.half = compare(x, Dyadic{2 * big.m + 1, big.e - 1});
        return;
    }
    const long k = top_of(x), emin = e8m0 ? -dst.bias : 1L - dst.bias;
    const long qe = std::max(k, emin) - dst.man_bits;  // grid_quantum
    if (x.e >= qe) {  // on the grid
        const std::uint64_t n = x.m << (x.e - qe);
        d.down = d.up = e8m0 ? static_cast<std::uint64_t>(k + dst.bias)
                             : (k < emin ? n : static_cast<std::uint64_t>(k + dst.bias) << dst.man_bits | (n - (1ull << dst.man_bits)));
        d.odd = dst.man_bits > 0 ? (d.down & 1) != 0 : true;
        return;
    }
    const long shift = qe - x.e;
    const std::uint64_t n = shift >= 64 ? 0 : x.m >> shift, rem = shift >= 64 ? x.m : x.m & ((1ull << shift) - 1);
    const int vs_half = shift >= 64 ? -1 : (rem < (1ull << (shift - 1)) ? -1 : (rem == (1ull << (shift - 1)) ? 0 : 1));
    d.inexact = rem != 0;
    d.half = d.inexact ? vs_half : -1;
    if (e8m0 && k < emin) {  // below 2^-127: floor below the smallest word, ceiling 0x00
        d.down_under = true;
        d.odd = false;
        return;
    }
    d.down = e8m0 ? static_cast<std::uint64_t>(k + dst.bias)
                  : (k < emin ? n : static_cast<std::uint64_t>(k + dst.bias) << dst.man_bits | (n - (1ull << dst.man_bits)));
    d.up = d.inexact ? d.down + 1 : d.down;
    d.odd = dst.man_bits > 0 ? (d.down & 1) != 0 : true;  // E8M0: every floor is 2^k, n = 1
}

/// The dimensions a finite nonzero value's word depends on, and its residue class.
void finite_region(const Shape &s, Decomposition &d) {
    const auto &dst = *s.dst;
    const bool result_subnormal = d.down_under || subnormal_magnitude(dst, d.down) ||
                                  (d.inexact && (d.down == 0 || subnormal_magnitude(dst, d.up)));
    if (d.inexact) d.dims |= dim_rounding;
    if (d.down_over || d.up_over) d.dims |= dim_overflow;
    if (d.down_under) d.dims |= dim_tiny;
    if ((d.subnormal_input && has_subnormals(*s.src)) || (!s.widening && result_subnormal && has_subnormals(dst)))
        d.dims |= dim_subnormals;
    if (d.down_over || d.up_over) d.cls = InputClass::overflow;
    else if (d.subnormal_input) d.cls = InputClass::subnormal_input;
    else if (result_subnormal) d.cls = InputClass::subnormal_result;
    else if (d.inexact && d.half == 0) d.cls = InputClass::tie;
    else d.cls = d.inexact ? InputClass::inexact : InputClass::exact;
}

}  // namespace

const char *class_name(InputClass c) {
    switch (c) {
    case InputClass::nan: return "nan";
    case InputClass::infinity: return "infinity";
    case InputClass::overflow: return "overflow";
    case InputClass::subnormal_input: return "subnormal_input";
    case InputClass::subnormal_result: return "subnormal_result";
    case InputClass::tie: return "tie";
    case InputClass::inexact: return "inexact";
    case InputClass::exact: return "exact";
    case InputClass::zero: return "zero";
    case InputClass::negative: return "negative";
    }
    return "?";
}

Shape conversion_shape(const Conversion &c) {
    return {&word_format(c.src), &word_format(c.dst), c.rounding == detail::rounding_exact};
}

Shape decode_shape(const WordFormat &f) { return {&f, &kBinary64, true}; }

std::vector<std::uint32_t> rounding_choices(const Shape &s) {
    if (s.widening) return {rounding_exact};
    return {rounding_rne, rounding_rna, rounding_rnu, rounding_rtz, rounding_rup, rounding_rdn, rounding_raz};
}

std::vector<std::uint32_t> overflow_choices(const Shape &s) {
    std::vector<std::uint32_t> out{overflow_satfinite};
    if (has_inf(*s.src) && has_nan(*s.dst)) out.push_back(overflow_satfinite_finite_only);
    if (has_inf(*s.dst)) out.push_back(overflow_inf);
    if (has_nan(*s.dst)) out.push_back(overflow_nan);
    return out;
}

std::vector<SignlessChoice> signless_choices(const Shape &s) {
    const auto &dst = *s.dst;
    if (dst.has_sign || (!s.src->has_sign && has_zero(dst))) return {SignlessChoice::zero};  // no such input
    if (!has_nan(dst)) return {SignlessChoice::zero, SignlessChoice::magnitude};
    return {SignlessChoice::zero, SignlessChoice::nan, SignlessChoice::magnitude};
}

std::vector<TinyChoice> tiny_choices(const Shape &s) {
    if (has_zero(*s.dst) || s.widening) return {TinyChoice::smallest};
    return {TinyChoice::smallest, TinyChoice::nan};
}

std::vector<SubnormalChoice> subnormal_choices(const Shape &s) {
    const bool out_flush = !s.widening && has_subnormals(*s.dst), in_flush = has_subnormals(*s.src);
    std::vector<SubnormalChoice> out{SubnormalChoice::kept};
    if (out_flush) out.push_back(SubnormalChoice::ftz);
    if (in_flush) out.push_back(SubnormalChoice::daz);
    if (out_flush && in_flush) out.push_back(SubnormalChoice::ftz_daz);
    return out;
}

std::vector<NanChoice> nan_choices(const Shape &s) {
    std::vector<NanChoice> out;
    if (has_nan(*s.src) && ieee_pair(s)) out = {NanChoice::kept, NanChoice::quieted};
    if (has_nan(*s.dst)) out.push_back(NanChoice::signed_canonical);
    out.push_back(NanChoice::constant);
    const auto &dst = *s.dst;
    if (has_nan(*s.src) && has_nan(dst) && dst.has_sign && abi::word_is_nan(dst, all_ones_of_sign(dst, false)) &&
        all_ones_of_sign(dst, false) != detail::canonical_nan(dst, false))
        out.push_back(NanChoice::signed_all_ones);
    return out;
}

std::vector<std::uint64_t> nan_constants(const Shape &s) {
    std::vector<std::uint64_t> out;
    const auto add = [&out](std::uint64_t w) {
        for (auto x : out)
            if (x == w) return;
        out.push_back(w);
    };
    if (has_nan(*s.dst) && s.dst->has_sign) {  // an unsigned target's canonical NaN is signed_canonical's
        add(detail::canonical_nan(*s.dst, false));
        add(detail::canonical_nan(*s.dst, true));
        if (abi::word_is_nan(*s.dst, s.dst->mask())) add(s.dst->mask());
    }
    add(0);  // a target without NaN (E2M1) or a NaN-to-zero encoder (ggml UE4M3)
    return out;
}

Policy conversion_policy(const Conversion &c) {
    const Shape s = conversion_shape(c);
    Policy p;
    p.rounding = c.rounding;
    p.overflow = c.overflow != overflow_none ? c.overflow : (has_inf(*s.dst) ? overflow_inf : overflow_satfinite);
    // round_dyadic: an E8M0 underflow follows the overflow rule (satfinite: 0x00, nan: the NaN)
    if (!has_zero(*s.dst) && p.overflow == overflow_nan) p.tiny = TinyChoice::nan;
    switch (c.nan_rule) {
    case NanRule::QUIET_TRUNC:
    case NanRule::ANY_SIGNED: p.nan = ieee_pair(s) ? NanChoice::quieted : NanChoice::signed_canonical; break;
    case NanRule::EXACT: p.nan = ieee_pair(s) ? NanChoice::kept : NanChoice::signed_canonical; break;
    case NanRule::ANY: p.nan = NanChoice::signed_canonical; break;
    case NanRule::ZERO:
    case NanRule::UNDEFINED: p.nan = NanChoice::constant; break;
    }
    if (p.nan == NanChoice::signed_canonical && !has_nan(*s.dst)) p.nan = NanChoice::constant;
    return p;
}

Policy decode_policy(const WordFormat &f) {
    Policy p;
    p.rounding = rounding_exact;
    p.overflow = overflow_inf;
    p.nan = has_nan(f) ? NanChoice::signed_canonical : NanChoice::constant;
    return p;
}

Decomposition decompose(const Shape &s, std::uint64_t src_word) {
    const auto &src = *s.src, &dst = *s.dst;
    Decomposition d;
    const bool outside = (src_word & ~src.mask()) != 0;
    d.negative = !outside && abi::word_is_negative(src, src_word);
    if (outside || abi::word_is_nan(src, src_word)) {
        d.nan = true;
        d.cls = InputClass::nan;
        d.dims = dim_nan;
        if (ieee_pair(s)) {
            d.nan_kept = moved_nan(s, src_word, d.negative, false);
            d.nan_quieted = moved_nan(s, src_word, d.negative, true);
        }
        return d;
    }
    d.infinity = abi::word_is_inf(src, src_word);
    d.zero_value = abi::word_is_zero(src, src_word);
    if (signless_input(dst, d.negative, d.zero_value)) {  // the SignlessChoice; the fields then describe |x|
        d.signless = true;
        d.negative = false;
        d.dims = dim_signless;
    }
    const auto cls_of = [&d](InputClass c) { return d.signless && !d.zero_value ? InputClass::negative : c; };
    if (d.infinity) {
        d.cls = cls_of(InputClass::infinity);
        d.dims |= dim_overflow;
        return d;
    }
    if (d.zero_value) {
        d.cls = InputClass::zero;
        if (!has_zero(dst)) d.dims |= dim_tiny;
        return d;
    }
    d.subnormal_input = abi::word_is_subnormal(src, src_word);
    neighbours(s, d, magnitude_of(src, src_word));
    finite_region(s, d);
    d.cls = cls_of(d.cls);
    return d;
}

std::uint64_t policy_word(const Shape &s, const Decomposition &d, const Policy &p) {
    const auto &dst = *s.dst;
    if (d.nan) {
        switch (p.nan) {
        case NanChoice::kept: return d.nan_kept;
        case NanChoice::quieted: return d.nan_quieted;
        case NanChoice::signed_canonical: return nan_of_sign(dst, d.negative);
        case NanChoice::constant: return p.nan_word;
        case NanChoice::signed_all_ones: return all_ones_of_sign(dst, d.negative);
        }
    }
    if (d.signless && p.signless != SignlessChoice::magnitude)
        return p.signless == SignlessChoice::nan ? detail::canonical_nan(dst, false) : 0;
    if (d.zero_value) return has_zero(dst) ? zero_word(dst, d.negative) : tiny_word(dst, p.tiny);
    if (d.infinity) return infinity_input_word(dst, p.overflow, d.negative);
    if (d.subnormal_input && daz(p.subnormals)) return zero_word(dst, d.negative);
    const std::uint32_t rounding = signed_rounding_id(p.rounding, d.negative);
    const bool up = detail::rounds_up(rounding, d.negative, d.inexact, d.half, d.odd);
    if (up ? d.up_over : d.down_over) return detail::overflow_word(d.negative, dst, rounding, finite_overflow_id(p.overflow));
    if (!up && d.down_under) return tiny_word(dst, p.tiny);
    std::uint64_t mag = up ? d.up : d.down;
    if (ftz(p.subnormals) && subnormal_magnitude(dst, mag)) mag = 0;
    return mag | sign_of(dst, d.negative);
}

std::uint64_t policy_word_reference(const Shape &s, const Policy &p, std::uint64_t src_word) {
    const auto &src = *s.src, &dst = *s.dst;
    const WordInfo info = word_info(src, src_word);
    const auto cls = abi::class_without_sign(info.cls);
    if (cls == NINFER_CLASS_OUTSIDE || detail::is_nan_class(cls)) {
        switch (p.nan) {
        case NanChoice::kept: return moved_nan(s, src_word, info.negative, false);
        case NanChoice::quieted: return moved_nan(s, src_word, info.negative, true);
        case NanChoice::signed_canonical: return nan_of_sign(dst, info.negative);
        case NanChoice::constant: return p.nan_word;
        case NanChoice::signed_all_ones: return all_ones_of_sign(dst, info.negative);
        }
    }
    bool negative = info.negative;
    const bool zero = mpfr_zero_p(info.value.backend().data()) != 0;
    if (signless_input(dst, negative, zero)) {
        if (p.signless == SignlessChoice::zero) return 0;
        if (p.signless == SignlessChoice::nan) return detail::canonical_nan(dst, false);
        negative = false;  // magnitude: |x|
    }
    if (cls == NINFER_CLASS_INFINITE) return infinity_input_word(dst, p.overflow, negative);
    if (cls == NINFER_CLASS_SUBNORMAL && daz(p.subnormals)) return zero_word(dst, negative);
    if (zero) return has_zero(dst) ? zero_word(dst, negative) : tiny_word(dst, p.tiny);
    Int m;
    const long e = detail::split_dyadic(info.value, m);
    m = abs(m);
    const std::uint32_t rounding = signed_rounding_id(p.rounding, negative);
    const std::uint64_t w = detail::round_dyadic(negative, m, e, dst, rounding, finite_overflow_id(p.overflow)).word;
    if (!has_zero(dst)) {  // an underflow is where the two overflow rules part at the smallest word
        const auto to_nan = detail::round_dyadic(negative, m, e, dst, rounding, overflow_nan).word;
        const auto to_smallest = detail::round_dyadic(negative, m, e, dst, rounding, overflow_satfinite).word;
        if (to_smallest == 0 && to_nan != 0) return tiny_word(dst, p.tiny);
    }
    if (ftz(p.subnormals) && abi::word_is_subnormal(dst, w)) return zero_word(dst, negative);
    return w;
}

std::string rounding_name(std::uint32_t rounding) {
    const auto *r = find_id(kRoundings, rounding);
    return r ? std::string(r->name) : "raz";
}
std::string overflow_name(std::uint32_t overflow) {
    const auto *o = find_id(kOverflows, overflow);
    return o ? std::string(o->name) : "satfinite_finite_only";
}
std::string subnormal_name(SubnormalChoice s) {
    static const char *const names[] = {"kept", "ftz", "daz", "ftz_daz"};
    return names[static_cast<int>(s)];
}
std::string rounding_text(std::uint32_t rounding) {
    switch (rounding) {
    case rounding_rne: return "nearest-even";
    case rounding_rna: return "nearest-away";
    case rounding_rnu: return "half-up";
    case rounding_rtz: return "toward zero";
    case rounding_rup: return "up";
    case rounding_rdn: return "down";
    case rounding_raz: return "away from zero";
    default: return rounding_name(rounding);  // exact
    }
}
std::string overflow_text(std::uint32_t overflow) {
    switch (overflow) {
    case overflow_satfinite: return "saturate";
    case overflow_satfinite_finite_only: return "saturate finite only";
    case overflow_inf: return "to infinity";
    case overflow_nan: return "to NaN";
    default: return overflow_name(overflow);
    }
}
std::string signless_name(SignlessChoice c) {
    static const char *const names[] = {"zero", "nan", "magnitude"};
    return names[static_cast<int>(c)];
}
std::string tiny_name(TinyChoice c) { return c == TinyChoice::nan ? "nan" : "smallest"; }

std::string signless_text(const Shape &s, SignlessChoice c) {
    if (signless_choices(s).size() == 1) return "";
    const auto &dst = *s.dst;
    const std::string inputs = has_zero(dst) ? "negatives" : "zero and negatives";
    switch (c) {
    case SignlessChoice::zero: return inputs + " to 0x" + word_hex(dst, 0);
    case SignlessChoice::nan: return inputs + " to NaN (0x" + word_hex(dst, detail::canonical_nan(dst, false)) + ")";
    case SignlessChoice::magnitude: return inputs + " as |x|";
    }
    return "";
}

std::string tiny_text(const Shape &s, TinyChoice c) {
    if (tiny_choices(s).size() == 1) return "";
    const auto &dst = *s.dst;
    return "tiny to " + (c == TinyChoice::nan ? "NaN (0x" + word_hex(dst, detail::canonical_nan(dst, false)) + ")" : "0x" + word_hex(dst, 0));
}

bool nan_constant_is_choice(const Shape &s, std::uint64_t w) {
    const auto &dst = *s.dst;
    return !dst.has_sign && has_nan(dst) && w == detail::canonical_nan(dst, false);
}

std::string subnormal_text(SubnormalChoice s) {
    static const char *const texts[] = {"subnormals kept", "subnormals flushed on output",
                                        "subnormals flushed on input", "subnormals flushed on input and output"};
    return texts[static_cast<int>(s)];
}

std::string nan_name(const Shape &s, const Policy &p) {
    switch (p.nan) {
    case NanChoice::kept: return "kept";
    case NanChoice::quieted: return "quieted";
    case NanChoice::signed_canonical: return "signed_canonical";
    case NanChoice::signed_all_ones: return "signed_all_ones";
    case NanChoice::constant: break;
    }
    const auto &dst = *s.dst;
    if (has_nan(dst) && p.nan_word == detail::canonical_nan(dst, false)) return "canonical_positive";
    if (has_nan(dst) && dst.has_sign && p.nan_word == detail::canonical_nan(dst, true)) return "canonical_negative";
    if (p.nan_word == dst.mask() && abi::word_is_nan(dst, p.nan_word)) return "all_ones";
    return "constant";
}

std::string nan_text(const Shape &s, const Policy &p) {
    if (!has_nan(*s.src)) return "no NaN inputs";
    if (!has_nan(*s.dst)) return "NaN inputs left out";  // the target has none: run offers none either
    const auto &dst = *s.dst;
    const auto hex = [&dst](std::uint64_t w) { return "0x" + word_hex(dst, w); };
    const std::string name = nan_name(s, p);
    if (name == "kept") return "NaN payload and sign kept";
    if (name == "quieted") return "NaN payload and sign kept, quieted";
    if (name == "signed_canonical")
        return dst.has_sign ? fmt::format("NaN canonical of the input's sign ({}, {})", hex(detail::canonical_nan(dst, false)),
                                          hex(detail::canonical_nan(dst, true)))
                            : fmt::format("NaN canonical ({})", hex(detail::canonical_nan(dst, false)));
    if (name == "signed_all_ones")
        return fmt::format("NaN all-ones of the input's sign ({}, {})", hex(all_ones_of_sign(dst, false)), hex(all_ones_of_sign(dst, true)));
    if (name == "canonical_positive") return fmt::format("NaN canonical positive ({})", hex(p.nan_word));
    if (name == "canonical_negative") return fmt::format("NaN canonical negative ({})", hex(p.nan_word));
    if (name == "all_ones") return fmt::format("NaN all-ones ({})", hex(p.nan_word));
    return fmt::format("NaN constant {}", hex(p.nan_word));
}

std::string policy_text(const Shape &s, const Policy &p) {
    std::string out = fmt::format("{}, {}, {}, {}", rounding_text(p.rounding), overflow_text(p.overflow),
                                  subnormal_text(p.subnormals), nan_text(s, p));
    for (const auto &more : {signless_text(s, p.signless), tiny_text(s, p.tiny)})
        if (!more.empty()) out += ", " + more;
    return out;
}

std::string policy_spelling(const Shape &s, const Policy &p) {
    const std::string nan = nan_name(s, p);
    std::string out = fmt::format("{}/{}/{}/{}", rounding_name(p.rounding), overflow_name(p.overflow), subnormal_name(p.subnormals),
                                  nan == "constant" ? "0x" + word_hex(*s.dst, p.nan_word) : nan);
    if (signless_choices(s).size() > 1) out += "/" + signless_name(p.signless);
    if (tiny_choices(s).size() > 1) out += "/" + tiny_name(p.tiny);
    return out;
}

namespace {

/// The choice among `choices` whose name is `text`; false when none is.
template <class T, class Name>
bool choice_named(const std::vector<T> &choices, std::string_view text, Name name, T &out) {
    for (const auto c : choices)
        if (name(c) == text) {
            out = c;
            return true;
        }
    return false;
}

template <class T, class Name>
std::string names_of(const std::vector<T> &choices, Name name) {
    std::string out;
    for (const auto c : choices) out += (out.empty() ? "" : ", ") + name(c);
    return out;
}

}  // namespace

std::string parse_policy(const Shape &s, std::string_view text, Policy &out) {
    std::vector<std::string> part;
    for (std::size_t at = 0;;) {
        const auto slash = text.find('/', at);
        part.emplace_back(text.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at));
        if (slash == std::string_view::npos) break;
        at = slash + 1;
    }
    const bool signless = signless_choices(s).size() > 1, tiny = tiny_choices(s).size() > 1;
    const std::size_t want = 4 + signless + tiny;
    if (part.size() != want)
        return fmt::format("'{}' has {} coordinates, expected {}: rounding/overflow/subnormals/nan{}{}", text, part.size(), want,
                           signless ? "/signless" : "", tiny ? "/tiny" : "");
    Policy p;
    const auto rn = [](std::uint32_t r) { return rounding_name(r); };
    const auto on = [](std::uint32_t o) { return overflow_name(o); };
    if (!choice_named(rounding_choices(s), part[0], rn, p.rounding))
        return fmt::format("rounding '{}' is not one of this conversion's: {}", part[0], names_of(rounding_choices(s), rn));
    if (!choice_named(overflow_choices(s), part[1], on, p.overflow))
        return fmt::format("overflow '{}' is not one of this conversion's: {}", part[1], names_of(overflow_choices(s), on));
    if (!choice_named(subnormal_choices(s), part[2], subnormal_name, p.subnormals))
        return fmt::format("subnormals '{}' is not one of this conversion's: {}", part[2], names_of(subnormal_choices(s), subnormal_name));
    // NaN: a named choice, a named constant, a NaN word of the target, or a constant the lattice offers (0x0: NaN to zero)
    bool found = false;
    std::string nan_names;
    for (const auto c : nan_choices(s)) {
        Policy q = p;
        q.nan = c;
        const std::vector<std::uint64_t> words = c == NanChoice::constant ? nan_constants(s) : std::vector<std::uint64_t>{0};
        for (const auto w : words) {
            q.nan_word = w;
            const auto name = nan_name(s, q);
            if (name == "constant") continue;
            nan_names += (nan_names.empty() ? "" : ", ") + name;
            if (!found && name == part[3]) {
                p.nan = c;
                p.nan_word = w;
                found = true;
            }
        }
    }
    if (!found && part[3].starts_with("0x") && part[3].size() > 2) {
        std::uint64_t w = 0;
        const auto [end, ec] = std::from_chars(part[3].data() + 2, part[3].data() + part[3].size(), w, 16);
        const auto &dst = *s.dst;
        const auto named = nan_constants(s);
        if (ec == std::errc() && end == part[3].data() + part[3].size() && (w & ~dst.mask()) == 0 &&
            (!has_nan(dst) || abi::word_is_nan(dst, w) || std::find(named.begin(), named.end(), w) != named.end())) {
            p.nan = NanChoice::constant;
            p.nan_word = w;
            found = true;
        }
    }
    if (!found)
        return fmt::format("nan '{}' is not one of this conversion's: {}, a NaN word of {} (0x...) or 0x0", part[3], nan_names, s.dst->name);
    std::size_t next = 4;
    if (signless && !choice_named(signless_choices(s), part[next++], signless_name, p.signless))
        return fmt::format("signless '{}' is not one of this conversion's: {}", part[next - 1], names_of(signless_choices(s), signless_name));
    if (tiny && !choice_named(tiny_choices(s), part[next++], tiny_name, p.tiny))
        return fmt::format("tiny '{}' is not one of this conversion's: {}", part[next - 1], names_of(tiny_choices(s), tiny_name));
    out = p;
    return "";
}

}  // namespace ninfer::oracle::lattice
