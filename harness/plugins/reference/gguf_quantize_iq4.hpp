// SPDX-License-Identifier: Apache-2.0
// Private to gguf_blocks.cpp, gguf_quantize*.cpp and the GGUF mutants: ggml's 4-bit non-linear reference quantizers
// (gguf_quantize_iq4.cpp).
#pragma once

#include <cstdint>

namespace ninfer::reference::gguf_blocks {

/// ggml's quantize_row_iq4_nl_impl without an importance matrix: one block of `super` values
/// (32: block_iq4_nl, 256: block_iq4_xs) with `ntry` (-1: quantize_row_iq4_nl_ref; 7:
/// quantize_row_iq4_xs_ref) into `y`, the block's bytes. False (y not valid) where ggml packs
/// codes it never wrote: one sub-block, ntry <= 0, every |x| below GROUP_MAX_EPS (1e-15f).
/// x must be finite.
bool iq4_block(int super, int ntry, const float *x, std::uint8_t *y);

}  // namespace ninfer::reference::gguf_blocks
