// SPDX-License-Identifier: Apache-2.0
// The ecosystem subjects (docs/ECOSYSTEM.md): each plugin here adapts one real library, installed
// by scripts/ecosystem/install.sh at a pinned version, to the plugin ABI. An adapter adds only
// the ABI's contract around the library's own functions (planes, sizes, the words in and out);
// every word a case judges is the library's. A scalar adapter is a list of Word functions, one per
// registry conversion or decode the library implements.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/plugin.h"

namespace ninfer::ecosystem {

inline std::int32_t refuse(ninfer_result_v2 *r, std::int32_t status, const char *why, std::uint32_t detail = 0) {
    if (NINFER_HAS_FIELD(r, ninfer_result_v2, message)) std::snprintf(r->message, sizeof r->message, "%s", why);
    if (detail && NINFER_HAS_FIELD(r, ninfer_result_v2, detail)) r->detail = detail;
    return status;
}

inline float f32_of(std::uint32_t w) {
    float f;
    std::memcpy(&f, &w, 4);
    return f;
}
inline std::uint32_t word_of(float f) {
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
}
inline std::uint64_t word_of(double d) {
    std::uint64_t w;
    std::memcpy(&w, &d, 8);
    return w;
}

/// One scalar function of a library: a conversion (op convert, `method` its registry id) or a
/// decode (op decode: the word's value as binary64), `in_bytes` to `out_bytes` per word.
struct Word {
    std::uint32_t op, format, format_in, method;
    int in_bytes, out_bytes;
    std::uint64_t (*fn)(std::uint64_t);
};

/// convert and decode through a table of Word: the planes checked, every word the library's.
template <const auto &kWords>
std::int32_t word_call(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const Word *w = nullptr;
    for (const auto &x : kWords)
        if (x.op == c->op && x.format == c->format && (c->op == NINFER_OP_decode || x.method == c->method)) w = &x;
    if (!w) return refuse(r, NINFER_E_UNSUPPORTED, "not a conversion or decode of this library");
    const ninfer_input_plane *in = ninfer_find_input(c, NINFER_PLANE_WORDS);
    ninfer_output_plane *out = ninfer_find_output(c, c->op == NINFER_OP_decode ? NINFER_PLANE_VALUES : NINFER_PLANE_WORDS);
    if (!in || !out) return refuse(r, NINFER_E_INVALID_ARGUMENT, "the op's input and output planes are needed");
    if (c->count > (1ull << 40) || in->bytes != c->count * static_cast<std::uint64_t>(w->in_bytes))
        return refuse(r, NINFER_E_SIZE, "words does not hold count words", NINFER_DETAIL_SIZE);
    if (out->capacity < c->count * static_cast<std::uint64_t>(w->out_bytes))
        return refuse(r, NINFER_E_BUFFER, "the output plane is too small");
    const auto *src = static_cast<const std::uint8_t *>(in->data);
    auto *dst = static_cast<std::uint8_t *>(out->data);
    for (std::uint64_t i = 0; i < c->count; ++i)
        abi::store_le(dst + w->out_bytes * i, w->fn(abi::load_le(src + w->in_bytes * i, w->in_bytes)), w->out_bytes);
    out->written = c->count * static_cast<std::uint64_t>(w->out_bytes);
    return NINFER_OK;
}

/// The plugin table of a scalar adapter named `name`, library version `version`.
template <const auto &kWords>
struct WordTable {
    static constexpr std::size_t n = std::size(kWords);
    static constexpr auto capabilities = [] {
        std::array<ninfer_capability_v2, n> caps{};
        for (std::size_t i = 0; i < n; ++i)
            caps[i] = {kWords[i].op, kWords[i].format, kWords[i].format_in, 0, kWords[i].method, 0};
        return caps;
    }();
    static ninfer_plugin_v2 make(const char *name, const char *version) {
        ninfer_plugin_v2 p{};
        p.abi_version = 2;
        p.struct_size = sizeof(ninfer_plugin_v2);
        p.name = name;
        p.version = version;
        p.capabilities = capabilities.data();
        p.capability_count = static_cast<std::uint32_t>(n);
        p.capability_size = sizeof(ninfer_capability_v2);
        p.ops[NINFER_OP_convert - 1] = word_call<kWords>;
        p.ops[NINFER_OP_decode - 1] = word_call<kWords>;
        return p;
    }
};

}  // namespace ninfer::ecosystem

/// Exports ninfer_plugin_entry of a scalar adapter (ABI 2 only).
#define NINFER_ECOSYSTEM_WORDS(kWords, name, version)                                               \
    extern "C" NINFER_EXPORT const ninfer_plugin_v2 *ninfer_plugin_entry(std::uint32_t harness_abi) { \
        static const ninfer_plugin_v2 table = ninfer::ecosystem::WordTable<kWords>::make(name, version); \
        return harness_abi >= 2 ? &table : nullptr;                                                  \
    }
