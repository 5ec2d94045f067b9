// SPDX-License-Identifier: Apache-2.0
// The reference plugin table (plugin.h ABI v2, harness/README.md): one function per op, every
// call checked before a byte is read (planes by name, sizes, registered pairs, the conversion
// named by the call),
// scalar words through native.hpp, contiguous_le_v1 through native_contiguous.cpp, grouped
// formats and row_split_k128_v1 through grouped.hpp.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "call_planes.hpp"
#include "grouped.hpp"
#include "gguf_ops.hpp"
#include "linear_ops.hpp"
#include "native.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_plugin.hpp"
#include "scaled_ops.hpp"

namespace ninfer::reference {
namespace {

std::string format_text(std::uint32_t id) {
    if (const auto *f = abi::find_format(id)) return std::string(f->name);
    return id == 0 ? std::string("none") : fmt::format("#{}", id);
}

/// A plane's registry name in backquotes, or its number.
std::string plane_text(std::uint32_t name) {
    const std::string_view n = abi::plane_name(name);
    return n.empty() ? fmt::format("#{}", name) : fmt::format("`{}`", n);
}

std::string layout_text(std::uint32_t id) {
    if (const auto *l = abi::find_id(abi::kLayouts, id)) return std::string(l->name);
    return id == 0 ? std::string("none") : fmt::format("#{}", id);
}

/// Whether a format/layout pair is in the registry (storage-layouts.md Section 1).
bool pair_registered(std::uint32_t layout, std::uint32_t format) { return abi::layout_accepts(layout, format); }

std::int32_t refuse(ninfer_result_v2 *r, std::int32_t status, const std::string &message) {
    return refuse_v2(r, status, message);
}

std::uint64_t load_le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

void store_le(std::uint8_t *p, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

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
        store_le(out + out_width * i, map(load_le(in + f.bytes() * i, f.bytes())), out_width);
    p.out->written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

std::int32_t op_decode(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("decode: {} is not a scalar word format", format_text(c->format)));
    return map_words(c, r, *f, NINFER_PLANE_VALUES, 8, [&](std::uint64_t w) { return native_decode(c->format, w); });
}

std::int32_t op_classify(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED,
                      fmt::format("classify: {} is not a scalar word format", format_text(c->format)));
    return map_words(c, r, *f, NINFER_PLANE_CLASSES, 1, [&](std::uint64_t w) { return native_classify(c->format, w); });
}

std::int32_t op_validate(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *role = abi::find_id(abi::kRoles, c->method);
    if (!role) return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("validate: unknown role id {}", c->method));
    if (c->format != role->format)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("validate: role {} examines {} words, the call names {}", role->name,
                                  format_text(role->format), format_text(c->format)));
    return map_words(c, r, *word_format(role->format), NINFER_PLANE_VERDICTS, 1,
                     [&](std::uint64_t w) { return native_verdict(c->method, w); });
}

std::int32_t op_convert(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !native_knows_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("convert: unknown conversion id {}", c->method));
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("convert: {} maps {} to {}, the call names {} to {}", conv->name, format_text(conv->src),
                                  format_text(conv->dst), format_text(c->format_in), format_text(c->format)));
    const int in_width = word_format(conv->src)->bytes(), out_width = word_format(conv->dst)->bytes();
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_WORDS, in_width, out_width, p); s != NINFER_OK) return s;
    native_convert_batch(c->method, static_cast<const std::uint8_t *>(p.in->data), static_cast<std::uint8_t *>(p.out->data),
                         c->count);
    p.out->written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

/// layout_encode (words -> payload) / layout_decode (payload -> words) outside the grouped
/// half: contiguous_le_v1 only; any other pair refused by name before a byte is read.
std::int32_t op_layout(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (c->layout != NINFER_LAYOUT_contiguous_le_v1) {
        if (pair_registered(c->layout, c->format))
            return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("the reference does not implement {} in layout {}",
                                                               format_text(c->format), layout_text(c->layout)));
        return refuse(r, NINFER_E_LAYOUT, fmt::format("format {} is not registered for layout {}", format_text(c->format),
                                                      layout_text(c->layout)));
    }
    // An unregistered pair is refused by name before any plane is read (storage-layouts.md 1).
    if (!pair_registered(c->layout, c->format))
        return refuse(r, NINFER_E_LAYOUT, fmt::format("format {} is not registered for layout {}", format_text(c->format),
                                                      layout_text(c->layout)));
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

/// More planes than any op could name (13 names today, ids only appended): a broken count.
constexpr std::uint32_t kMaxPlanes = 64;

/// Whether a counted plane array is readable, of a sane length, and names each plane at most
/// once; else the refusal is written to `r`.
template <class Plane>
std::int32_t check_plane_list(ninfer_result_v2 *r, const Plane *planes, std::uint32_t count, const char *what) {
    if (count && !planes) return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("{}_count is {} but {}s is null", what, count, what));
    if (count > kMaxPlanes)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("{}_count {} is above {} planes", what, count, kMaxPlanes));
    for (std::uint32_t i = 0; i < count; ++i)
        for (std::uint32_t j = 0; j < i; ++j)
            if (planes[i].name == planes[j].name)
                return refuse(r, NINFER_E_INVALID_ARGUMENT,
                              fmt::format("{} plane {} is given twice", what, plane_text(planes[i].name)));
    return NINFER_OK;
}

