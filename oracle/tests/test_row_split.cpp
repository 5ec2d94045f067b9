// SPDX-License-Identifier: Apache-2.0
// row_split_k128_v1 (storage-layouts.md Section 3): geometry and the worked example, overflow,
// plane bit order on hand-built payloads (expected bytes written from the layout text), the
// 2-bit suite reading, canonical padding, validation details, locations, slices and gathers.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>

#include "ninfer/oracle/row_split.hpp"

using namespace ninfer::oracle;

namespace {

const GroupedFormat &gf(std::uint32_t id) { return grouped_format(id); }

/// A logical matrix with the given codes in row 0 (rest 0) and scale 1.0 in every group.
GroupedMatrix one_row(const GroupedFormat &f, std::uint64_t k, std::vector<std::int8_t> codes) {
    GroupedMatrix m;
    m.rows = 1;
    m.cols = k;
    codes.resize(k, 0);
    m.codes = codes;
    m.scales.assign(grouped_groups_per_row(f, k), 0x3C00);
    return m;
}

/// A seeded random valid matrix (seed printed on failure by CAPTURE at the call site).
GroupedMatrix random_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint32_t seed) {
    std::mt19937 rng(seed);
    GroupedMatrix m;
    m.rows = n;
    m.cols = k;
    std::uniform_int_distribution<int> code(f.qmin, f.qmax);
    for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::int8_t>(code(rng)));
    std::uniform_int_distribution<int> scale(1, 0x7BFF);
    for (std::uint64_t i = 0; i < n * grouped_groups_per_row(f, k); ++i)
        m.scales.push_back(static_cast<std::uint16_t>(scale(rng) | (rng() & 1u ? 0x8000u : 0u)));
    return m;
}

std::vector<std::uint8_t> zeros(std::size_t n) { return std::vector<std::uint8_t>(n, 0); }

}  // namespace

TEST_CASE("row_split geometry: the worked example and the other formats", "[grouped][row_split]") {
    const auto g = row_split_geometry(gf(NINFER_FORMAT_q5_g64_fp16), 2, 130);
    REQUIRE(g);
    CHECK(g->k_pad == 256);
    CHECK(g->groups_per_row == 4);
    CHECK(g->logical_groups == 3);
    CHECK(g->base_bytes == 256);
    CHECK(g->high_bytes == 64);
    CHECK(g->scale_bytes == 16);
    CHECK(g->base_offset == 0);
    CHECK(g->high_offset == 256);
    CHECK(g->scale_offset == 512);
    CHECK(g->payload_bytes == 528);
    CHECK(g->base_row_bytes == 128);
    CHECK(g->high_row_bytes == 32);
    CHECK(g->scale_row_bytes == 8);
    struct Row {
        std::uint32_t id;
        std::uint64_t n, k, gpr, base, high, high_off, scale_off, payload;
    };
    for (const Row &r : {Row{NINFER_FORMAT_q4_g64_fp16, 1, 1, 2, 64, 0, 256, 256, 260},
                         Row{NINFER_FORMAT_q6_g64_fp16, 1, 128, 2, 64, 32, 256, 512, 516},
                         Row{NINFER_FORMAT_q8_g32_fp16, 3, 130, 8, 768, 0, 768, 768, 816},
                         Row{NINFER_FORMAT_q2_g64_fp16, 1, 64, 2, 32, 0, 256, 256, 260},
                         Row{NINFER_FORMAT_t2_g128_fp16, 1, 130, 2, 64, 0, 256, 256, 260},
                         Row{NINFER_FORMAT_q4_g64_fp16, 9, 4096, 64, 18432, 0, 18432, 18432, 19584}}) {
        CAPTURE(r.id, r.n, r.k);
        const auto h = row_split_geometry(gf(r.id), r.n, r.k);
        REQUIRE(h);
        CHECK(h->groups_per_row == r.gpr);
        CHECK(h->base_bytes == r.base);
        CHECK(h->high_bytes == r.high);
        CHECK(h->high_offset == r.high_off);
        CHECK(h->scale_offset == r.scale_off);
        CHECK(h->payload_bytes == r.payload);
    }
}

