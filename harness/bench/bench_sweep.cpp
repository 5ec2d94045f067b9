// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): exhaustive sweeps through the harness against the reference plugin
// (worker process, Iota batches, comparison), beside the bare native loop without the harness.
// Prints words per second; the harness uses one core for itself and one for the worker.
//   bench_sweep [--skip-fp32]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "native.hpp"
#include "ninfer/harness/runner.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

struct Row {
    const char *what;
    std::uint32_t op, id;
};

void report(const char *what, std::uint64_t words, double s, const char *how) {
    std::printf("%-34s %12llu words %9.3f s %14.4g words/s  (%s)\n", what, static_cast<unsigned long long>(words), s,
                static_cast<double>(words) / s, how);
}

double bare_loop(std::uint32_t conversion, std::uint64_t total, std::uint64_t batch) {
    std::vector<std::uint8_t> in(batch * 4), out(batch * 2);
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t sink = 0;
    for (std::uint64_t start = 0; start < total; start += batch) {
        const std::uint64_t n = std::min(batch, total - start);
        for (std::uint64_t i = 0; i < n; ++i) {
            const auto w = static_cast<std::uint32_t>(start + i);
            std::memcpy(&in[i * 4], &w, 4);
        }
        reference::native_convert_batch(conversion, in.data(), out.data(), n);
        sink += out[(n - 1) * 2];
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sink == 0xFFFFFFFFFFFFull) std::printf("\n");
    return s;
}

}  // namespace

int main(int argc, char **argv) {
    const bool skip_fp32 = argc > 1 && std::strcmp(argv[1], "--skip-fp32") == 0;
    std::printf("bench_sweep: %u hardware threads; harness figures use 2 processes (runner + worker), "
                "the bare loop one core\n", std::thread::hardware_concurrency());
    SubjectOptions so;
    so.worker_executable = NINFER_CONFORM_EXE;
    so.call_timeout = std::chrono::milliseconds(600000);
    const std::string plugin = std::string(NINFER_PLUGIN_DIR) + "/reference.so";
    auto subject = open_plugin(plugin, so);
    if (!subject->open_error().empty()) {
        std::fprintf(stderr, "bench_sweep: %s\n", subject->open_error().c_str());
        return 1;
    }
    const auto id = identity_of(*subject, "plugin", plugin);
    const Row rows[] = {
        {"convert bf16_to_fp32 (all 2^16)", NINFER_OP_convert, NINFER_CONVERSION_bf16_to_fp32},
        {"convert fp16_to_fp32 (all 2^16)", NINFER_OP_convert, NINFER_CONVERSION_fp16_to_fp32},
        {"decode bf16 (all 2^16)", NINFER_OP_decode, NINFER_FORMAT_bf16},
        {"decode fp16 (all 2^16)", NINFER_OP_decode, NINFER_FORMAT_fp16},
        {"convert e4m3fn_to_fp32 (all 2^8)", NINFER_OP_convert, NINFER_CONVERSION_e4m3fn_to_fp32},
        {"decode e4m3fn (all 2^8)", NINFER_OP_decode, NINFER_FORMAT_e4m3fn},
    };
    int failures = 0;
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
        report(r.what, words, best, "harness, best of 5");
    }
    const std::uint64_t total = skip_fp32 ? (1ull << 28) : (1ull << 32);
    const char *label = skip_fp32 ? "fp32_to_bf16_rne (2^28 inputs)" : "fp32_to_bf16_rne (all 2^32)";
    {
        SweepOptions o;
        o.conversion = NINFER_CONVERSION_fp32_to_bf16_rne;
        o.count = total;
        o.progress = true;
        const auto res = run_sweep(*subject, o, id);
        if (reports::run_failed(res.report)) ++failures;
        report(label, res.words, res.seconds, "harness");
    }
    report(label, total, bare_loop(NINFER_CONVERSION_fp32_to_bf16_rne, total, 1ull << 22),
           "bare native_convert_batch loop, one core");
    if (failures) std::printf("WARNING: %d sweeps reported mismatches\n", failures);
    return failures ? 1 : 0;
}
