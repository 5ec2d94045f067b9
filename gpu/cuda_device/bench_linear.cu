// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test) of cuda_device's `linear` GEMV kernels (tensor_kernels.cu): for every
// device weight format, a [4096, 4096] weight times M = 1 and M = 8 fp32 activation rows, the
// achieved bytes per second (payload + activation + output per call) beside the device's peak
// memory bandwidth (cudaDevAttrMemoryClockRate x cudaDevAttrGlobalMemoryBusWidth x 2) and
// beside a bare read loop over 1 GiB measured in the same run. Prints one JSON object.
// Usage: bench_cuda_device_linear [N K]   (exit 2 without a device)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "tensor_kernels.cuh"
#include "weight_view.hpp"

namespace {

#define CHECK_CUDA(expr)                                                                                     \
    do {                                                                                                     \
        const cudaError_t e_ = (expr);                                                                       \
        if (e_ != cudaSuccess) {                                                                             \
            std::fprintf(stderr, "bench_cuda_device_linear: %s: %s\n", #expr, cudaGetErrorString(e_));       \
            std::exit(3);                                                                                    \
        }                                                                                                    \
    } while (0)

/// The bare loop: every thread sums 16-byte words of the buffer (grid-stride); one word per block out.
__global__ void read_loop(const uint4 *p, std::uint64_t words, unsigned *sink) {
    unsigned acc = 0;
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
        const uint4 v = p[i];
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x12345678u) sink[blockIdx.x] = acc;  // keeps the loads; practically never stores
}

/// Seconds per launch of `f`: the mean of `reps` launches after `warm` warm-ups.
template <class F>
double seconds_per(F f, int warm = 3, int reps = 20) {
    for (int i = 0; i < warm; ++i) f();
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    CHECK_CUDA(cudaEventRecord(a));
    for (int i = 0; i < reps; ++i) f();
    CHECK_CUDA(cudaEventRecord(b));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    CHECK_CUDA(cudaEventDestroy(a));
    CHECK_CUDA(cudaEventDestroy(b));
    return ms / 1000.0 / reps;
}

}  // namespace

int main(int argc, char **argv) {
    const std::uint64_t n = argc > 2 ? std::strtoull(argv[1], nullptr, 10) : 4096, k = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "bench_cuda_device_linear: no CUDA device\n");
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0, bus_bits = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    const double peak = 2.0 * clock_khz * 1e3 * bus_bits / 8.0;

    const std::uint64_t bare_bytes = std::uint64_t{1} << 30;
    void *bare = nullptr, *sink = nullptr;
    CHECK_CUDA(cudaMalloc(&bare, bare_bytes));
    CHECK_CUDA(cudaMemset(bare, 1, bare_bytes));
    CHECK_CUDA(cudaMalloc(&sink, 4u << 20));
    const double bare_s = seconds_per([&] {
        read_loop<<<prop.multiProcessorCount * 8, 256>>>(static_cast<const uint4 *>(bare), bare_bytes / 16, static_cast<unsigned *>(sink));
    });
    const double bare_rate = bare_bytes / bare_s;
    CHECK_CUDA(cudaFree(bare));

    std::printf("{\"device\": \"%s\", \"sm\": \"%d.%d\", \"memory_clock_khz\": %d, \"bus_width_bits\": %d, "
                "\"peak_bytes_per_s\": %.6e, \"bare_read_loop_bytes_per_s\": %.6e, \"n\": %llu, \"k\": %llu, \"linear\": [",
                prop.name, prop.major, prop.minor, clock_khz, bus_bits, peak, bare_rate, static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(k));
    std::mt19937_64 rng(20261129);
    bool first = true;
    for (const auto &f : ninfer::abi::kAllFormats) {
        if (!ninfer::gpu::device_weight_format(f.id)) continue;
        ninfer::gpu::WeightView v;
        const std::uint64_t shape[2] = {n, k};
        if (ninfer::gpu::weight_geometry(f.id, shape, 2, v)) continue;  // the shape has no geometry for this format
        if (v.kind == ninfer::gpu::WeightKind::nvfp4) ninfer::gpu::weight_payload_size(v, v.divisors_at + 4);
        // Random bytes: the timing does not depend on validity (nvfp4's divisor set to 1.0).
        std::vector<std::uint8_t> payload(v.payload_bytes);
        for (auto &b : payload) b = static_cast<std::uint8_t>(rng());
        if (v.kind == ninfer::gpu::WeightKind::nvfp4) {
            const std::uint8_t one[4] = {0x00, 0x00, 0x80, 0x3F};  // binary32 1.0, little-endian
            std::copy(one, one + 4, payload.begin() + static_cast<std::ptrdiff_t>(v.divisors_at));
        }
        void *d_payload = nullptr, *d_x = nullptr, *d_y = nullptr;
        CHECK_CUDA(cudaMalloc(&d_payload, payload.size()));
        CHECK_CUDA(cudaMemcpy(d_payload, payload.data(), payload.size(), cudaMemcpyHostToDevice));
        for (const std::uint64_t m : {std::uint64_t{1}, std::uint64_t{8}}) {
            std::vector<float> x(m * k);
            for (auto &e : x) e = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 1000.0f;
            CHECK_CUDA(cudaMalloc(&d_x, 4 * x.size()));
            CHECK_CUDA(cudaMalloc(&d_y, 4 * m * n));
            CHECK_CUDA(cudaMemcpy(d_x, x.data(), 4 * x.size(), cudaMemcpyHostToDevice));
            const double s = seconds_per([&] {
                CHECK_CUDA(ninfer::gpu::launch_linear_f32(v, static_cast<const std::uint8_t *>(d_payload), NINFER_FORMAT_fp32,
                                                          static_cast<const std::uint8_t *>(d_x), m, static_cast<float *>(d_y)));
            });
            CHECK_CUDA(cudaDeviceSynchronize());
            const double bytes = static_cast<double>(payload.size() + 4 * m * k + 4 * m * n);
            std::printf("%s{\"format\": \"%s\", \"m\": %llu, \"seconds_per_call\": %.6e, \"bytes_per_call\": %.0f, "
                        "\"bytes_per_s\": %.6e, \"fraction_of_peak\": %.4f, \"fraction_of_bare_loop\": %.4f}",
                        first ? "" : ", ", std::string(f.name).c_str(), static_cast<unsigned long long>(m), s, bytes, bytes / s,
                        bytes / s / peak, bytes / s / bare_rate);
            first = false;
            CHECK_CUDA(cudaFree(d_x));
            CHECK_CUDA(cudaFree(d_y));
        }
        CHECK_CUDA(cudaFree(d_payload));
    }
    std::printf("]}\n");
    CHECK_CUDA(cudaFree(sink));
    return 0;
}