TEST_CASE("row_split geometry refuses zero extents and every overflow", "[grouped][row_split]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    CHECK_FALSE(row_split_geometry(q4, 0, 1));
    CHECK_FALSE(row_split_geometry(q4, 1, 0));
    CHECK_FALSE(row_split_geometry(q4, 1, kMax));            // K_pad overflows
    CHECK_FALSE(row_split_geometry(q4, 1, kMax - 100));      // align_up(K, 128) overflows
    CHECK(row_split_geometry(q4, 1, kMax - 200));            // K_pad = 2^64 - 128 still fits
    CHECK_FALSE(row_split_geometry(q4, kMax / 2, 128));      // base bytes overflow
    CHECK_FALSE(row_split_geometry(q4, std::uint64_t{1} << 58, 128));  // 2^58 * 64 overflows
    CHECK(row_split_geometry(q4, std::uint64_t{1} << 50, 128));
    // base_bytes just below 2^64 whose align_up to 256 overflows: N * 64 with N = 2^58 - 1
    // gives 2^64 - 64, which is not a multiple of 256.
    CHECK_FALSE(row_split_geometry(q4, (std::uint64_t{1} << 58) - 1, 128));
}

TEST_CASE("row_split plane bit order on hand-built payloads", "[grouped][row_split]") {
    SECTION("q4: even lane in the low nibble; scale little-endian; padding group scale 0") {
        const auto &f = gf(NINFER_FORMAT_q4_g64_fp16);
        const auto p = row_split_encode(f, one_row(f, 2, {1, -2}));  // u = 0x1, 0xE
        auto expect = zeros(260);
        expect[0] = 0xE1;
        expect[256] = 0x00;
        expect[257] = 0x3C;  // group 0 scale 0x3C00; group 1 (padding) 0x0000
        CHECK(p == expect);
    }
    SECTION("q5: high stream bit t = lane") {
        const auto &f = gf(NINFER_FORMAT_q5_g64_fp16);
        // lane 0 = -16 (u 0x10), lane 1 = 15 (0x0F), lane 8 = -1 (0x1F)
        std::vector<std::int8_t> c(9, 0);
        c[0] = -16;
        c[1] = 15;
        c[8] = -1;
        const auto p = row_split_encode(f, one_row(f, 9, c));
        // geometry [1,9]: gpr 2, base 64, high 16 at 256, scale at 512, payload 516
        auto expect = zeros(516);
        expect[0] = 0xF0;    // lanes 0, 1: low nibbles 0x0, 0xF
        expect[4] = 0x0F;    // lanes 8, 9
        expect[256] = 0x01;  // lane 0 bit 4
        expect[257] = 0x01;  // lane 8 bit 4
        expect[513] = 0x3C;
        CHECK(p == expect);
    }
    SECTION("q6: high stream lane-major, bit 4 then bit 5") {
        const auto &f = gf(NINFER_FORMAT_q6_g64_fp16);
        // lane 0 = -32 (0x20), lane 1 = 31 (0x1F), lane 3 = -1 (0x3F), lane 4 = 16 (0x10)
        std::vector<std::int8_t> c(5, 0);
        c[0] = -32;
        c[1] = 31;
        c[3] = -1;
        c[4] = 16;
        const auto p = row_split_encode(f, one_row(f, 5, c));
        // geometry [1,5]: base 64, high 32 at 256, scale at 512
        auto expect = zeros(516);
        expect[0] = 0xF0;    // lanes 0, 1
        expect[1] = 0xF0;    // lanes 2, 3
        expect[256] = 0xC6;  // t1 (lane 0 bit 5), t2 (lane 1 bit 4), t6, t7 (lane 3 bits 4, 5)
        expect[257] = 0x01;  // t8: lane 4 bit 4
        expect[513] = 0x3C;
        CHECK(p == expect);
    }
    SECTION("q8: lane i is byte i") {
        const auto &f = gf(NINFER_FORMAT_q8_g32_fp16);
        const auto p = row_split_encode(f, one_row(f, 2, {-127, 127}));
        // [1,2]: gpr 4, base 128, scale at 256, payload 264
        auto expect = zeros(264);
        expect[0] = 0x81;
        expect[1] = 0x7F;
        expect[257] = 0x3C;
        CHECK(p == expect);
    }
    SECTION("q2 suite reading: u = q + 1, lane i in bits 2(i%4) of byte i/4; padding code 0 is u = 1") {
        const auto &f = gf(NINFER_FORMAT_q2_g64_fp16);
        const auto p = row_split_encode(f, one_row(f, 5, {-1, 0, 1, 2, 2}));
        // [1,5]: gpr 2, base 32, scale at 256, payload 260
        auto expect = zeros(260);
        expect[0] = 0xE4;  // u 0, 1, 2, 3
        expect[1] = 0x57;  // u 3, then padding lanes u 1
        for (int i = 2; i < 32; ++i) expect[i] = 0x55;
        expect[257] = 0x3C;
        CHECK(p == expect);
    }
    SECTION("t2 suite reading: u = q mod 4") {
        const auto &f = gf(NINFER_FORMAT_t2_g128_fp16);
        const auto p = row_split_encode(f, one_row(f, 3, {-1, 0, 1}));
        auto expect = zeros(258);  // [1,3]: gpr 1, base 32, scale at 256
        expect[0] = 0x13;
        expect[257] = 0x3C;
        CHECK(p == expect);
    }
}

