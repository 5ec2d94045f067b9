// SPDX-License-Identifier: Apache-2.0
// NVIDIA's binary16 and BF16 types to and from their raw words (cuda_fp16.h, cuda_bf16.h host
// paths), shared by cuda_host's codecs. Private to gpu/cuda_host.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace ninfer::gpu::nv {

inline float from_half(unsigned short w) {
    __half_raw raw;
    raw.x = w;
    return __half2float(__half(raw));
}

inline float from_bf16(unsigned short w) {
    __nv_bfloat16_raw raw;
    raw.x = w;
    return __bfloat162float(__nv_bfloat16(raw));
}

inline unsigned short half_bits(__half h) { return static_cast<__half_raw>(h).x; }
inline unsigned short bf16_bits(__nv_bfloat16 b) { return static_cast<__nv_bfloat16_raw>(b).x; }

}  // namespace ninfer::gpu::nv
