// SPDX-License-Identifier: Apache-2.0
// The grouped-family half of the reference plugin (tensor-formats.txt Sections 3.2, 4-7;
// storage-layouts.md Section 3): what plugin_reference.cpp dispatches to for grouped formats
// and the row_split_k128_v1 layout.
#pragma once

#include <cstdint>
#include <span>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// Capabilities of the grouped half (appended to the plugin's table).
std::span<const ninfer_capability_v2> grouped_capabilities();

/// True when the call belongs to the grouped half (grouped format or row_split layout).
bool is_grouped_call(const ninfer_call_v2 *call);

/// Serve one grouped call (layout_encode/decode, quant_encode/decode, payload_validate,
/// rows_select) over the planes of harness/README.md; returns an NINFER_* status.
std::int32_t grouped_call(const ninfer_call_v2 *call, ninfer_result_v2 *result);

}  // namespace ninfer::reference
