// SPDX-License-Identifier: Apache-2.0
// Plugin "cuda_device" (plugin.h, ABI v2): NVIDIA's conversions and widenings run as CUDA kernels on the
// device (kernels.cu); the tensor ops quant_decode, quant_encode and linear (tensor_ops.cpp). Each call copies its words in, launches, and copies the result out; every
// CUDA error becomes NINFER_E_INTERNAL with CUDA's own text. Without a usable device the table
// declares no capability and its version says why, so every case is reported unsupported.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "kernels.cuh"
#include "tensor_ops.hpp"
#include "ninfer/abi/registry.hpp"
#include "word_plugin.hpp"

using ninfer::gpu::call_readable;
using ninfer::gpu::cuda_failed;
using ninfer::gpu::DeviceBuffer;
using ninfer::gpu::check_words;
using ninfer::gpu::refuse;
using ninfer::gpu::word_capabilities;
using ninfer::gpu::word_plugin_table;
using ninfer::gpu::WordPlanes;

namespace {

using namespace ninfer;

constexpr const char *kVersion = "0.1.0";

/// What the plugin found at load: a device it can run on, or why not.
struct Probe {
    bool usable = false;
    std::string version;
};

/// The first device, if cudaGetDeviceCount finds one of compute capability 9.0 or newer (the
/// kernels are built for sm_90) and a context starts on it.
Probe probe_device() {
    Probe p;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        p.version = std::string(kVersion) + "; no CUDA device (cudaGetDeviceCount: " + cudaGetErrorName(e) + ": " +
                    cudaGetErrorString(e) + ")";
        return p;
    }
    if (n == 0) {
        p.version = std::string(kVersion) + "; no CUDA device (cudaGetDeviceCount: 0 devices)";
        return p;
    }
    cudaDeviceProp prop{};
    e = cudaGetDeviceProperties(&prop, 0);
    if (e != cudaSuccess) {
        p.version = std::string(kVersion) + "; no CUDA device (cudaGetDeviceProperties: " + cudaGetErrorName(e) + ": " +
                    cudaGetErrorString(e) + ")";
        return p;
    }
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    const std::string where = std::string(prop.name) + ", sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
                              ", runtime " + std::to_string(runtime) + ", driver " + std::to_string(driver);
    if (prop.major < 9) {
        p.version = std::string(kVersion) + "; no CUDA device of sm_90 or newer: " + where;
        return p;
    }
    // The context is created here, not in the first call, so that a process where CUDA cannot
    // start (a low RLIMIT_AS, say) declares nothing instead of failing every call.
    e = cudaFree(nullptr);
    if (e != cudaSuccess) {
        p.version = std::string(kVersion) + "; no CUDA device (context on " + where + ": " + cudaGetErrorName(e) +
                    ": " + cudaGetErrorString(e) + ")";
        return p;
    }
    p.usable = true;
    p.version = std::string(kVersion) + "; " + where;
    return p;
}

const Probe &probe() {
    static const Probe p = probe_device();
    return p;
}

/// Copies `in_bytes` of the input plane to the device, runs `launch(d_in, d_out)`, waits for it,
/// and copies `out_bytes` back to the output plane.
template <class Launch>
std::int32_t run_on_device(const ninfer_call *c, ninfer_result *r, const WordPlanes &p, std::uint64_t in_bytes,
                           std::uint64_t out_bytes, Launch launch) {
    if (c->count == 0) return NINFER_OK;
    DeviceBuffer d_in, d_out;
    if (cudaError_t e = cudaMalloc(&d_in.p, in_bytes); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(in)", e);
    if (cudaError_t e = cudaMalloc(&d_out.p, out_bytes); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(out)", e);
    if (cudaError_t e = cudaMemcpy(d_in.p, p.in->data, in_bytes, cudaMemcpyHostToDevice); e != cudaSuccess)
        return cuda_failed(r, "cudaMemcpy(in)", e);
    if (cudaError_t e = launch(d_in.bytes(), d_out.bytes()); e != cudaSuccess) return cuda_failed(r, "kernel launch", e);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_failed(r, "kernel", e);
    if (cudaError_t e = cudaMemcpy(p.out->data, d_out.p, out_bytes, cudaMemcpyDeviceToHost); e != cudaSuccess)
        return cuda_failed(r, "cudaMemcpy(out)", e);
    p.out->written = out_bytes;
    return NINFER_OK;
}

std::int32_t op_convert(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    if (!probe().usable) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device " + probe().version);
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !gpu::cuda_device_has_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, "no device kernel for conversion " + std::to_string(c->method));
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "formats do not match the conversion");
    const int ib = abi::find_id(abi::kWordFormats, conv->src)->bytes();
    const int ob = abi::find_id(abi::kWordFormats, conv->dst)->bytes();
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_WORDS, ib, ob, p); s != NINFER_OK) return s;
    return run_on_device(c, r, p, c->count * ib, c->count * ob, [&](const std::uint8_t *d_in, std::uint8_t *d_out) {
        return gpu::cuda_device_launch_convert(c->method, d_in, ib, d_out, ob, c->count);
    });
}

std::int32_t op_decode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    if (!probe().usable) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device " + probe().version);
    const auto *f = abi::find_id(abi::kWordFormats, c->format);
    if (!f || !gpu::cuda_device_has_decode(c->format))
        return refuse(r, NINFER_E_UNSUPPORTED, "no device kernel decodes format " + std::to_string(c->format));
    const int ib = f->bytes();
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_VALUES, ib, 8, p); s != NINFER_OK) return s;
    return run_on_device(c, r, p, c->count * ib, c->count * 8, [&](const std::uint8_t *d_in, std::uint8_t *d_out) {
        return gpu::cuda_device_launch_decode(c->format, d_in, ib, d_out, c->count);
    });
}

std::vector<ninfer_capability> capabilities() {
    if (!probe().usable) return {};
    auto caps = word_capabilities([](std::uint32_t f) { return gpu::cuda_device_has_decode(f); },
                                  [](std::uint32_t c) { return gpu::cuda_device_has_conversion(c); });
    const auto tensor = gpu::tensor_capabilities();
    caps.insert(caps.end(), tensor.begin(), tensor.end());
    return caps;
}

/// The word plugin's table with the tensor ops (tensor_ops.cpp) added.
ninfer_plugin plugin_table(const std::vector<ninfer_capability> &caps) {
    ninfer_plugin t = word_plugin_table("cuda_device", probe().version.c_str(), caps, &op_decode, &op_convert);
    t.ops[NINFER_OP_quant_decode - 1] = &gpu::op_quant_decode;
    t.ops[NINFER_OP_quant_encode - 1] = &gpu::op_quant_encode;
    t.ops[NINFER_OP_linear - 1] = &gpu::op_linear;
    return t;
}

}  // namespace

const std::string &ninfer::gpu::cuda_device_unusable() {
    static const std::string why = probe().usable ? std::string() : probe().version;
    return why;
}

// ABI 2 and later get the v2 table; a v1 harness gets NULL (plugin.h, negotiation).
extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    if (harness_abi < 2) return nullptr;
    static const std::vector<ninfer_capability> caps = capabilities();
    static const ninfer_plugin table = plugin_table(caps);
    return &table;
}
