// SPDX-License-Identifier: Apache-2.0
// grouped_absmax, the canonical reference encoder of tensor-formats.txt Section 7.2, step by
// step: source to binary32, amax, raw_scale32, binary16 scale with the 0x0001 rescue, reciprocal
// multiply, ties-to-even integral rounding, clamp after rounding. Rounding by the scalar oracle.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle {

namespace {

const WordFormat &f32() { return word_format(NINFER_FORMAT_fp32); }
const WordFormat &f16() { return word_format(NINFER_FORMAT_fp16); }

std::uint32_t round_f32(const Real &x) {
    return static_cast<std::uint32_t>(round_real(x, f32(), detail::rounding_rne, detail::overflow_inf));
}

bool f32_finite(std::uint32_t w) {
    const auto cls = word_class_byte(f32(), w) & ~NINFER_CLASS_SIGN;
    return cls == NINFER_CLASS_ZERO || cls == NINFER_CLASS_SUBNORMAL || cls == NINFER_CLASS_NORMAL;
}

}  // namespace

std::optional<std::vector<std::uint32_t>> grouped_source_to_binary32(std::uint32_t source_format,
                                                                     std::span<const std::uint8_t> words,
                                                                     std::uint64_t count) {
    std::uint32_t conv = 0;
    switch (source_format) {
    case NINFER_FORMAT_fp32: break;
    case NINFER_FORMAT_bf16: conv = NINFER_CONVERSION_bf16_to_fp32; break;
    case NINFER_FORMAT_fp16: conv = NINFER_CONVERSION_fp16_to_fp32; break;
    default: throw std::invalid_argument("source format " + std::to_string(source_format) + " is not fp32, bf16 or fp16");
    }
    const std::size_t width = source_format == NINFER_FORMAT_fp32 ? 4 : 2;
    if (count > words.size() / width || words.size() != count * width)
        throw std::invalid_argument("source holds " + std::to_string(words.size()) + " bytes, expected " +
                                    std::to_string(count) + " words of " + std::to_string(width) + " bytes");
    std::vector<std::uint32_t> out(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto w = static_cast<std::uint32_t>(abi::load_le(&words[i * width], static_cast<int>(width)));
        // Finite binary32 values are unchanged; finite BF16 and binary16 widen exactly.
        const std::uint32_t x = conv == 0 ? w : static_cast<std::uint32_t>(convert_word(conversion(conv), w));
        if (!f32_finite(x)) return std::nullopt;
        out[i] = x;
    }
    return out;
}

std::optional<std::uint16_t> grouped_scale16_from_f32(std::uint32_t raw_scale32, bool *rescued) {
    if (rescued) *rescued = false;
    const auto raw = word_info(f32(), raw_scale32);
    if (!f32_finite(raw_scale32)) throw std::invalid_argument("grouped_scale16_from_f32: non-finite binary32 word");
    auto s16 = static_cast<std::uint16_t>(round_real(raw.value, f16(), detail::rounding_rne, detail::overflow_inf));
    if ((s16 & 0x7FFFu) == 0x7C00u) return std::nullopt;
    if ((s16 & 0x7FFFu) == 0) {
        // 2^-24 underflow rescue: a scale that rounds to zero keeps the smallest subnormal magnitude.
        s16 = raw.negative ? 0x8001u : 0x0001u;
        if (rescued) *rescued = true;
    }
    return s16;
}

std::int64_t f32_round_integral_even(std::uint32_t word) {
    const bool negative = (word >> 31) != 0;
    const std::uint32_t e = (word >> 23) & 0xFFu;
    if (e == 0xFFu) throw std::invalid_argument("f32_round_integral_even: non-finite word");
    if (e == 0) return 0;  // |x| < 2^-126
    // |x| = M * 2^(e - 150) with M = 1.fraction as a 24-bit integer.
    const std::uint64_t m = (word & 0x7FFFFFu) | 0x800000u;
    std::int64_t q = 0;
    if (e >= 150) {
        const std::uint32_t shift = e - 150;
        q = shift > 16 ? (std::int64_t{1} << 40) : static_cast<std::int64_t>(m << shift);
    } else {
        const std::uint32_t shift = 150 - e;
        if (shift > 25) return 0;  // |x| < 2^-2
        std::uint64_t r = m >> shift;
        const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1), half = std::uint64_t{1} << (shift - 1);
        if (rem > half || (rem == half && (r & 1u))) ++r;  // ties to even
        q = static_cast<std::int64_t>(r);
    }
    return negative ? -q : q;
}

