// SPDX-License-Identifier: Apache-2.0
// Benchmark and proof program (not a test; docs/RESULTS.md, "Exhaustive proofs"): the fast native path
// (native::convert_batch) against the MPFR oracle (oracle_convert_range) over every binary32
// input of every FP32-source conversion of the registry (registry.h NINFER_CONVERSIONS), or of
// the conversions named, in ONE pass over the range (each binary32 word decomposed once and
// rounded under every conversion), in parallel over cores. Prints per conversion the words
// compared, the mismatch count and the first mismatches (input, native word, oracle word), then
// the pass's seconds and CPU time per word.
// Exit 0 when every word matched, 1 on any mismatch, 2 on bad arguments.
// Usage: prove_native [--start WORD] [--count N] [--threads T] [--keep K] [conversion...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "native_proof.hpp"
#include "ninfer/oracle/formats.hpp"

namespace {

using namespace ninfer;

int usage(const std::string &why) {
    std::fprintf(stderr,
                 "prove_native: %s\n"
                 "usage: prove_native [--start WORD] [--count N] [--threads T] [--keep K] [conversion...]\n"
                 "  conversions: the FP32-source conversions of the registry (default: all of them)\n",
                 why.c_str());
    return 2;
}

bool parse_u64(const char *text, std::uint64_t &out) {
    if (!text || !*text) return false;
    char *end = nullptr;
    out = std::strtoull(text, &end, 0);
    return *end == '\0' && text[0] != '-';
}

}  // namespace

int main(int argc, char **argv) {
    std::uint64_t start = 0, count = std::uint64_t{1} << 32, threads = 0, keep = 10;
    std::vector<const oracle::Conversion *> chosen;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        std::uint64_t *target = a == "--start" ? &start : a == "--count" ? &count : a == "--threads" ? &threads
                                : a == "--keep"                      ? &keep
                                                                     : nullptr;
        if (target) {
            if (i + 1 >= argc || !parse_u64(argv[i + 1], *target))
                return usage(std::string(a) + " needs a non-negative integer");
            ++i;
            continue;
        }
        const auto *c = oracle::find_name(oracle::kConversions, a);
        if (!c) return usage("unknown conversion '" + std::string(a) + "'");
        if (c->src != NINFER_FORMAT_fp32) return usage(std::string(a) + " is not an FP32-source conversion");
        if (ninfer::abi::is_stochastic(*c)) return usage(std::string(a) + " rounds stochastically: no native path");
        chosen.push_back(c);
    }
    if (chosen.empty())
        for (const auto &c : oracle::kConversions)
            if (c.src == NINFER_FORMAT_fp32 && !ninfer::abi::is_stochastic(c)) chosen.push_back(&c);
    if (start > (std::uint64_t{1} << 32) || count > (std::uint64_t{1} << 32) - start)
        return usage("--start/--count reach past the 2^32 binary32 words");
    const unsigned nthreads = threads ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());

    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::printf("prove_native: %zu conversion(s), binary32 words 0x%08llx .. +%llu, %u thread(s), started %s\n",
                chosen.size(), static_cast<unsigned long long>(start), static_cast<unsigned long long>(count), nthreads,
                stamp);
    std::fflush(stdout);
    // One pass over the range proves every chosen conversion: the oracle decomposes each
    // binary32 word once and rounds it under all of them (oracle::convert_word_many).
    std::vector<std::uint32_t> ids;
    for (const auto *c : chosen) ids.push_back(c->id);
    const auto t0 = std::chrono::steady_clock::now();
    const auto progress = [&](std::uint64_t done, std::uint64_t mismatches) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "  %zu conversion(s): %llu of %llu words compared, %llu mismatches so far, %.0f s\n",
                     chosen.size(), static_cast<unsigned long long>(done), static_cast<unsigned long long>(count),
                     static_cast<unsigned long long>(mismatches), s);
        std::fflush(stderr);
    };
    std::vector<proof::Result> results;
    const std::clock_t cpu0 = std::clock();
    try {
        results = proof::prove_conversions(ids, start, count, nthreads, keep, progress);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "prove_native: %s\n", e.what());
        return 2;
    }
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::uint64_t total_mismatches = 0;
    const double total_seconds = results.front().seconds;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const auto &r = results[k];
        const std::string name(chosen[k]->name);
        total_mismatches += r.mismatches;
        std::printf("%-30s words %llu  mismatches %llu  (one pass of %zu conversion(s))\n", name.c_str(),
                    static_cast<unsigned long long>(r.words), static_cast<unsigned long long>(r.mismatches), chosen.size());
        for (const auto &m : r.first)
            std::printf("  MISMATCH %s: input 0x%08llx native 0x%llx oracle 0x%llx\n", name.c_str(),
                        static_cast<unsigned long long>(m.input), static_cast<unsigned long long>(m.native),
                        static_cast<unsigned long long>(m.oracle));
    }
    const double words = static_cast<double>(count);
    std::printf("pass: %zu conversion(s), seconds %.1f  cpu seconds %.1f  (%.0f ns/word/thread wall, %.0f ns/word cpu, "
                "%.0f ns/word/conversion cpu)\n",
                chosen.size(), total_seconds, cpu, count ? total_seconds * 1e9 * nthreads / words : 0.0,
                count ? cpu * 1e9 / words : 0.0, count ? cpu * 1e9 / words / static_cast<double>(chosen.size()) : 0.0);
    std::fflush(stdout);
    std::printf("prove_native: %zu conversion(s) x %llu inputs, %llu mismatches, %.1f minutes on %u thread(s)\n",
                chosen.size(), static_cast<unsigned long long>(count), static_cast<unsigned long long>(total_mismatches),
                total_seconds / 60, nthreads);
    return total_mismatches ? 1 : 0;
}
