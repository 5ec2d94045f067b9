// SPDX-License-Identifier: Apache-2.0
// The reference plugin table (plugin.h, harness/README.md): one function per op, every call
// checked before a byte is read (sizes, registered pairs, the conversion named by the call),
// scalar words through native.hpp, contiguous_le_v1 through native_contiguous.cpp, grouped
// formats and row_split_k128_v1 through grouped.hpp.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "grouped.hpp"
#include "native.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_plugin.hpp"

namespace ninfer::reference {
namespace {

std::string format_text(std::uint32_t id) {
    if (const auto *f = abi::find_format(id)) return std::string(f->name);
    return id == 0 ? std::string("none") : fmt::format("#{}", id);
}

std::string layout_text(std::uint32_t id) {
    if (const auto *l = abi::find_id(abi::kLayouts, id)) return std::string(l->name);
    return id == 0 ? std::string("none") : fmt::format("#{}", id);
}

/// Whether a format/layout pair is in the registry (storage-layouts.md Section 1).
bool pair_registered(std::uint32_t layout, std::uint32_t format) { return abi::layout_accepts(layout, format); }

std::int32_t refuse(ninfer_result *r, std::int32_t status, const std::string &message) {
    return refuse_call(r, status, message.c_str());
}

std::uint64_t load_le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

void store_le(std::uint8_t *p, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// Shared checks of a word op: count words of `in_width` bytes in `in`, as many elements of
/// `out_width` bytes fit in `out`. NINFER_OK or the status already written to `r`.
std::int32_t check_words(const ninfer_call *c, ninfer_result *r, int in_width, int out_width) {
    std::uint64_t in_need = 0, out_need = 0;
    if (__builtin_mul_overflow(c->count, static_cast<std::uint64_t>(in_width), &in_need) ||
        __builtin_mul_overflow(c->count, static_cast<std::uint64_t>(out_width), &out_need))
        return refuse(r, NINFER_E_SIZE, fmt::format("count {} overflows the buffer size", c->count));
    if (c->in_bytes != in_need)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("in holds {} bytes, count {} x {} needs {}", c->in_bytes, c->count, in_width, in_need));
    if (in_need && !c->in) return refuse(r, NINFER_E_INVALID_ARGUMENT, "in is null");
    if (c->out_bytes < out_need || (out_need && !c->out))
        return refuse(r, NINFER_E_BUFFER, fmt::format("out holds {} bytes, {} needed", c->out_bytes, out_need));
    return NINFER_OK;
}

const abi::WordFormat *word_format(std::uint32_t id) { return abi::find_id(abi::kWordFormats, id); }

/// decode, classify: one word format, every word mapped by `map` to `out_width` bytes.
template <class Map>
std::int32_t map_words(const ninfer_call *c, ninfer_result *r, const abi::WordFormat &f, int out_width, Map map) {
    if (const std::int32_t s = check_words(c, r, f.bytes(), out_width); s != NINFER_OK) return s;
    const auto *in = static_cast<const std::uint8_t *>(c->in);
    auto *out = static_cast<std::uint8_t *>(c->out);
    for (std::uint64_t i = 0; i < c->count; ++i)
        store_le(out + out_width * i, map(load_le(in + f.bytes() * i, f.bytes())), out_width);
    r->out_written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

std::int32_t op_decode(const ninfer_call *c, ninfer_result *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("decode: {} is not a scalar word format", format_text(c->format)));
    return map_words(c, r, *f, 8, [&](std::uint64_t w) { return native_decode(c->format, w); });
}

std::int32_t op_classify(const ninfer_call *c, ninfer_result *r) {
    const auto *f = word_format(c->format);
    if (!f)
        return refuse(r, NINFER_E_UNSUPPORTED,
                      fmt::format("classify: {} is not a scalar word format", format_text(c->format)));
    return map_words(c, r, *f, 1, [&](std::uint64_t w) { return native_classify(c->format, w); });
}

std::int32_t op_validate(const ninfer_call *c, ninfer_result *r) {
    const auto *role = abi::find_id(abi::kRoles, c->method);
    if (!role) return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("validate: unknown role id {}", c->method));
    if (c->format != role->format)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("validate: role {} examines {} words, the call names {}", role->name,
                                  format_text(role->format), format_text(c->format)));
    return map_words(c, r, *word_format(role->format), 1, [&](std::uint64_t w) { return native_verdict(c->method, w); });
}

