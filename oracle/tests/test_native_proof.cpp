// SPDX-License-Identifier: Apache-2.0
// The exhaustive proof (oracle/bench/native_proof.hpp, the program prove_native) on small
// ranges: every FP32-source conversion of the registry, in one pass, over binary32 windows around
// 1.0, the largest finite and infinity with the NaNs beyond, the subnormals and the negatives; a
// broken batch to show that the proof counts and names a mismatch, in a pass of several too; native::decode_batch against the
// oracle's decode on every word of the small formats and on windows of the 32-bit ones.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "../bench/native_proof.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/exhaustive.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace {

using namespace ninfer;

/// native::convert_batch with the target word of input 0x3F800123 (1.0 + 291 ulp) replaced.
bool broken_batch(std::uint32_t id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    const bool ok = native::convert_batch(id, in, out, n);
    const int width = oracle::word_format(oracle::conversion(id).dst).bytes();
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint32_t w;
        std::memcpy(&w, in + 4 * i, 4);
        if (w == 0x3F800123u) out[i * width] ^= 0x01u;
    }
    return ok;
}

}  // namespace

TEST_CASE("prove_native: the native path equals the oracle on binary32 windows", "[native][proof]") {
    // 1.0 and above, the top of the finite range to +Inf and the first NaNs, the smallest
    // subnormals, and the same windows negated.
    // Every FP32-source conversion in one pass per window (each word decomposed once).
    const std::uint64_t windows[] = {0x3F7F8000u, 0x7F7F8000u, 0x00000000u, 0xBF7F8000u, 0xFF7F8000u, 0x80000000u};
    std::vector<std::uint32_t> ids;
    for (const auto &c : oracle::kConversions)
        if (c.src == NINFER_FORMAT_fp32 && !ninfer::abi::is_stochastic(c)) ids.push_back(c.id);  // native serves no sr
    for (const std::uint64_t first : windows) {
        const auto results = proof::prove_conversions(ids, first, 0x10000, 2, 5);
        REQUIRE(results.size() == ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) {
            INFO(oracle::conversion(ids[k]).name << " from 0x" << std::hex << first);
            CHECK(results[k].words == 0x10000);
            CHECK(results[k].mismatches == 0);
            CHECK(results[k].first.empty());
        }
    }
}

TEST_CASE("prove_native: one pass names a broken conversion among several", "[native][proof]") {
    const std::vector<std::uint32_t> ids = {NINFER_CONVERSION_fp32_to_fp16_rup, NINFER_CONVERSION_fp32_to_bf16_rne,
                                            NINFER_CONVERSION_fp32_to_bf16_rdn};
    const auto results = proof::prove_conversions(ids, 0x3F800000u, 0x20000, 2, 5, {}, &broken_batch);
    REQUIRE(results.size() == 3);
    for (const auto &r : results) {
        REQUIRE(r.mismatches == 1);  // broken_batch flips the low bit of one word of every conversion
        CHECK(r.first.at(0).input == 0x3F800123u);
    }
    CHECK(results[0].first[0].oracle == 0x3C01u);  // fp16 rup: 1 + 291 * 2^-23 rounds up to 1 + 2^-10
    CHECK(results[0].first[0].native == 0x3C00u);
    CHECK(results[2].first[0].oracle == 0x3F80u);  // bf16 rdn: down to 1.0
    CHECK(results[2].first[0].native == 0x3F81u);
}

TEST_CASE("prove_native: one pass needs known conversions of one source", "[native][proof]") {
    CHECK_THROWS_AS(proof::prove_conversions({}, 0, 1, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(proof::prove_conversions({NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_CONVERSION_bf16_to_fp32}, 0, 1, 1, 1),
                    std::invalid_argument);
}

TEST_CASE("prove_native: a broken batch is counted and named", "[native][proof]") {
    const auto r = proof::prove_conversion(NINFER_CONVERSION_fp32_to_bf16_rne, 0x3F800000u, 0x20000, 2, 5, {},
                                           &broken_batch);
    REQUIRE(r.mismatches == 1);
    REQUIRE(r.first.size() == 1);
    CHECK(r.first[0].input == 0x3F800123u);
    CHECK(r.first[0].oracle == 0x3F80u);  // 1.0 + 291 * 2^-23 rounds to 1.0 in bf16
    CHECK(r.first[0].native == 0x3F81u);
}

TEST_CASE("prove_native: ranges past the source domain are refused", "[native][proof]") {
    CHECK_THROWS_AS(proof::prove_conversion(NINFER_CONVERSION_fp32_to_bf16_rne, 0xFFFFFFFFu, 2, 1, 1),
                    std::invalid_argument);
    CHECK_THROWS_AS(proof::prove_conversion(9999, 0, 1, 1, 1), std::invalid_argument);
}

TEST_CASE("native::decode_batch equals the oracle's decode: whole small domains, binary32/int32 windows",
          "[native][proof][decode]") {
    for (const auto &f : oracle::kWordFormats) {
        const int width = f.bytes();
        std::vector<std::uint64_t> firsts;
        std::uint64_t count = 0;
        if (f.bits <= 16) {
            firsts = {0};
            count = std::uint64_t{1} << f.bits;
        } else {
            firsts = {0x00000000u, 0x007F8000u, 0x3F7F8000u, 0x7F7F8000u, 0x7FFF0000u, 0x80000000u, 0xFF7F8000u, 0xFFFF0000u};
            count = 0x10000;
        }
        for (const std::uint64_t first : firsts) {
            std::vector<std::uint8_t> in(count * width), got(count * 8), want(count * 8);
            for (std::uint64_t i = 0; i < count; ++i) ninfer::abi::store_le(&in[i * width], first + i, width);
            REQUIRE(native::decode_batch(f.id, in.data(), got.data(), count));
            oracle::oracle_decode_range(f.id, first, count, want.data(), 2);
            std::uint64_t mismatches = 0;
            for (std::uint64_t i = 0; i < count; ++i)
                if (std::memcmp(&got[8 * i], &want[8 * i], 8) != 0 && ++mismatches <= 5)
                    UNSCOPED_INFO(f.name << " word 0x" << std::hex << first + i << " differs");
            INFO(f.name << " from 0x" << std::hex << first);
            CHECK(mismatches == 0);
        }
    }
    std::uint8_t byte = 0, word[8] = {};
    CHECK_FALSE(native::decode_batch(9999, &byte, word, 1));
}