ScaleCodes grouped_codes_for_scale(const GroupedFormat &f, std::span<const std::uint32_t> x32, std::uint16_t scale16) {
    ScaleCodes out;
    const auto s = word_info(f16(), scale16);
    if (s.cls != NINFER_CLASS_SUBNORMAL && s.cls != NINFER_CLASS_NORMAL)
        throw std::invalid_argument("grouped_codes_for_scale: scale word " + word_hex(f16(), scale16) +
                                    " is not finite and nonzero");
    // scale32 = exact_binary16_to_binary32(scale16); inv32 = round_f32(1 / scale32).
    Real one = exact_zero();
    one = 1;
    out.inv32 = static_cast<std::uint32_t>(round_quotient(one, s.value, f32(), detail::rounding_rne, detail::overflow_inf));
    const Real inv = word_info(f32(), out.inv32).value;
    out.normalized32.resize(x32.size());
    out.codes.resize(x32.size());
    for (std::size_t i = 0; i < x32.size(); ++i) {
        const Real product = word_info(f32(), x32[i]).value * inv;
        out.normalized32[i] = round_f32(product);
        const std::int64_t rounded = f32_round_integral_even(out.normalized32[i]);
        // The clamp happens after integral rounding.
        out.codes[i] = static_cast<int>(rounded < f.qmin ? f.qmin : rounded > f.qmax ? f.qmax : rounded);
    }
    return out;
}

AbsmaxGroupTrace grouped_absmax_group(const GroupedFormat &f, std::span<const std::uint32_t> x32) {
    AbsmaxGroupTrace t;
    // amax = max_i(abs(x[i])): for finite binary32 words magnitude order is the order of the
    // words with the sign bit cleared.
    for (const std::uint32_t x : x32) {
        if (!f32_finite(x)) {
            t.status = NINFER_E_NONFINITE;
            return t;
        }
        if ((x & 0x7FFFFFFFu) > t.amax32) t.amax32 = x & 0x7FFFFFFFu;
    }
    if (t.amax32 == 0) {
        // All-zero group: +0 scale and zero codes, before any reciprocal.
        t.codes.assign(x32.size(), 0);
        return t;
    }
    // raw_scale32 = round_f32(amax / binary32(qmax)): qmax, not abs(qmin), is the denominator.
    Real qmax = exact_zero();
    qmax = f.qmax;
    t.raw_scale32 = static_cast<std::uint32_t>(
        round_quotient(word_info(f32(), t.amax32).value, qmax, f32(), detail::rounding_rne, detail::overflow_inf));
    const auto s16 = grouped_scale16_from_f32(t.raw_scale32, &t.rescued);
    if (!s16) {
        t.scale16 = 0x7C00u;
        t.status = NINFER_E_SCALE_OVERFLOW;
        return t;
    }
    t.scale16 = *s16;
    auto sc = grouped_codes_for_scale(f, x32, t.scale16);
    t.inv32 = sc.inv32;
    t.normalized32 = std::move(sc.normalized32);
    t.codes = std::move(sc.codes);
    return t;
}

