// SPDX-License-Identifier: Apache-2.0
// Helpers of the grouped-family mutants (mutant_grouped_*.cpp): a copy of the Section 7.2
// grouped_absmax whose steps a mutant replaces one at a time (AbsmaxSteps), a copy of the reference's
// grouped_search (SearchSteps), and byte surgery on row_split_k128_v1 payloads (storage-layouts.md
// Section 3) through the oracle's payload API (ninfer/oracle/row_split.hpp: geometry, lane words,
// corrupt_*), the only part of the oracle library a mutant uses. Built on the reference's own
// codecs (grouped_codec.hpp); a mutant changes exactly one behaviour of the reference.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "mutant_common.hpp"
#include "grouped_codec.hpp"
#include "ninfer/oracle/row_split.hpp"

namespace ninfer::mutants::grouped {

namespace gn = reference::grouped_codec;
using oracle::GroupedFormat;

/// A bound group (mutant_bound.hpp): a row_split payload layout bug shows in every rule whose
/// cases carry a row_split payload.
inline constexpr const char *kLayoutWide =
    "grouped.absmax.* grouped.search.* grouped.reconstruct* grouped.scale.* grouped.group.* row_split.*";

/// The steps of Section 7.2 as the reference takes them; a mutant derives and hides one.
struct AbsmaxSteps {
    static float denominator(const GroupedFormat &f) { return static_cast<float>(f.qmax); }
    static std::uint16_t scale16(float raw) { return gn::f32_to_f16_rne(std::bit_cast<std::uint32_t>(raw)); }
    static std::uint16_t rescue(std::uint16_t s) { return s == 0 ? std::uint16_t{0x0001} : s; }
    /// nullopt: the encoder fails (binary16 infinity).
    static std::optional<std::uint16_t> overflow(std::uint16_t s) {
        return (s & 0x7C00u) == 0x7C00u ? std::nullopt : std::optional<std::uint16_t>(s);
    }
    static float normalized(float x, float scale32, float inv32) {
        (void)scale32;
        return x * inv32;
    }
    static int code(const GroupedFormat &f, float normalized) {
        return static_cast<int>(std::clamp(std::nearbyint(normalized), static_cast<float>(f.qmin), static_cast<float>(f.qmax)));
    }
};

/// The recipe steps (suites/RECIPES.md, the grouped lattice) the grouped recipe mutants combine:
/// division for the reciprocal multiply, and the code roundings C roundf and a C cast.
struct DivisionSteps : AbsmaxSteps {
    static float normalized(float x, float scale32, float) { return x / scale32; }
};
template <class Base>
struct TiesAwaySteps : Base {
    static int code(const GroupedFormat &f, float v) {
        return static_cast<int>(std::clamp(std::round(v), static_cast<float>(f.qmin), static_cast<float>(f.qmax)));
    }
};
template <class Base>
struct TruncationSteps : Base {
    static int code(const GroupedFormat &f, float v) {
        return static_cast<int>(std::clamp(std::trunc(v), static_cast<float>(f.qmin), static_cast<float>(f.qmax)));
    }
};

/// One group by the steps of S; false when it fails.
template <class S>
bool absmax_group(const GroupedFormat &f, const float *x, std::size_t n, std::uint16_t &scale, std::int8_t *codes) {
    float amax = 0.0f;
    for (std::size_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(x[i]));
    if (amax == 0.0f) {
        scale = 0;
        std::fill(codes, codes + n, std::int8_t{0});
        return true;
    }
    const auto s = S::overflow(S::rescue(S::scale16(amax / S::denominator(f))));
    if (!s) return false;
    scale = *s;
    const float s32 = std::bit_cast<float>(gn::f16_to_f32(scale));
    if (s32 == 0.0f) {
        std::fill(codes, codes + n, std::int8_t{0});
        return true;
    }
    const float inv = 1.0f / s32;
    for (std::size_t i = 0; i < n; ++i) codes[i] = static_cast<std::int8_t>(S::code(f, S::normalized(x[i], s32, inv)));
    return true;
}

/// Serve a grouped_absmax quant_encode call with the steps of S (other calls: nullopt, the
/// reference serves them, refusals included).
template <class S>
std::optional<std::int32_t> absmax_call(const ninfer_call *c, ninfer_result *r) {
    if (c->op != NINFER_OP_quant_encode || c->method != NINFER_ENCODER_grouped_absmax) return std::nullopt;
    const GroupedFormat *f = gn::find_grouped(c->format);
    if (!f || !f->canonical_encoders || c->layout != f->layout || c->rank != 2) return std::nullopt;
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    const auto g = gn::geometry(*f, n, k);
    if (!g) return std::nullopt;
    std::vector<float> x;
    const auto src = std::span<const std::uint8_t>(static_cast<const std::uint8_t *>(c->in), c->in_bytes);
    if (gn::source_to_f32(c->format_in, src, n * k, x).status != NINFER_OK) return std::nullopt;
    gn::Matrix m{n, k, std::vector<std::int8_t>(n * k), std::vector<std::uint16_t>(n * g->logical_groups)};
    const auto G = static_cast<std::uint64_t>(f->group);
    for (std::uint64_t row = 0; row < n; ++row)
        for (std::uint64_t grp = 0; grp < g->logical_groups; ++grp) {
            const std::uint64_t c0 = grp * G, len = std::min(k, c0 + G) - c0;
            if (!absmax_group<S>(*f, x.data() + row * k + c0, len, m.scales[row * g->logical_groups + grp],
                                 m.codes.data() + row * k + c0))
                return std::nullopt;
        }
    const auto p = gn::encode_payload(*f, m);
    if (p.size() > c->out_bytes || !c->out) return reference::refuse_call(r, NINFER_E_BUFFER, "output buffer too small for the payload");
    std::memcpy(c->out, p.data(), p.size());
    r->out_written = p.size();
    return NINFER_OK;
}

/// Whether the call carries a row_split payload of a grouped format in `in` (decode side) or
/// produces one in `out` (encode side).
inline const GroupedFormat *payload_format(const ninfer_call *c) {
    const GroupedFormat *f = gn::find_grouped(c->format);
    return f && c->layout == f->layout && c->rank == 2 ? f : nullptr;
}
inline bool produces_payload(const ninfer_call *c) {
    return c->op == NINFER_OP_layout_encode || c->op == NINFER_OP_quant_encode || c->op == NINFER_OP_rows_select;
}
inline bool reads_payload(const ninfer_call *c) {
    return c->op == NINFER_OP_layout_decode || c->op == NINFER_OP_quant_decode || c->op == NINFER_OP_payload_validate;
}

/// Apply `fix(f, geometry, bytes)` (the oracle's RowSplitGeometry) to a copy of the input
/// payload, then let the reference serve the call on that copy (nullopt when the call reads no
/// grouped payload).
template <class Fix>
std::optional<std::int32_t> on_input_payload(const ninfer_call *c, ninfer_result *r, Fix fix) {
    const GroupedFormat *f = payload_format(c);
    if (!f || !reads_payload(c)) return std::nullopt;
    const auto g = oracle::row_split_geometry(*f, c->shape[0], c->shape[1]);
    if (!g || c->in_bytes != g->payload_bytes) return std::nullopt;
    std::vector<std::uint8_t> copy(static_cast<const std::uint8_t *>(c->in), static_cast<const std::uint8_t *>(c->in) + c->in_bytes);
    fix(*f, *g, copy);
    ninfer_call patched = *c;
    patched.in = copy.data();
    return reference_call(&patched, r);
}

/// Apply `fix(f, geometry, bytes)` to the payload a served call wrote to `out`.
template <class Fix>
void on_output_payload(const ninfer_call *c, ninfer_result *r, Fix fix) {
    const GroupedFormat *f = payload_format(c);
    if (!f || !produces_payload(c)) return;
    const std::uint64_t rows = c->op == NINFER_OP_rows_select ? r->out_written ? c->count : 0 : c->shape[0];
    const auto g = oracle::row_split_geometry(*f, rows, c->shape[1]);
    if (!g || r->out_written != g->payload_bytes) return;
    std::vector<std::uint8_t> bytes(static_cast<std::uint8_t *>(c->out), static_cast<std::uint8_t *>(c->out) + r->out_written);
    fix(*f, *g, bytes);
    std::memcpy(c->out, bytes.data(), bytes.size());
}

/// Recompute quant_decode's binary32 values (out3) from its codes (out) and scales (out2)
/// with a mutant's reconstruction value(f, scale_word, code).
template <class Value>
void rewrite_values(const ninfer_call *c, ninfer_result *r, Value value) {
    const GroupedFormat *f = payload_format(c);
    if (!f || c->op != NINFER_OP_quant_decode) return;
    const std::uint64_t n = c->shape[0], k = c->shape[1], gpr = k / f->group + (k % f->group != 0);
    const auto *codes = static_cast<const std::int8_t *>(c->out);
    const auto *scales = static_cast<const std::uint8_t *>(c->out2);
    auto *out = static_cast<std::uint8_t *>(c->out3);
    if (r->out3_written != n * k * 4) return;
    for (std::uint64_t row = 0; row < n; ++row)
        for (std::uint64_t col = 0; col < k; ++col) {
            const std::uint64_t at = 2 * (row * gpr + col / f->group);
            const auto s = abi::load_le16(&scales[at]);
            store_word(out, row * k + col, 4, value(*f, s, codes[row * k + col]));
        }
}

/// The signed code a masked two's-complement (or Q2 offset) word reads as, legal or not.
inline int raw_code(const GroupedFormat &f, std::uint32_t w) {
    if (f.encoding == oracle::CodeEncoding::OFFSET) return static_cast<int>(w) - 1;
    const std::uint32_t top = 1u << (f.code_bits - 1);
    return (w & top) ? static_cast<int>(w) - (1 << f.code_bits) : static_cast<int>(w);
}

/// grouped_search (oracle/GROUPED.md R3) as the reference takes it, with two steps a mutant may
/// replace: which lane of largest magnitude is the extreme, and when a candidate replaces the
/// incumbent.
struct SearchSteps {
    static bool extreme_is_last() { return false; }
    template <class W>
    static bool replaces(W error, W best) { return error < best; }
};

namespace search_detail {
#if defined(__SIZEOF_FLOAT128__)
using Wide = __float128;
#else
using Wide = long double;
#endif
inline float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }
/// round_f32(a / b) through a wide quotient, repaired where it fell on a binary32 midpoint
/// (as grouped_search.cpp does).
inline float quotient_f32(Wide a, Wide b) {
    const Wide q = a / b;
    const float f = static_cast<float>(q);
    if (!std::isfinite(f) || static_cast<Wide>(f) == q) return f;
    const float other = std::nextafter(f, static_cast<Wide>(f) < q ? INFINITY : -INFINITY);
    if (!std::isfinite(other)) return f;
    const Wide mid = (static_cast<Wide>(f) + static_cast<Wide>(other)) / 2;
    if (mid != q) return f;
    const Wide t = a - mid * b;
    if (t == 0) return (std::bit_cast<std::uint32_t>(f) & 1u) ? other : f;
    const bool above = (t > 0) == (b > 0);
    return above ? std::max(f, other) : std::min(f, other);
}
inline std::optional<std::uint16_t> candidate_word(Wide num, Wide den) {
    if (num == 0) return std::nullopt;
    const float c32 = quotient_f32(num, den);
    if (!std::isfinite(c32)) return std::nullopt;
    auto s = gn::f32_to_f16_rne(std::bit_cast<std::uint32_t>(c32));
    if ((s & 0x7FFFu) == 0x7C00u) return std::nullopt;
    if ((s & 0x7FFFu) == 0) s = static_cast<std::uint16_t>((s & 0x8000u) | 0x0001u);
    return s;
}
inline std::optional<std::uint16_t> neighbour(std::uint16_t w, bool up) {
    const bool negative = (w & 0x8000u) != 0;
    const auto n = static_cast<std::uint16_t>((up != negative) ? w + 1 : w - 1);
    if ((n & 0x7FFFu) == 0 || (n & 0x7FFFu) >= 0x7C00u) return std::nullopt;
    return n;
}
}  // namespace search_detail

