// SPDX-License-Identifier: Apache-2.0
// The case model: word packing and the widths of word ops.
#include <catch2/catch.hpp>

#include "ninfer/suites/case.hpp"

using namespace ninfer::suites;

TEST_CASE("words pack little-endian at their byte width", "[case]") {
    std::vector<std::uint8_t> buf;
    put_word(buf, 0x3f80, 2);
    put_word(buf, 0xdeadbeef, 4);
    REQUIRE(buf == std::vector<std::uint8_t>{0x80, 0x3f, 0xef, 0xbe, 0xad, 0xde});
    CHECK(get_word(buf, 0, 2) == 0x3f80);
    CHECK_THROWS_AS(get_word(buf, 3, 2), std::out_of_range);
}

TEST_CASE("word-op widths follow the registry", "[case]") {
    Case c;
    c.op = NINFER_OP_convert;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    CHECK(in_word_bytes(c) == 4);
    CHECK(out_word_bytes(c) == 2);
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_e2m1;
    CHECK(in_word_bytes(c) == 1);
    CHECK(out_word_bytes(c) == 8);
    c.op = NINFER_OP_validate;
    c.method = NINFER_ROLE_fp32_weight_divisor;
    CHECK(in_word_bytes(c) == 4);
    CHECK(out_word_bytes(c) == 1);
    Level l;
    CHECK(parse_level("exhaustive", l));
    CHECK(l == Level::exhaustive);
    CHECK_FALSE(parse_level("slow", l));
}
