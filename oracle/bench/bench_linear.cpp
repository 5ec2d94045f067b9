// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): the exact `linear` oracle (linear_expect, profile f32_accumulate) on a
// seeded q4_g64_fp16 GEMV, 4096x4096 by default, then how it grows with K at N = 256
// (K = 1024, 2048, 4096, 8192), each next to a bare fp32 GEMV loop over the same shape measured
// in the same run (host floats: a yardstick only, no result of the suite comes from it).
// Usage: bench_linear [N K [seed]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/row_split.hpp"

namespace {

using namespace ninfer::oracle;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
    double oracle_s, fp32_s;
};

Row run(std::uint64_t n, std::uint64_t k, std::uint32_t seed) {
    const auto &f = grouped_format(NINFER_FORMAT_q4_g64_fp16);
    std::mt19937 rng(seed);
    GroupedMatrix m;
    m.rows = n;
    m.cols = k;
    m.codes.resize(n * k);
    for (auto &c : m.codes) c = static_cast<std::int8_t>(static_cast<int>(rng() % 16) - 8);
    m.scales.resize(n * grouped_groups_per_row(f, k));
    for (auto &s : m.scales) s = static_cast<std::uint16_t>(0x2000 + rng() % 0x1000);  // 2^-7 .. 2^-5, positive
    const auto payload = row_split_encode(f, m);
    std::vector<std::uint8_t> x(4 * k);
    for (std::uint64_t i = 0; i < k; ++i) {
        const std::uint32_t w = (rng() & 0x80000000u) | ((119u + rng() % 16) << 23) | (rng() & 0x7FFFFFu);
        ninfer::abi::store_le32(&x[4 * i], w);
    }
    LinearCall c;
    c.format = NINFER_FORMAT_q4_g64_fp16;
    c.layout = NINFER_LAYOUT_row_split_k128_v1;
    c.profile = NINFER_PROFILE_f32_accumulate;
    c.n = n;
    c.k = k;
    c.m = 1;
    c.activation_format = c.output_format = NINFER_FORMAT_fp32;
    auto t0 = std::chrono::steady_clock::now();
    const auto e = linear_expect(c, payload, x);
    const double oracle_s = seconds_since(t0);
    if (e.status != NINFER_OK) {
        std::fprintf(stderr, "linear_expect refused: %s\n", e.why.c_str());
        std::exit(1);
    }
    // The bare fp32 GEMV over the same shape (random floats; a yardstick).
    std::vector<float> wf(n * k), xf(k), y(n);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto &v : wf) v = dist(rng);
    for (auto &v : xf) v = dist(rng);
    t0 = std::chrono::steady_clock::now();
    for (std::uint64_t r = 0; r < n; ++r) {
        float s = 0;
        for (std::uint64_t i = 0; i < k; ++i) s += wf[r * k + i] * xf[i];
        y[r] = s;
    }
    const double fp32_s = seconds_since(t0);
    volatile float sink = y[n - 1];
    (void)sink;
    return {oracle_s, fp32_s};
}

}  // namespace

int main(int argc, char **argv) {
    const std::uint64_t n = argc > 2 ? std::strtoull(argv[1], nullptr, 10) : 4096;
    const std::uint64_t k = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
    const std::uint32_t seed = argc > 3 ? static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10)) : 20261130u;
    if (n == 0 || k == 0) {
        std::fprintf(stderr, "usage: bench_linear [N K [seed]]\n");
        return 2;
    }
    const auto r = run(n, k, seed);
    std::printf("oracle linear q4_g64_fp16 [%llu,%llu] x fp32 [1,%llu], f32_accumulate: %.3f s (%.0f weights/s); "
                "bare fp32 GEMV: %.4f s\n",
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), static_cast<unsigned long long>(k),
                r.oracle_s, static_cast<double>(n * k) / r.oracle_s, r.fp32_s);
    std::printf("%8s %8s %12s %16s %14s\n", "N", "K", "oracle s", "oracle weights/s", "fp32 GEMV s");
    for (const std::uint64_t kk : {1024u, 2048u, 4096u, 8192u}) {
        const auto t = run(256, kk, seed + static_cast<std::uint32_t>(kk));
        std::printf("%8d %8llu %12.4f %16.0f %14.6f\n", 256, static_cast<unsigned long long>(kk), t.oracle_s,
                    static_cast<double>(256 * kk) / t.oracle_s, t.fp32_s);
    }
    return 0;
}
