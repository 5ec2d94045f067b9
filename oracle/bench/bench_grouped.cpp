// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): the oracle's grouped_absmax (tensor-formats.txt Section 7.2) on a
// seeded FP32 matrix, 4096x4096 q4_g64_fp16 by default. Prints seconds and groups per second.
// Usage: bench_grouped [rows cols [format [seed]]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/grouped.hpp"

int main(int argc, char **argv) {
    using namespace ninfer::oracle;
    const std::uint64_t rows = argc > 2 ? std::strtoull(argv[1], nullptr, 10) : 4096;
    const std::uint64_t cols = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
    const std::string name = argc > 3 ? argv[3] : "q4_g64_fp16";
    const std::uint32_t seed = argc > 4 ? static_cast<std::uint32_t>(std::strtoul(argv[4], nullptr, 10)) : 20261129u;
    const auto *f = find_name(kGroupedFormats, name);
    if (!f || rows == 0 || cols == 0) {
        std::fprintf(stderr, "usage: bench_grouped [rows cols [grouped format [seed]]]\n");
        return 2;
    }
    // Finite binary32 words, exponents 2^-8 .. 2^7, random signs and fractions.
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> src(rows * cols * 4);
    for (std::uint64_t i = 0; i < rows * cols; ++i) {
        const std::uint32_t w = (rng() & 0x80000000u) | ((119u + rng() % 16) << 23) | (rng() & 0x7FFFFFu);
        ninfer::abi::store_le32(&src[4 * i], w);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = grouped_absmax(*f, NINFER_FORMAT_fp32, rows, cols, src);
    const auto t1 = std::chrono::steady_clock::now();
    if (r.status != NINFER_OK) {
        std::fprintf(stderr, "grouped_absmax failed: %s\n", r.message.c_str());
        return 1;
    }
    const double s = std::chrono::duration<double>(t1 - t0).count();
    const std::uint64_t groups = rows * grouped_groups_per_row(*f, cols);
    std::printf("oracle grouped_absmax %s [%llu,%llu] fp32 seed %u: %.3f s, %llu groups, %.0f groups/s, %.0f weights/s\n",
                name.c_str(), static_cast<unsigned long long>(rows), static_cast<unsigned long long>(cols), seed, s,
                static_cast<unsigned long long>(groups), static_cast<double>(groups) / s,
                static_cast<double>(rows * cols) / s);
    return 0;
}