/// Sanity of the call, grouped dispatch, then the op.
std::int32_t serve_checked(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r) return NINFER_E_INVALID_ARGUMENT;
    if (!c || !NINFER_HAS_FIELD(c, ninfer_call_v2, outputs))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "call struct missing or smaller than ninfer_call v2");
    if (const std::int32_t s = check_plane_list(r, c->inputs, c->input_count, "input"); s != NINFER_OK) return s;
    if (const std::int32_t s = check_plane_list(r, c->outputs, c->output_count, "output"); s != NINFER_OK) return s;
    if (c->op == NINFER_OP_linear) return linear_call(c, r);
    if (is_grouped_call(c)) return grouped_call(c, r);
    if (is_scaled_call(c)) return scaled_call(c, r);
    if (is_gguf_call(c)) return gguf_call(c, r);
    switch (c->op) {
    case NINFER_OP_decode: return op_decode(c, r);
    case NINFER_OP_classify: return op_classify(c, r);
    case NINFER_OP_validate: return op_validate(c, r);
    case NINFER_OP_convert: return op_convert(c, r);
    case NINFER_OP_layout_encode:
    case NINFER_OP_layout_decode: return op_layout(c, r);
    default: {
        const auto *op = abi::find_id(abi::kOps, c->op);
        return refuse(r, NINFER_E_UNSUPPORTED,
                      fmt::format("op {} is not served for {}", op ? std::string(op->name) : fmt::format("#{}", c->op),
                                  format_text(c->format)));
    }
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
    // layout is declared by the family half that serves it (grouped, scaled, gguf); one that no
    // half serves is not declared (the call still answers E_UNSUPPORTED).
    for (const auto &l : abi::kLayouts)
        for (const auto &f : abi::kAllFormats)
            if (l.id == NINFER_LAYOUT_contiguous_le_v1 || !abi::layout_accepts(l.id, f.id))
                for (const std::uint32_t op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode})
                    caps.push_back({op, f.id, 0, l.id, 0, 0});
    for (const auto &g : grouped_capabilities()) caps.push_back(g);
    for (const auto &g : scaled_capabilities()) caps.push_back(g);
    for (const auto &g : gguf_capabilities()) caps.push_back(g);
    for (const auto &g : linear_capabilities()) caps.push_back(g);
    return caps;
}

/// A missing required plane: NINFER_E_INVALID_ARGUMENT naming the op and the plane.
std::int32_t missing_plane(const ninfer_call_v2 *c, ninfer_result_v2 *r, const char *side, std::uint32_t name) {
    const auto *op = abi::find_id(abi::kOps, c->op);
    return refuse(r, NINFER_E_INVALID_ARGUMENT,
                  fmt::format("{}: the call has no {} plane {}", op ? std::string(op->name) : fmt::format("op #{}", c->op),
                              side, plane_text(name)));
}

}  // namespace

/// The C ABI boundary: no C++ exception (std::bad_alloc included) crosses it; anything thrown
/// is NINFER_E_INTERNAL.
std::int32_t serve(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    try {
        return serve_checked(c, r);
    } catch (const std::bad_alloc &) {
        return refuse_call(r, NINFER_E_INTERNAL, "out of memory (std::bad_alloc)");
    } catch (const std::exception &e) {
        return refuse_call(r, NINFER_E_INTERNAL, e.what());
    } catch (...) {
        return refuse_call(r, NINFER_E_INTERNAL, "unknown C++ exception");
    }
}

std::int32_t refuse_v2(ninfer_result_v2 *result, std::int32_t status, const std::string &message, std::uint32_t detail) {
    if (!result) return status;
    if (detail != 0 && NINFER_HAS_FIELD(result, ninfer_result_v2, detail)) result->detail = detail;
    if (NINFER_HAS_FIELD(result, ninfer_result_v2, message))
        std::snprintf(result->message, sizeof result->message, "%s", message.c_str());
    return status;
}

const ninfer_input_plane *require_input(const ninfer_call_v2 *c, ninfer_result_v2 *r, std::uint32_t name,
                                        std::int32_t &status) {
    const ninfer_input_plane *p = ninfer_find_input(c, name);
    if (!p) {
        status = missing_plane(c, r, "input", name);
        return nullptr;
    }
    if (p->bytes && !p->data) {
        status = refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("input plane {} holds {} bytes at NULL", plane_text(name), p->bytes));
        return nullptr;
    }
    return p;
}

ninfer_output_plane *require_output(const ninfer_call_v2 *c, ninfer_result_v2 *r, std::uint32_t name, std::int32_t &status) {
    ninfer_output_plane *p = ninfer_find_output(c, name);
    if (!p) {
        status = missing_plane(c, r, "output", name);
        return nullptr;
    }
    if (p->capacity && !p->data) {
        status = refuse(r, NINFER_E_INVALID_ARGUMENT,
                        fmt::format("output plane {} has capacity {} at NULL", plane_text(name), p->capacity));
        return nullptr;
    }
    return p;
}

std::int32_t refuse_call(ninfer_result_v2 *result, std::int32_t status, const char *message) {
    return refuse_v2(result, status, message);
}

std::int32_t refuse_call(ninfer_result_v1 *result, std::int32_t status, const char *message) {
    if (result) std::snprintf(result->message, sizeof result->message, "%s", message);
    return status;
}

std::span<const ninfer_capability_v2> reference_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

const ninfer_plugin_v2 &reference_table_v2() {
    static const ninfer_plugin_v2 table = [] {
        ninfer_plugin_v2 t{};
        t.abi_version = 2;
        t.struct_size = sizeof(ninfer_plugin_v2);
        t.name = "reference";
        t.version = NINFER_PROJECT_VERSION;
        const auto caps = reference_capabilities();
        t.capabilities = caps.data();
        t.capability_count = static_cast<std::uint32_t>(caps.size());
        t.capability_size = sizeof(ninfer_capability_v2);
        t.self = nullptr;
        for (const auto &op : abi::kOps) t.ops[op.id - 1] = &serve;
        return t;
    }();
    return table;
}

}  // namespace ninfer::reference
