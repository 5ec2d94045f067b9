// SPDX-License-Identifier: Apache-2.0
// The reference plugin seen through ABI v1 (plugin.h, "ABI version 1 (frozen)"): the table the
// seeded-bug mutants wrap, since they stay written against v1. A v1 call becomes the v2 call of
// its op: `in` and `aux` are the op's input planes, `out`, `out2`, `out3` its output planes, in
// the order harness/README.md gives per op; the v2 functions serve it and the written sizes,
// detail and message come back into the v1 result. The plane order is the reference's own copy
// (tests/test_reference_plugin.cpp checks it call by call against the v2 table).
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "call_planes.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_plugin.hpp"

namespace ninfer::reference {
namespace {

/// The planes of one op in their ABI order; 0 ends a list.
struct OpPlanes {
    std::array<std::uint32_t, 2> in{};
    std::array<std::uint32_t, 3> out{};
};

/// The planes of a layout op follow the format's family (harness/README.md): a word format's
/// logical data are WORDS, any other format's CODES and SCALES, nvfp4's also DIVISORS; a GGUF
/// block payload decodes to VALUES alone. Without a known format, the layout decides.
struct Family {
    bool words, divisors, gguf;
};
Family family_of(const ninfer_call_v1 &c) {
    const auto *f = abi::find_format(c.format);
    const auto *scaled = abi::find_id(abi::kScaledFormats, c.format);
    return {f ? f->family == abi::Family::word : c.layout == NINFER_LAYOUT_contiguous_le_v1, scaled && scaled->divisors,
            f ? f->family == abi::Family::gguf : c.layout == NINFER_LAYOUT_ggml_blocks_v1};
}

OpPlanes planes_of(const ninfer_call_v1 &c) {
    const Family f = family_of(c);
    switch (c.op) {
    case NINFER_OP_decode: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VALUES}};
    case NINFER_OP_classify: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_CLASSES}};
    case NINFER_OP_validate: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VERDICTS}};
    case NINFER_OP_convert: return {{NINFER_PLANE_WORDS, NINFER_PLANE_RANDOM}, {NINFER_PLANE_WORDS}};
    case NINFER_OP_layout_encode:  // nvfp4's third input (DIVISORS) has no v1 buffer
        if (!f.words) return {{NINFER_PLANE_CODES, NINFER_PLANE_SCALES}, {NINFER_PLANE_PAYLOAD}};
        return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_layout_decode:
        if (f.divisors) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}};
        if (!f.words) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES}};
        return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_WORDS}};
    case NINFER_OP_quant_encode: return {{NINFER_PLANE_SOURCE, NINFER_PLANE_IMPORTANCE}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_quant_decode:  // nvfp4's fourth output (VALUES) has no v1 buffer
        if (f.gguf) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_VALUES}};
        if (f.divisors) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}};
        return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES}};
    case NINFER_OP_payload_validate: return {{NINFER_PLANE_PAYLOAD}, {}};
    case NINFER_OP_rows_select: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ROWS}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_linear: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ACTIVATION}, {NINFER_PLANE_OUTPUT}};
    default: return {};
    }
}

std::int32_t serve_v1(void *self, const ninfer_call_v1 *c, ninfer_result_v1 *r) {
    if (!r) return NINFER_E_INVALID_ARGUMENT;
    if (!c || c->struct_size < sizeof(ninfer_call_v1))
        return refuse_call(r, NINFER_E_INVALID_ARGUMENT, "call struct missing or smaller than ninfer_call v1");
    ninfer_call_v2 v2{};
    v2.struct_size = sizeof v2;
    v2.op = c->op;
    v2.format = c->format;
    v2.format_in = c->format_in;
    v2.layout = c->layout;
    v2.method = c->method;
    v2.flags = c->flags;
    v2.rank = c->rank;
    std::copy(std::begin(c->shape), std::end(c->shape), std::begin(v2.shape));
    v2.count = c->count;

    const OpPlanes p = planes_of(*c);
    const std::array<std::pair<const void *, std::uint64_t>, 2> in = {{{c->in, c->in_bytes}, {c->aux, c->aux_bytes}}};
    std::array<ninfer_input_plane, 2> inputs{};
    for (std::size_t i = 0; i < p.in.size() && p.in[i]; ++i) {
        // v1 says "no importance weights" with an empty aux; v2 with no importance plane.
        // Likewise an empty aux of convert: no random plane (an sr conversion draws its own bits).
        if ((p.in[i] == NINFER_PLANE_IMPORTANCE || p.in[i] == NINFER_PLANE_RANDOM) && in[i].second == 0) continue;
        inputs[v2.input_count++] = {p.in[i], 0, in[i].first, in[i].second};
    }
    const std::array<std::pair<void *, std::uint64_t>, 3> out = {
        {{c->out, c->out_bytes}, {c->out2, c->out2_bytes}, {c->out3, c->out3_bytes}}};
    std::array<ninfer_output_plane, 3> outputs{};
    for (std::size_t i = 0; i < p.out.size() && p.out[i]; ++i)
        outputs[v2.output_count++] = {p.out[i], 0, out[i].first, out[i].second, 0};
    v2.inputs = inputs.data();
    v2.outputs = outputs.data();

    ninfer_result_v2 res{};
    res.struct_size = sizeof res;
    const std::int32_t status = serve(self, &v2, &res);
    std::uint64_t *written[3] = {&r->out_written, &r->out2_written, &r->out3_written};
    for (std::uint32_t i = 0; i < v2.output_count; ++i) *written[i] = outputs[i].written;
    r->detail = res.detail;
    std::memcpy(r->message, res.message, sizeof r->message);
    return status;
}

}  // namespace

const ninfer_plugin_v1 &reference_table_v1() {
    static const std::vector<ninfer_capability_v1> caps = [] {
        std::vector<ninfer_capability_v1> v;
        // An operator needs a compute profile, which ABI 1 cannot carry: the v1 face has none.
        for (const auto &c : reference_capabilities())
            if (c.op != NINFER_OP_linear) v.push_back({c.op, c.format, c.format_in, c.layout, c.method});
        return v;
    }();
    static const ninfer_plugin_v1 table = [] {
        const ninfer_plugin_v2 &t2 = reference_table_v2();
        ninfer_plugin_v1 t{};
        t.abi_version = 1;
        t.struct_size = sizeof(ninfer_plugin_v1);
        t.name = t2.name;
        t.version = t2.version;
        t.capabilities = caps.data();
        t.capability_count = static_cast<std::uint32_t>(caps.size());
        t.self = nullptr;
        for (const auto &op : abi::kOps)
            if (op.id <= std::size(t.ops)) t.ops[op.id - 1] = &serve_v1;
        return t;
    }();
    return table;
}

}  // namespace ninfer::reference
