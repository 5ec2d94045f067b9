// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): grouped_absmax (tensor-formats.txt Section 7.2) of a 4096x4096 FP32
// matrix by the reference plugin's own code; prints seconds and groups per second.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "grouped_codec.hpp"

int main() {
    namespace gn = ninfer::reference::grouped_codec;
    constexpr std::uint64_t n = 4096, k = 4096;
    std::mt19937_64 rng(20261129);
    std::normal_distribution<float> dist(0.0f, 0.02f);
    std::vector<float> x(n * k);
    for (auto &v : x) v = dist(rng);
    for (const auto &f : ninfer::abi::kGroupedFormats) {
        if (!f.canonical_encoders) continue;
        gn::Matrix m;
        const auto t0 = std::chrono::steady_clock::now();
        const auto o = gn::absmax(f, n, k, x, m);
        const auto p = gn::encode_payload(f, m);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (o.status != NINFER_OK || p.empty()) {
            std::fprintf(stderr, "bench_grouped_reference: %.*s failed: %s\n", static_cast<int>(f.name.size()),
                         f.name.data(), o.message.c_str());
            return 1;
        }
        const double groups = static_cast<double>(n) * static_cast<double>(k / f.group);
        std::printf("grouped_absmax %.*s [%llu,%llu] fp32: %.3f s (absmax + row_split payload), %.3e groups/s\n",
                    static_cast<int>(f.name.size()), f.name.data(), static_cast<unsigned long long>(n),
                    static_cast<unsigned long long>(k), s, groups / s);
    }
    return 0;
}
