// SPDX-License-Identifier: Apache-2.0
// binary32 arithmetic as ggml's C performs it (gguf_internal.hpp): each IEEE operation rounded
// once by the exact oracle; specials by IEEE 754 (inf * 0, inf - inf, 0 / 0 are NaN).
#include <cstdint>

#include "gguf_internal.hpp"
#include "linear_internal.hpp"

namespace ninfer::oracle::gguf_detail {

namespace {
constexpr std::uint32_t kRne = 1, kInf = 1;
bool is_inf(const WordInfo &i) { return i.cls == NINFER_CLASS_INFINITE; }
bool is_zero(std::uint32_t w) { return (w & 0x7FFFFFFFu) == 0; }
}  // namespace

Real real_of(std::uint32_t w) {
    if (is_zero(w)) {
        Real z = exact_zero();
        if (w >> 31) mpfr_neg(z.backend().data(), z.backend().data(), MPFR_RNDN);
        return z;
    }
    return word_info(fp32(), w).value;
}

Binary32::V Binary32::fp16(std::uint16_t h) {
    return static_cast<V>(convert_word(conversion(NINFER_CONVERSION_fp16_to_fp32), h));
}

Binary32::V Binary32::num(long i) {
    Real r = exact_zero();
    r = i;
    return static_cast<V>(round_real(r, fp32(), kRne, kInf));
}

// IEEE multiply and add round once; the linear oracle's exact-integer binary32 arithmetic does
// just that (pinned against MPFR in oracle/tests/test_linear.cpp), at a fraction of MPFR's cost.
Binary32::V Binary32::mul(V a, V b) { return linear_detail::mul_b32(a, b); }

Binary32::V Binary32::add(V a, V b) { return linear_detail::add_b32(a, b); }

Binary32::V Binary32::div(V a, V b) {
    const auto ia = word_info(fp32(), a), ib = word_info(fp32(), b);
    if (is_nan(ia) || is_nan(ib)) return kNaN;
    const std::uint32_t sign = (a ^ b) & 0x80000000u;
    if (is_inf(ia)) return is_inf(ib) ? kNaN : sign | 0x7F800000u;
    if (is_inf(ib)) return sign;
    if (is_zero(b)) return is_zero(a) ? kNaN : sign | 0x7F800000u;
    if (is_zero(a)) return sign;
    return static_cast<V>(round_quotient(real_of(a), real_of(b), fp32(), kRne, kInf));
}

int nearest_int(std::uint32_t fval) {
    const std::uint32_t val = Binary32::add(fval, 0x4B400000u);  // 12582912.f = 1.5 * 2^23
    return static_cast<int>(val & 0x007FFFFFu) - 0x00400000;
}

bool Binary32::less(V a, V b) {
    const auto ia = word_info(fp32(), a), ib = word_info(fp32(), b);
    if (is_nan(ia) || is_nan(ib)) return false;
    if (is_inf(ia) || is_inf(ib)) {
        const bool na = a >> 31, nb = b >> 31;
        if (is_inf(ia) && is_inf(ib)) return na && !nb;
        if (is_inf(ia)) return na;
        return !nb;
    }
    return real_of(a) < real_of(b);
}

long long x86_integer_of(std::uint32_t w, int (*round_fn)(mpfr_ptr, mpfr_srcptr), int bits) {
    const long long indefinite = bits == 64 ? INT64_MIN : INT32_MIN;
    if ((w & 0x7F800000u) == 0x7F800000u) return indefinite;  // NaN or infinity
    const Real v = real_of(w);
    Real t = exact_zero(), limit = exact_zero();
    round_fn(t.backend().data(), v.backend().data());
    limit = 1;
    mpfr_mul_2si(limit.backend().data(), limit.backend().data(), bits - 1, MPFR_RNDN);  // 2^(bits-1): exact
    if (t >= limit || t < -limit) return indefinite;
    return t.convert_to<long long>();
}

std::uint32_t e8m0_half_word(std::uint8_t e) {
    return e < 2 ? 0x00200000u << e : static_cast<std::uint32_t>(e - 1) << 23;
}

std::uint32_t ue4m3_half_word(std::uint8_t s) {
    if (s == 0 || s == 0x7F) return 0;
    const int e = (s >> 3) & 0xF, m = s & 7;
    // m * 2^-9, or (8 + m) * 2^(e - 10); then halved.
    Real v = exact_zero();
    v = e == 0 ? m : 8 + m;
    mpfr_mul_2si(v.backend().data(), v.backend().data(), (e == 0 ? -9 : e - 10) - 1, MPFR_RNDN);
    return static_cast<std::uint32_t>(round_real(v, fp32(), kRne, kInf));
}

std::uint16_t Binary32::to_fp16(V a) {
    return static_cast<std::uint16_t>(convert_word(conversion(NINFER_CONVERSION_fp32_to_fp16_rne), a));
}

}  // namespace ninfer::oracle::gguf_detail
