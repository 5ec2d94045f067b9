// SPDX-License-Identifier: Apache-2.0
// The reference's own `linear` arithmetic (linear_arithmetic.hpp; the contract of issue 13,
// suites/LINEAR.md, criteria correctly_rounded, bit_exact and gguf_q8_1_product): a
// superaccumulator of exact binary64 products rounded once, binary32 sequential sums, ggml's
// q8_1 activation quantizer. Compiled with -ffp-contract=off (linear.cmake).
#include "linear_arithmetic.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "gguf_blocks.hpp"
#include "ninfer/abi/plugin.h"

namespace ninfer::reference::linear_arithmetic {

namespace {

using u128 = unsigned __int128;

/// The set bit count of a magnitude of 32-bit chunks, lowest first (0 for zero).
std::uint64_t bit_length(const std::vector<std::uint32_t> &mag) {
    for (std::size_t i = mag.size(); i-- > 0;)
        if (mag[i]) return 32 * i + static_cast<std::uint64_t>(std::bit_width(mag[i]));
    return 0;
}

bool bit_at(const std::vector<std::uint32_t> &mag, std::int64_t i) {
    if (i < 0 || static_cast<std::uint64_t>(i) >= 32 * mag.size()) return false;
    return (mag[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1u;
}

/// Whether any bit below position `below` is set.
bool any_below(const std::vector<std::uint32_t> &mag, std::int64_t below) {
    for (std::int64_t i = 0; i < below && i < static_cast<std::int64_t>(32 * mag.size()); ++i)
        if (bit_at(mag, i)) return true;
    return false;
}

/// Bits [lo, lo + count) of a magnitude as an integer (count <= 63; lo may be negative: the
/// bits below 0 are zeros).
std::uint64_t bits_from(const std::vector<std::uint32_t> &mag, std::int64_t lo, int count) {
    std::uint64_t v = 0;
    for (int i = count - 1; i >= 0; --i) v = v << 1 | static_cast<std::uint64_t>(bit_at(mag, lo + i));
    return v;
}

/// Step 3 of round_to: RN(mag * 2^e) in `f` with `sticky` standing for nonzero bits below
/// mag's lowest bit, as a positive word (all-ones exponent on overflow).
std::uint64_t round_magnitude(const std::vector<std::uint32_t> &mag, std::int64_t e, bool sticky, const OutputFormat &f) {
    const std::int64_t length = static_cast<std::int64_t>(bit_length(mag));
    if (length == 0) return 0;
    const std::int64_t bias = (std::int64_t{1} << (f.exp_bits - 1)) - 1, emin = 1 - bias;
    const int m = f.precision - 1;
    const std::uint64_t inf_word = ((std::uint64_t{1} << f.exp_bits) - 1) << m;
    // 1. The exponent of the leading bit, at least emin (subnormals share emin's ulp).
    const std::int64_t ex = std::max(length - 1 + e, emin);
    if (ex > bias) return inf_word;  // at or above 2^(emax + 1)
    // 2. The ulp's bit position in mag; q = the bits from there (at most precision bits).
    const std::int64_t ulp_at = ex - m - e;
    std::uint64_t q = bits_from(mag, ulp_at, f.precision + 1);
    const bool round = ulp_at >= 1 && bit_at(mag, ulp_at - 1);
    sticky = sticky || any_below(mag, ulp_at - 1);
    // 3. Nearest, ties to even; a carry into the next binade moves the exponent field by itself.
    if (round && (sticky || (q & 1))) ++q;
    const std::uint64_t word = (static_cast<std::uint64_t>(ex + bias - 1) << m) + q;
    return std::min(word, inf_word);
}

}  // namespace

std::optional<OutputFormat> output_format(std::uint32_t format_id) {
    switch (format_id) {
    case NINFER_FORMAT_fp32: return OutputFormat{24, 8, 4, 0x7FC00000u};
    case NINFER_FORMAT_bf16: return OutputFormat{8, 8, 2, 0x7FC0u};
    case NINFER_FORMAT_fp16: return OutputFormat{11, 5, 2, 0x7E00u};
    default: return std::nullopt;
    }
}

void ExactSum::add_product(double w, double x) {
    if (std::isnan(w) || std::isnan(x) || (std::isinf(w) && x == 0.0) || (std::isinf(x) && w == 0.0)) {
        nan_ = true;
        return;
    }
    if (std::isinf(w) || std::isinf(x)) {
        (std::signbit(w) != std::signbit(x) ? neg_inf_ : pos_inf_) = true;
        return;
    }
    add_finite(w * x);  // exact: at most 53 significant bits, far from binary64's range limits
}

void ExactSum::add_finite(double p) {
    if (p == 0.0) return;
    const auto bits = std::bit_cast<std::uint64_t>(p);
    const int biased = static_cast<int>(bits >> 52 & 0x7FF);
    std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
    int e = -1074;  // p = m * 2^e
    if (biased) {
        m |= std::uint64_t{1} << 52;
        e = biased - 1075;
    }
    int at = e + kLowBit;
    if (at < 0) {  // only zero bits lie below 2^-kLowBit (products are multiples of 2^-298)
        m >>= -at;
        at = 0;
    }
    const u128 v = static_cast<u128>(m) << (at % 32);
    const std::size_t i = static_cast<std::size_t>(at / 32);
    const std::int64_t parts[3] = {static_cast<std::int64_t>(v & 0xFFFFFFFFu), static_cast<std::int64_t>((v >> 32) & 0xFFFFFFFFu),
                                   static_cast<std::int64_t>(v >> 64)};
    for (std::size_t j = 0; j < 3 && i + j < chunks_.size(); ++j) chunks_[i + j] += std::signbit(p) ? -parts[j] : parts[j];
    // Each chunk moves by less than 2^32 per product: carry before 2^30 products can overflow it.
    if (++since_carry_ == (1u << 30)) {
        std::int64_t carry = 0;
        for (auto &c : chunks_) {
            c += carry;
            carry = c >> 32;
            c -= carry * (std::int64_t{1} << 32);
        }
        chunks_.back() += carry * (std::int64_t{1} << 32);
        since_carry_ = 0;
    }
}

std::uint64_t ExactSum::round_to(const OutputFormat &f, std::uint32_t divisor_word) const {
    const std::uint64_t sign_bit = std::uint64_t{1} << (8 * f.bytes - 1);
    const std::uint64_t inf_word = ((std::uint64_t{1} << f.exp_bits) - 1) << (f.precision - 1);
    // 1. The non-finite classes (the contract's non-finite rule).
    if (nan_ || (pos_inf_ && neg_inf_)) return f.nan_word;
    if (pos_inf_) return inf_word;
    if (neg_inf_) return inf_word | sign_bit;
    // 2. Carry the chunks into a signed integer, then its magnitude in 32-bit chunks.
    std::vector<std::int64_t> c(chunks_.begin(), chunks_.end());
    auto carry_all = [&c] {
        std::int64_t carry = 0;
        for (auto &x : c) {
            x += carry;
            carry = x >> 32;  // arithmetic shift: floor division by 2^32
            x -= carry * (std::int64_t{1} << 32);
        }
        c.push_back(carry);
    };
    carry_all();
    const bool negative = c.back() < 0;
    if (negative) {
        for (auto &x : c) x = -x;
        carry_all();
    }
    std::vector<std::uint32_t> mag(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) mag[i] = static_cast<std::uint32_t>(c[i]);
    std::int64_t e = -kLowBit;
    bool sticky = false;
    // 3. nvfp4: the exact quotient by d = md * 2^ed to 64 more bits, the remainder as sticky.
    if (divisor_word) {
        const int biased = static_cast<int>(divisor_word >> 23 & 0xFF);
        std::uint64_t md = divisor_word & 0x7FFFFFu;
        std::int64_t ed = -149;
        if (biased) {
            md |= 0x800000u;
            ed = biased - 150;
        }
        mag.insert(mag.begin(), 2, 0u);
        std::uint64_t rem = 0;
        for (std::size_t i = mag.size(); i-- > 0;) {
            const std::uint64_t cur = rem << 32 | mag[i];
            mag[i] = static_cast<std::uint32_t>(cur / md);
            rem = cur % md;
        }
        sticky = rem != 0;
        e = e - 64 - ed;
    }
    const std::uint64_t word = round_magnitude(mag, e, sticky, f);
    return word == 0 ? 0 : word | (negative ? sign_bit : 0);
}

float sequential_dot(const float *w, const float *x, std::uint64_t k, float (*add)(float, float)) {
    float s = 0.0f;
    for (std::uint64_t i = 0; i < k; ++i) {
        const float p = w[i] * x[i];
        s = add(s, p);
    }
    return s;
}

std::vector<float> q8_1_dequantized(std::span<const float> x, float (*round)(float)) {
    std::vector<float> out(x.size());
    for (std::size_t b = 0; b + 32 <= x.size(); b += 32) {
        // A block holding an infinity or NaN has no q8_1 block: every element of it is NaN (the
        // suites' reading, suites/LINEAR.md; ggml's quantizer has no defined result there).
        if (std::any_of(x.begin() + static_cast<std::ptrdiff_t>(b), x.begin() + static_cast<std::ptrdiff_t>(b + 32),
                        [](float v) { return !std::isfinite(v); })) {
            std::fill(out.begin() + static_cast<std::ptrdiff_t>(b), out.begin() + static_cast<std::ptrdiff_t>(b + 32), NAN);
            continue;
        }
        float amax = 0.0f;
        for (std::size_t j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[b + j]));
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        const float d16 = gguf_blocks::fp16_to_f32(gguf_blocks::f32_to_fp16(d));
        for (std::size_t j = 0; j < 32; ++j) {
            const float v = round(x[b + j] * id);
            // The C conversion to int (x86: INT_MIN out of range, a NaN included), then int8 storage.
            const std::int32_t i = (v >= -2147483648.0f && v < 2147483648.0f) ? static_cast<std::int32_t>(v) : INT32_MIN;
            const auto q = static_cast<std::int8_t>(static_cast<std::uint8_t>(i & 0xFF));
            out[b + j] = d16 * static_cast<float>(q);  // exact: 11 x 8 significant bits
        }
    }
    return out;
}

}  // namespace ninfer::reference::linear_arithmetic
