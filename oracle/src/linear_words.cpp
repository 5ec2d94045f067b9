// SPDX-License-Identifier: Apache-2.0
// The `linear` oracle's word arithmetic (linear_internal.hpp): exact word values, the exact
// accumulator, and binary32 multiply/add by exact integer rounding (the f32_sequential profile's
// defined evaluation, IEEE 754 binary32 with subnormals; tests pin them against MPFR).
#include <bit>
#include <stdexcept>

#include "linear_internal.hpp"

namespace ninfer::oracle::linear_detail {

Val decode_float_word(const WordFormat &f, std::uint64_t word) {
    Val v;
    const int mb = f.man_bits, eb = f.exp_bits;
    const std::uint64_t frac = word & ((std::uint64_t{1} << mb) - 1);
    const std::uint64_t ex = (word >> mb) & ((std::uint64_t{1} << eb) - 1);
    const std::uint64_t all = (std::uint64_t{1} << eb) - 1;
    v.neg = f.has_sign && ((word >> (eb + mb)) & 1) != 0;
    if (f.special == Special::IEEE && ex == all) {
        v.kind = frac != 0 ? kNan : kInf;
        return v;
    }
    if (f.special == Special::FN && ex == all && frac == (std::uint64_t{1} << mb) - 1) {
        v.kind = kNan;
        return v;
    }
    if (ex == 0) {
        v.m = static_cast<std::uint32_t>(frac);
        v.e = static_cast<std::int16_t>(1 - f.bias - mb);
    } else {
        v.m = static_cast<std::uint32_t>(frac | (std::uint64_t{1} << mb));
        v.e = static_cast<std::int16_t>(static_cast<int>(ex) - f.bias - mb);
    }
    return v;
}

namespace {

int bit_length(U128 m) {
    const auto hi = static_cast<std::uint64_t>(m >> 64);
    if (hi != 0) return 128 - std::countl_zero(hi);
    return 64 - std::countl_zero(static_cast<std::uint64_t>(m));
}

constexpr std::uint32_t kSign = 0x80000000u, kInfWord = 0x7F800000u, kNanWord = 0x7FC00000u;

bool is_nan(std::uint32_t w) { return (w & 0x7FFFFFFFu) > kInfWord; }
bool is_inf(std::uint32_t w) { return (w & 0x7FFFFFFFu) == kInfWord; }
bool is_zero(std::uint32_t w) { return (w & 0x7FFFFFFFu) == 0; }

/// A finite nonzero binary32 word as m * 2^e (m < 2^24).
void split(std::uint32_t w, std::uint64_t &m, int &e) {
    const std::uint32_t ex = (w >> 23) & 0xFF, fr = w & 0x7FFFFF;
    if (ex == 0) {
        m = fr;
        e = -149;
    } else {
        m = fr | 0x800000u;
        e = static_cast<int>(ex) - 150;
    }
}

}  // namespace

std::uint32_t round_b32(bool neg, U128 m, int e) {
    const std::uint32_t sign = neg ? kSign : 0;
    if (m == 0) return sign;
    const int len = bit_length(m);
    const int top = e + len - 1;                 // exponent of the leading bit
    const int q = top - 23 < -149 ? -149 : top - 23;  // exponent of the result's last bit
    U128 mant;
    if (q <= e) {
        mant = m << (e - q);
    } else {
        const int sh = q - e;
        if (sh > len) return sign;  // below half of the smallest step: rounds to zero
        if (sh == len) {
            // m * 2^e in [2^(q-1), 2^q): half or more of one step
            const U128 half = U128{1} << (sh - 1);
            mant = m > half ? 1 : 0;  // exactly half ties to even (0)
        } else {
            mant = m >> sh;
            const U128 rem = m & ((U128{1} << sh) - 1), half = U128{1} << (sh - 1);
            if (rem > half || (rem == half && (mant & 1) != 0)) ++mant;
        }
    }
    // ((q + 149) << 23) + mant encodes normal, subnormal and a carry into the next binade alike.
    const std::int64_t w = (static_cast<std::int64_t>(q + 149) << 23) + static_cast<std::int64_t>(mant);
    if (w >= static_cast<std::int64_t>(kInfWord)) return sign | kInfWord;
    return sign | static_cast<std::uint32_t>(w);
}

std::uint32_t mul_b32(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t sign = (a ^ b) & kSign;
    if (is_nan(a) || is_nan(b)) return kNanWord;
    if (is_inf(a) || is_inf(b)) {
        if (is_zero(a) || is_zero(b)) return kNanWord;
        return sign | kInfWord;
    }
    if (is_zero(a) || is_zero(b)) return sign;
    std::uint64_t ma, mb;
    int ea, eb;
    split(a, ma, ea);
    split(b, mb, eb);
    return round_b32(sign != 0, U128{ma} * mb, ea + eb);
}

std::uint32_t add_b32(std::uint32_t a, std::uint32_t b) {
    if (is_nan(a) || is_nan(b)) return kNanWord;
    if (is_inf(a) || is_inf(b)) {
        if (is_inf(a) && is_inf(b) && ((a ^ b) & kSign) != 0) return kNanWord;
        return is_inf(a) ? a : b;
    }
    if (is_zero(a) && is_zero(b)) return (a & b & kSign);  // -0 only for (-0) + (-0)
    if (is_zero(a)) return b;
    if (is_zero(b)) return a;
    std::uint64_t ma, mb;
    int ea, eb;
    split(a, ma, ea);
    split(b, mb, eb);
    // Far apart: the smaller operand is below a quarter of the larger one's last place.
    if (ea - eb > 60) return a;
    if (eb - ea > 60) return b;
    const int e = ea < eb ? ea : eb;
    const __int128 sa = static_cast<__int128>(U128{ma} << (ea - e)) * ((a & kSign) ? -1 : 1);
    const __int128 sb = static_cast<__int128>(U128{mb} << (eb - e)) * ((b & kSign) ? -1 : 1);
    const __int128 s = sa + sb;
    if (s == 0) return 0;  // an exact zero sum of nonzero operands is +0 under nearest rounding
    return round_b32(s < 0, static_cast<U128>(s < 0 ? -s : s), e);
}

std::uint32_t val_to_b32(const Val &v) {
    const std::uint32_t sign = v.neg ? kSign : 0;
    if (v.kind == kNan) return kNanWord;
    if (v.kind == kInf) return sign | kInfWord;
    return round_b32(v.neg, v.m, v.e);
}

void Acc::add(U128 v, int e, bool neg) {
    if (v == 0) return;
    const int pos = e - kAccBase;
    if (pos < 0) throw std::logic_error("linear oracle: a product below the accumulator's range");
    const int li = pos / 64, sh = pos % 64;
    std::uint64_t w[3];
    w[0] = static_cast<std::uint64_t>(v << sh);
    const U128 hi = sh != 0 ? (v >> (64 - sh)) : (v >> 64);
    w[1] = static_cast<std::uint64_t>(hi);
    w[2] = static_cast<std::uint64_t>(hi >> 64);
    if (li + 2 >= kAccLimbs && (w[2] != 0 || li + 1 >= kAccLimbs))
        throw std::logic_error("linear oracle: a product above the accumulator's range");
    if (!neg) {
        std::uint64_t carry = 0;
        int i = li;
        for (int j = 0; j < 3 && i < kAccLimbs; ++j, ++i) {
            const U128 s = U128{l[i]} + w[j] + carry;
            l[i] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        for (; carry != 0 && i < kAccLimbs; ++i) {
            l[i] += 1;
            carry = l[i] == 0 ? 1 : 0;
        }
    } else {
        std::uint64_t borrow = 0;
        int i = li;
        for (int j = 0; j < 3 && i < kAccLimbs; ++j, ++i) {
            const std::uint64_t sub = w[j];
            const std::uint64_t r = l[i] - sub - borrow;
            borrow = (l[i] < sub || (l[i] == sub && borrow != 0)) ? 1 : 0;
            l[i] = r;
        }
        for (; borrow != 0 && i < kAccLimbs; ++i) {
            borrow = l[i] == 0 ? 1 : 0;
            l[i] -= 1;
        }
    }
}

detail::Int Acc::value() const {
    detail::Int x;
    mpz_import(x.backend().data(), kAccLimbs, -1, sizeof(std::uint64_t), 0, 0, l.data());
    if ((l[kAccLimbs - 1] >> 63) != 0) x -= detail::Int(1) << (64 * kAccLimbs);
    return x;
}

}  // namespace ninfer::oracle::linear_detail
