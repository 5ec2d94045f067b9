// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): exhaustive sweeps through the harness against the reference plugin
// (worker processes, pipelined Iota batches in shared memory, block compare), each printed
// beside the same run's bare loop: the reference plugin's conversion code linked in-process
// converts, ninfer::native gives the expected words (what the sweep compares against), memcmp
// compares; in blocks of 4096 words, on one thread and on `jobs` threads.
//   bench_sweep [--skip-fp32] [--count N] [--jobs N] [--only NAME]   (NAME "failing": the
//   bf16 truncation mutant's failing sweep beside the reference's passing one and the mutant's
//   own passing sweep of fp32_to_bf16_rtz)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "scalar_codec.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/native_words.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

struct Row {
    const char *what;
    std::uint32_t op, id;
};

void report(const std::string &what, std::uint64_t words, double s, const std::string &how) {
    std::printf("%-44s %12llu words %9.3f s %14.4g words/s  (%s)\n", what.c_str(), static_cast<unsigned long long>(words), s,
                static_cast<double>(words) / s, how.c_str());
    std::fflush(stdout);
}

/// The bare loop over [0, total) on `threads` threads (contiguous ranges): convert with the
/// reference code, expected words from ninfer::native, memcmp; returns seconds and counts
/// differing blocks in `differing`.
double bare_loop(std::uint32_t conversion, std::uint64_t total, unsigned threads, std::uint64_t &differing) {
    constexpr std::uint64_t kBlock = 4096;
    std::atomic<std::uint64_t> diff{0};
    const auto t0 = std::chrono::steady_clock::now();
    const auto work = [&](std::uint64_t begin, std::uint64_t end) {
        std::vector<std::uint32_t> in(kBlock);
        std::vector<std::uint8_t> out(kBlock * 8), expected(kBlock * 8);
        const int ob = conversion == NINFER_CONVERSION_fp32_to_bf16_rne || conversion == NINFER_CONVERSION_fp32_to_fp16_rne ? 2 : 1;
        std::uint64_t d = 0;
        for (std::uint64_t start = begin; start < end; start += kBlock) {
            const std::uint64_t n = std::min(kBlock, end - start);
            for (std::uint64_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(start + i);
            const auto *bytes = reinterpret_cast<const std::uint8_t *>(in.data());
            reference::scalar_convert_batch(conversion, bytes, out.data(), n);
            native::convert_batch(conversion, bytes, expected.data(), n);
            if (std::memcmp(out.data(), expected.data(), n * static_cast<std::uint64_t>(ob)) != 0) ++d;
        }
        diff += d;
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, total * t / threads, total * (t + 1) / threads);
    work(0, total / threads);
    for (auto &t : pool) t.join();
    differing = diff;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char **argv) {
    bool skip_fp32 = false;
    std::uint64_t total = 1ull << 32;
    unsigned jobs = 2;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--skip-fp32") skip_fp32 = true;
        else if (a == "--count" && i + 1 < argc) total = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--jobs" && i + 1 < argc) jobs = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 0));
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_sweep [--skip-fp32] [--count N] [--jobs N] [--only CONVERSION]\n");
            return 2;
        }
    }
    if (skip_fp32) total = 1ull << 28;
    std::printf("bench_sweep: %u hardware threads; harness figures with --jobs %u (a worker process and a checker "
                "thread each); bare loops on 1 and on %u threads\n",
                std::thread::hardware_concurrency(), jobs, jobs);
    SubjectOptions so;
    so.worker_executable = NINFER_CONFORM_EXE;
    so.call_timeout = std::chrono::milliseconds(600000);
    const std::string plugin = std::string(NINFER_PLUGIN_DIR) + "/reference.so";
    auto subject = open_plugin(plugin, so);
    if (!subject->open_error().empty()) {
        std::fprintf(stderr, "bench_sweep: %s\n", subject->open_error().c_str());
        return 1;
    }
    const auto open_more = [&] { return open_plugin(plugin, so); };
    const auto id = identity_of(*subject, "plugin", plugin);
    int failures = 0;
    if (only.empty()) {
        const Row rows[] = {
            {"convert bf16_to_fp32 (all 2^16)", NINFER_OP_convert, NINFER_CONVERSION_bf16_to_fp32},
            {"convert fp16_to_fp32 (all 2^16)", NINFER_OP_convert, NINFER_CONVERSION_fp16_to_fp32},
            {"decode bf16 (all 2^16)", NINFER_OP_decode, NINFER_FORMAT_bf16},
            {"decode fp16 (all 2^16)", NINFER_OP_decode, NINFER_FORMAT_fp16},
            {"convert e4m3fn_to_fp32 (all 2^8)", NINFER_OP_convert, NINFER_CONVERSION_e4m3fn_to_fp32},
            {"decode e4m3fn (all 2^8)", NINFER_OP_decode, NINFER_FORMAT_e4m3fn},
        };
        for (const auto &r : rows) {
            SweepOptions o;
            o.op = r.op;
            (r.op == NINFER_OP_convert ? o.conversion : o.format) = r.id;
            // Small domains: repeat for a measurable time, best of the repeats.
            double best = 1e30;
            std::uint64_t words = 0;
            for (int rep = 0; rep < 5; ++rep) {
                const auto res = run_sweep(*subject, o, id);
                if (reports::run_failed(res.report)) ++failures;
                best = std::min(best, res.seconds);
                words = res.words;
            }
            report(r.what, words, best, "harness, one job, best of 5");
        }
    }
    const Row fp32[] = {
        {"fp32_to_bf16_rne", NINFER_OP_convert, NINFER_CONVERSION_fp32_to_bf16_rne},
        {"fp32_to_fp16_rne", NINFER_OP_convert, NINFER_CONVERSION_fp32_to_fp16_rne},
        {"fp32_to_e4m3fn_rne_satfinite", NINFER_OP_convert, NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite},
        {"fp32_to_e2m1_rne_satfinite", NINFER_OP_convert, NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite},
    };
    const std::string range = total == (1ull << 32) ? "all 2^32" : fmt::format("{} inputs", total);
    for (const auto &r : fp32) {
        if (!only.empty() && only != r.what) continue;
        const std::string label = fmt::format("{} ({})", r.what, range);
        SweepOptions o;
        o.conversion = r.id;
        o.count = total;
        o.jobs = jobs;
        const auto res = run_sweep(*subject, o, id, open_more);
        if (reports::run_failed(res.report)) ++failures;
        std::uint64_t d1 = 0, dn = 0;
        const double bare1 = bare_loop(r.id, total, 1, d1);
        const double baren = jobs > 1 ? bare_loop(r.id, total, jobs, dn) : bare1;
        report(label, res.words, res.seconds, fmt::format("harness, --jobs {}", jobs));
        report(label, total, bare1, fmt::format("bare loop, 1 thread, {} differing blocks", d1));
        if (jobs > 1) report(label, total, baren, fmt::format("bare loop, {} threads, {} differing blocks", jobs, dn));
        std::printf("%-44s harness / bare loop on %u threads: %.2fx\n", label.c_str(), jobs, res.seconds / baren);
        std::fflush(stdout);
    }
    // A failing sweep beside a passing one of the same conversion and range, in the same run
    // (issue 32, item 5): the bf16 truncation mutant mismatches on about half of the words.
    if (only.empty() || only == "failing") {
        const std::string label = fmt::format("fp32_to_bf16_rne ({})", range);
        const std::string mutant = std::string(NINFER_PLUGIN_DIR) + "/mutant_bf16_truncation.so";
        auto m = open_plugin(mutant, so);
        SweepOptions o;
        o.conversion = NINFER_CONVERSION_fp32_to_bf16_rne;
        o.count = total;
        o.jobs = jobs;
        const auto open_mutant = [&] { return open_plugin(mutant, so); };
        const auto mid = identity_of(*m, "plugin", mutant);
        const auto pass = run_sweep(*subject, o, id, open_more);
        const auto fail = run_sweep(*m, o, mid, open_mutant);
        // The mutant's own truncation passes fp32_to_bf16_rtz: the same subject's cost per word
        // without a mismatch, to tell the harness's cost of a failing word from the subject's.
        SweepOptions rtz = o;
        rtz.conversion = NINFER_CONVERSION_fp32_to_bf16_rtz;
        const auto own = run_sweep(*m, rtz, mid, open_mutant);
        report(label, pass.words, pass.seconds, fmt::format("harness, reference, --jobs {}, {} mismatches", jobs,
                                                            pass.report.cases.at(0).mismatches));
        report(label, fail.words, fail.seconds, fmt::format("harness, mutant_bf16_truncation, --jobs {}, {} mismatches", jobs,
                                                            fail.report.cases.at(0).mismatches));
        const std::string rtz_label = fmt::format("fp32_to_bf16_rtz ({})", range);
        report(rtz_label, own.words, own.seconds, fmt::format("harness, mutant_bf16_truncation, --jobs {}, {} mismatches",
                                                              jobs, own.report.cases.at(0).mismatches));
        std::printf("%-44s failing / passing sweep: %.2fx (reference passing); %.2fx (the mutant passing rtz)\n",
                    label.c_str(), fail.seconds / pass.seconds, fail.seconds / own.seconds);
        if (reports::run_failed(pass.report) || !reports::run_failed(fail.report) || reports::run_failed(own.report))
            ++failures;
    }
    if (failures) std::printf("WARNING: %d sweeps reported mismatches\n", failures);
    return failures ? 1 : 0;
}
