// SPDX-License-Identifier: Apache-2.0
// cuda_device's host side of a weight payload (storage-layouts.md Sections 3-8): geometry from
// the shape, the payload size, the decode-boundary validation and the logical planes. Written
// for this plugin from the spec; nothing of the oracle or the reference plugin is used.
#include "weight_view.hpp"

#include "ninfer/abi/registry.hpp"
#include "weight_decode.cuh"

namespace ninfer::gpu {

namespace {

Refusal refuse_size(std::string message) { return {NINFER_E_SIZE, NINFER_DETAIL_SIZE, std::move(message)}; }
Refusal refuse_payload(std::uint32_t detail, std::string message) {
    return {NINFER_E_INVALID_PAYLOAD, detail, std::move(message)};
}

bool align_up(std::uint64_t x, std::uint64_t a, std::uint64_t &out) {
    if (x > UINT64_MAX - (a - 1)) return false;
    out = (x + a - 1) / a * a;
    return true;
}

std::uint16_t load16(const std::uint8_t *p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
std::uint32_t load32(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::string at_row(std::uint64_t n, std::uint64_t g) {
    return "row " + std::to_string(n) + ", group " + std::to_string(g);
}

/// grouped_fp16_scale: +0 or a finite nonzero binary16 of either sign; -0, Inf, NaN invalid.
/// q2_fp16_scale: every finite binary16 word, both zeros included (tensor-formats.txt, Q2 rules).
bool grouped_scale_valid(const WeightView &v, std::uint16_t s) {
    return (s & 0x7C00u) != 0x7C00u && (v.q2_scales || s != 0x8000u);
}

/// Stored word of `lane` in a row_split group (storage-layouts.md Section 3).
std::uint32_t row_split_lane(const WeightView &v, const std::uint8_t *base, const std::uint8_t *high, std::uint32_t lane) {
    return decode::row_split_word(v, base, high, lane);
}

Refusal grouped_validate(const WeightView &v, const std::uint8_t *p) {
    const std::uint64_t base_end = v.n * v.groups_per_row * v.base_bytes;
    const std::uint64_t high_end = v.high_offset + v.n * v.groups_per_row * v.high_bytes;
    for (std::uint64_t at = base_end; at < v.high_offset; ++at)
        if (p[at]) return refuse_payload(NINFER_DETAIL_NONZERO_GAP, "gap after the base plane, byte " + std::to_string(at));
    for (std::uint64_t at = high_end; at < v.scale_offset; ++at)
        if (p[at]) return refuse_payload(NINFER_DETAIL_NONZERO_GAP, "gap after the high plane, byte " + std::to_string(at));
    // The stored word of code 0: padding lanes hold it (q2's offset code: 1; else 0).
    const std::uint32_t zero_word = v.offset_codes ? 1u : 0u;
    for (std::uint64_t n = 0; n < v.n; ++n)
        for (std::uint64_t g = 0; g < v.groups_per_row; ++g) {
            const std::uint64_t idx = n * v.groups_per_row + g;
            const std::uint8_t *base = p + idx * v.base_bytes, *high = p + v.high_offset + idx * v.high_bytes;
            const std::uint16_t s = load16(p + v.scale_offset + 2 * idx);
            const bool logical = g < v.logical_groups;
            if (!logical && s != 0)
                return refuse_payload(NINFER_DETAIL_NONZERO_PADDING, "padding scale not 0x0000 at " + at_row(n, g));
            if (logical && !grouped_scale_valid(v, s))
                return refuse_payload(NINFER_DETAIL_INVALID_SCALE, "invalid scale at " + at_row(n, g));
            bool nonzero = false;
            for (std::uint32_t lane = 0; lane < v.group; ++lane) {
                const std::uint32_t u = row_split_lane(v, base, high, lane);
                if (!logical || g * v.group + lane >= v.k) {
                    if (u != zero_word)
                        return refuse_payload(NINFER_DETAIL_NONZERO_PADDING,
                                              "padding code at " + at_row(n, g) + ", lane " + std::to_string(lane));
                    continue;
                }
                if (v.illegal_word >= 0 && u == static_cast<std::uint32_t>(v.illegal_word))
                    return refuse_payload(NINFER_DETAIL_ILLEGAL_CODE, "stored word " + std::to_string(u) +
                                                                          " (outside the artifact language) at " + at_row(n, g) +
                                                                          ", lane " + std::to_string(lane));
                nonzero = nonzero || u != zero_word;
            }
            // Q2's scale role exempts a +0 scale from the zero-scale rule.
            if (logical && s == 0 && nonzero && !v.q2_scales)
                return refuse_payload(NINFER_DETAIL_ZERO_SCALE_CODES, "nonzero code under a +0 scale at " + at_row(n, g));
        }
    return {};
}

/// nvfp4_e4m3_scale: sign zero and not the NaN word 0x7F (+0 valid).
bool nvfp4_scale_valid(std::uint8_t s) { return (s & 0x80u) == 0 && s != 0x7Fu; }
/// fp32_weight_divisor: finite and strictly positive.
bool divisor_valid(std::uint32_t w) { return (w >> 31) == 0 && w != 0 && (w & 0x7F800000u) != 0x7F800000u; }

Refusal nvfp4_validate(const WeightView &v, const std::uint8_t *p) {
    for (std::uint64_t n = 0; n < v.n; ++n)
        for (std::uint64_t g = 0; g < v.k / 16; ++g) {
            const std::uint8_t s = p[v.scales_at + nvfp4_scale_offset(v.k, n, g)];
            if (!nvfp4_scale_valid(s)) return refuse_payload(NINFER_DETAIL_INVALID_SCALE, "scale at " + at_row(n, g));
        }
    for (std::uint64_t d = 0; d < v.divisors; ++d)
        if (!divisor_valid(load32(p + v.divisors_at + 4 * d)))
            return refuse_payload(NINFER_DETAIL_INVALID_DIVISOR, "divisor " + std::to_string(d));
    return {};
}

/// bf16_row_multiplier / fp16_row_multiplier: sign zero and finite (+0 and subnormals valid).
bool row_multiplier_valid(std::uint16_t s, bool bf16) {
    const std::uint16_t exp = bf16 ? 0x7F80u : 0x7C00u;
    return (s & 0x8000u) == 0 && (s & exp) != exp;
}

Refusal fp8_rows_validate(const WeightView &v, const std::uint8_t *p) {
    if (!v.interleaved)
        for (std::uint64_t at = v.n * v.k; at < v.row_scales_at; ++at)
            if (p[at]) return refuse_payload(NINFER_DETAIL_NONZERO_GAP, "gap byte " + std::to_string(at));
    for (std::uint64_t n = 0; n < v.n; ++n) {
        const std::uint16_t s = load16(p + (v.interleaved ? n * v.row_stride + v.k : v.row_scales_at + 2 * n));
        if (!row_multiplier_valid(s, v.bf16_scale))
            return refuse_payload(NINFER_DETAIL_INVALID_SCALE, "row " + std::to_string(n) + " multiplier");
        for (std::uint64_t k = 0; k < v.k; ++k) {
            const std::uint8_t c = p[n * v.row_stride + k];
            if ((c & 0x7Fu) == 0x7Fu)
                return refuse_payload(NINFER_DETAIL_ILLEGAL_CODE, "code at row " + std::to_string(n) + ", column " + std::to_string(k));
            if (s == 0 && (c & 0x7Fu) != 0)
                return refuse_payload(NINFER_DETAIL_ZERO_SCALE_CODES,
                                      "nonzero code under a +0 multiplier at row " + std::to_string(n) + ", column " + std::to_string(k));
        }
    }
    return {};
}

}  // namespace

bool device_weight_format(std::uint32_t format) {
    if (const auto *g = abi::find_id(abi::kGroupedFormats, format)) return g->layout == NINFER_LAYOUT_row_split_k128_v1;
    if (abi::find_id(abi::kScaledFormats, format)) return true;
    if (abi::find_id(abi::kGgufTypes, format)) return true;  // every type: weight_decode.cuh gguf_block_value
    return false;
}

std::uint32_t weight_layout(std::uint32_t format) {
    const auto *f = abi::find_format(format);
    return f && f->family != abi::Family::word ? f->layout : 0;
}

Refusal weight_geometry(std::uint32_t format, const std::uint64_t *shape, std::uint32_t rank, WeightView &v) {
    v = WeightView{};
    v.format = format;
    if (rank == 0 || rank > NINFER_MAX_RANK) return refuse_size("rank " + std::to_string(rank) + " has no geometry");
    for (std::uint32_t i = 0; i < rank; ++i)
        if (shape[i] == 0) return refuse_size("dimension " + std::to_string(i) + " is 0");
    v.k = shape[rank - 1];
    v.n = 1;
    for (std::uint32_t i = 0; i + 1 < rank; ++i)
        if (__builtin_mul_overflow(v.n, shape[i], &v.n)) return refuse_size("the row count overflows uint64");
    std::uint64_t nk = 0;
    if (__builtin_mul_overflow(v.n, v.k, &nk) || nk > (std::uint64_t{1} << 60))
        return refuse_size("[" + std::to_string(v.n) + "," + std::to_string(v.k) + "] overflows the sizes");
    if (const auto *g = abi::find_id(abi::kGroupedFormats, format)) {
        v.kind = WeightKind::grouped;
        v.group = static_cast<std::uint32_t>(g->group);
        v.code_bits = static_cast<std::uint32_t>(g->code_bits);
        v.base_bytes = static_cast<std::uint32_t>(g->base_bytes);
        v.high_bytes = static_cast<std::uint32_t>(g->high_bytes);
        v.qmin = g->qmin;
        v.qmax = g->qmax;
        v.illegal_word = g->illegal_word;
        v.offset_codes = g->encoding == abi::CodeEncoding::OFFSET;
        v.q2_scales = g->scale_role == NINFER_ROLE_q2_fp16_scale;
        std::uint64_t k_pad = 0, high_span = 0;
        if (!align_up(v.k, 128, k_pad)) return refuse_size("K overflows");
        v.groups_per_row = k_pad / v.group;
        v.logical_groups = (v.k + v.group - 1) / v.group;
        // N * K_pad * 3 < 2^64 bounds every plane below (B, H and 2 bytes are at most one per lane).
        if (v.n > (UINT64_MAX / 4) / k_pad) return refuse_size("[N,K] overflows the row_split_k128_v1 sizes");
        const std::uint64_t base = v.n * v.groups_per_row * v.base_bytes, high = v.n * v.groups_per_row * v.high_bytes;
        if (!align_up(base, 256, v.high_offset) || !align_up(high, 256, high_span)) return refuse_size("sizes overflow");
        v.scale_offset = v.high_offset + high_span;
        v.payload_bytes = v.scale_offset + v.n * v.groups_per_row * 2;
        return {};
    }
    if (const auto *s = abi::find_id(abi::kScaledFormats, format)) {
        if (s->divisors) {
            v.kind = WeightKind::nvfp4;
            if (v.n % 128 != 0 || v.k % 64 != 0)
                return refuse_size("nvfp4 [" + std::to_string(v.n) + "," + std::to_string(v.k) + "] needs N % 128 == 0 and K % 64 == 0");
            v.scales_at = nk / 2;  // a multiple of 4096: no alignment gap
            v.divisors_at = v.scales_at + nk / 16;
            return {};
        }
        v.kind = WeightKind::fp8_rows;
        v.interleaved = s->layout == NINFER_LAYOUT_row_interleaved_v1;
        v.bf16_scale = s->scale_format == NINFER_FORMAT_bf16;
        v.row_stride = v.interleaved ? v.k + 2 : v.k;
        if (v.interleaved) {
            v.payload_bytes = v.n * v.row_stride;
        } else {
            if (!align_up(nk, 256, v.row_scales_at)) return refuse_size("sizes overflow");
            v.payload_bytes = v.row_scales_at + 2 * v.n;
        }
        return {};
    }
    if (const auto *t = abi::find_id(abi::kGgufTypes, format)) {
        v.kind = WeightKind::gguf;
        v.ggml_type = t->ggml_type;
        v.block_values = t->block_values;
        v.block_bytes = t->block_bytes;
        if (v.k % v.block_values != 0)
            return refuse_size("K = " + std::to_string(v.k) + " is not a multiple of " + std::to_string(v.block_values));
        v.row_bytes = v.k / v.block_values * v.block_bytes;
        if (__builtin_mul_overflow(v.n, v.row_bytes, &v.payload_bytes)) return refuse_size("sizes overflow");
        return {};
    }
    return {NINFER_E_UNSUPPORTED, 0, "format " + std::to_string(format) + " is no weight format of cuda_device"};
}

Refusal weight_payload_size(WeightView &v, std::uint64_t bytes) {
    if (v.kind == WeightKind::nvfp4) {
        const std::uint64_t tail = bytes >= v.divisors_at ? bytes - v.divisors_at : 0;
        if (bytes < v.divisors_at + 4 || tail % 4 != 0 || v.n % (tail / 4) != 0)
            return refuse_size("payload is " + std::to_string(bytes) + " bytes: after the " + std::to_string(v.divisors_at) +
                               " code and scale bytes no whole number of divisors dividing N = " + std::to_string(v.n));
        v.divisors = tail / 4;
        v.payload_bytes = bytes;
        return {};
    }
    if (bytes != v.payload_bytes)
        return refuse_size("payload is " + std::to_string(bytes) + " bytes, the geometry needs " + std::to_string(v.payload_bytes));
    return {};
}

Refusal weight_validate(const WeightView &v, const std::uint8_t *payload) {
    switch (v.kind) {
    case WeightKind::grouped: return grouped_validate(v, payload);
    case WeightKind::nvfp4: return nvfp4_validate(v, payload);
    case WeightKind::fp8_rows: return fp8_rows_validate(v, payload);
    default: return {};
    }
}

void weight_unpack(const WeightView &v, const std::uint8_t *p, std::vector<std::uint8_t> &codes, std::vector<std::uint8_t> &scales,
                   std::vector<std::uint8_t> &divisors) {
    codes.assign(v.n * v.k, 0);
    scales.clear();
    divisors.clear();
    switch (v.kind) {
    case WeightKind::grouped:
        scales.assign(v.n * v.logical_groups * 2, 0);
        for (std::uint64_t n = 0; n < v.n; ++n)
            for (std::uint64_t g = 0; g < v.logical_groups; ++g) {
                const std::uint64_t idx = n * v.groups_per_row + g;
                const std::uint8_t *base = p + idx * v.base_bytes, *high = p + v.high_offset + idx * v.high_bytes;
                for (std::uint32_t lane = 0; lane < v.group && g * v.group + lane < v.k; ++lane)
                    codes[n * v.k + g * v.group + lane] = static_cast<std::uint8_t>(decode::grouped_code_of(v, row_split_lane(v, base, high, lane)));
                scales[2 * (n * v.logical_groups + g)] = p[v.scale_offset + 2 * idx];
                scales[2 * (n * v.logical_groups + g) + 1] = p[v.scale_offset + 2 * idx + 1];
            }
        return;
    case WeightKind::nvfp4:
        for (std::uint64_t i = 0; i < v.n * v.k; ++i) codes[i] = static_cast<std::uint8_t>((p[i / 2] >> (4 * (i % 2))) & 0xFu);
        scales.assign(v.n * (v.k / 16), 0);
        for (std::uint64_t n = 0; n < v.n; ++n)
            for (std::uint64_t g = 0; g < v.k / 16; ++g) scales[n * (v.k / 16) + g] = p[v.scales_at + nvfp4_scale_offset(v.k, n, g)];
        divisors.assign(p + v.divisors_at, p + v.divisors_at + 4 * v.divisors);
        return;
    case WeightKind::fp8_rows:
        scales.assign(2 * v.n, 0);
        for (std::uint64_t n = 0; n < v.n; ++n) {
            for (std::uint64_t k = 0; k < v.k; ++k) codes[n * v.k + k] = p[n * v.row_stride + k];
            const std::uint64_t at = v.interleaved ? n * v.row_stride + v.k : v.row_scales_at + 2 * n;
            scales[2 * n] = p[at];
            scales[2 * n + 1] = p[at + 1];
        }
        return;
    default: codes.clear(); return;
    }
}

}  // namespace ninfer::gpu
