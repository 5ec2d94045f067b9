// SPDX-License-Identifier: Apache-2.0
// Device memory of one plugin call (CUDA runtime API): a buffer freed on every path out of the
// call, and the NINFER_E_INTERNAL result that names a failing CUDA step with CUDA's own text.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "ninfer/abi/plugin.h"
#include "word_plugin.hpp"

namespace ninfer::gpu {

/// NINFER_E_INTERNAL with the failing CUDA step and CUDA's name and text of the error.
inline std::int32_t cuda_failed(ninfer_result *r, const char *step, cudaError_t e) {
    return refuse(r, NINFER_E_INTERNAL, std::string(step) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

/// Device memory freed on every path out of a call.
struct DeviceBuffer {
    void *p = nullptr;
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    ~DeviceBuffer() {
        if (p) cudaFree(p);
    }
    /// cudaMalloc of `bytes` (at least 1, so that an empty plane still has an address).
    cudaError_t alloc(std::uint64_t bytes) { return cudaMalloc(&p, bytes ? bytes : 1); }
    std::uint8_t *bytes() const { return static_cast<std::uint8_t *>(p); }
    template <class T>
    T *as() const {
        return static_cast<T *>(p);
    }
};

}  // namespace ninfer::gpu
