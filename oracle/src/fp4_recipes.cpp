// SPDX-License-Identifier: Apache-2.0
// The lesson's FP4 block recipes (number-formats-lesson.txt Example 14: MXFP4, Example 15:
// NVIDIA's two-level NVFP4), informative profiles of the suite. Each binary32 operation of the
// lesson's programs is rounded once by the oracle's exact rounding (round_real, round_quotient);
// comparisons of errors are exact.
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "scaled_internal.hpp"

namespace ninfer::oracle {

namespace {

constexpr std::uint32_t kRne = 1, kInf = 1, kSatfinite = 2;

const WordFormat &fp32() { return word_format(NINFER_FORMAT_fp32); }

bool finite(const WordInfo &i) { return abi::class_is_finite(i.cls); }

/// floor(log2(a)) of an exact nonzero dyadic.
long floor_log2(const Real &a) {
    detail::Int m;
    const long e = detail::split_dyadic(a, m);
    return e + static_cast<long>(msb(abs(m)));
}

/// The E2M1 word (table index, lesson order 0, 0.5, ..., 6, -0, ..., -6) nearest to x / unit,
/// the first index winning a tie: |v_i * unit - x| compared exactly.
std::uint8_t nearest_e2m1(const Rational &x, const Rational &unit) {
    const auto &e2m1 = word_format(NINFER_FORMAT_e2m1);
    std::uint8_t best = 0;
    Rational best_err = abs(x);
    for (std::uint8_t i = 1; i < 16; ++i) {
        const Rational err = abs(exact_word_value(e2m1, i) * unit - x);
        if (err < best_err) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

Real real_of(const WordFormat &f, std::uint64_t w) { return word_info(f, w).value; }

/// The largest magnitude of binary32 words, exactly; false (with NINFER_E_NONFINITE and the
/// element named) when one is not finite.
bool finite_amax(std::span<const std::uint32_t> x, Real &amax, std::int32_t &status, std::string &message) {
    for (std::size_t i = 0; i < x.size(); ++i) {
        const auto xi = word_info(fp32(), x[i]);
        if (!finite(xi)) {
            status = NINFER_E_NONFINITE;
            message = fmt::format("element {} is not finite", i);
            return false;
        }
        if (abs(xi.value) > amax) amax = abs(xi.value);
    }
    return true;
}

}  // namespace

Mxfp4Block mxfp4_encode_block(std::span<const std::uint32_t> x) {
    Mxfp4Block out;
    Real amax = exact_zero();
    if (!finite_amax(x, amax, out.status, out.message)) return out;
    out.codes.assign(x.size(), 0);
    // An all-zero block: scale byte 0 (ggml's choice) and +0 codes.
    if (mpfr_zero_p(amax.backend().data())) return out;
    // 1. The scale exponent floor(log2(amax)) - 2 (E2M1's largest power of two is 2^2).
    const long e = floor_log2(amax) - 2 + 127;
    if (e < 0 || e > 254) {
        out.status = NINFER_E_SCALE_OVERFLOW;
        out.message = fmt::format("scale exponent {} is outside E8M0", e - 127);
        return out;
    }
    out.scale = static_cast<std::uint8_t>(e);
    // 2. Each value takes the nearest E2M1 value times the scale.
    const Rational unit = exact_word_value(word_format(NINFER_FORMAT_e8m0), out.scale);
    for (std::size_t i = 0; i < x.size(); ++i) out.codes[i] = nearest_e2m1(exact_word_value(fp32(), x[i]), unit);
    return out;
}

Rational mxfp4_exact_value(std::uint8_t code, std::uint8_t scale) {
    if (scale == 0xFF) throw std::invalid_argument("mxfp4_exact_value: E8M0 0xFF is NaN");
    return exact_word_value(word_format(NINFER_FORMAT_e2m1), code & 0xFu) *
           exact_word_value(word_format(NINFER_FORMAT_e8m0), scale);
}

Nvfp4Recipe nvfp4_two_level_encode(std::uint64_t n, std::uint64_t k, std::span<const std::uint32_t> x) {
    if (k % kNvfp4Group != 0 || x.size() != n * k) throw std::invalid_argument("nvfp4_two_level_encode: K % 16 or size");
    const auto &e4m3 = word_format(NINFER_FORMAT_e4m3fn);
    Nvfp4Recipe out;
    out.m.rows = n;
    out.m.cols = k;
    out.m.codes.assign(n * k, 0);
    out.m.scales.assign(n * k / kNvfp4Group, 0);
    Real amax = exact_zero();
    if (!finite_amax(x, amax, out.status, out.message)) return out;
    if (mpfr_zero_p(amax.backend().data())) {
        // Suite reading: an all-zero tensor stores +0 codes and scales and the divisor 1.0.
        out.divisor = 0x3F800000u;
        out.m.divisors = {out.divisor};
        out.block_scale.assign(out.m.scales.size(), 0);
        return out;
    }
    Real c2688 = exact_zero();
    c2688 = 448 * 6;
    // 1. tensorScale = tensorAmax / (448 * 6) in binary32; the divisor d_w = binary32(448 * 6 / tensorAmax).
    out.tensor_scale = static_cast<std::uint32_t>(round_quotient(amax, c2688, fp32(), kRne, kInf));
    out.divisor = static_cast<std::uint32_t>(round_quotient(c2688, amax, fp32(), kRne, kInf));
    if (out.tensor_scale == 0 || out.divisor == 0x7F800000u) {
        out.status = NINFER_E_SCALE_OVERFLOW;
        out.message = fmt::format("tensor scale 0x{:08x} / divisor 0x{:08x} not representable", out.tensor_scale, out.divisor);
        return out;
    }
    out.m.divisors = {out.divisor};
    const Real ts = real_of(fp32(), out.tensor_scale);
    Real six = exact_zero();
    six = 6;
    for (std::uint64_t b = 0; b < n * k / kNvfp4Group; ++b) {
        Real bamax = exact_zero();
        for (std::uint64_t i = 0; i < kNvfp4Group; ++i) {
            const Real v = abs(real_of(fp32(), x[b * kNvfp4Group + i]));
            if (v > bamax) bamax = v;
        }
        // 2. code = E4M3(binary32(binary32(amax / 6) / tensorScale)), nearest, ties to even, at most 448.
        const Real q1 = real_of(fp32(), round_quotient(bamax, six, fp32(), kRne, kInf));
        const Real q = real_of(fp32(), round_quotient(q1, ts, fp32(), kRne, kInf));
        const auto code = static_cast<std::uint8_t>(round_real(q, e4m3, kRne, kSatfinite));
        out.m.scales[b] = code;
        // 3. blockScale = binary32(e4m3(code) * tensorScale).
        Real prod = exact_zero();
        prod = real_of(e4m3, code) * ts;
        const std::uint32_t bs =
            mpfr_zero_p(prod.backend().data()) ? 0u : static_cast<std::uint32_t>(round_real(prod, fp32(), kRne, kInf));
        out.block_scale.push_back(bs);
        // 4. Each element: the nearest E2M1 value to binary32(x / blockScale); a zero block scale keeps +0 codes.
        if (bs == 0) continue;
        const Real bsv = real_of(fp32(), bs);
        for (std::uint64_t i = 0; i < kNvfp4Group; ++i) {
            const auto xi = word_info(fp32(), x[b * kNvfp4Group + i]);
            const std::uint32_t r =
                mpfr_zero_p(xi.value.backend().data())
                    ? (xi.negative ? 0x80000000u : 0u)
                    : static_cast<std::uint32_t>(round_quotient(xi.value, bsv, fp32(), kRne, kInf));
            out.m.codes[b * kNvfp4Group + i] = nearest_e2m1(exact_word_value(fp32(), r), Rational(1));
        }
    }
    return out;
}

}  // namespace ninfer::oracle