std::int32_t op_convert(const ninfer_call *c, ninfer_result *r) {
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !native_knows_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("convert: unknown conversion id {}", c->method));
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      fmt::format("convert: {} maps {} to {}, the call names {} to {}", conv->name, format_text(conv->src),
                                  format_text(conv->dst), format_text(c->format_in), format_text(c->format)));
    const int in_width = word_format(conv->src)->bytes(), out_width = word_format(conv->dst)->bytes();
    if (const std::int32_t s = check_words(c, r, in_width, out_width); s != NINFER_OK) return s;
    native_convert_batch(c->method, static_cast<const std::uint8_t *>(c->in), static_cast<std::uint8_t *>(c->out),
                         c->count);
    r->out_written = c->count * static_cast<std::uint64_t>(out_width);
    return NINFER_OK;
}

/// layout_encode / layout_decode outside the grouped half: contiguous_le_v1 only; any other
/// pair refused by name before a byte is read.
std::int32_t op_layout(const ninfer_call *c, ninfer_result *r) {
    if (c->layout != NINFER_LAYOUT_contiguous_le_v1) {
        if (pair_registered(c->layout, c->format))
            return refuse(r, NINFER_E_UNSUPPORTED, fmt::format("the reference does not implement {} in layout {}",
                                                               format_text(c->format), layout_text(c->layout)));
        return refuse(r, NINFER_E_LAYOUT, fmt::format("format {} is not registered for layout {}", format_text(c->format),
                                                      layout_text(c->layout)));
    }
    if (c->rank > NINFER_MAX_RANK)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("rank {} above NINFER_MAX_RANK", c->rank));
    const std::span<const std::uint64_t> shape(c->shape, c->rank);
    const auto *in = static_cast<const std::uint8_t *>(c->in);
    auto *out = static_cast<std::uint8_t *>(c->out);
    const LayoutOutcome o = c->op == NINFER_OP_layout_encode
                                ? contiguous_encode(c->format, c->format_in, shape, in, c->in_bytes, out, c->out_bytes)
                                : contiguous_decode(c->format, shape, in, c->in_bytes, out, c->out_bytes);
    if (o.status != NINFER_OK) return refuse(r, o.status, o.message);
    r->out_written = o.written;
    return NINFER_OK;
}

std::int32_t serve_checked(const ninfer_call *c, ninfer_result *r);

/// The one function behind every op slot, and the C ABI boundary: no C++ exception
/// (std::bad_alloc included) crosses it; anything thrown is NINFER_E_INTERNAL.
std::int32_t serve(void *, const ninfer_call *c, ninfer_result *r) {
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

/// Sanity of the call, grouped dispatch, then the op.
std::int32_t serve_checked(const ninfer_call *c, ninfer_result *r) {
    if (!r) return NINFER_E_INVALID_ARGUMENT;
    if (!c || c->struct_size < sizeof(ninfer_call))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "call struct missing or smaller than ninfer_call v1");
    if (is_grouped_call(c)) return grouped_call(c, r);
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

std::vector<ninfer_capability> build_capabilities() {
    std::vector<ninfer_capability> caps;
    for (const auto &f : abi::kWordFormats) {
        caps.push_back({NINFER_OP_decode, f.id, 0, 0, 0});
        caps.push_back({NINFER_OP_classify, f.id, 0, 0, 0});
    }
    for (const auto &role : abi::kRoles) caps.push_back({NINFER_OP_validate, role.format, 0, 0, role.id});
    for (const auto &conv : abi::kConversions) caps.push_back({NINFER_OP_convert, conv.dst, conv.src, 0, conv.id});
    // Layout ops for any format/layout: contiguous_le_v1 x {bf16, fp32, int32} served, every
    // unregistered pair refused by name (E_LAYOUT) and cross-type words refused (E_CONVERSION),
    // which the registry and cross_type rules test; a registered pair the reference does not
    // implement answers E_UNSUPPORTED.
    caps.push_back({NINFER_OP_layout_encode, 0, 0, 0, 0});
    caps.push_back({NINFER_OP_layout_decode, 0, 0, 0, 0});
    for (const auto &g : grouped_capabilities()) caps.push_back(g);
    return caps;
}

}  // namespace

std::int32_t refuse_call(ninfer_result *result, std::int32_t status, const char *message) {
    if (result) std::snprintf(result->message, sizeof result->message, "%s", message);
    return status;
}

std::span<const ninfer_capability> reference_capabilities() {
    static const std::vector<ninfer_capability> caps = build_capabilities();
    return caps;
}

const ninfer_plugin &reference_table() {
    static const ninfer_plugin table = [] {
        ninfer_plugin t{};
        t.abi_version = NINFER_ABI_VERSION;
        t.struct_size = sizeof(ninfer_plugin);
        t.name = "reference";
        t.version = "0.1.0";
        const auto caps = reference_capabilities();
        t.capabilities = caps.data();
        t.capability_count = static_cast<std::uint32_t>(caps.size());
        t.self = nullptr;
        for (const auto &op : abi::kOps) t.ops[op.id - 1] = &serve;
        return t;
    }();
    return table;
}

}  // namespace ninfer::reference
