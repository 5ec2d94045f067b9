// SPDX-License-Identifier: Apache-2.0
// One format family of the reference plugin as data (issue 23; ggml's type_traits in spirit):
// which calls it claims, how it serves one, what it declares. Each family file defines its
// descriptor; reference_table.cpp holds the one array that dispatches calls and gathers
// capabilities, one line per family.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// What the reference's table needs of a family.
struct ReferenceFamily {
    std::string_view name;
    /// Whether the call is this family's; nullptr for the one family that serves every call no
    /// other family claims (the scalar words, and the refusal of an op nobody serves).
    bool (*claims)(const ninfer_call_v2 *call);
    /// Serve a claimed call (planes as harness/README.md gives them per op); an NINFER_* status.
    std::int32_t (*serve)(const ninfer_call_v2 *call, ninfer_result_v2 *result);
    /// The capabilities the family declares, appended to the table in array order.
    std::span<const ninfer_capability_v2> (*capabilities)();
};

/// Whether the call's op is a per-family op: `linear` belongs to the linear family whatever the
/// format of its weights, so the format families claim every op but that one.
inline bool family_op(const ninfer_call_v2 *call) { return call->op != NINFER_OP_linear; }

/// The descriptors the family files define (the GGUF family's is built in reference_table.cpp
/// from gguf_ops.hpp).
extern const ReferenceFamily kScalarFamily;   // scalar_ops.cpp
extern const ReferenceFamily kGroupedFamily;  // grouped.cpp
extern const ReferenceFamily kScaledFamily;   // scaled_ops.cpp
extern const ReferenceFamily kLinearFamily;   // linear_ops.cpp

/// reference_table.cpp's array: every family, in the order of the table's capabilities.
std::span<const ReferenceFamily *const> reference_families();

}  // namespace ninfer::reference
