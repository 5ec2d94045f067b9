// SPDX-License-Identifier: Apache-2.0
// The scaled and GGUF families in a comparison, their locations and exact values
// (storage-layouts.md Sections 4-7; tensor-formats.txt 3.3, 3.4 and the gguf_* paragraph).
#include "compare_families.hpp"

#include <fmt/format.h>

#include <optional>

#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::harness {

namespace {

bool special(const oracle::WordFormat &f, std::uint64_t w) { return word_is_nan(f, w) || word_is_inf(f, w); }

const abi::ScaledFormat *scaled_of(const suites::Case &c) { return abi::find_id(abi::kScaledFormats, c.format); }
const abi::GgufType *gguf_of(const suites::Case &c) { return abi::find_id(abi::kGgufTypes, c.format); }

std::uint64_t last_dim(const suites::Case &c) { return c.shape.empty() || c.shape.back() == 0 ? 1 : c.shape.back(); }

/// Rows of the payload a call writes: the selection of rows_select, else the shape's leading rows.
std::uint64_t written_rows(const suites::Case &c) {
    if (c.op == NINFER_OP_rows_select) {
        const auto &rows = c.input(NINFER_PLANE_ROWS);
        if (c.flags & NINFER_FLAG_GATHER) return rows.size() / 8;
        return rows.size() >= 16 ? suites::get_word(rows, 1, 8) : 0;
    }
    std::uint64_t n = 1;
    for (std::size_t d = 0; d + 1 < c.shape.size(); ++d) n *= c.shape[d];
    return n;
}

/// storage-layouts.md 4: a payload byte of [N, K] as code, gap, swizzled scale (inverted) or divisor.
Located block_scale_location(std::uint64_t n, std::uint64_t k, std::uint64_t off) {
    if (k % 64 != 0 || k == 0) return {fmt::format("payload byte {}", off), {}};
    const std::uint64_t code_bytes = n * k / 2, scale_off = (code_bytes + 255) / 256 * 256, scale_bytes = n * k / 16;
    if (off < code_bytes) {
        const std::uint64_t row = off / (k / 2), column = 2 * (off % (k / 2));
        return {fmt::format("code plane row {} columns {} (low nibble) and {} (byte {})", row, column, column + 1, off),
                {.plane = "code", .row = row, .column = column}};
    }
    if (off < scale_off) return {fmt::format("gap after the code plane (byte {})", off), {.plane = "gap"}};
    if (off < scale_off + scale_bytes) {
        // The swizzle's inverse: tile, then (n%128%32)*16 + ((n%128)/32)*4 + g%4 within it.
        const std::uint64_t s = off - scale_off, tile = s / 512, within = s % 512, tiles_per_row = k / 64;
        const std::uint64_t row = tile / tiles_per_row * 128 + (within % 16) / 4 * 32 + within / 16;
        const std::uint64_t group = tile % tiles_per_row * 4 + within % 4;
        return {fmt::format("scale plane word (row {}, group {}) (byte {})", row, group, off),
                {.plane = "scale", .row = row, .group = group}};
    }
    const std::uint64_t divisor = (off - scale_off - scale_bytes) / 4;
    return {fmt::format("divisor {} (byte {})", divisor, off), {.plane = "divisor", .element = divisor}};
}

/// storage-layouts.md 5, 6: a payload byte of an FP8 row tensor [N, K].
Located fp8_row_location(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t off) {
    if (f.layout == NINFER_LAYOUT_row_interleaved_v1) {
        const std::uint64_t row = off / (k + 2), at = off % (k + 2);
        if (at < k) return {fmt::format("row {} code column {} (byte {})", row, at, off), {.plane = "code", .row = row, .column = at}};
        return {fmt::format("row {} multiplier (byte {})", row, off), {.plane = "multiplier", .row = row}};
    }
    const std::uint64_t scale_off = (n * k + 255) / 256 * 256;
    if (off < n * k)
        return {fmt::format("code plane row {} column {} (byte {})", off / k, off % k, off),
                {.plane = "code", .row = off / k, .column = off % k}};
    if (off < scale_off) return {fmt::format("gap after the code plane (byte {})", off), {.plane = "gap"}};
    const std::uint64_t row = (off - scale_off) / 2;
    return {fmt::format("multiplier of row {} (byte {})", row, off), {.plane = "multiplier", .row = row}};
}

/// The exact rational of an element of the VALUES plane, from the case's expected planes (nvfp4,
/// FP8 rows) or its input blocks (GGUF); nullopt where the formula has no finite value.
std::optional<oracle::Rational> exact_element(const suites::Case &c, std::uint64_t i) {
    const std::uint64_t k = last_dim(c);
    if (const auto *f = scaled_of(c)) {
        const auto &codes = c.expect.output(NINFER_PLANE_CODES), &scales = c.expect.output(NINFER_PLANE_SCALES);
        if (i >= codes.size()) return std::nullopt;
        const std::uint64_t row = i / k;
        if (f->divisors) {
            const auto &div = c.expect.output(NINFER_PLANE_DIVISORS);
            const std::uint64_t d = div.size() / 4, n = c.shape.empty() ? 0 : c.shape[0];
            const std::uint64_t gpr = k / 16, at = row * gpr + (i % k) / 16;
            if (d == 0 || n % d != 0 || at >= scales.size()) return std::nullopt;
            const auto divisor = static_cast<std::uint32_t>(suites::get_word(div, row / (n / d), 4));
            return oracle::nvfp4_exact_weight(codes[i], scales[at], divisor);
        }
        if (2 * row + 2 > scales.size()) return std::nullopt;
        const auto &cf = oracle::word_format(f->code_format), &sf = oracle::word_format(f->scale_format);
        const std::uint64_t s = suites::get_word(scales, row, 2);
        if (special(cf, codes[i]) || special(sf, s)) return std::nullopt;
        return oracle::exact_word_value(cf, codes[i]) * oracle::exact_word_value(sf, s);
    }
    if (const auto *t = gguf_of(c)) {
        const auto &payload = c.input(NINFER_PLANE_PAYLOAD);
        const std::uint64_t block = i / t->block_values, at = block * t->block_bytes;
        if (at + t->block_bytes > payload.size()) return std::nullopt;
        const auto b = oracle::gguf_dequantize_block(*t, std::span<const std::uint8_t>(payload.data() + at, t->block_bytes));
        return b.exact[i % t->block_values];
    }
    return std::nullopt;
}

/// Whether binary32 word `a` is one of the two binary32 words around the exact value `x` (or x itself).
bool within_rounding(const oracle::Rational &x, std::uint32_t a) {
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    if (special(f32, a)) return false;
    const bool negative = x < 0;
    const oracle::Rational mag = negative ? oracle::Rational(-x) : x;
    oracle::Real num = oracle::exact_zero(), den = oracle::exact_zero();
    num = oracle::Real(boost::multiprecision::numerator(mag).str());
    den = oracle::Real(boost::multiprecision::denominator(mag).str());
    const auto down = static_cast<std::uint32_t>(oracle::round_quotient(num, den, f32, abi::detail::rounding_rtz, abi::detail::overflow_inf));
    const auto up = static_cast<std::uint32_t>(oracle::round_quotient(num, den, f32, abi::detail::rounding_rup, abi::detail::overflow_inf));
    const std::uint32_t sign = negative ? 0x80000000u : 0u;
    const std::uint32_t am = a & 0x7FFFFFFFu;
    if (am == 0) return down == 0;  // a zero of either sign stands for a magnitude below the smallest subnormal
    return (a & 0x80000000u) == sign && (am == down || am == up);
}

/// Where byte `offset` of output plane `plane` lies ("scale plane row 130 group 5 (byte 16898)",
/// "value row 2 column 7", "row 1 block 3 byte 2"); text "" for a plane without a block location.
Located locate_block_plane(const suites::Case &c, std::uint32_t plane, std::uint64_t offset) {
    const auto *f = scaled_of(c);
    const auto *t = gguf_of(c);
    if (!f && !t) return {};
    const std::uint64_t k = last_dim(c);
    switch (plane) {
    case NINFER_PLANE_VALUES:
        return {fmt::format("value row {} column {}", offset / 4 / k, offset / 4 % k), {.row = offset / 4 / k, .column = offset / 4 % k}};
    case NINFER_PLANE_CODES: return {fmt::format("code row {} column {}", offset / k, offset % k), {.row = offset / k, .column = offset % k}};
    case NINFER_PLANE_SCALES: {
        const std::uint64_t groups = k / 16 ? k / 16 : 1;
        if (f && f->group)
            return {fmt::format("scale row {} group {}", offset / groups, offset % groups), {.row = offset / groups, .group = offset % groups}};
        return {fmt::format("multiplier of row {}", offset / 2), {.row = offset / 2}};
    }
    case NINFER_PLANE_DIVISORS: return {fmt::format("divisor {}", offset / 4), {.element = offset / 4}};
    case NINFER_PLANE_PAYLOAD: {
        const std::uint64_t n = written_rows(c);
        if (t) {
            const std::uint64_t row_bytes = k / t->block_values * t->block_bytes;
            if (row_bytes == 0) return {fmt::format("payload byte {}", offset), {}};
            const std::uint64_t row = offset / row_bytes, block = offset % row_bytes / t->block_bytes;
            // A GGUF block is the group of values that share its scales.
            return {fmt::format("row {} block {} byte {} (payload byte {})", row, block, offset % row_bytes % t->block_bytes, offset),
                    {.plane = "block", .row = row, .group = block}};
        }
        return f->divisors ? block_scale_location(n, k, offset) : fp8_row_location(*f, n, k, offset);
    }
    default: return {};
    }
}

Located locate_block(const suites::Case &c, const CasePlanes &p, int buffer, std::uint64_t offset) {
    return locate_block_plane(c, p.name(buffer), offset);
}

/// For a mismatching binary32 word of the VALUES plane of an nvfp4, FP8-row or GGUF quant_decode
/// case: the exact value of the element's formula (oracle: e2m1*e4m3/d_w, c*s, ggml's block
/// formula) into `m.exact_value`, and into `m.criterion` what the case requires beside whether
/// the actual word is within rounding of the exact value (one of the two binary32 words around it).
void explain_block_value(const suites::Case &c, std::uint64_t element, std::uint32_t actual, reports::Mismatch &m) {
    if (c.op != NINFER_OP_quant_decode || (!scaled_of(c) && !gguf_of(c))) return;
    std::optional<oracle::Rational> x;
    try {
        x = exact_element(c, element);
    } catch (const std::exception &) {
        return;  // a location outside what the expected planes describe: nothing to add
    }
    const char *required = gguf_of(c) ? "bit for bit equal to ggml's binary32 word"
                                      : "bit for bit the binary32 rounding (nearest-even) of the exact value";
    if (!x) {
        m.criterion = std::string(required) + "; the exact formula has no finite value here";
        return;
    }
    m.exact_value = oracle::rational_text(*x);
    m.criterion = fmt::format("{}; the actual word is {}within rounding of the exact value", required,
                              within_rounding(*x, actual) ? "" : "not ");
}

bool owns_scaled(const suites::Case &c) { return scaled_of(c) != nullptr; }
bool owns_gguf(const suites::Case &c) { return gguf_of(c) != nullptr; }

}  // namespace

const CompareFamily kScaledCompare = {.family = abi::Family::scaled,
                                      .owns = &owns_scaled,
                                      .unit = &binary32_values,
                                      .locate = &locate_block,
                                      .explain_value = &explain_block_value};

const CompareFamily kGgufCompare = {.family = abi::Family::gguf,
                                    .owns = &owns_gguf,
                                    .unit = &binary32_values,
                                    .locate = &locate_block,
                                    .explain_value = &explain_block_value};

}  // namespace ninfer::harness
