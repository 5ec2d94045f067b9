// SPDX-License-Identifier: Apache-2.0
// Private to native_gguf*.cpp: ggml's K-quant reference quantizers (native_gguf_kquants.cpp).
#pragma once

#include <cstdint>

#include "native_gguf.hpp"

namespace ninfer::reference::gguf_native {

/// quantize_row_<type>_ref of one 256-value block for q2_K .. q6_K (ggml types 10..14) into
/// `y` (the block's bytes); false for another type (nothing written). x must be finite.
bool kquant_block(std::uint32_t ggml_type, const float *x, std::uint8_t *y);

}  // namespace ninfer::reference::gguf_native
