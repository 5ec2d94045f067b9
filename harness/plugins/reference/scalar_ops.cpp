// SPDX-License-Identifier: Apache-2.0
// The reference's word family (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6; storage-layouts.md
// Sections 1-2): decode, classify, validate and convert of the scalar words through scalar_codec.hpp,
// contiguous_le_v1 through contiguous_layout.cpp, and the refusal by name of every other layout
// pair and op no family claims. Its descriptor is the fallback of reference_table.cpp's array.
#include <fmt/format.h>

#include <span>
#include <string>
#include <vector>

#include "call_planes.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "reference_family.hpp"
#include "scalar_codec.hpp"

namespace ninfer::reference {
namespace {

std::int32_t refuse(ninfer_result_v2 *r, std::int32_t status, const std::string &message) {
    return refuse_v2(r, status, message);
}

/// Whether a format/layout pair is in the registry (storage-layouts.md Section 1).
bool pair_registered(std::uint32_t layout, std::uint32_t format) { return abi::layout_accepts(layout, format); }

/// The two planes of a word op: the input words and the output plane `out_name`.
struct WordPlanes {
    const ninfer_input_plane *in = nullptr;
    ninfer_output_plane *out = nullptr;
};

/// Shared checks of a word op: planes present, count words of `in_width` bytes in the input
/// plane, as many elements of `out_width` bytes fit in the output. NINFER_OK or the status
/// already written to `r`.
std::int32_t check_words(const ninfer_call_v2 *c, ninfer_result_v2 *r, std::uint32_t out_name, int in_width, int out_width,
                         WordPlanes &p) {
    std::int32_t status = NINFER_OK;
    if (!(p.in = require_input(c, r, NINFER_PLANE_WORDS, status))) return status;
    if (!(p.out = require_output(c, r, out_name, status))) return status;
    std::uint64_t in_need = 0, out_need = 0;
    if (__builtin_mul_overflow(c->count, static_cast<std::uint64_t>(in_width), &in_need) ||
        __builtin_mul_overflow(c->count, static_cast<std::uint64_t>(out_width), &out_need))
        return refuse(r, NINFER_E_SIZE, fmt::format("count {} overflows the buffer size", c->count));
    if (p.in->bytes != in_need)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("words holds {} bytes, count {} x {} needs {}", p.in->bytes, c->count, in_width, in_need));
    if (p.out->capacity < out_need)
        return refuse(r, NINFER_E_BUFFER, fmt::format("{} holds {} bytes, {} needed", abi::plane_name(out_name),
                                                      p.out->capacity, out_need));
    return NINFER_OK;
}

const abi::WordFormat *word_format(std::uint32_t id) { return abi::find_id(abi::kWordFormats, id); }

/// decode, classify, validate: one word format, every word mapped by `map` to `out_width`
/// bytes of the output plane `out_name`.
template <class Map>
std::int32_t map_words(const ninfer_call_v2 *c, ninfer_result_v2 *r, const abi::WordFormat &f, std::uint32_t out_name,
                       int out_width, Map map) {
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, out_name, f.bytes(), out_width, p); s != NINFER_OK) return s;
    const auto *in = static_cast<const std::uint8_t *>(p.in->data);
    auto *out = static_cast<std::uint8_t *>(p.out->data);
    for (std::uint64_t i = 0; i < c->count; ++i)
        abi::store_le(out + out_width * i, map(abi::load_le(in + f.bytes() * i, f.bytes())), out_width);
    p.out->written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

std::int32_t op_decode(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("decode: {} is not a scalar word format", abi::format_label(c->format)));
    return map_words(c, r, *f, NINFER_PLANE_VALUES, 8, [&](std::uint64_t w) { return scalar_decode(c->format, w); });
}

std::int32_t op_classify(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED,
                      fmt::format("classify: {} is not a scalar word format", abi::format_label(c->format)));
    return map_words(c, r, *f, NINFER_PLANE_CLASSES, 1, [&](std::uint64_t w) { return scalar_classify(c->format, w); });
}

std::int32_t op_validate(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *role = abi::find_id(abi::kRoles, c->method);
    if (!role) return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("validate: unknown role id {}", c->method));
    if (c->format != role->format)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("validate: role {} examines {} words, the call names {}", role->name,
                                  abi::format_label(role->format), abi::format_label(c->format)));
    return map_words(c, r, *word_format(role->format), NINFER_PLANE_VERDICTS, 1,
                     [&](std::uint64_t w) { return scalar_verdict(c->method, w); });
}

std::int32_t op_convert(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !scalar_knows_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("convert: unknown conversion id {}", c->method));
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("convert: {} maps {} to {}, the call names {} to {}", conv->name, abi::format_label(conv->src),
                                  abi::format_label(conv->dst), abi::format_label(c->format_in), abi::format_label(c->format)));
    const int in_width = word_format(conv->src)->bytes(), out_width = word_format(conv->dst)->bytes();
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_WORDS, in_width, out_width, p); s != NINFER_OK) return s;
    if (abi::is_stochastic(*conv)) {
        // The random plane when offered (count uint32 words), else the reference draws its own.
        const ninfer_input_plane *random = ninfer_find_input(c, NINFER_PLANE_RANDOM);
        if (random && random->bytes != c->count * 4)
            return refuse(r, NINFER_E_INVALID_ARGUMENT,
                          fmt::format("random holds {} bytes, count {} x 4 needs {}", random->bytes, c->count, c->count * 4));
        scalar_convert_sr_batch(c->method, static_cast<const std::uint8_t *>(p.in->data),
                                random ? static_cast<const std::uint8_t *>(random->data) : nullptr,
                                static_cast<std::uint8_t *>(p.out->data), c->count);
    } else {
        scalar_convert_batch(c->method, static_cast<const std::uint8_t *>(p.in->data),
                             static_cast<std::uint8_t *>(p.out->data), c->count);
    }
    p.out->written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

