// SPDX-License-Identifier: Apache-2.0
// The reference plugin's half for the scaled family (nvfp4 in block_scale_k16_m128x4_v1, fp8_e4m3fn_row_bf16 in row_scale_v1, fp8_e4m3fn_row_fp16 in row_interleaved_v1; tensor-formats.txt 3.3, 3.4; storage-layouts.md 4-6):
// what reference_table.cpp dispatches to. Planes per op as harness/README.md gives them.
#pragma once

#include <cstdint>
#include <span>

#include "scaled_codec.hpp"
#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// Capabilities of this half (appended to the plugin's table).
std::span<const ninfer_capability_v2> scaled_capabilities();

/// True when the call belongs to this half (a format of the family, or one of its layouts).
bool is_scaled_call(const ninfer_call_v2 *call);

/// Serve one call of this half under `rules` (the reference's own, or a mutant's with one rule
/// replaced); returns an NINFER_* status. Check order of the family contract: the pair (before
/// any plane is read), the shape, the planes present and sized, then their content.
std::int32_t scaled_call(const ninfer_call_v2 *call, ninfer_result_v2 *result, const ScaledRules &rules = kScaledRules);

}  // namespace ninfer::reference