/// One group by the steps of S: `scale` and `codes` hold the 7.2 result on entry, the winner on exit.
template <class S>
void search_group(const GroupedFormat &f, const float *x, const float *imp, std::size_t n, bool negative,
                  std::uint16_t &scale, std::int8_t *codes) {
    using namespace search_detail;
    if (scale == 0) return;
    auto weight = [&](std::size_t i) { return imp ? static_cast<Wide>(imp[i]) : Wide(1); };
    auto error = [&](std::uint16_t s16, const std::vector<std::int8_t> &q) {
        const Wide s = as_float(gn::f16_to_f32(s16));
        Wide sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const Wide d = static_cast<Wide>(x[i]) - s * q[i];
            sum += weight(i) * d * d;
        }
        return sum;
    };
    std::vector<std::int8_t> best(codes, codes + n), trial(n);
    std::uint16_t best_scale = scale;
    Wide best_error = error(scale, best);
    auto offer = [&](std::uint16_t s16) {
        if ((s16 & 0x8000u) && !negative) return;
        gn::codes_for_scale(f, x, n, s16, trial.data());
        const Wide e = error(s16, trial);
        if (S::replaces(e, best_error)) {
            best_error = e;
            best_scale = s16;
            best = trial;
        }
    };
    auto offer_computed = [&](Wide num, Wide den) {
        if (const auto w = candidate_word(num, den)) offer(*w);
    };
    auto offer_least_squares = [&](const std::vector<std::int8_t> q) {
        Wide num = 0, den = 0;
        for (std::size_t i = 0; i < n; ++i) {
            num += weight(i) * static_cast<Wide>(x[i]) * q[i];
            den += weight(i) * q[i] * q[i];
        }
        if (den == 0) return;
        const auto w = candidate_word(num, den);
        if (!w) return;
        offer(*w);
        if (const auto d = neighbour(*w, false)) offer(*d);
        if (const auto u = neighbour(*w, true)) offer(*u);
    };
    const std::vector<std::int8_t> absmax_codes = best;
    float amax = 0.0f, extreme = 0.0f;
    for (std::size_t i = 0; i < n; ++i)
        if (std::fabs(x[i]) > amax || (S::extreme_is_last() && std::fabs(x[i]) == amax && amax > 0.0f)) {
            amax = std::fabs(x[i]);
            extreme = x[i];
        }
    const Wide wa = amax, we = extreme;
    for (int j = 35; j <= 59; ++j) offer_computed(wa * j, Wide(50 * f.qmax));
    for (int j = 35; j <= 59; ++j) offer_computed(we * j, Wide(50 * f.qmin));
    for (const int j : {-2, -1, 1, 2}) offer_computed(wa * (j < 0 ? Wide(1) / (1 << -j) : Wide(1 << j)), Wide(f.qmax));
    if (const auto d = neighbour(scale, false)) offer(*d);
    if (const auto u = neighbour(scale, true)) offer(*u);
    offer_least_squares(absmax_codes);
    offer_least_squares(best);
    scale = best_scale;
    std::copy(best.begin(), best.end(), codes);
}

