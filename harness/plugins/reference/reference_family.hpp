// SPDX-License-Identifier: Apache-2.0
// One format family of the reference plugin as data (issue 23; ggml's type_traits in spirit):
// which calls it claims, how it serves one, what it declares. Each family file defines its
// descriptor; reference_table.cpp registers them (abi/family_registry.hpp, one line per family)
// and dispatches calls and gathers capabilities in that order.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"

namespace ninfer::reference {

/// What the reference's table needs of a family.
struct ReferenceFamily {
    abi::Family family = {};
    /// Whether the call is this family's; nullptr for the one family that serves every call no
    /// other family claims (the scalar words, and the refusal of an op nobody serves).
    bool (*claims)(const ninfer_call_v2 *call) = nullptr;
    /// Serve a claimed call (planes as harness/README.md gives them per op); an NINFER_* status.
    std::int32_t (*serve)(const ninfer_call_v2 *call, ninfer_result_v2 *result) = nullptr;
    /// The capabilities the family declares, appended to the table in array order.
    std::span<const ninfer_capability_v2> (*capabilities)() = nullptr;
};

/// Whether the call's op is a per-family op: `linear` belongs to the linear family whatever the
/// format of its weights, so the format families claim every op but that one.
inline bool family_op(const ninfer_call_v2 *call) { return call->op != NINFER_OP_linear; }

/// The descriptors the family files define.
extern const ReferenceFamily kWordReference;     // scalar_ops.cpp
extern const ReferenceFamily kGroupedReference;  // grouped.cpp
extern const ReferenceFamily kScaledReference;   // scaled_ops.cpp
extern const ReferenceFamily kGgufReference;     // gguf_ops.cpp
extern const ReferenceFamily kLinearReference;   // linear_ops.cpp

/// Every family of the reference, in the order of the table's capabilities: the built-in ones
/// (reference_table.cpp, one line per family), then the added ones.
std::span<const ReferenceFamily *const> reference_families();
/// Adds a family's descriptor (a family outside the built-in list, e.g. a test's toy family);
/// false, and nothing added, when its family has one. Must run before the table's capabilities
/// are first read: throws std::logic_error afterwards. The descriptor must outlive the plugin.
bool add_reference_family(const ReferenceFamily &family);

}  // namespace ninfer::reference
