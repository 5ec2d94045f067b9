// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): native::convert_batch of every FP32-source conversion (registry.h
// NINFER_CONVERSIONS) on one core, beside a plain narrowing copy loop (the low bytes of each
// binary32 word to the target width) measured in the same run. A cache-resident block of
// consecutive binary32 words, converted again and again: the figure is the loop's, not memory's.
// Usage: bench_native [words_total [block_words]]   (defaults 2^32 and 2^14)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Compiled like native::convert_batch's loops (AVX2 and baseline clones with GCC on x86-64).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define BENCH_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BENCH_CLONES
#endif

/// The plain loop: each binary32 word folded to `Width` bytes, written packed (a memcpy-like
/// narrowing copy).
template <int Width>
BENCH_CLONES void narrowing_copy(const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t w;
        std::memcpy(&w, in + 4 * i, 4);
        if constexpr (Width == 2) {
            const auto h = static_cast<std::uint16_t>(w ^ (w >> 16));
            std::memcpy(out + 2 * i, &h, 2);
        } else {
            out[i] = static_cast<std::uint8_t>(w ^ (w >> 24));
        }
    }
}

}  // namespace

int main(int argc, char **argv) {
    using namespace ninfer;
    const std::uint64_t total = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::uint64_t{1} << 32);
    const std::uint64_t block = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : (std::uint64_t{1} << 14);
    if (total == 0 || block == 0 || block > total) {
        std::fprintf(stderr, "usage: bench_native [words_total [block_words]] (block <= total, both > 0)\n");
        return 2;
    }
    const std::uint64_t reps = total / block;
    const double words = static_cast<double>(reps * block);
    std::vector<std::uint8_t> in(4 * block), out(2 * block);
    std::uint64_t sink = 0;
    // Consecutive words from a rep-dependent start: every block differs, as in a sweep.
    const auto fill = [&](std::uint64_t r) {
        for (std::uint64_t i = 0; i < block; ++i) {
            const auto w = static_cast<std::uint32_t>(r * 0x9E3779B1u + i * 0x10001u);
            std::memcpy(&in[4 * i], &w, 4);
        }
    };
    fill(0);
    // Seconds of this thread's CPU time (the wall time too, printed beside it: on a shared machine
    // the CPU time is the loop's own cost).
    struct Seconds {
        double wall = 0, cpu = 0;
    };
    const auto measure = [&](auto &&body) {
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_seconds();
        for (std::uint64_t r = 0; r < reps; ++r) {
            in[0] = static_cast<std::uint8_t>(r);  // defeats hoisting the loop out of the repetition
            body();
            sink += out[r % (out.size())];
        }
        return Seconds{std::chrono::duration<double>(Clock::now() - t0).count(), thread_cpu_seconds() - c0};
    };
    const auto print = [&](const char *what, Seconds s) {
        std::printf("%-30s cpu %7.3f s  %6.2fe9 words/s   (wall %7.3f s)\n", what, s.cpu, words / s.cpu / 1e9, s.wall);
    };
    std::printf("bench_native: %llu words per figure (%llu blocks of %llu words), one core\n",
                static_cast<unsigned long long>(reps * block), static_cast<unsigned long long>(reps),
                static_cast<unsigned long long>(block));
    print("plain loop 32->16 bits", measure([&] { narrowing_copy<2>(in.data(), out.data(), block); }));
    print("plain loop 32->8 bits", measure([&] { narrowing_copy<1>(in.data(), out.data(), block); }));
    for (const auto &c : oracle::kConversions) {
        if (c.src != NINFER_FORMAT_fp32 || ninfer::abi::is_stochastic(c)) continue;  // native serves no sr
        print(std::string(c.name).c_str(), measure([&] { native::convert_batch(c.id, in.data(), out.data(), block); }));
    }
    std::printf("(checksum %llu)\n", static_cast<unsigned long long>(sink));
    return 0;
}
