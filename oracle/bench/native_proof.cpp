// SPDX-License-Identifier: Apache-2.0
// The exhaustive proof of the native path against the MPFR oracle (native_proof.hpp): chunks of
// the source range go to worker threads through one atomic counter; each chunk is converted by
// both sides, every conversion of the pass from one decomposition of each source word on the
// oracle's side (issue 24 item 2), and compared as a block first, word by word only where the
// block differs.
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
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "ninfer/oracle/convert_many.hpp"

namespace ninfer::proof {

namespace {

constexpr std::uint64_t kChunk = 1u << 16;

/// The registry rows of the ids, all known to the oracle and to ninfer::native and of one source.
std::vector<const oracle::Conversion *> rows_of(const std::vector<std::uint32_t> &ids) {
    if (ids.empty()) throw std::invalid_argument("no conversion to prove");
    std::vector<const oracle::Conversion *> rows;
    for (const auto id : ids) {
        const auto *c = oracle::find_id(oracle::kConversions, id);
        if (!c || !native::knows_conversion(id)) throw std::invalid_argument("unknown conversion id " + std::to_string(id));
        if (c->src != oracle::find_id(oracle::kConversions, ids.front())->src)
            throw std::invalid_argument("one pass proves conversions of one source format");
        rows.push_back(c);
    }
    return rows;
}

/// One worker's buffers: the chunk's source words, each conversion's native and oracle words.
struct Buffers {
    std::vector<std::uint8_t> in;
    std::vector<std::vector<std::uint8_t>> got, want;
    std::vector<std::uint64_t> words;  // one source word's oracle words, one per conversion
};

/// The oracle's words of every conversion for the chunk lo .. lo + n - 1, each word decomposed once.
void oracle_chunk(const std::vector<const oracle::Conversion *> &rows, const std::vector<int> &widths, std::uint64_t lo,
                  std::uint64_t n, Buffers &b) {
    for (std::uint64_t i = 0; i < n; ++i) {
        oracle::convert_word_many(rows, lo + i, b.words.data());
        for (std::size_t k = 0; k < rows.size(); ++k) abi::store_le(&b.want[k][i * widths[k]], b.words[k], widths[k]);
    }
}

/// The mismatching words of one conversion's chunk, the first `keep` of them kept in `mine`.
std::uint64_t count_mismatches(const std::vector<std::uint8_t> &got, const std::vector<std::uint8_t> &want, int width,
                               std::uint64_t lo, std::uint64_t n, std::size_t keep, std::vector<Mismatch> &mine) {
    if (std::memcmp(got.data(), want.data(), n * width) == 0) return 0;
    std::uint64_t here = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t a = abi::load_le(&got[i * width], width);
        const std::uint64_t e = abi::load_le(&want[i * width], width);
        if (a == e) continue;
        ++here;
        if (mine.size() < keep) mine.push_back({lo + i, a, e});
    }
    return here;
}

}  // namespace

std::vector<Result> prove_conversions(const std::vector<std::uint32_t> &conversion_ids, std::uint64_t first,
                                      std::uint64_t count, unsigned threads, std::size_t keep, const Progress &progress,
                                      Batch batch) {
    if (!batch) batch = &native::convert_batch;
    const auto rows = rows_of(conversion_ids);
    const std::size_t k_all = rows.size();
    const auto &src = oracle::word_format(rows.front()->src);
    const int in_width = src.bytes();
    std::vector<int> widths;
    for (const auto *c : rows) widths.push_back(oracle::word_format(c->dst).bytes());
    const std::uint64_t domain = std::uint64_t{1} << src.bits;
    if (first > domain || count > domain - first)
        throw std::invalid_argument("range past the " + std::to_string(src.bits) + "-bit source domain");
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t chunks = (count + kChunk - 1) / kChunk;
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, chunks)));

    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> next{0}, done{0}, mismatched{0};
    std::mutex mu;  // guards results, the progress callback, error
    std::vector<Result> results(k_all);
    for (auto &r : results) r.words = count;
    std::exception_ptr error;
    const std::uint64_t report_every = std::max<std::uint64_t>(kChunk, count / 20);

    const auto work = [&] {
        Buffers b{std::vector<std::uint8_t>(kChunk * in_width), {}, {}, std::vector<std::uint64_t>(k_all)};
        for (std::size_t k = 0; k < k_all; ++k) {
            b.got.emplace_back(kChunk * widths[k]);
            b.want.emplace_back(kChunk * widths[k]);
        }
        std::vector<std::vector<Mismatch>> mine(k_all);
        std::vector<std::uint64_t> my_mismatches(k_all, 0);
        try {
            for (std::uint64_t c; (c = next.fetch_add(1)) < chunks;) {
                const std::uint64_t lo = first + c * kChunk, n = std::min(kChunk, first + count - lo);
                for (std::uint64_t i = 0; i < n; ++i) abi::store_le(&b.in[i * in_width], lo + i, in_width);
                for (std::size_t k = 0; k < k_all; ++k) batch(rows[k]->id, b.in.data(), b.got[k].data(), n);
                oracle_chunk(rows, widths, lo, n, b);
                for (std::size_t k = 0; k < k_all; ++k) {
                    const std::uint64_t here = count_mismatches(b.got[k], b.want[k], widths[k], lo, n, keep, mine[k]);
                    my_mismatches[k] += here;
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
        for (std::size_t k = 0; k < k_all; ++k) {
            results[k].mismatches += my_mismatches[k];
            results[k].first.insert(results[k].first.end(), mine[k].begin(), mine[k].end());
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto &th : pool) th.join();
    if (error) std::rethrow_exception(error);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (auto &r : results) {
        std::sort(r.first.begin(), r.first.end(), [](const Mismatch &a, const Mismatch &b) { return a.input < b.input; });
        if (r.first.size() > keep) r.first.resize(keep);
        r.seconds = seconds;
    }
    return results;
}

Result prove_conversion(std::uint32_t conversion_id, std::uint64_t first, std::uint64_t count, unsigned threads,
                        std::size_t keep, const Progress &progress, Batch batch) {
    return prove_conversions({conversion_id}, first, count, threads, keep, progress, batch).front();
}

}  // namespace ninfer::proof
