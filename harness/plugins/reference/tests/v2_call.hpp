// SPDX-License-Identifier: Apache-2.0
// Test helper: an ABI v2 call (abi/include/ninfer/abi/plugin.h) built from named planes in one
// place, run through a plugin table, its output planes collected by name. Used by the reference
// plugin's tests and gpu/tests. The planes of each op, in their order, are typed here from
// harness/README.md ("The plugin C ABI"), independently of any plugin's copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::testing {

/// An input plane: its bytes, and optionally a `bytes` field that claims another size.
struct InPlane {
    std::uint32_t name;
    std::vector<std::uint8_t> bytes;
    std::optional<std::uint64_t> claimed = std::nullopt;
};

/// An output plane of `capacity` bytes (pre-filled with 0xCD, so that untouched bytes show).
struct OutPlane {
    std::uint32_t name;
    std::uint64_t capacity;
};

/// The planes of an op in ABI order (harness/README.md); `grouped` picks the row_split side of
/// layout_encode / layout_decode. quant_encode's importance plane is optional.
struct OpPlanes {
    std::vector<std::uint32_t> in, out;
};
inline OpPlanes op_planes(std::uint32_t op, bool grouped = false) {
    switch (op) {
    case NINFER_OP_decode: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VALUES}};
    case NINFER_OP_classify: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_CLASSES}};
    case NINFER_OP_validate: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VERDICTS}};
    case NINFER_OP_convert: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_WORDS}};
    case NINFER_OP_layout_encode:
        return grouped ? OpPlanes{{NINFER_PLANE_CODES, NINFER_PLANE_SCALES}, {NINFER_PLANE_PAYLOAD}}
                       : OpPlanes{{NINFER_PLANE_WORDS}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_layout_decode:
        return grouped ? OpPlanes{{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES}}
                       : OpPlanes{{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_WORDS}};
    case NINFER_OP_quant_encode: return {{NINFER_PLANE_SOURCE, NINFER_PLANE_IMPORTANCE}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_quant_decode: return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES}};
    case NINFER_OP_payload_validate: return {{NINFER_PLANE_PAYLOAD}, {}};
    case NINFER_OP_rows_select: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ROWS}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_linear: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ACTIVATION}, {NINFER_PLANE_OUTPUT}};
    default: return {};
    }
}

/// What a call returned: status, result, and every output plane as the plugin left it.
struct V2Outcome {
    std::int32_t status = 0;
    ninfer_result_v2 result{};
    std::vector<ninfer_output_plane> planes;
    std::vector<std::vector<std::uint8_t>> buffers;  // whole capacity of each output plane

    const ninfer_output_plane *plane(std::uint32_t name) const {
        for (const auto &p : planes)
            if (p.name == name) return &p;
        return nullptr;
    }
    /// `written` of output plane `name` (0 when the call had none).
    std::uint64_t written(std::uint32_t name) const {
        const auto *p = plane(name);
        return p ? p->written : 0;
    }
    /// The whole buffer of output plane `name`, written or not.
    std::vector<std::uint8_t> buffer(std::uint32_t name) const {
        for (std::size_t i = 0; i < planes.size(); ++i)
            if (planes[i].name == name) return buffers[i];
        return {};
    }
    /// The bytes the plugin says it wrote to output plane `name`.
    std::vector<std::uint8_t> out(std::uint32_t name) const {
        auto b = buffer(name);
        b.resize(std::min<std::uint64_t>(b.size(), written(name)));
        return b;
    }
    std::string message() const { return result.message; }
};

/// The header of a call: op and the fields that say what the planes hold (struct_size 0 means
/// sizeof(ninfer_call_v2) as this test knows it).
inline ninfer_call_v2 v2_head(std::uint32_t op, std::uint32_t format = 0, std::uint32_t format_in = 0,
                              std::uint32_t layout = 0, std::uint32_t method = 0) {
    ninfer_call_v2 c{};
    c.op = op;
    c.format = format;
    c.format_in = format_in;
    c.layout = layout;
    c.method = method;
    return c;
}

/// Run `head` with the given planes through `t` (result struct_size `result_size`).
inline V2Outcome call_v2(const ninfer_plugin_v2 &t, ninfer_call_v2 head, const std::vector<InPlane> &inputs,
                         const std::vector<OutPlane> &outputs, std::uint32_t result_size = sizeof(ninfer_result_v2)) {
    V2Outcome o;
    std::vector<ninfer_input_plane> in;
    for (const auto &p : inputs)
        in.push_back({p.name, 0, p.bytes.empty() ? nullptr : p.bytes.data(), p.claimed.value_or(p.bytes.size())});
    for (const auto &p : outputs) o.buffers.emplace_back(p.capacity, 0xCD);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        o.planes.push_back({outputs[i].name, 0, o.buffers[i].empty() ? nullptr : o.buffers[i].data(), outputs[i].capacity, 0});
    if (head.struct_size == 0) head.struct_size = sizeof(ninfer_call_v2);
    head.input_count = static_cast<std::uint32_t>(in.size());
    head.inputs = in.empty() ? nullptr : in.data();
    head.output_count = static_cast<std::uint32_t>(o.planes.size());
    head.outputs = o.planes.empty() ? nullptr : o.planes.data();
    o.result.struct_size = result_size;
    o.status = t.ops[head.op - 1](t.self, &head, &o.result);
    return o;
}

/// A one-input, one-output call on the op's first planes (word ops, contiguous layout ops).
inline V2Outcome call_v2(const ninfer_plugin_v2 &t, const ninfer_call_v2 &head, std::vector<std::uint8_t> in,
                         std::uint64_t out_capacity) {
    const OpPlanes p = op_planes(head.op);
    return call_v2(t, head, {{p.in.at(0), std::move(in)}}, {{p.out.at(0), out_capacity}});
}

}  // namespace ninfer::testing
