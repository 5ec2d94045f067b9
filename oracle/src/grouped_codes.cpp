// SPDX-License-Identifier: Apache-2.0
// Grouped signed-integer formats: code words (tensor-formats.txt Section 5, Q2 and T2 in 3.2),
// scale validity (Section 6), the binary32 reconstruction oracle (Section 6.2) over any rank
// (Section 4) and logical bits per weight (Section 6). Exact integers and the scalar oracle only.
#include <numeric>
#include <stdexcept>
#include <string>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle {

std::optional<int> grouped_code_value(const GroupedFormat &f, std::uint32_t word) {
    const std::uint32_t width = 1u << f.code_bits;
    if (word >= width) return std::nullopt;
    if (f.illegal_word >= 0 && word == static_cast<std::uint32_t>(f.illegal_word)) return std::nullopt;
    int q = 0;
    if (f.encoding == CodeEncoding::OFFSET)
        q = static_cast<int>(word) - 1;  // Q2: q = u - 1
    else
        q = word < (width >> 1) ? static_cast<int>(word) : static_cast<int>(word) - static_cast<int>(width);
    if (q < f.qmin || q > f.qmax) return std::nullopt;
    return q;
}

std::uint32_t grouped_code_word(const GroupedFormat &f, int q) {
    if (q < f.qmin || q > f.qmax)
        throw std::invalid_argument("code " + std::to_string(q) + " outside [" + std::to_string(f.qmin) + ", " +
                                    std::to_string(f.qmax) + "] of " + std::string(f.name));
    const std::uint32_t mask = (1u << f.code_bits) - 1;
    if (f.encoding == CodeEncoding::OFFSET) return static_cast<std::uint32_t>(q + 1);
    return static_cast<std::uint32_t>(q) & mask;
}

std::uint8_t grouped_scale_verdict(const GroupedFormat &f, std::uint16_t scale_word) {
    // The scale's role is a registry column: Q2 has its own (every finite word), the other five
    // share Section 6's.
    return role_verdict(role(f.scale_role), scale_word);
}

std::uint32_t grouped_reconstruct(std::uint16_t scale_word, int q) {
    const WordFormat &f16 = word_format(NINFER_FORMAT_fp16);
    const auto s = word_info(f16, scale_word);
    if (s.cls != NINFER_CLASS_ZERO && s.cls != NINFER_CLASS_SUBNORMAL && s.cls != NINFER_CLASS_NORMAL)
        throw std::invalid_argument("grouped_reconstruct: scale word " + word_hex(f16, scale_word) + " is not finite");
    // binary32(q) of 0 is +0, so a zero product takes the sign of s32 xor the sign of q.
    if (s.cls == NINFER_CLASS_ZERO || q == 0) return (s.negative != (q < 0)) ? 0x80000000u : 0u;
    Real product = s.value * q;
    return static_cast<std::uint32_t>(
        round_real(product, word_format(NINFER_FORMAT_fp32), detail::rounding_rne, detail::overflow_inf));
}

std::pair<std::uint64_t, std::uint64_t> logical_bits_per_weight(const GroupedFormat &f) {
    // b + 16/G = (b*G + 16) / G, reduced.
    const std::uint64_t num = static_cast<std::uint64_t>(f.code_bits) * f.group + 16, den = f.group;
    const std::uint64_t g = std::gcd(num, den);
    return {num / g, den / g};
}

std::uint64_t grouped_groups_per_row(const GroupedFormat &f, std::uint64_t cols) {
    const std::uint64_t g = static_cast<std::uint64_t>(f.group);
    return cols / g + (cols % g != 0 ? 1 : 0);
}

std::optional<std::vector<std::uint32_t>> grouped_reconstruct_tensor(const GroupedFormat &f,
                                                                     std::span<const std::uint64_t> shape,
                                                                     std::span<const std::int8_t> codes,
                                                                     std::span<const std::uint16_t> scales) {
    if (shape.empty()) return std::nullopt;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d + 1 < shape.size(); ++d) {
        if (shape[d] == 0 || __builtin_mul_overflow(rows, shape[d], &rows)) return std::nullopt;
    }
    const std::uint64_t k = shape.back();
    if (k == 0) return std::nullopt;
    const std::uint64_t gpr = grouped_groups_per_row(f, k);
    std::uint64_t n_codes = 0, n_scales = 0;
    if (__builtin_mul_overflow(rows, k, &n_codes) || __builtin_mul_overflow(rows, gpr, &n_scales)) return std::nullopt;
    if (codes.size() != n_codes || scales.size() != n_scales) return std::nullopt;
    std::vector<std::uint32_t> out(n_codes);
    // Every leading coordinate is an independent row; group(p, k) = (p, floor(k / G)).
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t c = 0; c < k; ++c) {
            const int q = codes[r * k + c];
            if (q < f.qmin || q > f.qmax) return std::nullopt;
            out[r * k + c] = grouped_reconstruct(scales[r * gpr + c / f.group], q);
        }
    return out;
}

}  // namespace ninfer::oracle
