// SPDX-License-Identifier: Apache-2.0
// Expected words of whole source ranges by the MPFR oracle (exhaustive.hpp): convert_word and
// decode_to_binary64 of scalar.hpp per word, the range cut into chunks that threads take in turn.
#include "ninfer/oracle/exhaustive.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::oracle {

namespace {

constexpr std::uint64_t kChunk = 1u << 14;  // words per task: small enough to balance, large enough to be cheap

// Runs fn(first, n, out) over chunks of the range taken by `threads` threads through one atomic
// counter (the calling thread is one of them; a single thread runs inline); rethrows the first
// error after every thread has stopped.
template <class Fn>
void split_range(std::uint64_t first, std::uint64_t n, std::uint8_t *out, int width, unsigned threads, Fn fn) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t chunks = (n + kChunk - 1) / kChunk;
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, chunks)));
    if (threads == 1) {
        fn(first, n, out);
        return;
    }
    std::atomic<std::uint64_t> next{0};
    std::mutex mu;
    std::exception_ptr error;
    const auto work = [&] {
        try {
            for (std::uint64_t k; (k = next.fetch_add(1)) < chunks;) {
                const std::uint64_t lo = k * kChunk, m = std::min(kChunk, n - lo);
                fn(first + lo, m, out + lo * static_cast<std::uint64_t>(width));
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mu);
            if (!error) error = std::current_exception();
            next = chunks;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto &th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

void check_range(const WordFormat &src, std::uint64_t first, std::uint64_t n) {
    const std::uint64_t domain = src.bits >= 64 ? ~0ull : (std::uint64_t{1} << src.bits);
    if (first > domain || n > domain - first)
        throw std::invalid_argument("range past the " + std::to_string(src.bits) + "-bit source domain");
}

}  // namespace

void oracle_convert_range(std::uint32_t conversion_id, std::uint64_t first, std::uint64_t n, std::uint8_t *out,
                          unsigned threads) {
    const auto *c = find_id(kConversions, conversion_id);
    if (!c) throw std::invalid_argument("unknown conversion id " + std::to_string(conversion_id));
    const auto &src = word_format(c->src);
    const int width = word_format(c->dst).bytes();
    check_range(src, first, n);
    split_range(first, n, out, width, threads, [&](std::uint64_t f, std::uint64_t m, std::uint8_t *o) {
        for (std::uint64_t i = 0; i < m; ++i) abi::store_le(o + i * width, convert_word(*c, f + i), width);
    });
}

void oracle_decode_range(std::uint32_t format_id, std::uint64_t first, std::uint64_t n, std::uint8_t *out,
                         unsigned threads) {
    const auto *f = find_id(kWordFormats, format_id);
    if (!f) throw std::invalid_argument("unknown word format id " + std::to_string(format_id));
    check_range(*f, first, n);
    split_range(first, n, out, 8, threads, [&](std::uint64_t s, std::uint64_t m, std::uint8_t *o) {
        for (std::uint64_t i = 0; i < m; ++i) abi::store_le64(o + i * 8, decode_to_binary64(*f, s + i));
    });
}

}  // namespace ninfer::oracle
