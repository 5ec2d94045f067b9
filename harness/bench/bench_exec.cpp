// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): what the exec protocol costs per word, with a C++ subject that
// computes nothing (bench/exec_null_subject.cpp), in batches of 2^22 fp32_to_bf16_rne words:
// binary frames with iota (the subject makes its inputs), binary frames with the input words
// sent, and JSON lines with hex. scripts/bench_exec.sh prints these beside the numpy figures.
//   bench_exec [log2 words of the binary runs, default 28] [NUMPY_COMMAND HEX_START]
// With a numpy command (harness/examples/numpy_codec.py), also its fp32_to_fp16_rne calls from
// HEX_START, without the sweep's comparison.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ninfer/harness/subject.hpp"

using namespace ninfer::harness;

namespace {

/// Calls of `batch` iota words over `total` words from `start` of a conversion (bf16 or fp16
/// from fp32) on the exec subject `command`; words per second, or 0 on a failed call.
double words_per_second(const std::string &command, const std::string &mode, std::uint64_t total, std::uint64_t batch,
                        std::uint64_t first = 0, bool fp16 = false) {
    SubjectOptions so;
    so.call_timeout = std::chrono::milliseconds(600000);
    auto s = open_exec(command, so);
    if (!s->open_error().empty()) {
        std::fprintf(stderr, "bench_exec: %s\n", s->open_error().c_str());
        return 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t start = 0; start < total; start += batch) {
        Call c;
        c.op = NINFER_OP_convert;
        c.format = fp16 ? NINFER_FORMAT_fp16 : NINFER_FORMAT_bf16;
        c.format_in = NINFER_FORMAT_fp32;
        c.method = fp16 ? NINFER_CONVERSION_fp32_to_fp16_rne : NINFER_CONVERSION_fp32_to_bf16_rne;
        c.count = std::min(batch, total - start);
        c.shape = {c.count};
        c.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
        c.iota = Iota{first + start, 4};
        c.outputs = {{NINFER_PLANE_WORDS, 0, 2 * c.count}};
        const Reply r = s->call(c);
        if (r.outcome != Outcome::returned || r.output(NINFER_PLANE_WORDS).size() != 2 * c.count) {
            std::fprintf(stderr, "bench_exec: %s: call at %llu: %s\n", mode.c_str(), static_cast<unsigned long long>(start),
                         r.message.c_str());
            return 0;
        }
    }
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("exec %-6s %-44s %11llu words %8.3f s %11.4g words/s\n", mode.c_str(),
                mode == "null"    ? "(binary frames, iota: no input sent)"
                : mode == "words" ? "(binary frames, 4-byte input words sent)"
                : mode == "numpy" ? "(numpy_codec.py, fp32_to_fp16_rne, no compare)"
                                  : "(JSON lines, hex)",
                static_cast<unsigned long long>(total), sec, static_cast<double>(total) / sec);
    return static_cast<double>(total) / sec;
}

}  // namespace

int main(int argc, char **argv) {
    const int log2 = argc > 1 ? std::atoi(argv[1]) : 28;
    if (log2 < 22 || log2 > 32 || argc > 4) {
        std::fprintf(stderr, "usage: bench_exec [log2 words, 22..32] [NUMPY_COMMAND HEX_START]\n");
        return 2;
    }
    const std::uint64_t total = std::uint64_t{1} << log2, batch = std::uint64_t{1} << 22;
    const std::string null = NINFER_EXEC_NULL_SUBJECT;
    bool ok = words_per_second(null + " null", "null", total, batch) > 0;
    ok = words_per_second(null + " words", "words", total, batch) > 0 && ok;
    ok = words_per_second(null + " lines", "lines", std::min<std::uint64_t>(total, std::uint64_t{1} << 24), batch) > 0 && ok;
    // The numpy example's calls alone: the framing's cost without the sweep's expected words and compare.
    if (argc > 3) ok = words_per_second(argv[2], "numpy", total, batch, std::strtoull(argv[3], nullptr, 16), true) > 0 && ok;
    return ok ? 0 : 1;
}
