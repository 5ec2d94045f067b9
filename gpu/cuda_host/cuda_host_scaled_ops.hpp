// SPDX-License-Identifier: Apache-2.0
// cuda_host's ops for nvfp4 and the FP8 row formats (quant_decode; quant_encode fp8_row_maxabs).
#pragma once

#include <cstdint>
#include <vector>

#include "ninfer/abi/plugin.h"

namespace ninfer::gpu {

/// The capabilities of these ops: quant_decode of each scaled format in its layout,
/// quant_encode fp8_row_maxabs of the FP8 row formats from fp32, bf16 and fp16.
void append_scaled_capabilities(std::vector<ninfer_capability> &caps);

std::int32_t cuda_host_quant_decode(void *, const ninfer_call *c, ninfer_result *r);
std::int32_t cuda_host_quant_encode(void *, const ninfer_call *c, ninfer_result *r);

}  // namespace ninfer::gpu