/// Serve a grouped_search quant_encode call (fp32 source, no importance vector: the suite's
/// search cases) with the steps of S; other calls: nullopt, the reference serves them.
template <class S>
std::optional<std::int32_t> search_call(const ninfer_call *c, ninfer_result *r) {
    if (c->op != NINFER_OP_quant_encode || c->method != NINFER_ENCODER_grouped_search) return std::nullopt;
    const GroupedFormat *f = gn::find_grouped(c->format);
    if (!f || !f->canonical_encoders || c->layout != f->layout || c->rank != 2 || c->aux_bytes != 0) return std::nullopt;
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    if (!gn::geometry(*f, n, k)) return std::nullopt;
    std::vector<float> x;
    const auto src = std::span<const std::uint8_t>(static_cast<const std::uint8_t *>(c->in), c->in_bytes);
    if (gn::source_to_f32(c->format_in, src, n * k, x).status != NINFER_OK) return std::nullopt;
    gn::Matrix m;
    if (gn::absmax(*f, n, k, x, m).status != NINFER_OK) return std::nullopt;
    const auto G = static_cast<std::uint64_t>(f->group);
    const std::uint64_t gpr = k / G + (k % G != 0);
    for (std::uint64_t row = 0; row < n; ++row)
        for (std::uint64_t grp = 0; grp < gpr; ++grp) {
            const std::uint64_t c0 = grp * G, len = std::min(k, c0 + G) - c0;
            search_group<S>(*f, x.data() + row * k + c0, nullptr, len, (c->flags & NINFER_FLAG_NEGATIVE_SCALES) != 0,
                            m.scales[row * gpr + grp], m.codes.data() + row * k + c0);
        }
    const auto p = gn::encode_payload(*f, m);
    if (p.size() > c->out_bytes || !c->out) return reference::refuse_call(r, NINFER_E_BUFFER, "output buffer too small for the payload");
    std::memcpy(c->out, p.data(), p.size());
    r->out_written = p.size();
    return NINFER_OK;
}

}  // namespace ninfer::mutants::grouped
