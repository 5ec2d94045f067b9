// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): the policy lattice, the
// decomposition of a source word through round_dyadic (scalar_round.cpp), the integer map from a
// decomposition to each policy's word, and the brute-force definition it is proven against.
#include "ninfer/oracle/fingerprint_lattice.hpp"

#include <fmt/format.h>
#include <mpfr.h>

#include "scalar_internal.hpp"

namespace ninfer::oracle::lattice {

namespace {

using detail::Int;

bool has_inf(const WordFormat &f) { return f.special == Special::IEEE; }
bool has_nan(const WordFormat &f) { return f.special == Special::IEEE || f.special == Special::FN || f.special == Special::E8M0; }
bool has_subnormals(const WordFormat &f) {
    return (f.special == Special::IEEE || f.special == Special::FN || f.special == Special::NONE) && f.man_bits > 0;
}
bool ieee_pair(const Shape &s) { return s.src->special == Special::IEEE && s.dst->special == Special::IEEE; }
bool daz(SubnormalChoice c) { return c == SubnormalChoice::daz || c == SubnormalChoice::ftz_daz; }
bool ftz(SubnormalChoice c) { return c == SubnormalChoice::ftz || c == SubnormalChoice::ftz_daz; }
bool nearest(RoundingChoice r) { return r != RoundingChoice::rtz && r != RoundingChoice::rup && r != RoundingChoice::rdn; }

std::uint32_t rounding_id(RoundingChoice r) {
    switch (r) {
    case RoundingChoice::rne: return detail::rounding_rne;
    case RoundingChoice::rna: return detail::rounding_rna;
    case RoundingChoice::rnu: return detail::rounding_rnu;
    case RoundingChoice::rtz: return detail::rounding_rtz;
    case RoundingChoice::rup: return detail::rounding_rup;
    case RoundingChoice::rdn: return detail::rounding_rdn;
    case RoundingChoice::exact: return detail::rounding_exact;
    }
    return detail::rounding_rne;
}

/// The registry overflow id that round_dyadic applies for a finite value beyond the largest.
std::uint32_t finite_overflow_id(OverflowChoice o) {
    switch (o) {
    case OverflowChoice::inf: return detail::overflow_inf;
    case OverflowChoice::nan: return detail::overflow_nan;
    default: return detail::overflow_satfinite;  // both saturations saturate finite values
    }
}

std::uint64_t sign_of(const WordFormat &f, bool negative) { return negative && f.has_sign ? detail::sign_bit(f) : 0; }
std::uint64_t zero_word(const WordFormat &f, bool negative) { return sign_of(f, negative); }
std::uint64_t nan_of_sign(const WordFormat &f, bool negative) { return detail::canonical_nan(f, negative && f.has_sign); }

/// The word of an infinite input under an overflow choice.
std::uint64_t infinity_input_word(const WordFormat &f, OverflowChoice o, bool negative) {
    switch (o) {
    case OverflowChoice::satfinite: return largest_finite_word(f) | sign_of(f, negative);
    case OverflowChoice::satfinite_finite_only:
        return has_inf(f) ? detail::infinity_word(f, negative) : nan_of_sign(f, negative);
    case OverflowChoice::inf: return detail::infinity_word(f, negative);
    case OverflowChoice::nan: return nan_of_sign(f, negative);
    }
    return 0;
}

/// The word of a finite value whose rounded magnitude lies beyond the largest (IEEE 754 7.4 for inf).
std::uint64_t overflow_word(const WordFormat &f, RoundingChoice r, OverflowChoice o, bool negative) {
    const std::uint64_t largest = largest_finite_word(f) | sign_of(f, negative);
    switch (o) {
    case OverflowChoice::satfinite:
    case OverflowChoice::satfinite_finite_only: return largest;
    case OverflowChoice::nan: return nan_of_sign(f, negative);
    case OverflowChoice::inf: break;
    }
    if (nearest(r)) return detail::infinity_word(f, negative);
    if (r == RoundingChoice::rup) return negative ? largest : detail::infinity_word(f, false);
    if (r == RoundingChoice::rdn) return negative ? detail::infinity_word(f, true) : largest;
    return largest;  // rtz
}

/// Whether the rounding takes the ceiling neighbour.
bool rounds_up(RoundingChoice r, const Decomposition &d) {
    if (!d.inexact) return false;
    switch (r) {
    case RoundingChoice::rne:
    case RoundingChoice::exact: return d.half > 0 || (d.half == 0 && d.odd);
    case RoundingChoice::rna: return d.half >= 0;
    case RoundingChoice::rnu: return d.half > 0 || (d.half == 0 && !d.negative);
    case RoundingChoice::rtz: return false;
    case RoundingChoice::rup: return !d.negative;
    case RoundingChoice::rdn: return d.negative;
    }
    return false;
}

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

/// Per-thread storage of decompose (allocated once: the per-word path of 2^32 domains).
struct Scratch {
    WordInfo info;
    Int m;
    // The target's largest finite, the grid point above it (same quantum; E8M0: twice) and the
    // midpoint between them: the exact bounds of the overflow region.
    Real largest, next, mid;
    long largest_k = 0;  // the largest's binade exponent: no value below 2^largest_k overflows
    const WordFormat *for_dst = nullptr;
    Scratch() {
        info.value = exact_zero();
        mpfr_set_prec(info.value.backend().data(), 64);
    }
};

Scratch &scratch(const WordFormat &dst) {
    thread_local Scratch s;
    if (s.for_dst != &dst) {
        const std::uint64_t largest = largest_finite_word(dst);
        s.largest = word_info(dst, largest).value;
        s.largest_k = dst.special == Special::E8M0 ? static_cast<long>(largest) - dst.bias
                                                   : static_cast<long>(abi::word_exponent_field(dst, largest)) - dst.bias;
        s.next = exact_zero();
        s.mid = exact_zero();
        mpfr_set_ui_2exp(s.next.backend().data(), 1, s.largest_k - dst.man_bits, MPFR_RNDN);  // the quantum
        mpfr_add(s.next.backend().data(), s.next.backend().data(), s.largest.backend().data(), MPFR_RNDN);
        mpfr_add(s.mid.backend().data(), s.next.backend().data(), s.largest.backend().data(), MPFR_RNDN);
        mpfr_div_2ui(s.mid.backend().data(), s.mid.backend().data(), 1, MPFR_RNDN);
        s.for_dst = &dst;
    }
    return s;
}

/// The neighbours of a finite nonzero |x| = m * 2^e on the target's grid.
void neighbours(const Shape &s, Decomposition &d, const Int &m, long e, const Real &value) {
    const auto &dst = *s.dst;
    auto &sc = scratch(dst);
    const long k = static_cast<long>(msb(m)) + e;  // |x| in [2^k, 2^(k+1))
    const auto *v = value.backend().data();
    const bool above = k >= sc.largest_k && mpfr_cmpabs(v, sc.largest.backend().data()) > 0;  // beyond the largest
    if (above && mpfr_cmpabs(v, sc.next.backend().data()) >= 0) {
        d.down_over = d.up_over = true;
        d.inexact = true;  // the word depends on the rounding's direction only
        return;
    }
    const auto rtz = detail::round_dyadic(d.negative, m, e, dst, detail::rounding_rtz, detail::overflow_satfinite);
    d.inexact = rtz.inexact;
    d.down = rtz.word & ~detail::sign_bit(dst);
    d.up = d.inexact ? d.down + 1 : d.down;
    d.odd = dst.man_bits > 0 ? (d.down & 1) != 0 : true;  // E8M0: every floor is 2^k, n = 1
    if (dst.special == Special::E8M0 && k < -dst.bias) {  // below 2^-127: floor 0, ceiling 0x00
        d.down_under = true;
        d.up = 0;
        d.odd = false;
        d.half = rtz.tie ? 0 : (k >= -dst.bias - 1 ? 1 : -1);
        return;
    }
    if (above) {
        d.up_over = true;
        d.half = rtz.tie ? 0 : (mpfr_cmpabs(v, sc.mid.backend().data()) > 0 ? 1 : -1);
        return;
    }
    if (!d.inexact) return;
    const auto rna = detail::round_dyadic(d.negative, m, e, dst, detail::rounding_rna, detail::overflow_satfinite);
    d.half = rtz.tie ? 0 : (rna.word != rtz.word ? 1 : -1);
}

/// The dimensions a finite nonzero value's word depends on, and its residue class.
void finite_region(const Shape &s, Decomposition &d) {
    const auto &dst = *s.dst;
    const bool result_subnormal = d.down_under || subnormal_magnitude(dst, d.down) ||
                                  (d.inexact && (d.down == 0 || subnormal_magnitude(dst, d.up)));
    if (d.inexact) d.dims |= dim_rounding;
    if (d.down_over || d.up_over || d.down_under) d.dims |= dim_overflow;
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

std::vector<RoundingChoice> rounding_choices(const Shape &s) {
    if (s.widening) return {RoundingChoice::exact};
    return {RoundingChoice::rne, RoundingChoice::rna, RoundingChoice::rnu,
            RoundingChoice::rtz, RoundingChoice::rup, RoundingChoice::rdn};
}

std::vector<OverflowChoice> overflow_choices(const Shape &s) {
    std::vector<OverflowChoice> out{OverflowChoice::satfinite};
    if (has_inf(*s.src) && has_nan(*s.dst)) out.push_back(OverflowChoice::satfinite_finite_only);
    if (has_inf(*s.dst)) out.push_back(OverflowChoice::inf);
    if (has_nan(*s.dst)) out.push_back(OverflowChoice::nan);
    return out;
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
    switch (c.rounding) {
    case detail::rounding_rne: p.rounding = RoundingChoice::rne; break;
    case detail::rounding_rna: p.rounding = RoundingChoice::rna; break;
    case detail::rounding_rnu: p.rounding = RoundingChoice::rnu; break;
    case detail::rounding_rtz: p.rounding = RoundingChoice::rtz; break;
    case detail::rounding_rup: p.rounding = RoundingChoice::rup; break;
    case detail::rounding_rdn: p.rounding = RoundingChoice::rdn; break;
    default: p.rounding = RoundingChoice::exact; break;
    }
    switch (c.overflow) {
    case detail::overflow_satfinite: p.overflow = OverflowChoice::satfinite; break;
    case detail::overflow_nan: p.overflow = OverflowChoice::nan; break;
    case detail::overflow_inf: p.overflow = OverflowChoice::inf; break;
    default: p.overflow = has_inf(*s.dst) ? OverflowChoice::inf : OverflowChoice::satfinite; break;  // none
    }
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
    p.rounding = RoundingChoice::exact;
    p.overflow = OverflowChoice::inf;
    p.nan = has_nan(f) ? NanChoice::signed_canonical : NanChoice::constant;
    return p;
}

Decomposition decompose(const Shape &s, std::uint64_t src_word) {
    const auto &src = *s.src, &dst = *s.dst;
    auto &sc = scratch(dst);
    auto &info = sc.info;
    detail::word_info_into(src, src_word, info);
    Decomposition d;
    d.negative = info.negative;
    const auto cls = abi::class_without_sign(info.cls);
    if (cls == NINFER_CLASS_OUTSIDE || detail::is_nan_class(cls)) {
        d.nan = true;
        d.cls = InputClass::nan;
        d.dims = dim_nan;
        if (ieee_pair(s)) {
            d.nan_kept = moved_nan(s, src_word, d.negative, false);
            d.nan_quieted = moved_nan(s, src_word, d.negative, true);
        }
        return d;
    }
    d.infinity = cls == NINFER_CLASS_INFINITE;
    d.zero_value = !d.infinity && mpfr_zero_p(info.value.backend().data());
    if (!dst.has_sign && d.negative) {  // unsigned targets: every negative input is 0x00 (registry)
        d.unsigned_negative = true;
        d.cls = d.zero_value ? InputClass::zero : InputClass::negative;
        return d;
    }
    if (d.infinity) {
        d.cls = InputClass::infinity;
        d.dims = dim_overflow;
        return d;
    }
    if (d.zero_value) {
        d.cls = InputClass::zero;
        return d;
    }
    d.subnormal_input = cls == NINFER_CLASS_SUBNORMAL;
    const long e = detail::split_dyadic(info.value, sc.m);
    mpz_abs(sc.m.backend().data(), sc.m.backend().data());
    neighbours(s, d, sc.m, e, info.value);
    finite_region(s, d);
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
        }
    }
    if (d.unsigned_negative || d.zero_value) return zero_word(dst, d.negative);
    if (d.infinity) return infinity_input_word(dst, p.overflow, d.negative);
    if (d.subnormal_input && daz(p.subnormals)) return zero_word(dst, d.negative);
    const bool up = rounds_up(p.rounding, d);
    if (up ? d.up_over : d.down_over) return overflow_word(dst, p.rounding, p.overflow, d.negative);
    if (!up && d.down_under) return p.overflow == OverflowChoice::nan ? detail::canonical_nan(dst, false) : 0;
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
        }
    }
    if (!dst.has_sign && info.negative) return 0;
    if (cls == NINFER_CLASS_INFINITE) return infinity_input_word(dst, p.overflow, info.negative);
    const bool flushed_input = cls == NINFER_CLASS_SUBNORMAL && daz(p.subnormals);
    if (mpfr_zero_p(info.value.backend().data()) || flushed_input) return zero_word(dst, info.negative);
    Int m;
    const long e = detail::split_dyadic(info.value, m);
    const std::uint64_t w =
        detail::round_dyadic(info.negative, abs(m), e, dst, rounding_id(p.rounding), finite_overflow_id(p.overflow)).word;
    if (ftz(p.subnormals) && abi::word_is_subnormal(dst, w)) return zero_word(dst, info.negative);
    return w;
}

