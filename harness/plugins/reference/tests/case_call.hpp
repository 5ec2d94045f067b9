// SPDX-License-Identifier: Apache-2.0
// Test helper: a suite case (suites/include/ninfer/suites/case.hpp) run through a plugin table,
// as a v2 call with the op's planes (v2_call.hpp) or as a v1 call with in/aux/out/out2/out3.
// The one place where the reference's tests map the case model onto the ABI.
#pragma once

#include <string>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/suites/case.hpp"
#include "v2_call.hpp"

namespace ninfer::testing {

/// What a case's call returned, outputs in the op's plane order.
struct CaseOutcome {
    std::int32_t status = 0;
    std::uint32_t detail = 0;
    std::string message;
    std::vector<std::vector<std::uint8_t>> outputs;  // written bytes of each output plane
};

inline bool grouped_case(const suites::Case &c) {
    return abi::find_id(abi::kGroupedFormats, c.format) != nullptr || c.layout == NINFER_LAYOUT_row_split_k128_v1;
}

inline ninfer_call_v2 case_head(const suites::Case &c) {
    ninfer_call_v2 h = v2_head(c.op, c.format, c.format_in, c.layout, c.method);
    h.flags = c.flags;
    h.rank = static_cast<std::uint32_t>(c.shape.size());
    for (std::size_t i = 0; i < c.shape.size() && i < NINFER_MAX_RANK; ++i) h.shape[i] = c.shape[i];
    h.count = c.count;
    return h;
}

/// The op's planes as the suites define them (suites::op_planes, the ABI v2 table).
inline suites::OpPlanes case_planes(const suites::Case &c) { return suites::op_planes(c.op, c.format, c.layout); }

/// The case as a v2 call: the case's input planes in the op's order (a plane the case does not
/// carry, such as an absent importance plane, is not offered), outputs sized as expected plus
/// `slack` bytes.
inline CaseOutcome run_case_v2(const ninfer_plugin_v2 &t, const suites::Case &c, std::uint64_t slack = 64) {
    const auto p = case_planes(c);
    std::vector<InPlane> in;
    for (const auto name : p.inputs)
        if (const auto *plane = suites::find_plane(c.inputs, name)) in.push_back({name, plane->bytes});
    std::vector<OutPlane> out;
    for (const auto name : p.outputs) out.push_back({name, c.expect.output(name).size() + slack});
    const V2Outcome o = call_v2(t, case_head(c), in, out);
    CaseOutcome r{o.status, o.result.detail, o.result.message, {}};
    for (const auto name : p.outputs) r.outputs.push_back(o.out(name));
    return r;
}

/// The case as a v1 call (the frozen layout: input planes 0, 1 as in, aux; output planes 0..2 as
/// out, out2, out3, the order of the harness's v1 adapter).
inline CaseOutcome run_case_v1(const ninfer_plugin_v1 &t, const suites::Case &c, std::uint64_t slack = 64) {
    const ninfer_call_v2 h = case_head(c);
    const auto p = case_planes(c);
    const auto input = [&](std::size_t i) -> const std::vector<std::uint8_t> & { return c.input(i < p.inputs.size() ? p.inputs[i] : 0); };
    const auto expected = [&](std::size_t i) -> const std::vector<std::uint8_t> & {
        return c.expect.output(i < p.outputs.size() ? p.outputs[i] : 0);
    };
    ninfer_call_v1 call{};
    call.struct_size = sizeof call;
    call.op = h.op;
    call.format = h.format;
    call.format_in = h.format_in;
    call.layout = h.layout;
    call.method = h.method;
    call.flags = h.flags;
    call.rank = h.rank;
    std::copy(std::begin(h.shape), std::end(h.shape), std::begin(call.shape));
    call.count = h.count;
    call.in = input(0).data();
    call.in_bytes = input(0).size();
    call.aux = input(1).data();
    call.aux_bytes = input(1).size();
    std::vector<std::uint8_t> out(expected(0).size() + slack), out2(expected(1).size() + slack), out3(expected(2).size() + slack);
    call.out = out.data();
    call.out_bytes = out.size();
    call.out2 = out2.data();
    call.out2_bytes = out2.size();
    call.out3 = out3.data();
    call.out3_bytes = out3.size();
    ninfer_result_v1 res{};
    CaseOutcome r;
    r.status = t.ops[c.op - 1](t.self, &call, &res);
    r.detail = res.detail;
    r.message = res.message;
    out.resize(res.out_written);
    out2.resize(res.out2_written);
    out3.resize(res.out3_written);
    std::vector<std::uint8_t> *all[] = {&out, &out2, &out3};
    for (std::size_t i = 0; i < p.outputs.size() && i < 3; ++i) r.outputs.push_back(*all[i]);
    return r;
}

/// An empty string when the outcome matches the case's expected status, detail and outputs
/// (bit for bit; outputs the case leaves empty past the first are not compared).
inline std::string mismatch(const suites::Case &c, const CaseOutcome &o) {
    if (o.status != c.expect.status)
        return "status " + std::to_string(o.status) + " expected " + std::to_string(c.expect.status) + ": " + o.message;
    if (o.status != NINFER_OK) {
        if (c.expect.detail && o.detail != c.expect.detail)
            return "detail " + std::to_string(o.detail) + " expected " + std::to_string(c.expect.detail);
        return {};
    }
    const auto p = case_planes(c);
    for (std::size_t i = 0; i < o.outputs.size() && i < p.outputs.size(); ++i) {
        const auto &want = c.expect.output(p.outputs[i]);
        if (i > 0 && want.empty()) continue;
        if (o.outputs[i] != want) return "output plane " + std::string(abi::plane_name(p.outputs[i])) + " differs";
    }
    return {};
}

}  // namespace ninfer::testing
