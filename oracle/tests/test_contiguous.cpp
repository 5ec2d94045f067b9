// SPDX-License-Identifier: Apache-2.0
// contiguous_le_v1 (storage-layouts.md Sections 1 and 2): the size rule, little-endian C-order
// words, bit-exact NaN payloads and signed zeros, overflow and registry refusals.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "ninfer/oracle/contiguous.hpp"
#include "ninfer/oracle/formats.hpp"

using namespace ninfer::oracle;

namespace {
using Shape = std::vector<std::uint64_t>;
using Bytes = std::vector<std::uint8_t>;
}  // namespace

TEST_CASE("Worked byte images", "[contiguous]") {
    // bf16 [2]: 1.0 (0x3F80) then -0 (0x8000), low byte first.
    const std::vector<std::uint64_t> bf16 = {0x3F80, 0x8000};
    CHECK(contiguous_encode(NINFER_FORMAT_bf16, Shape{2}, bf16) == Bytes{0x80, 0x3F, 0x00, 0x80});
    // fp32 rank 0 holds one word: a signaling NaN with payload, bit for bit.
    CHECK(contiguous_encode(NINFER_FORMAT_fp32, Shape{}, std::vector<std::uint64_t>{0x7F800001}) ==
          Bytes{0x01, 0x00, 0x80, 0x7F});
    // int32 [2,2] in C order (last dimension fastest).
    const std::vector<std::uint64_t> ints = {0x00000001, 0xFFFFFFFF, 0x80000000, 0x01020304};
    CHECK(contiguous_encode(NINFER_FORMAT_int32, Shape{2, 2}, ints) ==
          Bytes{1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x80, 4, 3, 2, 1});
    CHECK(contiguous_decode(NINFER_FORMAT_int32, Shape{2, 2},
                            Bytes{1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x80, 4, 3, 2, 1}) == ints);
}

TEST_CASE("The size rule: elements times word bytes, rank 0 holds one word", "[contiguous][size]") {
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_bf16, Shape{}) == 2u);
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_fp32, Shape{}) == 4u);
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_int32, Shape{3, 5}) == 60u);
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_bf16, Shape{7, 0, 9}) == 0u);
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_bf16, Shape(16, 2)) == 2u << 16);
    CHECK(contiguous_encode(NINFER_FORMAT_fp32, Shape{0, 4}, std::vector<std::uint64_t>{}).empty());
    // Every rank 0..16, with the words surviving bit for bit.
    std::mt19937_64 rng(20261129u);
    for (const auto format : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, NINFER_FORMAT_int32}) {
        const auto &f = word_format(format);
        for (std::size_t rank = 0; rank <= 16; ++rank) {
            CAPTURE(f.name, rank);
            Shape shape(rank, 1);
            for (std::size_t d = 0; d < rank && d < 3; ++d) shape[d] = 1 + rng() % 4;
            std::uint64_t elements = 1;
            for (const auto d : shape) elements *= d;
            std::vector<std::uint64_t> words(elements);
            for (auto &w : words) w = rng() & f.mask();
            const auto payload = contiguous_encode(format, shape, words);
            CHECK(payload.size() == elements * static_cast<std::uint64_t>(f.bytes()));
            CHECK(contiguous_payload_bytes(format, shape) == payload.size());
            CHECK(contiguous_decode(format, shape, payload) == words);
        }
        CHECK_THROWS_AS(contiguous_payload_bytes(format, Shape(17, 1)), std::invalid_argument);
    }
}

TEST_CASE("NaN payloads and signed zeros survive bit for bit", "[contiguous][bits]") {
    const std::vector<std::uint64_t> f32 = {0x80000000, 0x00000000, 0x7F800001, 0xFFBFFFFF, 0x7FC00001,
                                            0xFFFFFFFF, 0x00000001, 0x80000001, 0x7F800000, 0xFF800000};
    CHECK(contiguous_decode(NINFER_FORMAT_fp32, Shape{2, 5}, contiguous_encode(NINFER_FORMAT_fp32, Shape{2, 5}, f32)) ==
          f32);
    std::vector<std::uint64_t> every_bf16(0x10000);
    for (std::uint64_t w = 0; w < every_bf16.size(); ++w) every_bf16[w] = w;
    const auto payload = contiguous_encode(NINFER_FORMAT_bf16, Shape{256, 256}, every_bf16);
    for (std::size_t i = 0; i < every_bf16.size(); ++i) {
        REQUIRE(payload[2 * i] == (i & 0xFF));
        REQUIRE(payload[2 * i + 1] == (i >> 8));
    }
    CHECK(contiguous_decode(NINFER_FORMAT_bf16, Shape{256, 256}, payload) == every_bf16);
}

TEST_CASE("Overflowing sizes, wrong sizes and unregistered formats are refused", "[contiguous][refuse]") {
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    CHECK_FALSE(contiguous_payload_bytes(NINFER_FORMAT_fp32, Shape{kMax / 4 + 1}).has_value());
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_fp32, Shape{kMax / 4}) == (kMax / 4) * 4);
    CHECK_FALSE(contiguous_payload_bytes(NINFER_FORMAT_bf16, Shape{1ull << 32, 1ull << 31}).has_value());
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_bf16, Shape{1ull << 32, 1ull << 31, 0}) == 0u);  // the true size is 0
    CHECK(contiguous_payload_bytes(NINFER_FORMAT_int32, Shape{1ull << 40, 1ull << 40, 0}) == 0u);
    CHECK_FALSE(contiguous_payload_bytes(NINFER_FORMAT_int32, Shape{1ull << 40, 1ull << 40, 1}).has_value());
    CHECK_THROWS_AS(contiguous_decode(NINFER_FORMAT_fp32, Shape{kMax / 4 + 1}, Bytes{}), std::invalid_argument);
    CHECK_THROWS_AS(contiguous_encode(NINFER_FORMAT_fp32, Shape{3}, std::vector<std::uint64_t>{1, 2}),
                    std::invalid_argument);
    CHECK_THROWS_AS(contiguous_encode(NINFER_FORMAT_bf16, Shape{1}, std::vector<std::uint64_t>{0x10000}),
                    std::invalid_argument);
    CHECK_THROWS_AS(contiguous_decode(NINFER_FORMAT_bf16, Shape{2}, Bytes{1, 2, 3}), std::invalid_argument);
    CHECK_THROWS_AS(contiguous_decode(NINFER_FORMAT_bf16, Shape{}, Bytes{}), std::invalid_argument);
    // ids as the ABI carries them (uint32): 999 is no ninfer_format value, and an enum cannot hold it (UBSan)
    for (const std::uint32_t format : std::initializer_list<std::uint32_t>{
             NINFER_FORMAT_fp16, NINFER_FORMAT_e4m3fn, NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_nvfp4, 999u}) {
        CAPTURE(format);
        CHECK_THROWS_AS(contiguous_payload_bytes(format, Shape{1}), std::invalid_argument);
        CHECK_THROWS_AS(contiguous_encode(format, Shape{1}, std::vector<std::uint64_t>{0}), std::invalid_argument);
        CHECK_THROWS_AS(contiguous_decode(format, Shape{1}, Bytes{0, 0}), std::invalid_argument);
    }
    CHECK_THROWS_WITH(contiguous_encode(NINFER_FORMAT_fp16, Shape{1}, std::vector<std::uint64_t>{0}),
                      Catch::Contains("fp16") && Catch::Contains("not registered"));
}