/// layout_encode (words -> payload) / layout_decode (payload -> words) outside the grouped
/// half: contiguous_le_v1 only; any other pair refused by name before a byte is read.
std::int32_t op_layout(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (c->layout != NINFER_LAYOUT_contiguous_le_v1) {
        if (pair_registered(c->layout, c->format))
            return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("the reference does not implement {} in layout {}",
                                                               abi::format_label(c->format), abi::layout_label(c->layout)));
        return refuse(r, NINFER_E_LAYOUT, fmt::format("format {} is not registered for layout {}", abi::format_label(c->format),
                                                      abi::layout_label(c->layout)));
    }
    // An unregistered pair is refused by name before any plane is read (storage-layouts.md 1).
    if (!pair_registered(c->layout, c->format))
        return refuse(r, NINFER_E_LAYOUT, fmt::format("format {} is not registered for layout {}", abi::format_label(c->format),
                                                      abi::layout_label(c->layout)));
    if (c->rank > NINFER_MAX_RANK)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("rank {} above NINFER_MAX_RANK", c->rank));
    const bool encode = c->op == NINFER_OP_layout_encode;
    std::int32_t status = NINFER_OK;
    const auto *in = require_input(c, r, encode ? NINFER_PLANE_WORDS : NINFER_PLANE_PAYLOAD, status);
    if (!in) return status;
    auto *out = require_output(c, r, encode ? NINFER_PLANE_PAYLOAD : NINFER_PLANE_WORDS, status);
    if (!out) return status;
    const std::span<const std::uint64_t> shape(c->shape, c->rank);
    const auto *src = static_cast<const std::uint8_t *>(in->data);
    auto *dst = static_cast<std::uint8_t *>(out->data);
    const LayoutOutcome o = encode ? contiguous_encode(c->format, c->format_in, shape, src, in->bytes, dst, out->capacity)
                                   : contiguous_decode(c->format, shape, src, in->bytes, dst, out->capacity);
    if (o.status != NINFER_OK) return refuse(r, o.status, o.message);
    out->written = o.written;
    return NINFER_OK;
}

/// An op no family serves for this call, refused by name.
std::int32_t op_unserved(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *op = abi::find_id(abi::kOps, c->op);
    return refuse(r, NINFER_E_UNSUPPORTED,
                  fmt::format("op {} is not served for {}", op ? std::string(op->name) : fmt::format("#{}", c->op),
                              abi::format_label(c->format)));
}

std::int32_t scalar_call(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    switch (c->op) {
    case NINFER_OP_decode: return op_decode(c, r);
    case NINFER_OP_classify: return op_classify(c, r);
    case NINFER_OP_validate: return op_validate(c, r);
    case NINFER_OP_convert: return op_convert(c, r);
    case NINFER_OP_layout_encode:
    case NINFER_OP_layout_decode: return op_layout(c, r);
    default: return op_unserved(c, r);
    }
}

std::vector<ninfer_capability_v2> build_capabilities() {
    std::vector<ninfer_capability_v2> caps;
    for (const auto &f : abi::kWordFormats) {
        caps.push_back({NINFER_OP_decode, f.id, 0, 0, 0, 0});
        caps.push_back({NINFER_OP_classify, f.id, 0, 0, 0, 0});
    }
    for (const auto &role : abi::kRoles) caps.push_back({NINFER_OP_validate, role.format, 0, 0, role.id, 0});
    for (const auto &conv : abi::kConversions) caps.push_back({NINFER_OP_convert, conv.dst, conv.src, 0, conv.id, 0});
    // Layout ops: contiguous_le_v1 for every format (bf16, fp32, int32 served, the others refused
    // by name, cross-type words refused with E_CONVERSION) and every unregistered pair (refused by
    // name, E_LAYOUT), which the registry and cross_type rules test. A registered pair of another
    // layout is declared by the family that serves it (grouped, scaled, gguf); one that no
    // family serves is not declared (the call still answers E_UNSUPPORTED).
    for (const auto &l : abi::kLayouts)
        for (const auto &f : abi::kAllFormats)
            if (l.id == NINFER_LAYOUT_contiguous_le_v1 || !abi::layout_accepts(l.id, f.id))
                for (const std::uint32_t op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode})
                    caps.push_back({op, f.id, 0, l.id, 0, 0});
    return caps;
}

std::span<const ninfer_capability_v2> scalar_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

}  // namespace

const ReferenceFamily kWordReference = {.family = abi::Family::word, .claims = nullptr, .serve = scalar_call, .capabilities = scalar_capabilities};

}  // namespace ninfer::reference
