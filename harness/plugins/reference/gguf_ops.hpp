// SPDX-License-Identifier: Apache-2.0
// The reference plugin's half for the GGUF block types in ggml_blocks_v1 (tensor-formats.txt, the gguf_* table; storage-layouts.md 7):
// what reference_table.cpp dispatches to. Planes per op as harness/README.md gives them.
#pragma once

#include <cstdint>
#include <span>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// Capabilities of this half (appended to the plugin's table).
std::span<const ninfer_capability_v2> gguf_capabilities();

/// True when the call belongs to this half (a format of the family, or one of its layouts).
bool is_gguf_call(const ninfer_call_v2 *call);

/// Serve one call of this half; returns an NINFER_* status.
std::int32_t gguf_call(const ninfer_call_v2 *call, ninfer_result_v2 *result);

}  // namespace ninfer::reference
