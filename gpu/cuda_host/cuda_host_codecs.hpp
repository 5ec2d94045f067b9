// SPDX-License-Identifier: Apache-2.0
// NVIDIA's own scalar conversions (cuda_bf16.h, cuda_fp16.h, cuda_fp8.h, cuda_fp4.h) compiled
// for the host, mapped onto the named conversions of registry.h. Nothing here rounds by itself:
// every word comes from an NVIDIA function, so that the suite can measure where they meet the
// spec (gpu/README.md). Needs no GPU and no libcudart.
#pragma once

#include <cstdint>

namespace ninfer::gpu {

/// Whether NVIDIA's host headers offer the registered conversion `conversion_id`.
bool cuda_host_has_conversion(std::uint32_t conversion_id);

/// One source word through NVIDIA's conversion (0 for a conversion it does not offer).
std::uint64_t cuda_host_convert(std::uint32_t conversion_id, std::uint64_t src);

/// Whether NVIDIA's headers offer a widening of `format_id` to float (used for decode).
bool cuda_host_has_decode(std::uint32_t format_id);

/// decode through NVIDIA's widening to float, then the exact float -> double cast.
std::uint64_t cuda_host_decode(std::uint32_t format_id, std::uint64_t word);

}  // namespace ninfer::gpu
