// SPDX-License-Identifier: Apache-2.0
// Grouped codes, scale verdicts, reconstruction and bits per weight (tensor-formats.txt
// Sections 3.2, 4, 5, 6, 6.2). Expected values are written from the spec text.
#include <catch2/catch.hpp>

#include "ninfer/oracle/grouped.hpp"

using namespace ninfer::oracle;

namespace {
const GroupedFormat &gf(std::uint32_t id) { return grouped_format(id); }
}  // namespace

TEST_CASE("grouped code words: every word of every width", "[grouped][codes]") {
    SECTION("q4 two's complement: 0..7 positive, 8..15 = u - 16") {
        const auto &f = gf(NINFER_FORMAT_q4_g64_fp16);
        for (std::uint32_t u = 0; u < 16; ++u) {
            const int expect = u < 8 ? static_cast<int>(u) : static_cast<int>(u) - 16;
            REQUIRE(grouped_code_value(f, u) == expect);
            REQUIRE(grouped_code_word(f, expect) == u);
        }
        REQUIRE_FALSE(grouped_code_value(f, 16).has_value());
        REQUIRE_THROWS_AS(grouped_code_word(f, 8), std::invalid_argument);
        REQUIRE_THROWS_AS(grouped_code_word(f, -9), std::invalid_argument);
    }
    SECTION("q5 and q6 endpoints") {
        const auto &q5 = gf(NINFER_FORMAT_q5_g64_fp16);
        REQUIRE(grouped_code_value(q5, 0x0F) == 15);
        REQUIRE(grouped_code_value(q5, 0x10) == -16);
        REQUIRE(grouped_code_value(q5, 0x1F) == -1);
        REQUIRE_FALSE(grouped_code_value(q5, 0x20).has_value());
        const auto &q6 = gf(NINFER_FORMAT_q6_g64_fp16);
        REQUIRE(grouped_code_value(q6, 0x1F) == 31);
        REQUIRE(grouped_code_value(q6, 0x20) == -32);
        REQUIRE(grouped_code_value(q6, 0x3F) == -1);
        REQUIRE(grouped_code_word(q6, -32) == 0x20);
        int legal = 0;
        for (std::uint32_t u = 0; u < 64; ++u) legal += grouped_code_value(q6, u).has_value();
        REQUIRE(legal == 64);
    }
    SECTION("q8: 0x80 is outside the artifact language, -127..127 legal") {
        const auto &f = gf(NINFER_FORMAT_q8_g32_fp16);
        REQUIRE_FALSE(grouped_code_value(f, 0x80).has_value());
        REQUIRE(grouped_code_value(f, 0x81) == -127);
        REQUIRE(grouped_code_value(f, 0x7F) == 127);
        REQUIRE(grouped_code_value(f, 0xFF) == -1);
        REQUIRE_THROWS_AS(grouped_code_word(f, -128), std::invalid_argument);
        int legal = 0;
        for (std::uint32_t u = 0; u < 256; ++u) legal += grouped_code_value(f, u).has_value();
        REQUIRE(legal == 255);
    }
    SECTION("q2: offset code q = u - 1, all four words legal") {
        const auto &f = gf(NINFER_FORMAT_q2_g64_fp16);
        REQUIRE(grouped_code_value(f, 0) == -1);
        REQUIRE(grouped_code_value(f, 1) == 0);
        REQUIRE(grouped_code_value(f, 2) == 1);
        REQUIRE(grouped_code_value(f, 3) == 2);
        REQUIRE(grouped_code_word(f, 0) == 1);
        REQUIRE(grouped_code_word(f, 2) == 3);
        REQUIRE_FALSE(grouped_code_value(f, 4).has_value());
    }
    SECTION("t2: two's complement, 0b10 illegal") {
        const auto &f = gf(NINFER_FORMAT_t2_g128_fp16);
        REQUIRE(grouped_code_value(f, 0) == 0);
        REQUIRE(grouped_code_value(f, 1) == 1);
        REQUIRE_FALSE(grouped_code_value(f, 2).has_value());
        REQUIRE(grouped_code_value(f, 3) == -1);
        REQUIRE(grouped_code_word(f, -1) == 3);
        REQUIRE_THROWS_AS(grouped_code_word(f, -2), std::invalid_argument);
    }
}

TEST_CASE("grouped scale verdicts (Section 6, Q2 rules)", "[grouped][scales]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    const auto &t2 = gf(NINFER_FORMAT_t2_g128_fp16);
    const auto &q2 = gf(NINFER_FORMAT_q2_g64_fp16);
    for (const auto *f : {&q4, &t2}) {
        REQUIRE(grouped_scale_verdict(*f, 0x0000) == NINFER_VERDICT_VALID);
        REQUIRE(grouped_scale_verdict(*f, 0x8000) == NINFER_VERDICT_NEGATIVE_ZERO);
        REQUIRE(grouped_scale_verdict(*f, 0x0001) == NINFER_VERDICT_VALID);  // 2^-24
        REQUIRE(grouped_scale_verdict(*f, 0x03FF) == NINFER_VERDICT_VALID);  // largest subnormal
        REQUIRE(grouped_scale_verdict(*f, 0x7BFF) == NINFER_VERDICT_VALID);  // 65504
        REQUIRE(grouped_scale_verdict(*f, 0xBC00) == NINFER_VERDICT_VALID);  // -1: an ordinary multiplier
        REQUIRE(grouped_scale_verdict(*f, 0x7C00) == NINFER_VERDICT_INFINITE);
        REQUIRE(grouped_scale_verdict(*f, 0xFC00) == NINFER_VERDICT_INFINITE);
        REQUIRE(grouped_scale_verdict(*f, 0x7E00) == NINFER_VERDICT_NAN);
        REQUIRE(grouped_scale_verdict(*f, 0xFD01) == NINFER_VERDICT_NAN);
    }
    REQUIRE(grouped_scale_verdict(q2, 0x8000) == NINFER_VERDICT_VALID);
    REQUIRE(grouped_scale_verdict(q2, 0x0000) == NINFER_VERDICT_VALID);
    REQUIRE(grouped_scale_verdict(q2, 0x8001) == NINFER_VERDICT_VALID);
    REQUIRE(grouped_scale_verdict(q2, 0x7C00) == NINFER_VERDICT_INFINITE);
    REQUIRE(grouped_scale_verdict(q2, 0x7C01) == NINFER_VERDICT_NAN);
}