std::string rounding_name(RoundingChoice r) {
    static const char *const names[] = {"rne", "rna", "rnu", "rtz", "rup", "rdn", "exact"};
    return names[static_cast<int>(r)];
}
std::string overflow_name(OverflowChoice o) {
    static const char *const names[] = {"satfinite", "satfinite_finite_only", "inf", "nan"};
    return names[static_cast<int>(o)];
}
std::string subnormal_name(SubnormalChoice s) {
    static const char *const names[] = {"kept", "ftz", "daz", "ftz_daz"};
    return names[static_cast<int>(s)];
}
std::string rounding_text(RoundingChoice r) {
    static const char *const texts[] = {"nearest-even", "nearest-away", "half-up", "toward zero", "up", "down", "exact"};
    return texts[static_cast<int>(r)];
}
std::string overflow_text(OverflowChoice o) {
    static const char *const texts[] = {"saturate", "saturate finite only", "to infinity", "to NaN"};
    return texts[static_cast<int>(o)];
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
    const auto &dst = *s.dst;
    const auto hex = [&dst](std::uint64_t w) { return "0x" + word_hex(dst, w); };
    const std::string name = nan_name(s, p);
    if (name == "kept") return "NaN payload and sign kept";
    if (name == "quieted") return "NaN payload and sign kept, quieted";
    if (name == "signed_canonical")
        return dst.has_sign ? fmt::format("NaN canonical of the input's sign ({}, {})", hex(detail::canonical_nan(dst, false)),
                                          hex(detail::canonical_nan(dst, true)))
                            : fmt::format("NaN canonical ({})", hex(detail::canonical_nan(dst, false)));
    if (name == "canonical_positive") return fmt::format("NaN canonical positive ({})", hex(p.nan_word));
    if (name == "canonical_negative") return fmt::format("NaN canonical negative ({})", hex(p.nan_word));
    if (name == "all_ones") return fmt::format("NaN all-ones ({})", hex(p.nan_word));
    return fmt::format("NaN constant {}", hex(p.nan_word));
}

std::string policy_text(const Shape &s, const Policy &p) {
    return fmt::format("{}, {}, {}, {}", rounding_text(p.rounding), overflow_text(p.overflow), subnormal_text(p.subnormals),
                       nan_text(s, p));
}

}  // namespace ninfer::oracle::lattice
