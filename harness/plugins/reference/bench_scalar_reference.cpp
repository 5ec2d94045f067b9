// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): the reference plugin's own batch loops of the four conversions a sweep
// is timed on (scalar_conversions.cpp: fp32 -> bf16, fp16, e4m3fn satfinite, e2m1 satfinite), on one
// core, beside a plain narrowing copy loop, and the bare sweep loop (the reference converts a
// block of consecutive binary32 words, ninfer::native computes the expected words, memcmp
// compares) measured in the same run. CPU seconds of this thread (wall beside them).
// Usage: bench_scalar_reference [words (default 2^30, at most 2^32)]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "scalar_codec.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace {

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define BENCH_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BENCH_CLONES
#endif

/// The plain loop: each binary32 word's top `Out` bytes, written packed (compiled like the
/// reference's loops).
template <class Out>
BENCH_CLONES void narrowing_copy(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t w;
        std::memcpy(&w, in + 4 * i, 4);
        const auto o = static_cast<Out>(w >> (32 - 8 * sizeof(Out)));
        std::memcpy(out + sizeof(Out) * i, &o, sizeof(Out));
    }
}

}  // namespace

int main(int argc, char **argv) {
    using namespace ninfer;
    const std::uint64_t total = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::uint64_t{1} << 30);
    constexpr std::uint64_t kBlock = 1u << 14;
    if (total < kBlock || total > (std::uint64_t{1} << 32)) {
        std::fprintf(stderr, "usage: bench_scalar_reference [words: 2^14 .. 2^32]\n");
        return 2;
    }
    const std::uint64_t blocks = total / kBlock;
    const double words = static_cast<double>(blocks * kBlock);
    std::vector<std::uint8_t> in(4 * kBlock), got(2 * kBlock), want(2 * kBlock);
    std::uint64_t sink = 0, mismatching_blocks = 0;
    // Every block holds the next consecutive binary32 words: the run covers words 0 .. total - 1.
    // (The fill is part of every figure, as a sweep makes its inputs too.)
    const auto fill = [&](std::uint64_t b) {
        for (std::uint64_t i = 0; i < kBlock; ++i) {
            const auto w = static_cast<std::uint32_t>(b * kBlock + i);
            std::memcpy(&in[4 * i], &w, 4);
        }
    };
    const auto run = [&](const char *what, auto &&body) {
        const double w0 = wall_seconds(), c0 = cpu_seconds();
        for (std::uint64_t b = 0; b < blocks; ++b) {
            fill(b);
            body();
            sink += got[b % got.size()];
        }
        const double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
        std::printf("  %-44s cpu %7.3f s  %6.2fe9 words/s  (wall %7.3f s)\n", what, cpu, words / cpu / 1e9, wall);
        std::fflush(stdout);
    };
    std::printf("bench_scalar_reference: binary32 words 0 .. %llu, blocks of %llu, one core (fill included)\n",
                static_cast<unsigned long long>(blocks * kBlock), static_cast<unsigned long long>(kBlock));
    const std::uint32_t ids[] = {NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_CONVERSION_fp32_to_fp16_rne,
                                 NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite};
    for (const std::uint32_t id : ids) {
        const auto *c = abi::find_id(abi::kConversions, id);
        const int width = abi::find_id(abi::kWordFormats, c->dst)->bits > 8 ? 2 : 1;
        std::printf("%s\n", std::string(c->name).c_str());
        run("fill + plain narrowing copy", [&] {
            if (width == 2) narrowing_copy<std::uint16_t>(in.data(), got.data(), kBlock);
            else narrowing_copy<std::uint8_t>(in.data(), got.data(), kBlock);
        });
        run("fill + reference convert_batch", [&] { reference::scalar_convert_batch(id, in.data(), got.data(), kBlock); });
        run("fill + reference + native expected + memcmp", [&] {
            reference::scalar_convert_batch(id, in.data(), got.data(), kBlock);
            native::convert_batch(id, in.data(), want.data(), kBlock);
            mismatching_blocks += std::memcmp(got.data(), want.data(), kBlock * width) != 0;
        });
    }
    std::printf("(blocks where the reference and ninfer::native differ: %llu; checksum %llu)\n",
                static_cast<unsigned long long>(mismatching_blocks), static_cast<unsigned long long>(sink));
    return mismatching_blocks ? 1 : 0;
}