namespace detail {

/// Shared by grouped_absmax and grouped_search: method and shape checks, then the whole source
/// converted to binary32 before any group is processed. Fills `x32` or the refusal in `r`.
bool grouped_encoder_prologue(const char *method, const GroupedFormat &f, std::uint32_t source_format,
                              std::uint64_t rows, std::uint64_t cols, std::span<const std::uint8_t> source_words,
                              EncodeResult &r, std::vector<std::uint32_t> &x32) {
    if (!f.canonical_encoders) {
        r.status = NINFER_E_METHOD;
        r.message = std::string(method) + " refuses target " + std::string(f.name) +
                    " (tensor-formats Section 3.2: grouped_absmax and grouped_search refuse that target)";
        return false;
    }
    std::uint64_t count = 0;
    if (rows == 0 || cols == 0 || __builtin_mul_overflow(rows, cols, &count)) {
        r.status = NINFER_E_INVALID_ARGUMENT;
        r.message = std::string(method) + ": shape [" + std::to_string(rows) + "," + std::to_string(cols) +
                    "] is not a positive rank-two matrix";
        return false;
    }
    if (source_format != NINFER_FORMAT_fp32 && source_format != NINFER_FORMAT_bf16 &&
        source_format != NINFER_FORMAT_fp16) {
        r.status = NINFER_E_INVALID_ARGUMENT;
        r.message = std::string(method) + ": source format " + abi::format_label(source_format) +
                    " is not fp32, bf16 or fp16";
        return false;
    }
    const std::uint64_t width = source_format == NINFER_FORMAT_fp32 ? 4 : 2;
    if (count > source_words.size() / width || source_words.size() != count * width) {
        r.status = NINFER_E_INVALID_ARGUMENT;
        r.message = std::string(method) + ": source holds " + std::to_string(source_words.size()) +
                    " bytes, expected " + std::to_string(rows) + "*" + std::to_string(cols) + " words of " +
                    std::to_string(width) + " bytes";
        return false;
    }
    auto converted = grouped_source_to_binary32(source_format, source_words, count);
    if (!converted) {
        const WordFormat &src = word_format(source_format);
        for (std::uint64_t i = 0; i < count; ++i) {
            if (grouped_source_to_binary32(source_format, source_words.subspan(i * width, width), 1)) continue;
            const auto w = static_cast<std::uint32_t>(abi::load_le(&source_words[i * width], static_cast<int>(width)));
            r.status = NINFER_E_NONFINITE;
            r.message = std::string(method) + ": source value " + word_hex(src, w) + " (" + word_value_text(src, w) +
                        ") at row " + std::to_string(i / cols) + ", column " + std::to_string(i % cols) + " (group " +
                        std::to_string((i % cols) / f.group) + ", lane " + std::to_string((i % cols) % f.group) +
                        ") is not finite (tensor-formats Section 7.2: the encoder fails)";
            return false;
        }
    }
    x32 = std::move(*converted);
    r.m.rows = rows;
    r.m.cols = cols;
    r.m.codes.assign(count, 0);
    r.m.scales.assign(rows * grouped_groups_per_row(f, cols), 0);
    return true;
}

/// The refusal of one group whose raw scale rounds to binary16 infinity.
void grouped_overflow_refusal(const char *method, const GroupedFormat &f, std::uint64_t row, std::uint64_t group,
                              const AbsmaxGroupTrace &t, EncodeResult &r) {
    r.status = NINFER_E_SCALE_OVERFLOW;
    r.message = std::string(method) + ": " + std::string(f.name) + " row " + std::to_string(row) + " group " +
                std::to_string(group) + ": amax " + word_hex(f32(), t.amax32) + " (" +
                word_value_text(f32(), t.amax32) + "), raw_scale32 " + word_hex(f32(), t.raw_scale32) +
                " rounds to binary16 infinity (tensor-formats Section 7.2: encoding fails)";
    r.m.codes.clear();
    r.m.scales.clear();
}

}  // namespace detail

EncodeResult grouped_absmax(const GroupedFormat &f, std::uint32_t source_format, std::uint64_t rows,
                            std::uint64_t cols, std::span<const std::uint8_t> source_words) {
    EncodeResult r;
    std::vector<std::uint32_t> x32;
    if (!detail::grouped_encoder_prologue("grouped_absmax", f, source_format, rows, cols, source_words, r, x32))
        return r;
    const std::uint64_t gpr = grouped_groups_per_row(f, cols), g = static_cast<std::uint64_t>(f.group);
    for (std::uint64_t row = 0; row < rows; ++row)
        for (std::uint64_t grp = 0; grp < gpr; ++grp) {
            // A partial last group holds only its logical values.
            const std::uint64_t c0 = grp * g, len = std::min(g, cols - c0);
            const auto t = grouped_absmax_group(f, std::span(x32).subspan(row * cols + c0, len));
            if (t.status != NINFER_OK) {
                detail::grouped_overflow_refusal("grouped_absmax", f, row, grp, t, r);
                return r;
            }
            r.m.scales[row * gpr + grp] = t.scale16;
            for (std::uint64_t i = 0; i < len; ++i) r.m.codes[row * cols + c0 + i] = static_cast<std::int8_t>(t.codes[i]);
        }
    return r;
}

}  // namespace ninfer::oracle
