// SPDX-License-Identifier: Apache-2.0
// The exhaustive proof of the native path against the MPFR oracle (native_proof.hpp): chunks of
// the source range go to worker threads through one atomic counter; each chunk is converted by
// both sides and compared as a block first, word by word only where the block differs.
#include "native_proof.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/exhaustive.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace ninfer::proof {

namespace {

constexpr std::uint64_t kChunk = 1u << 16;

}  // namespace

Result prove_conversion(std::uint32_t conversion_id, std::uint64_t first, std::uint64_t count, unsigned threads,
                        std::size_t keep, const Progress &progress, Batch batch) {
    if (!batch) batch = &native::convert_batch;
    const auto *c = oracle::find_id(oracle::kConversions, conversion_id);
    if (!c || !native::knows_conversion(conversion_id))
        throw std::invalid_argument("unknown conversion id " + std::to_string(conversion_id));
    const auto &src = oracle::word_format(c->src);
    const int in_width = src.bytes(), out_width = oracle::word_format(c->dst).bytes();
    const std::uint64_t domain = std::uint64_t{1} << src.bits;
    if (first > domain || count > domain - first)
        throw std::invalid_argument("range past the " + std::to_string(src.bits) + "-bit source domain");
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t chunks = (count + kChunk - 1) / kChunk;
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, chunks)));

    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> next{0}, done{0}, mismatched{0};
    std::mutex mu;  // guards result.first, result.mismatches, the progress callback, error
    Result result;
    result.words = count;
    std::exception_ptr error;
    const std::uint64_t report_every = std::max<std::uint64_t>(kChunk, count / 20);

    const auto work = [&] {
        std::vector<std::uint8_t> in(kChunk * in_width), got(kChunk * out_width), want(kChunk * out_width);
        std::vector<Mismatch> mine;
        std::uint64_t my_mismatches = 0;
        try {
            for (std::uint64_t k; (k = next.fetch_add(1)) < chunks;) {
                const std::uint64_t lo = first + k * kChunk, n = std::min(kChunk, first + count - lo);
                for (std::uint64_t i = 0; i < n; ++i) abi::store_le(&in[i * in_width], lo + i, in_width);
                batch(conversion_id, in.data(), got.data(), n);
                oracle::oracle_convert_range(conversion_id, lo, n, want.data(), 1);
                if (std::memcmp(got.data(), want.data(), n * out_width) != 0) {
                    std::uint64_t here = 0;
                    for (std::uint64_t i = 0; i < n; ++i) {
                        const std::uint64_t a = abi::load_le(&got[i * out_width], out_width);
                        const std::uint64_t e = abi::load_le(&want[i * out_width], out_width);
                        if (a == e) continue;
                        ++here;
                        if (mine.size() < keep) mine.push_back({lo + i, a, e});
                    }
                    my_mismatches += here;
                    mismatched += here;
                }
                const std::uint64_t before = done.fetch_add(n);
                if (progress && (before + n) / report_every != before / report_every) {
                    const std::lock_guard<std::mutex> lock(mu);
                    progress(before + n, mismatched.load());
                }
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mu);
            if (!error) error = std::current_exception();
            next = chunks;
        }
        // Each thread takes its chunks in increasing order, so its first `keep` contain every
        // mismatch of the global first `keep` that fell in its chunks.
        const std::lock_guard<std::mutex> lock(mu);
        result.mismatches += my_mismatches;
        result.first.insert(result.first.end(), mine.begin(), mine.end());
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto &th : pool) th.join();
    if (error) std::rethrow_exception(error);
    std::sort(result.first.begin(), result.first.end(),
              [](const Mismatch &a, const Mismatch &b) { return a.input < b.input; });
    if (result.first.size() > keep) result.first.resize(keep);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace ninfer::proof
