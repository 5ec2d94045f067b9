// SPDX-License-Identifier: Apache-2.0
// The reference plugin's half for the GGUF block types in ggml_blocks_v1 (tensor-formats.txt, the
// gguf_* table and its paragraph; storage-layouts.md Section 7), as the family contract gives the
// calls: quant_decode (payload -> values), payload_validate, rows_select, quant_encode (ggml's
// reference quantizers, the MXFP4 recipe for gguf_mxfp4). Every call is checked in the
// contract's order: the format/layout pair before any plane is read, then the shape, then the
// planes and their sizes. Decoding is gguf_blocks.cpp's, encoding gguf_quantize*.cpp's.
#include "gguf_ops.hpp"

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "call_planes.hpp"
#include "gguf_blocks.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_family.hpp"
#include "reference_plugin.hpp"

namespace ninfer::reference {

namespace {

using abi::GgufType;
namespace gn = gguf_blocks;

const GgufType *find_type(std::uint32_t format) { return abi::find_id(abi::kGgufTypes, format); }

std::vector<ninfer_capability_v2> build_capabilities() {
    std::vector<ninfer_capability_v2> caps;
    constexpr std::uint32_t kBlockOps[] = {NINFER_OP_quant_decode, NINFER_OP_payload_validate, NINFER_OP_rows_select,
                                           NINFER_OP_quant_encode};
    for (const auto &t : abi::kGgufTypes) {
        caps.push_back({NINFER_OP_quant_decode, t.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
        caps.push_back({NINFER_OP_payload_validate, t.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
        caps.push_back({NINFER_OP_rows_select, t.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
        // Served (ggml_quantize_ref, mxfp4_ocp for gguf_mxfp4) or refused by name (another
        // method, a type without a reference quantizer, a source that is not fp32).
        caps.push_back({NINFER_OP_quant_encode, t.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
        // A GGUF type in any other layout is refused by name (E_LAYOUT).
        for (const auto &l : abi::kLayouts)
            if (l.id != NINFER_LAYOUT_ggml_blocks_v1)
                for (auto op : kBlockOps) caps.push_back({op, t.id, 0, l.id, 0, 0});
    }
    // Any other format offered with ggml_blocks_v1 is refused by name (E_LAYOUT).
    for (const auto &f : abi::kAllFormats)
        if (f.family != abi::Family::gguf)
            for (auto op : kBlockOps) caps.push_back({op, f.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
    return caps;
}

std::int32_t fail(ninfer_result_v2 *res, std::int32_t status, const std::string &message, std::uint32_t detail = 0) {
    return refuse_v2(res, status, message, detail);
}

std::string format_label(std::uint32_t id) {
    if (const auto *f = abi::find_format(id)) return std::string(f->name);
    return "format#" + std::to_string(id);
}

std::string layout_label(std::uint32_t id) {
    if (const auto *l = abi::find_id(abi::kLayouts, id)) return std::string(l->name);
    return "layout#" + std::to_string(id);
}

/// ggml_blocks_v1 geometry (storage-layouts.md 7): rows = product of the leading dimensions,
/// each row K / block_values blocks.
struct Geometry {
    std::uint64_t rows = 1, blocks_per_row = 0, row_bytes = 0, payload_bytes = 0, elements = 0;
};

/// The geometry of the call's shape, or the reason it has none (rank outside 1..16, a zero
/// dimension, K not a multiple of the block, a size overflowing uint64).
std::string shape_geometry(const GgufType &t, const ninfer_call_v2 *c, Geometry &g) {
    if (c->rank < 1 || c->rank > NINFER_MAX_RANK || c->rank > 16) return "rank " + std::to_string(c->rank) + " is outside 1..16";
    for (std::uint32_t i = 0; i + 1 < c->rank; ++i)
        if (c->shape[i] == 0 || __builtin_mul_overflow(g.rows, c->shape[i], &g.rows))
            return "the leading dimensions are zero or overflow uint64";
    const std::uint64_t k = c->shape[c->rank - 1];
    if (k == 0 || k % t.block_values != 0)
        return "K = " + std::to_string(k) + " is not a positive multiple of the " + std::to_string(t.block_values) + "-value block";
    g.blocks_per_row = k / t.block_values;
    if (__builtin_mul_overflow(g.blocks_per_row, std::uint64_t{t.block_bytes}, &g.row_bytes) ||
        __builtin_mul_overflow(g.rows, g.row_bytes, &g.payload_bytes) || __builtin_mul_overflow(g.rows, k, &g.elements) ||
        g.elements > UINT64_MAX / 4)
        return "the payload size overflows uint64";
    return {};
}

/// Copy `bytes` into an output plane and set its `written`; false when it does not fit.
bool put(ninfer_output_plane *dst, const void *src, std::uint64_t bytes) {
    if (bytes > dst->capacity || (bytes && !dst->data)) return false;
    if (bytes) std::memcpy(dst->data, src, bytes);
    dst->written = bytes;
    return true;
}

std::int32_t size_mismatch(ninfer_result_v2 *res, const char *what, std::uint64_t got, std::uint64_t need) {
    return fail(res, NINFER_E_SIZE, std::string(what) + " is " + std::to_string(got) + " bytes, ggml_blocks_v1 needs " + std::to_string(need),
                NINFER_DETAIL_SIZE);
}

/// quant_decode (payload -> values) and payload_validate (payload only: ggml lets every block
/// through, NaN and infinite scales included, so the size is all there is to check).
std::int32_t do_decode(const GgufType &t, const Geometry &g, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *payload = require_input(c, res, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    ninfer_output_plane *values = nullptr;
    if (c->op == NINFER_OP_quant_decode && !(values = require_output(c, res, NINFER_PLANE_VALUES, status))) return status;
    if (payload->bytes != g.payload_bytes) return size_mismatch(res, "the payload", payload->bytes, g.payload_bytes);
    if (!values) return NINFER_OK;
    const std::uint64_t out_bytes = g.elements * 4;
    if (values->capacity < out_bytes)
        return fail(res, NINFER_E_BUFFER, "values holds " + std::to_string(values->capacity) + " bytes, " + std::to_string(out_bytes) + " needed");
    gn::row_decoder(t.ggml_type)(static_cast<const std::uint8_t *>(payload->data), g.rows * g.blocks_per_row,
                                 static_cast<std::uint8_t *>(values->data));
    values->written = out_bytes;
    return NINFER_OK;
}

std::int32_t do_rows_select(const GgufType &t, const Geometry &g, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *parent = nullptr, *rows_in = nullptr;
    ninfer_output_plane *out = nullptr;
    if (!(parent = require_input(c, res, NINFER_PLANE_PAYLOAD, status)) || !(rows_in = require_input(c, res, NINFER_PLANE_ROWS, status)) ||
        !(out = require_output(c, res, NINFER_PLANE_PAYLOAD, status)))
        return status;
    if (parent->bytes != g.payload_bytes) return size_mismatch(res, "the parent payload", parent->bytes, g.payload_bytes);
    if (rows_in->bytes % 8 != 0) return fail(res, NINFER_E_INVALID_ARGUMENT, "row indices must be uint64 words");
    const auto aux = plane_bytes(rows_in);
    auto word = [&](std::uint64_t i) { return abi::load_le64(&aux[8 * i]); };
    const std::uint64_t words = rows_in->bytes / 8;
    const bool gather = (c->flags & NINFER_FLAG_GATHER) != 0;
    std::uint64_t first = 0, selected = words;
    if (!gather) {
        if (words != 2) return fail(res, NINFER_E_INVALID_ARGUMENT, "a slice needs {first_row, row_count}");
        first = word(0);
        selected = word(1);
        if (selected == 0) return fail(res, NINFER_E_INVALID_ARGUMENT, "an empty slice selects no row");
        if (selected > g.rows || first > g.rows - selected)
            return fail(res, NINFER_E_INVALID_ARGUMENT,
                        "slice [" + std::to_string(first) + ", +" + std::to_string(selected) + ") is past the " + std::to_string(g.rows) + " rows");
    } else {
        if (selected == 0) return fail(res, NINFER_E_INVALID_ARGUMENT, "an empty gather selects no row");
        for (std::uint64_t i = 0; i < selected; ++i)
            if (word(i) >= g.rows)
                return fail(res, NINFER_E_INVALID_ARGUMENT, "selected row " + std::to_string(word(i)) + " (index " + std::to_string(i) +
                                                                ") is past the " + std::to_string(g.rows) + " rows");
    }
    // selected <= rows (a slice) or each index checked; the product cannot wrap for a slice, a
    // gather of more rows than the parent holds is checked here.
    std::uint64_t out_bytes = 0;
    if (__builtin_mul_overflow(selected, g.row_bytes, &out_bytes))
        return fail(res, NINFER_E_INVALID_ARGUMENT, "the selection's size overflows uint64");
    if (out->capacity < out_bytes)
        return fail(res, NINFER_E_BUFFER, "output buffer too small for the selection (" + std::to_string(out_bytes) + " bytes)");
    const auto *src = static_cast<const std::uint8_t *>(parent->data);
    auto *dst = static_cast<std::uint8_t *>(out->data);
    for (std::uint64_t r = 0; r < selected; ++r) {
        const std::uint64_t row = gather ? word(r) : first + r;
        std::memmove(dst + r * g.row_bytes, src + row * g.row_bytes, g.row_bytes);
    }
    out->written = out_bytes;
    (void)t;
    return NINFER_OK;
}

std::int32_t do_quant_encode(const GgufType &t, const Geometry &g, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *source = require_input(c, res, NINFER_PLANE_SOURCE, status);
    if (!source) return status;
    ninfer_output_plane *payload = require_output(c, res, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    if (source->bytes != g.elements * 4)
        return fail(res, NINFER_E_INVALID_ARGUMENT, "source holds " + std::to_string(source->bytes) + " bytes, " +
                                                        std::to_string(g.elements) + " binary32 words need " + std::to_string(g.elements * 4));
    if (payload->capacity < g.payload_bytes)
        return fail(res, NINFER_E_BUFFER, "output plane too small for the payload (" + std::to_string(g.payload_bytes) + " bytes)");
    const auto in = plane_bytes(source);
    std::vector<float> x(static_cast<std::size_t>(g.elements));
    if (!x.empty()) std::memcpy(x.data(), in.data(), in.size());  // binary32 LE words on a little-endian host
    std::vector<std::uint8_t> out(static_cast<std::size_t>(g.payload_bytes));
    const auto o = c->method == NINFER_ENCODER_mxfp4_ocp ? gn::mxfp4_encode_row(x, out.data()) : gn::quantize_row_ref(t.ggml_type, x, out.data());
    if (o.status != NINFER_OK) return fail(res, o.status, o.message);
    if (!put(payload, out.data(), out.size())) return fail(res, NINFER_E_BUFFER, "output plane too small for the payload");
    return NINFER_OK;
}

/// The encoder's refusals, before the shape: an unknown method id (E_UNSUPPORTED), a method
/// of another family or for another type (E_METHOD), a source that is not binary32 (E_CONVERSION).
std::int32_t check_encoder(const GgufType &t, const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    const auto *e = abi::find_id(abi::kEncoders, c->method);
    if (!e) return fail(res, NINFER_E_UNSUPPORTED, "unknown encoder method " + std::to_string(c->method));
    const bool fits = (c->method == NINFER_ENCODER_ggml_quantize_ref && t.ref_quantizer) ||
                      (c->method == NINFER_ENCODER_mxfp4_ocp && t.id == NINFER_FORMAT_gguf_mxfp4);
    if (!fits) return fail(res, NINFER_E_METHOD, std::string(e->name) + " does not encode " + std::string(t.name));
    if (c->format_in != NINFER_FORMAT_fp32)
        return fail(res, NINFER_E_CONVERSION, std::string(e->name) + " takes fp32 sources, not " + format_label(c->format_in));
    return NINFER_OK;
}

}  // namespace

std::span<const ninfer_capability_v2> gguf_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

bool is_gguf_call(const ninfer_call_v2 *call) {
    if (!call) return false;
    if (find_type(call->format)) return true;
    // Another format reaches this half only through the layout ops of ggml_blocks_v1.
    switch (call->op) {
    case NINFER_OP_quant_decode:
    case NINFER_OP_payload_validate:
    case NINFER_OP_rows_select:
    case NINFER_OP_quant_encode:
    case NINFER_OP_layout_encode:
    case NINFER_OP_layout_decode: return call->layout == NINFER_LAYOUT_ggml_blocks_v1;
    default: return false;
    }
}

std::int32_t gguf_call(const ninfer_call_v2 *c, ninfer_result_v2 *res) {
    if (!c || !res) return NINFER_E_INVALID_ARGUMENT;
    const GgufType *t = find_type(c->format);
    switch (c->op) {
    case NINFER_OP_quant_decode:
    case NINFER_OP_payload_validate:
    case NINFER_OP_rows_select:
    case NINFER_OP_quant_encode: break;
    case NINFER_OP_layout_encode:
    case NINFER_OP_layout_decode:
        // ggml_blocks_v1 has no logical planes to encode from or decode to (the payload is the
        // blocks): a pair outside the .ninfer registry is refused by name, a registered one is
        // not served.
        if (!abi::layout_accepts(c->layout, c->format))
            return fail(res, NINFER_E_LAYOUT, "format/layout pair " + format_label(c->format) + "/" + layout_label(c->layout) +
                                                  " is not in the .ninfer registry");
        return fail(res, NINFER_E_UNSUPPORTED, "ggml_blocks_v1 defines no layout_encode/layout_decode (the payload is the blocks)");
    default: {
        const auto *op = abi::find_id(abi::kOps, c->op);
        return fail(res, NINFER_E_UNSUPPORTED, "op " + (op ? std::string(op->name) : "#" + std::to_string(c->op)) + " is not defined for " +
                                                   format_label(c->format) + " in " + layout_label(c->layout));
    }
    }
    // 1. The pair, by name, before any plane is read (storage-layouts.md 1 and 7).
    if (!t || !abi::gguf_layout_accepts(c->layout, c->format))
        return fail(res, NINFER_E_LAYOUT, "format/layout pair " + format_label(c->format) + "/" + layout_label(c->layout) + " is not registered");
    if (c->op == NINFER_OP_quant_encode)
        if (const std::int32_t s = check_encoder(*t, c, res); s != NINFER_OK) return s;
    // 2. The shape.
    Geometry g;
    if (const std::string why = shape_geometry(*t, c, g); !why.empty()) return fail(res, NINFER_E_SIZE, why, NINFER_DETAIL_SIZE);
    // 3. The planes, their sizes, then the op.
    switch (c->op) {
    case NINFER_OP_rows_select: return do_rows_select(*t, g, c, res);
    case NINFER_OP_quant_encode: return do_quant_encode(*t, g, c, res);
    default: return do_decode(*t, g, c, res);
    }
}

/// The GGUF family's descriptor (reference_family.hpp).
const ReferenceFamily kGgufReference = {.family = abi::Family::gguf,
                                        .claims = [](const ninfer_call_v2 *c) { return family_op(c) && is_gguf_call(c); },
                                        .serve = gguf_call,
                                        .capabilities = gguf_capabilities};

}  // namespace ninfer::reference
