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

/// The case as a v2 call: `in` and `aux` on the op's input planes (no importance plane for an
/// empty aux), outputs sized as expected plus `slack` bytes.
inline CaseOutcome run_case_v2(const ninfer_plugin_v2 &t, const suites::Case &c, std::uint64_t slack = 64) {
    const OpPlanes p = op_planes(c.op, grouped_case(c));
    std::vector<InPlane> in;
    const std::vector<std::uint8_t> *buffers[] = {&c.in, &c.aux};
    for (std::size_t i = 0; i < p.in.size() && i < 2; ++i) {
        if (p.in[i] == NINFER_PLANE_IMPORTANCE && c.aux.empty()) continue;
        in.push_back({p.in[i], *buffers[i]});
    }
    const std::vector<std::uint8_t> *expected[] = {&c.expect.out, &c.expect.out2, &c.expect.out3};
    std::vector<OutPlane> out;
    for (std::size_t i = 0; i < p.out.size() && i < 3; ++i) out.push_back({p.out[i], expected[i]->size() + slack});
    const V2Outcome o = call_v2(t, case_head(c), in, out);
    CaseOutcome r{o.status, o.result.detail, o.result.message, {}};
    for (const auto name : p.out) r.outputs.push_back(o.out(name));
    return r;
}

/// The case as a v1 call (the frozen layout: in, aux, out, out2, out3).
inline CaseOutcome run_case_v1(const ninfer_plugin_v1 &t, const suites::Case &c, std::uint64_t slack = 64) {
    const ninfer_call_v2 h = case_head(c);
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
    call.in = c.in.data();
    call.in_bytes = c.in.size();
    call.aux = c.aux.data();
    call.aux_bytes = c.aux.size();
    std::vector<std::uint8_t> out(c.expect.out.size() + slack), out2(c.expect.out2.size() + slack),
        out3(c.expect.out3.size() + slack);
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
    const std::size_t planes = op_planes(c.op, grouped_case(c)).out.size();
    out.resize(res.out_written);
    out2.resize(res.out2_written);
    out3.resize(res.out3_written);
    std::vector<std::uint8_t> *all[] = {&out, &out2, &out3};
    for (std::size_t i = 0; i < planes; ++i) r.outputs.push_back(*all[i]);
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
    const std::vector<std::uint8_t> *expected[] = {&c.expect.out, &c.expect.out2, &c.expect.out3};
    for (std::size_t i = 0; i < o.outputs.size(); ++i) {
        if (i > 0 && expected[i]->empty()) continue;
        if (o.outputs[i] != *expected[i]) return "output plane " + std::to_string(i) + " differs";
    }
    return {};
}

}  // namespace ninfer::testing