TEST_CASE("Section 6.2 reconstruction binary32(s32 * binary32(q))", "[grouped][reconstruct]") {
    REQUIRE(grouped_reconstruct(0x3C00, 7) == 0x40E00000u);    // 1 * 7 = 7
    REQUIRE(grouped_reconstruct(0x3800, -3) == 0xBFC00000u);   // 0.5 * -3 = -1.5
    REQUIRE(grouped_reconstruct(0x0001, 1) == 0x33800000u);    // 2^-24
    REQUIRE(grouped_reconstruct(0x0001, -127) == 0xB6FE0000u); // -127 * 2^-24
    REQUIRE(grouped_reconstruct(0x7BFF, 127) == 0x4AFDE040u);  // 65504 * 127 = 8319008, exact
    REQUIRE(grouped_reconstruct(0xBC00, -8) == 0x41000000u);   // negative scale: -1 * -8 = 8
    REQUIRE(grouped_reconstruct(0xBC00, 0) == 0x80000000u);    // -1 * +0 = -0
    REQUIRE(grouped_reconstruct(0x0000, 0) == 0x00000000u);
    REQUIRE(grouped_reconstruct(0x8000, 2) == 0x80000000u);    // Q2 -0 scale
    REQUIRE(grouped_reconstruct(0x0000, -1) == 0x80000000u);   // Q2 +0 scale, q = -1
    REQUIRE(grouped_reconstruct(0x8000, -1) == 0x00000000u);
    REQUIRE_THROWS_AS(grouped_reconstruct(0x7C00, 1), std::invalid_argument);
}

TEST_CASE("logical bits per weight b + 16/G (Section 6, table of Section 1)", "[grouped][bits]") {
    using P = std::pair<std::uint64_t, std::uint64_t>;
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_q2_g64_fp16)) == P{9, 4});    // 2.25
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_q4_g64_fp16)) == P{17, 4});   // 4.25
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_q5_g64_fp16)) == P{21, 4});   // 5.25
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_q6_g64_fp16)) == P{25, 4});   // 6.25
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_q8_g32_fp16)) == P{17, 2});   // 8.50
    REQUIRE(logical_bits_per_weight(gf(NINFER_FORMAT_t2_g128_fp16)) == P{17, 8});  // 2.125
}

TEST_CASE("reconstruction of any rank groups along the last axis (Section 4)", "[grouped][reconstruct]") {
    const auto &q8 = gf(NINFER_FORMAT_q8_g32_fp16);
    SECTION("rank 3 [2,1,33]: two rows, each with a full and a one-lane group") {
        const std::uint64_t shape[] = {2, 1, 33};
        std::vector<std::int8_t> codes(66, 1);
        // scales row-major [2,1,2]: 1, 2, 0.5, -1
        const std::vector<std::uint16_t> scales = {0x3C00, 0x4000, 0x3800, 0xBC00};
        const auto v = grouped_reconstruct_tensor(q8, shape, codes, scales);
        REQUIRE(v);
        REQUIRE((*v)[0] == 0x3F800000u);
        REQUIRE((*v)[31] == 0x3F800000u);
        REQUIRE((*v)[32] == 0x40000000u);  // column 32 belongs to group 1 of row 0
        REQUIRE((*v)[33] == 0x3F000000u);  // the next row starts a new group
        REQUIRE((*v)[65] == 0xBF800000u);
    }
    SECTION("rank 1 [5]") {
        const std::uint64_t shape[] = {5};
        const std::vector<std::int8_t> codes = {0, 1, -1, 127, -127};
        const std::vector<std::uint16_t> scales = {0x4000};
        const auto v = grouped_reconstruct_tensor(q8, shape, codes, scales);
        REQUIRE(v);
        REQUIRE(*v == std::vector<std::uint32_t>{0, 0x40000000u, 0xC0000000u, 0x437E0000u, 0xC37E0000u});
    }
    SECTION("mismatched sizes and illegal codes are refused") {
        const std::uint64_t shape[] = {1, 33};
        std::vector<std::int8_t> codes(33, 0);
        REQUIRE_FALSE(grouped_reconstruct_tensor(q8, shape, codes, std::vector<std::uint16_t>{0x3C00}));
        codes[3] = -128;
        REQUIRE_FALSE(grouped_reconstruct_tensor(q8, shape, codes, std::vector<std::uint16_t>{0x3C00, 0x3C00}));
        const std::uint64_t zero[] = {0, 4};
        REQUIRE_FALSE(grouped_reconstruct_tensor(q8, zero, {}, {}));
    }
}
