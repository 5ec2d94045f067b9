// SPDX-License-Identifier: Apache-2.0
// The capability list and table of a word-level plugin (decode and convert only), shared by
// the two NVIDIA plugins: capabilities come from the registry tables filtered by what the
// implementation offers, never from a hand-kept list.
#pragma once

#include <cstdint>
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
        if (has_decode(f.id)) caps.push_back({NINFER_OP_decode, f.id, 0, 0, 0});
    for (const auto &c : abi::kConversions)
        if (has_conversion(c.id)) caps.push_back({NINFER_OP_convert, c.dst, c.src, 0, c.id});
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
    t.ops[NINFER_OP_decode - 1] = decode;
    t.ops[NINFER_OP_convert - 1] = convert;
    return t;
}

}  // namespace ninfer::gpu
