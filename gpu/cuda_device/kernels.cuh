// SPDX-License-Identifier: Apache-2.0
// NVIDIA's device conversions (tensor-formats.txt 3.1, 3.3; OCP FP8 and MX rules as NVIDIA's
// device instructions implement them) behind the registry's conversion ids, run as CUDA kernels.
// Nothing here rounds by itself: every word comes from an NVIDIA device intrinsic, so that the
// suite can measure where the device meets the spec (gpu/README.md "cuda-device").
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#if defined(__CUDACC__)
#define NINFER_HD __host__ __device__
#else
#define NINFER_HD
#endif

namespace ninfer::gpu {

/// Word `i` of a packed little-endian buffer of `bytes`-byte words (plugin.h buffers).
NINFER_HD inline std::uint64_t load_word(const std::uint8_t *buf, std::uint64_t i, int bytes) {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(buf[i * bytes + b]) << (8 * b);
    return v;
}

/// Stores the low `bytes` bytes of `v` as word `i` of a packed little-endian buffer.
NINFER_HD inline void store_word(std::uint8_t *buf, std::uint64_t i, int bytes, std::uint64_t v) {
    for (int b = 0; b < bytes; ++b) buf[i * bytes + b] = static_cast<std::uint8_t>(v >> (8 * b));
}

/// Whether a device kernel implements the registered conversion `conversion_id`.
bool cuda_device_has_conversion(std::uint32_t conversion_id);

/// Whether a device kernel implements decode (widening to float, then to double) of `format_id`.
bool cuda_device_has_decode(std::uint32_t format_id);

/// Launches the conversion over `n` packed words (`in_bytes`/`out_bytes` per word) in device
/// memory on the default stream; the launch status (cudaGetLastError), not completion.
cudaError_t cuda_device_launch_convert(std::uint32_t conversion_id, const std::uint8_t *d_in, int in_bytes,
                                       std::uint8_t *d_out, int out_bytes, std::uint64_t n);

/// Launches decode of `n` packed words of `format_id` to binary64 words in device memory.
cudaError_t cuda_device_launch_decode(std::uint32_t format_id, const std::uint8_t *d_in, int in_bytes,
                                      std::uint8_t *d_out, std::uint64_t n);

}  // namespace ninfer::gpu
