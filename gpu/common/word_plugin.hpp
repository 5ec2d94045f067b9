// SPDX-License-Identifier: Apache-2.0
// What the two NVIDIA plugins share (plugin.h, ABI v2): the capability list and table of a
// word-level plugin (decode and convert only), and the checks of a word call. Capabilities come
// from the registry tables filtered by what the implementation offers, never from a hand-kept list.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"

namespace ninfer::gpu {

/// decode for every word format `has_decode` accepts, convert for every conversion
/// `has_conversion` accepts.
template <class HasDecode, class HasConversion>
std::vector<ninfer_capability> word_capabilities(HasDecode has_decode, HasConversion has_conversion) {
    std::vector<ninfer_capability> caps;
    for (const auto &f : abi::kWordFormats)
        if (has_decode(f.id)) caps.push_back({NINFER_OP_decode, f.id, 0, 0, 0, 0});
    for (const auto &c : abi::kConversions)
        if (has_conversion(c.id)) caps.push_back({NINFER_OP_convert, c.dst, c.src, 0, c.id, 0});
    return caps;
}

/// The ABI table of a plugin serving decode and convert; `caps` and `version` must outlive it.
inline ninfer_plugin word_plugin_table(const char *name, const char *version, const std::vector<ninfer_capability> &caps,
                                       ninfer_fn decode, ninfer_fn convert) {
    ninfer_plugin t{};
    t.abi_version = NINFER_ABI_VERSION;
    t.struct_size = sizeof(ninfer_plugin);
    t.name = name;
    t.version = version;
    t.capabilities = caps.data();
    t.capability_count = static_cast<std::uint32_t>(caps.size());
    t.capability_size = sizeof(ninfer_capability);
    t.ops[NINFER_OP_decode - 1] = decode;
    t.ops[NINFER_OP_convert - 1] = convert;
    return t;
}

/// A one-line message into the result where its struct_size covers it; returns `status`.
inline std::int32_t refuse(ninfer_result *r, std::int32_t status, const std::string &message) {
    if (NINFER_HAS_FIELD(r, ninfer_result, message)) std::snprintf(r->message, sizeof r->message, "%s", message.c_str());
    return status;
}

/// The planes of a word call: words in, and `values` (decode) or `words` (convert) out.
struct WordPlanes {
    const ninfer_input_plane *in = nullptr;
    ninfer_output_plane *out = nullptr;
};

/// A call and result the plugin can read: both present and the call reaching its plane arrays.
inline bool call_readable(const ninfer_call *c, const ninfer_result *r) {
    return c && r && NINFER_HAS_FIELD(c, ninfer_call, outputs);
}

/// The checks of a word call (the reference plugin's): the input `words` plane and the output
/// plane `out_name` present (else NINFER_E_INVALID_ARGUMENT naming it), `count` words of
/// `in_width` bytes in, room for as many of `out_width` bytes out. NINFER_OK or the status
/// already written to `r`.
inline std::int32_t check_words(const ninfer_call *c, ninfer_result *r, std::uint32_t out_name, int in_width,
                                int out_width, WordPlanes &p) {
    const std::string out_text = std::string(abi::plane_name(out_name));
    p.in = ninfer_find_input(c, NINFER_PLANE_WORDS);
    if (!p.in) return refuse(r, NINFER_E_INVALID_ARGUMENT, "the call has no input plane `words`");
    p.out = ninfer_find_output(c, out_name);
    if (!p.out) return refuse(r, NINFER_E_INVALID_ARGUMENT, "the call has no output plane `" + out_text + "`");
    std::uint64_t in_need = 0, out_need = 0;
    if (__builtin_mul_overflow(c->count, static_cast<std::uint64_t>(in_width), &in_need) ||
        __builtin_mul_overflow(c->count, static_cast<std::uint64_t>(out_width), &out_need))
        return refuse(r, NINFER_E_SIZE, "count " + std::to_string(c->count) + " overflows the buffer size");
    if (p.in->bytes != in_need)
        return refuse(r, NINFER_E_INVALID_ARGUMENT,
                      "words holds " + std::to_string(p.in->bytes) + " bytes, count " + std::to_string(c->count) + " x " +
                          std::to_string(in_width) + " needs " + std::to_string(in_need));
    if (in_need && !p.in->data) return refuse(r, NINFER_E_INVALID_ARGUMENT, "words is null");
    if (p.out->capacity < out_need || (out_need && !p.out->data))
        return refuse(r, NINFER_E_BUFFER,
                      out_text + " holds " + std::to_string(p.out->capacity) + " bytes, " + std::to_string(out_need) +
                          " needed");
    return NINFER_OK;
}

}  // namespace ninfer::gpu