TEST_CASE("row_split decode validates and names the rule", "[grouped][row_split]") {
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    const auto good = row_split_encode(q4, one_row(q4, 65, {1, -2}));  // [1,65]: gpr 2, 2 logical groups
    REQUIRE(good.size() == 260);
    {
        const auto d = row_split_decode(q4, 1, 65, good);
        REQUIRE(d.status == NINFER_OK);
        CHECK(d.m.codes[0] == 1);
        CHECK(d.m.codes[1] == -2);
        CHECK(d.m.scales == std::vector<std::uint16_t>{0x3C00, 0x3C00});
    }
    auto refused = [&](const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::vector<std::uint8_t> p,
                       std::int32_t status, std::uint32_t detail) {
        const auto d = row_split_decode(f, n, k, p);
        CAPTURE(d.message);
        CHECK(d.status == status);
        CHECK(d.detail == detail);
        CHECK_FALSE(d.message.empty());
        return d.message;
    };
    auto with = [&](std::vector<std::uint8_t> p, std::size_t at, std::uint8_t v) {
        p[at] = v;
        return p;
    };
    refused(q4, 1, 65, std::vector<std::uint8_t>(good.begin(), good.end() - 1), NINFER_E_SIZE, NINFER_DETAIL_SIZE);
    refused(q4, 0, 65, good, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
    CHECK(refused(q4, 1, 65, with(good, 100, 1), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP)
              .find("offset 100") != std::string::npos);
    refused(q4, 1, 65, with(good, 257, 0x80), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE);  // -0
    refused(q4, 1, 65, with(good, 257, 0x7C), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE);  // +Inf
    refused(q4, 1, 65, with(good, 257, 0x7E), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE);  // NaN
    // +0 scale in group 0 whose codes are 1, -2
    CHECK(refused(q4, 1, 65, with(good, 257, 0x00), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES)
              .find("row 0 group 0") != std::string::npos);
    // lane 1 of group 1 is column 65 >= K: padding (byte 32 high nibble)
    CHECK(refused(q4, 1, 65, with(good, 32, 0x10), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING)
              .find("lane 1") != std::string::npos);
    CHECK(row_split_decode(q4, 1, 65, with(good, 32, 0x01)).status == NINFER_OK);  // column 64 is logical
    {
        // [1,1]: group 1 is a whole padding group; its scale at 258..259 and its codes at 32..63
        const auto one = row_split_encode(q4, one_row(q4, 1, {3}));
        refused(q4, 1, 1, with(one, 259, 0x3C), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);
        refused(q4, 1, 1, with(one, 259, 0x80), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);
        refused(q4, 1, 1, with(one, 40, 0x01), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);
    }
    const auto &q8 = gf(NINFER_FORMAT_q8_g32_fp16);
    const auto p8 = row_split_encode(q8, one_row(q8, 2, {-127, 127}));
    refused(q8, 1, 2, with(p8, 1, 0x80), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE);
    const auto &t2 = gf(NINFER_FORMAT_t2_g128_fp16);
    const auto pt = row_split_encode(t2, one_row(t2, 3, {-1, 0, 1}));
    refused(t2, 1, 3, with(pt, 0, 0x23), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE);  // lane 2 = 0b10
    refused(t2, 1, 3, with(pt, 257, 0x80), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE);
    SECTION("q2: every finite scale, any codes under a zero scale; padding lanes must be u = 1") {
        const auto &q2 = gf(NINFER_FORMAT_q2_g64_fp16);
        const auto p2 = row_split_encode(q2, one_row(q2, 5, {-1, 0, 1, 2, 2}));
        CHECK(row_split_decode(q2, 1, 5, with(p2, 257, 0x80)).status == NINFER_OK);  // -0 scale
        CHECK(row_split_decode(q2, 1, 5, with(p2, 257, 0x00)).status == NINFER_OK);  // +0 scale, codes kept
        refused(q2, 1, 5, with(p2, 257, 0x7C), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE);
        refused(q2, 1, 5, with(p2, 1, 0x53), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);  // lane 5 u 0
        refused(q2, 1, 5, with(p2, 20, 0x00), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);
        refused(q2, 1, 5, with(p2, 259, 0x80), NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_PADDING);
    }
}

TEST_CASE("row_split locate names plane, row, group and first lane", "[grouped][row_split]") {
    const auto &q5 = gf(NINFER_FORMAT_q5_g64_fp16);
    auto at = [&](std::uint64_t o) { return row_split_locate(q5, 2, 130, o); };
    CHECK(at(0).plane == "base");
    CHECK((at(33).row == 0 && at(33).group == 1 && at(33).lane == 2));
    CHECK((at(200).plane == "base" && at(200).row == 1 && at(200).group == 2 && at(200).lane == 16));
    CHECK((at(256).plane == "high" && at(256).row == 0 && at(256).group == 0));
    CHECK((at(265).plane == "high" && at(265).group == 1 && at(265).lane == 8));
    CHECK((at(300).plane == "high" && at(300).row == 1 && at(300).group == 1 && at(300).lane == 32));
    CHECK(at(320).plane == "gap");
    CHECK((at(522).plane == "scale" && at(522).row == 1 && at(522).group == 1));
    CHECK(at(528).plane == "outside");
    CHECK(row_split_locate(gf(NINFER_FORMAT_q4_g64_fp16), 1, 1, 100).plane == "gap");
}

TEST_CASE("row_split lane words and corruptions write the bytes the layout text names", "[grouped][row_split]") {
    // q5 [2,130] (the worked example): base rows of 128 bytes, high plane at 256 (rows of 32
    // bytes, 8 per group), gap [320, 512), scales at 512 (rows of 8 bytes).
    const auto &q5 = gf(NINFER_FORMAT_q5_g64_fp16);
    const auto g = *row_split_geometry(q5, 2, 130);
    auto p = zeros(g.payload_bytes);
    // Row 1, group 1, lane 3 = 0b11111: low nibble in the high half of base byte 128 + 32 + 1,
    // bit 4 as stream bit 3 of the group's high bytes (byte 256 + 32 + 8, bit 3).
    corrupt_code_word(q5, g, p, 1, 1, 3, 0x1F);
    CHECK(p[161] == 0xF0);
    CHECK(p[296] == 0x08);
    CHECK(row_split_lane_word(q5, g, p, 1, 1, 3) == 0x1F);
    CHECK(row_split_lane_word(q5, g, p, 1, 1, 2) == 0);
    std::size_t nonzero = 0;
    for (const auto b : p) nonzero += b != 0;
    CHECK(nonzero == 2);
    // Scale of row 1, group 3 (a padding group): bytes 512 + 8 + 6, little-endian.
    corrupt_scale_word(g, p, 1, 3, 0x3C01);
    CHECK((p[526] == 0x01 && p[527] == 0x3C));
    CHECK(row_split_scale_at(g, 1, 3) == 526);
    CHECK(row_split_scale_word(g, p, 1, 3) == 0x3C01);
    // Padding lanes: column 130 (group 2, lane 2) and any lane of padding group 3; column 129 is not one.
    CHECK_NOTHROW(corrupt_padding_lane(q5, g, 130, p, 0, 2, 2, 1));
    CHECK_NOTHROW(corrupt_padding_lane(q5, g, 130, p, 0, 3, 0, 1));
    CHECK_THROWS_AS(corrupt_padding_lane(q5, g, 130, p, 0, 2, 1, 1), std::invalid_argument);
    CHECK(row_split_lane_word(q5, g, p, 0, 2, 2) == 1);
    // Gaps: [256, 256) is empty, [320, 512) is the gap after the high plane.
    const auto gaps = row_split_gaps(g);
    CHECK((gaps[0].begin == 256 && gaps[0].end == 256));
    CHECK((gaps[1].begin == 320 && gaps[1].end == 512));
    corrupt_gap_byte(g, p, 511, 0x01);
    CHECK(p[511] == 0x01);
    CHECK(row_split_decode(q5, 2, 130, p).detail == NINFER_DETAIL_NONZERO_GAP);
    CHECK_THROWS_AS(corrupt_gap_byte(g, p, 300, 0x01), std::invalid_argument);
    CHECK_THROWS_AS(corrupt_gap_byte(g, p, 512, 0x01), std::invalid_argument);
    // Positions outside the geometry and short payloads.
    CHECK_THROWS_AS(row_split_lane_word(q5, g, p, 2, 0, 0), std::out_of_range);
    CHECK_THROWS_AS(row_split_lane_word(q5, g, p, 0, 4, 0), std::out_of_range);
    CHECK_THROWS_AS(row_split_lane_word(q5, g, p, 0, 0, 64), std::out_of_range);
    CHECK_THROWS_AS(row_split_lane_word(q5, g, std::span<const std::uint8_t>(p).first(100), 0, 0, 0), std::out_of_range);
    CHECK_THROWS_AS(corrupt_scale_word(g, p, 2, 0, 1), std::out_of_range);

    // q2 [1,5]: four lanes per byte, lane 6 in bits 4..5 of base byte 1 (the 2-bit suite reading).
    const auto &q2 = gf(NINFER_FORMAT_q2_g64_fp16);
    const auto g2 = *row_split_geometry(q2, 1, 5);
    auto p2 = zeros(g2.payload_bytes);
    corrupt_code_word(q2, g2, p2, 0, 0, 6, 3);
    CHECK(p2[1] == 0x30);
    CHECK(row_split_lane_word(q2, g2, p2, 0, 0, 6) == 3);
    // q8 [1,1]: one byte per lane; the illegal word 0x80 at lane 5 is byte 5, refused by decode.
    const auto &q8 = gf(NINFER_FORMAT_q8_g32_fp16);
    const auto g8 = *row_split_geometry(q8, 1, 32);
    auto p8 = row_split_encode(q8, one_row(q8, 32, {}));
    corrupt_code_word(q8, g8, p8, 0, 0, 5, 0x80);
    CHECK(p8[5] == 0x80);
    CHECK(row_split_decode(q8, 1, 32, p8).detail == NINFER_DETAIL_ILLEGAL_CODE);
}

TEST_CASE("row_split lane words read back every code of a canonical payload", "[grouped][row_split]") {
    for (const auto &f : kGroupedFormats) {
        for (const std::uint64_t k : {std::uint64_t{1}, std::uint64_t{130}}) {
            const auto m = random_matrix(f, 3, k, 20261130u + f.id);
            const auto p = row_split_encode(f, m);
            const auto g = *row_split_geometry(f, 3, k);
            const auto G = static_cast<std::uint64_t>(f.group);
            CAPTURE(f.name, k);
            for (std::uint64_t r = 0; r < 3; ++r)
                for (std::uint64_t grp = 0; grp < g.groups_per_row; ++grp)
                    for (std::uint64_t lane = 0; lane < G; ++lane) {
                        const std::uint64_t col = grp * G + lane;
                        const int code = col < k ? m.codes[r * k + col] : 0;
                        REQUIRE(row_split_lane_word(f, g, p, r, grp, lane) == grouped_code_word(f, code));
                    }
        }
    }
}

TEST_CASE("row_split canonical round trip, slices and gathers equal re-encoding", "[grouped][row_split]") {
    std::uint32_t seed = 20261129;
    for (const auto &f : kGroupedFormats) {
        for (const std::uint64_t k : {1, 63, 64, 65, 127, 128, 129, 130, 4096}) {
            const std::uint64_t n = k == 4096 ? 3 : 5;
            CAPTURE(f.name, k, seed);  // include the seed in bug reports
            auto m = random_matrix(f, n, k, seed++);
            const auto p = row_split_encode(f, m);
            const auto d = row_split_decode(f, n, k, p);  // random scales are finite nonzero: all valid
            REQUIRE(d.status == NINFER_OK);
            CHECK(d.m.codes == m.codes);
            CHECK(d.m.scales == m.scales);
            const std::uint64_t gpr = grouped_groups_per_row(f, k);
            auto sub = [&](std::vector<std::uint64_t> rows) {
                GroupedMatrix s;
                s.rows = rows.size();
                s.cols = k;
                for (const auto r : rows) {
                    s.codes.insert(s.codes.end(), m.codes.begin() + r * k, m.codes.begin() + (r + 1) * k);
                    s.scales.insert(s.scales.end(), m.scales.begin() + r * gpr, m.scales.begin() + (r + 1) * gpr);
                }
                return s;
            };
            const std::vector<std::uint64_t> gather = {n - 1, 0, n - 1, 1};
            CHECK(row_split_select_rows(f, n, k, p, gather) == row_split_encode(f, sub(gather)));
            const std::vector<std::uint64_t> slice = {1, 2};
            CHECK(row_split_select_rows(f, n, k, p, slice) == row_split_encode(f, sub(slice)));
            const std::vector<std::uint64_t> single = {n - 1};
            CHECK(row_split_select_rows(f, n, k, p, single) == row_split_encode(f, sub(single)));
        }
    }
    const auto &q4 = gf(NINFER_FORMAT_q4_g64_fp16);
    const auto p = row_split_encode(q4, one_row(q4, 3, {1}));
    const std::vector<std::uint64_t> bad = {1};
    CHECK_THROWS_AS(row_split_select_rows(q4, 1, 3, p, bad), std::invalid_argument);
    CHECK_THROWS_AS(row_split_select_rows(q4, 1, 200, p, std::vector<std::uint64_t>{0}), std::invalid_argument);
    CHECK_THROWS_AS(row_split_select_rows(q4, 1, 3, p, std::vector<std::uint64_t>{}), std::invalid_argument);
    GroupedMatrix illegal = one_row(gf(NINFER_FORMAT_q8_g32_fp16), 1, {-128});
    CHECK_THROWS_AS(row_split_encode(gf(NINFER_FORMAT_q8_g32_fp16), illegal), std::invalid_argument);
}
