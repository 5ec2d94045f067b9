// SPDX-License-Identifier: Apache-2.0
// cuda_device's tensor ops (plugin.h ABI v2; the call semantics harness/README.md gives per op):
// quant_decode of every weight family, quant_encode by grouped_absmax and
// fp8_row_maxabs, and `linear` under f32_accumulate (and gguf_q8_1_f32 for GGUF weights), each
// computed on the device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::gpu {

/// The plugin's device probe: empty when a device is usable, else the reason (the version text).
const std::string &cuda_device_unusable();

/// The tensor capabilities (quant_decode, quant_encode, linear), each per (format, layout[, method
/// or profile]); empty without a usable device.
std::vector<ninfer_capability> tensor_capabilities();

std::int32_t op_quant_decode(void *self, const ninfer_call *c, ninfer_result *r);
std::int32_t op_quant_encode(void *self, const ninfer_call *c, ninfer_result *r);
std::int32_t op_linear(void *self, const ninfer_call *c, ninfer_result *r);

}  // namespace ninfer::gpu
