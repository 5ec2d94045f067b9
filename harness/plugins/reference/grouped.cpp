// SPDX-License-Identifier: Apache-2.0
// The grouped-family half of the reference plugin (tensor-formats.txt Sections 3.2, 4-7;
// storage-layouts.md Sections 1 and 3): ABI v2 calls on grouped formats and row_split_k128_v1,
// served by the codecs of grouped_codec.cpp. Planes as harness/README.md gives them per
// op: codes int8, scales uint16 LE, values binary32 LE, rows uint64 LE, payload bytes.
#include "grouped.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "call_planes.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/text.hpp"
#include "grouped_codec.hpp"
#include "reference_family.hpp"

namespace ninfer::reference {

namespace {

namespace gn = grouped_codec;
using ninfer::abi::GroupedFormat;

constexpr std::uint32_t kSources[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};

/// Every grouped capability: the row_split ops of each format, quant_encode per source and
/// encoder (q2/t2 too: they are served by a refusal), and unregistered pairs (refused by name).
std::vector<ninfer_capability_v2> build_capabilities() {
    std::vector<ninfer_capability_v2> caps;
    constexpr std::uint32_t kLayoutOps[] = {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode,
                                            NINFER_OP_payload_validate, NINFER_OP_rows_select};
    for (const auto &f : ninfer::abi::kGroupedFormats) {
        for (auto op : kLayoutOps) caps.push_back({op, f.id, 0, 0, 0, 0});
        for (auto src : kSources)
            for (const auto &e : ninfer::abi::kEncoders)
                if (e.family == ninfer::abi::Family::grouped) caps.push_back({NINFER_OP_quant_encode, f.id, src, 0, e.id, 0});
    }
    // Any format offered with row_split_k128_v1 reaches this half and is refused by name.
    for (auto op : kLayoutOps) caps.push_back({op, 0, 0, NINFER_LAYOUT_row_split_k128_v1, 0, 0});
    caps.push_back({NINFER_OP_quant_encode, 0, 0, NINFER_LAYOUT_row_split_k128_v1, 0, 0});
    return caps;
}

std::int32_t fail(ninfer_result_v2 *res, std::int32_t status, const std::string &message, std::uint32_t detail = 0) {
    return refuse_v2(res, status, message, detail);
}

using ninfer::abi::format_label;

std::string pair_name(std::uint32_t format, std::uint32_t layout) {
    return format_label(format) + "/" + ninfer::abi::layout_label(layout);
}

/// Copy `bytes` into an output plane and set its `written`; false when it does not fit.
bool put(ninfer_output_plane *dst, const void *src, std::uint64_t bytes) {
    if (bytes > dst->capacity || (bytes && !dst->data)) return false;
    if (bytes) std::memcpy(dst->data, src, bytes);
    dst->written = bytes;
    return true;
}

std::vector<std::uint16_t> read_u16(std::span<const std::uint8_t> b) {
    std::vector<std::uint16_t> v(b.size() / 2);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = ninfer::abi::load_le16(b.data() + 2 * i);
    return v;
}

/// The output planes of a decode: codes and scales (layout_decode, quant_decode), values (quant_decode).
struct DecodePlanes {
    ninfer_output_plane *codes = nullptr, *scales = nullptr, *values = nullptr;
};

std::int32_t emit_matrix(const gn::Matrix &m, const GroupedFormat &f, ninfer_result_v2 *res, const DecodePlanes &o) {
    std::vector<std::uint8_t> scales(m.scales.size() * 2);
    for (std::size_t i = 0; i < m.scales.size(); ++i) ninfer::abi::store_le16(scales.data() + 2 * i, m.scales[i]);
    if (!put(o.codes, m.codes.data(), m.codes.size()) || !put(o.scales, scales.data(), scales.size()))
        return fail(res, NINFER_E_BUFFER, "output plane too small for codes or scales");
    if (!o.values) return NINFER_OK;
    const std::uint64_t gpr = m.scales.size() / (m.rows ? m.rows : 1);
    std::vector<std::uint8_t> values(m.codes.size() * 4);
    for (std::uint64_t r = 0; r < m.rows; ++r)
        for (std::uint64_t k = 0; k < m.cols; ++k) {
            const std::uint64_t i = r * m.cols + k;
            const std::uint32_t w = gn::reconstruct(m.scales[r * gpr + k / f.group], m.codes[i]);
            ninfer::abi::store_le32(values.data() + 4 * i, w);
        }
    if (!put(o.values, values.data(), values.size()))
        return fail(res, NINFER_E_BUFFER, "output plane too small for values");
    return NINFER_OK;
}

std::int32_t do_layout_encode(const GroupedFormat &f, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    if (c->format_in != 0 && c->format_in != c->format)
        return fail(res, NINFER_E_CONVERSION, "layout_encode offers " + format_label(c->format_in) +
                                                  " words for a " + std::string(f.name) + " tensor");
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *codes_in = nullptr, *scales_in = nullptr;
    ninfer_output_plane *payload = nullptr;
    if (!(codes_in = require_input(c, res, NINFER_PLANE_CODES, status)) ||
        !(scales_in = require_input(c, res, NINFER_PLANE_SCALES, status)) ||
        !(payload = require_output(c, res, NINFER_PLANE_PAYLOAD, status)))
        return status;
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    const auto g = gn::geometry(f, n, k);
    if (!g) return fail(res, NINFER_E_SIZE, "shape has no row_split_k128_v1 geometry");
    std::uint64_t codes = 0, scale_bytes = 0;
    if (__builtin_mul_overflow(n, k, &codes) || __builtin_mul_overflow(n, g->logical_groups, &scale_bytes) ||
        __builtin_mul_overflow(scale_bytes, std::uint64_t{2}, &scale_bytes))
        return fail(res, NINFER_E_SIZE, "shape [" + std::to_string(n) + "," + std::to_string(k) + "] overflows uint64 sizes");
    if (codes_in->bytes != codes || scales_in->bytes != scale_bytes)
        return fail(res, NINFER_E_SIZE, "codes or scales do not match shape [" + std::to_string(n) + "," + std::to_string(k) + "]");
    gn::Matrix m{n, k, {}, read_u16(plane_bytes(scales_in))};
    const auto in = plane_bytes(codes_in);
    m.codes.assign(in.begin(), in.end());
    for (std::uint64_t i = 0; i < m.codes.size(); ++i)
        if (m.codes[i] < f.qmin || m.codes[i] > f.qmax)
            return fail(res, NINFER_E_INVALID_ARGUMENT, "code " + std::to_string(m.codes[i]) + " at element " + std::to_string(i) +
                                                            " is outside [" + std::to_string(f.qmin) + "," + std::to_string(f.qmax) + "]");
    const auto p = gn::encode_payload(f, m);
    if (!put(payload, p.data(), p.size())) return fail(res, NINFER_E_BUFFER, "output plane too small for the payload");
    return NINFER_OK;
}

/// layout_decode (codes, scales), quant_decode (codes, scales, values), payload_validate (no output).
std::int32_t do_decode(const GroupedFormat &f, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *payload = require_input(c, res, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    DecodePlanes out;
    if (c->op != NINFER_OP_payload_validate &&
        (!(out.codes = require_output(c, res, NINFER_PLANE_CODES, status)) ||
         !(out.scales = require_output(c, res, NINFER_PLANE_SCALES, status))))
        return status;
    if (c->op == NINFER_OP_quant_decode && !(out.values = require_output(c, res, NINFER_PLANE_VALUES, status))) return status;
    gn::Matrix m;
    const auto o = gn::decode_payload(f, c->shape[0], c->shape[1], plane_bytes(payload), m);
    if (o.status != NINFER_OK) return fail(res, o.status, o.message, o.detail);
    return out.codes ? emit_matrix(m, f, res, out) : NINFER_OK;
}

std::int32_t do_quant_encode(const GroupedFormat &f, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    if (c->method != NINFER_ENCODER_grouped_absmax && c->method != NINFER_ENCODER_grouped_search)
        return fail(res, NINFER_E_UNSUPPORTED, "unknown encoder method " + std::to_string(c->method));
    if (!f.canonical_encoders)
        return fail(res, NINFER_E_METHOD, std::string(ninfer::abi::kEncoders[c->method - 1].name) + " refuses target " + std::string(f.name));
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *source = require_input(c, res, NINFER_PLANE_SOURCE, status);
    if (!source) return status;
    ninfer_output_plane *payload = require_output(c, res, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    // Importance weights are optional (absent: all 1); grouped_absmax has no use for them.
    const ninfer_input_plane *importance = ninfer_find_input(c, NINFER_PLANE_IMPORTANCE);
    if (importance && importance->bytes && !importance->data)
        return fail(res, NINFER_E_INVALID_ARGUMENT, "input plane `importance` holds bytes at NULL");
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    if (!gn::geometry(f, n, k)) return fail(res, NINFER_E_INVALID_ARGUMENT, "encoder needs a positive rank-two [N,K]");
    // Every size from the shape is checked before it is trusted: N*K and K*4 must not wrap.
    std::uint64_t elements = 0, importance_bytes = 0;
    if (__builtin_mul_overflow(n, k, &elements) || __builtin_mul_overflow(k, std::uint64_t{4}, &importance_bytes))
        return fail(res, NINFER_E_SIZE, "shape [" + std::to_string(n) + "," + std::to_string(k) + "] overflows uint64 sizes");
    std::vector<float> x;
    auto o = gn::source_to_f32(c->format_in, plane_bytes(source), elements, x);
    if (o.status == NINFER_E_SIZE) o.status = NINFER_E_INVALID_ARGUMENT;  // a source of the wrong length is a malformed call
    if (o.status != NINFER_OK) return fail(res, o.status, o.message);
    gn::Matrix m;
    if (c->method == NINFER_ENCODER_grouped_absmax) {
        o = gn::absmax(f, n, k, x, m);
    } else {
        std::vector<float> imp;
        if (importance && importance->bytes) {
            if (importance->bytes != importance_bytes)
                return fail(res, NINFER_E_INVALID_ARGUMENT, "importance must hold K binary32 words");
            const auto w = plane_bytes(importance);
            for (std::uint64_t i = 0; i < k; ++i)
                imp.push_back(std::bit_cast<float>(ninfer::abi::load_le32(w.data() + 4 * i)));
        }
        o = gn::search(f, n, k, x, imp, (c->flags & NINFER_FLAG_NEGATIVE_SCALES) != 0, m);
    }
    if (o.status != NINFER_OK) return fail(res, o.status, o.message);
    const auto p = gn::encode_payload(f, m);
    if (!put(payload, p.data(), p.size())) return fail(res, NINFER_E_BUFFER, "output plane too small for the payload");
    return NINFER_OK;
}

std::int32_t do_rows_select(const GroupedFormat &f, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *parent = nullptr, *rows_in = nullptr;
    ninfer_output_plane *payload = nullptr;
    if (!(parent = require_input(c, res, NINFER_PLANE_PAYLOAD, status)) ||
        !(rows_in = require_input(c, res, NINFER_PLANE_ROWS, status)) ||
        !(payload = require_output(c, res, NINFER_PLANE_PAYLOAD, status)))
        return status;
    if (rows_in->bytes % 8 != 0) return fail(res, NINFER_E_INVALID_ARGUMENT, "row indices must be uint64 words");
    // The parent payload and the size of the selection are checked before anything the caller
    // counted is allocated.
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    const auto g = gn::geometry(f, n, k);
    if (!g) return fail(res, NINFER_E_SIZE, "parent shape has no row_split_k128_v1 geometry", NINFER_DETAIL_SIZE);
    if (parent->bytes != g->payload_bytes)
        return fail(res, NINFER_E_SIZE, "parent payload is " + std::to_string(parent->bytes) + " bytes, geometry needs " +
                                            std::to_string(g->payload_bytes), NINFER_DETAIL_SIZE);
    const std::uint64_t words = rows_in->bytes / 8;
    const auto aux = plane_bytes(rows_in);
    auto index = [&](std::uint64_t i) { return ninfer::abi::load_le64(aux.data() + 8 * i); };
    std::uint64_t selected = words;
    if (!(c->flags & NINFER_FLAG_GATHER)) {
        if (words != 2) return fail(res, NINFER_E_INVALID_ARGUMENT, "a slice needs {first_row, row_count}");
        const std::uint64_t first = index(0), count = index(1);
        if (count > n || first > n - count)
            return fail(res, NINFER_E_INVALID_ARGUMENT, "slice [" + std::to_string(first) + ", +" + std::to_string(count) +
                                                            ") is past N=" + std::to_string(n));
        selected = count;
    }
    if (selected > 0) {
        const auto h = gn::geometry(f, selected, k);
        if (!h) return fail(res, NINFER_E_SIZE, "a selection of " + std::to_string(selected) + " rows overflows uint64 sizes");
        if (c->flags & NINFER_FLAG_GATHER)
            for (std::uint64_t i = 0; i < selected; ++i)
                if (index(i) >= n)
                    return fail(res, NINFER_E_INVALID_ARGUMENT, "selected row " + std::to_string(index(i)) + " (index " +
                                                                    std::to_string(i) + ") is past N=" + std::to_string(n));
        if (h->payload_bytes > payload->capacity)
            return fail(res, NINFER_E_BUFFER, "output buffer too small for the selection (" + std::to_string(h->payload_bytes) +
                                                  " bytes)");
    }
    std::vector<std::uint64_t> rows(static_cast<std::size_t>(selected));
    for (std::uint64_t r = 0; r < selected; ++r) rows[r] = c->flags & NINFER_FLAG_GATHER ? index(r) : index(0) + r;
    std::vector<std::uint8_t> out;
    const auto o = gn::select_rows(f, n, k, plane_bytes(parent), rows, out);
    if (o.status != NINFER_OK) return fail(res, o.status, o.message, o.detail);
    if (!put(payload, out.data(), out.size())) return fail(res, NINFER_E_BUFFER, "output plane too small for the selection");
    return NINFER_OK;
}

}  // namespace

std::span<const ninfer_capability_v2> grouped_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

bool is_grouped_call(const ninfer_call_v2 *call) {
    return call && (gn::find_grouped(call->format) != nullptr || call->layout == NINFER_LAYOUT_row_split_k128_v1);
}

std::int32_t grouped_call(const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    if (!c || !res) return NINFER_E_INVALID_ARGUMENT;
    const GroupedFormat *f = gn::find_grouped(c->format);
    // storage-layouts.md Section 1: the pair is resolved by name before any byte is read.
    if (!f || c->layout != f->layout)
        return fail(res, NINFER_E_LAYOUT, "format/layout pair " + pair_name(c->format, c->layout) + " is not registered");
    if (c->rank != 2) return fail(res, NINFER_E_INVALID_ARGUMENT, "row_split_k128_v1 needs a rank-two shape [N,K]");
    switch (c->op) {
    case NINFER_OP_layout_encode: return do_layout_encode(*f, c, res);
    case NINFER_OP_layout_decode:
    case NINFER_OP_quant_decode:
    case NINFER_OP_payload_validate: return do_decode(*f, c, res);
    case NINFER_OP_quant_encode: return do_quant_encode(*f, c, res);
    case NINFER_OP_rows_select: return do_rows_select(*f, c, res);
    default: return fail(res, NINFER_E_UNSUPPORTED, "op " + std::to_string(c->op) + " is not served for grouped formats");
    }
}

const ReferenceFamily kGroupedReference = {.family = abi::Family::grouped,
                                           .claims = [](const ninfer_call_v2 *c) { return family_op(c) && is_grouped_call(c); },
                                           .serve = grouped_call,
                                           .capabilities = grouped_capabilities};

}  // namespace ninfer::reference
