// SPDX-License-Identifier: Apache-2.0
// The scaled floating-point formats (tensor-formats.txt 3.3, 3.4; storage-layouts.md 4-6):
// geometry and its refusals, known swizzle offsets computed by hand from the Section 4 formula,
// the swizzle as a bijection, validation details, the reconstruction equations and
// fp8_row_maxabs on rows whose expected words were worked out by hand from the paragraph
// (exact fractions, each rounding step written out; see the comments).
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <algorithm>
#include <set>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/scaled.hpp"

using namespace ninfer::oracle;

namespace {

Nvfp4Matrix random_nvfp4(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::uint32_t seed) {
    std::mt19937 rng(seed);
    Nvfp4Matrix m;
    m.rows = n;
    m.cols = k;
    for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::uint8_t>(rng() & 0xF));
    for (std::uint64_t i = 0; i < n * k / 16; ++i) m.scales.push_back(static_cast<std::uint8_t>(rng() % 0x7F));  // 0x00..0x7E
    for (std::uint64_t d = 0; d < divisors; ++d) m.divisors.push_back(0x3F800000u + static_cast<std::uint32_t>(rng() % 0x100000));
    return m;
}

}  // namespace

TEST_CASE("block_scale_k16_m128x4_v1 geometry follows storage-layouts.md Section 4", "[scaled][nvfp4]") {
    // [128, 64], one divisor: codes 128*64/2 = 4096, scales at 4096 (already aligned), 512 scale
    // bytes, the divisor at 4608, payload 4612.
    const auto g = block_scale_geometry(128, 64, 1);
    REQUIRE(g);
    CHECK(g->code_plane_bytes == 4096);
    CHECK(g->scale_plane_offset == 4096);
    CHECK(g->scale_plane_bytes == 512);
    CHECK(g->divisor_offset == 4608);
    CHECK(g->payload_bytes == 4612);
    CHECK(g->groups_per_row == 4);
    const auto g3 = block_scale_geometry(384, 128, 3);
    REQUIRE(g3);
    CHECK(g3->payload_bytes == 384 * 128 / 2 + 384 * 128 / 16 + 12);
    CHECK(nvfp4_divisor_of_row(*g3, 127) == 0);
    CHECK(nvfp4_divisor_of_row(*g3, 128) == 1);
    CHECK(nvfp4_divisor_of_row(*g3, 383) == 2);
}

TEST_CASE("block_scale_k16_m128x4_v1 refuses every shape the layout does not have", "[scaled][nvfp4]") {
    CHECK_FALSE(block_scale_geometry(64, 64, 1));    // N % 128
    CHECK_FALSE(block_scale_geometry(128, 32, 1));   // K % 64
    CHECK_FALSE(block_scale_geometry(128, 64, 0));   // no divisor
    CHECK_FALSE(block_scale_geometry(128, 64, 3));   // 3 does not divide 128
    CHECK_FALSE(block_scale_geometry(0, 64, 1));
    CHECK_FALSE(block_scale_geometry(1ull << 62, 1ull << 8, 1));  // N*K overflows uint64
    CHECK(block_scale_shape_error(64, 64, 1).find("128") != std::string::npos);
    CHECK(block_scale_shape_error(128, 32, 1).find("64") != std::string::npos);
    CHECK(block_scale_shape_error(128, 64, 3).find("divide") != std::string::npos);
}

TEST_CASE("known block-scale swizzle offsets, computed by hand", "[scaled][nvfp4]") {
    // (floor(n/128)*(K/64) + floor(g/4))*512 + (n%128 % 32)*16 + floor((n%128)/32)*4 + g%4
    CHECK(block_scale_swizzle(64, 0, 0) == 0);
    CHECK(block_scale_swizzle(64, 0, 1) == 1);     // g%4 = 1
    CHECK(block_scale_swizzle(64, 1, 0) == 16);    // (1 % 32) * 16
    CHECK(block_scale_swizzle(64, 32, 0) == 4);    // floor(32/32) * 4
    CHECK(block_scale_swizzle(64, 127, 3) == 511); // 31*16 + 3*4 + 3
    CHECK(block_scale_swizzle(128, 0, 4) == 512);  // second tile of the row block: K/64 = 2
    CHECK(block_scale_swizzle(128, 128, 0) == 1024);  // tile (1*2 + 0)
    CHECK(block_scale_swizzle(128, 33, 5) == 533);    // tile 1: 512 + 16 + 4 + 1
    CHECK(block_scale_swizzle(192, 200, 11) == (1 * 3 + 2) * 512 + (72 % 32) * 16 + (72 / 32) * 4 + 3);
}

TEST_CASE("the block-scale swizzle is a bijection onto the scale plane", "[scaled][nvfp4]") {
    for (auto [n, k] : {std::pair<std::uint64_t, std::uint64_t>{128, 64}, {256, 128}, {128, 192}, {384, 64}, {256, 320}}) {
        CAPTURE(n, k);
        std::vector<bool> seen(n * k / 16, false);
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t g = 0; g < k / 16; ++g) {
                const auto at = block_scale_swizzle(k, r, g);
                REQUIRE(at < seen.size());
                REQUIRE_FALSE(seen[at]);
                seen[at] = true;
            }
    }
}

TEST_CASE("nvfp4 payloads round-trip and place codes, scales and divisors as Section 4 says", "[scaled][nvfp4]") {
    auto m = random_nvfp4(256, 128, 2, 7);
    m.codes[0] = 0x3;
    m.codes[1] = 0xA;  // byte 0: low nibble = smaller k
    m.scales[1 * 8 + 5] = 0x42;  // (n=1, g=5): tile 1 -> 512 + 16 + 0 + 1
    const auto p = block_scale_encode(m);
    const auto g = *block_scale_geometry(256, 128, 2);
    CHECK(p[0] == 0xA3);
    CHECK(p[g.scale_plane_offset + 529] == 0x42);
    CHECK(p[g.divisor_offset + 4] == static_cast<std::uint8_t>(m.divisors[1]));
    const auto d = block_scale_decode(256, 128, 2, p);
    REQUIRE(d.status == NINFER_OK);
    CHECK(d.m.codes == m.codes);
    CHECK(d.m.scales == m.scales);
    CHECK(d.m.divisors == m.divisors);
}

TEST_CASE("nvfp4 decode refuses invalid scales, divisors and sizes, naming where", "[scaled][nvfp4]") {
    const auto m = random_nvfp4(128, 64, 1, 3);
    const auto good = block_scale_encode(m);
    const auto g = *block_scale_geometry(128, 64, 1);
    for (std::uint8_t bad : {std::uint8_t{0x80}, std::uint8_t{0x81}, std::uint8_t{0x7F}, std::uint8_t{0xFF}, std::uint8_t{0xC0}}) {
        CAPTURE(bad);
        auto p = good;
        p[g.scale_plane_offset + block_scale_swizzle(64, 33, 2)] = bad;
        const auto d = block_scale_decode(128, 64, 1, p);
        CHECK(d.status == NINFER_E_INVALID_PAYLOAD);
        CHECK(d.detail == NINFER_DETAIL_INVALID_SCALE);
        CHECK(d.message.find("row 33, group 2") != std::string::npos);
    }
    for (std::uint32_t bad : {0u, 0x80000000u, 0xBF800000u, 0x7F800000u, 0x7FC00000u, 0xFF800000u}) {
        CAPTURE(bad);
        auto p = good;
        ninfer::abi::store_le32(&p[g.divisor_offset], bad);
        const auto d = block_scale_decode(128, 64, 1, p);
        CHECK(d.status == NINFER_E_INVALID_PAYLOAD);
        CHECK(d.detail == NINFER_DETAIL_INVALID_DIVISOR);
    }
    auto p = good;
    p.pop_back();
    CHECK(block_scale_decode(128, 64, 1, p).detail == NINFER_DETAIL_SIZE);
    CHECK(block_scale_decode(128, 64, 2, good).status == NINFER_E_SIZE);
    CHECK(block_scale_decode(64, 64, 1, good).status == NINFER_E_SIZE);
    // A +0 scale is valid; a positive subnormal divisor too.
    p = good;
    p[g.scale_plane_offset] = 0x00;
    for (int b = 0; b < 4; ++b) p[g.divisor_offset + b] = b == 0 ? 1 : 0;
    CHECK(block_scale_decode(128, 64, 1, p).status == NINFER_OK);
}

TEST_CASE("nvfp4 reconstruction: exact value and its binary32 rounding", "[scaled][nvfp4]") {
    // 6.0 (0x7) * 1.0 (E4M3 0x38) / 2.0f = 3.0
    CHECK(rational_text(nvfp4_exact_weight(0x7, 0x38, 0x40000000u)) == "3");
    CHECK(nvfp4_weight_binary32(0x7, 0x38, 0x40000000u) == 0x40400000u);
    // 1.0 (0x2) * 1.0 / 3.0f = 1/3: not dyadic; binary32 nearest-even is 0x3EAAAAAB.
    CHECK(rational_text(nvfp4_exact_weight(0x2, 0x38, 0x40400000u)) == "1/3");
    CHECK(nvfp4_weight_binary32(0x2, 0x38, 0x40400000u) == 0x3EAAAAABu);
    // -0.5 (0xA: sign, 0.5... 0xA = 1010b -> -(word 2) = -1.0) * 448 (0x7E) / 1
    CHECK(rational_text(nvfp4_exact_weight(0xA, 0x7E, 0x3F800000u)) == "-448");
    // -0 code: a negative zero weight.
    CHECK(nvfp4_weight_binary32(0x8, 0x38, 0x3F800000u) == 0x80000000u);
    // 6 * 448 / smallest subnormal divisor 2^-149 overflows binary32 to infinity.
    CHECK(nvfp4_weight_binary32(0x7, 0x7E, 0x00000001u) == 0x7F800000u);
    // The smallest E4M3 subnormal 2^-9 times 0.5 over 2^20 is 2^-30, exact.
    CHECK(nvfp4_weight_binary32(0x1, 0x01, 0x49800000u) == 0x30800000u);
}

TEST_CASE("FP8 row geometry of row_scale_v1 and row_interleaved_v1", "[scaled][fp8]") {
    const auto bf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_bf16);
    const auto hf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_fp16);
    CHECK_FALSE(fp8_row_format(NINFER_FORMAT_nvfp4));
    const auto g = *fp8_row_geometry(bf, 3, 5);
    CHECK(g.scale_plane_offset == 256);  // align_up(15, 256)
    CHECK(g.payload_bytes == 262);
    const auto h = *fp8_row_geometry(hf, 3, 5);
    CHECK(h.row_stride == 7);
    CHECK(h.payload_bytes == 21);
    CHECK_FALSE(fp8_row_geometry(bf, 0, 5));
    CHECK_FALSE(fp8_row_geometry(hf, 1ull << 63, 4));
    Fp8RowMatrix m{2, 3, {0x01, 0x02, 0x03, 0x81, 0x82, 0x83}, {0x3F80, 0x4000}};
    const auto pi = fp8_row_encode(hf, m);
    CHECK(pi == std::vector<std::uint8_t>{0x01, 0x02, 0x03, 0x80, 0x3F, 0x81, 0x82, 0x83, 0x00, 0x40});
    const auto ps = fp8_row_encode(bf, m);
    REQUIRE(ps.size() == 256 + 4);
    CHECK(ps[5] == 0x83);
    CHECK(ps[6] == 0x00);
    CHECK(ps[256] == 0x80);
    CHECK(ps[259] == 0x40);
    for (const auto &f : {bf, hf}) {
        const auto d = fp8_row_decode(f, 2, 3, fp8_row_encode(f, m));
        REQUIRE(d.status == NINFER_OK);
        CHECK(d.m.codes == m.codes);
        CHECK(d.m.scales == m.scales);
    }
}

TEST_CASE("FP8 row decode refuses NaN codes, invalid multipliers, zero rows with nonzero codes, gaps", "[scaled][fp8]") {
    const auto bf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_bf16);
    const auto hf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_fp16);
    for (const auto &f : {bf, hf}) {
        const std::uint16_t inf = f.scale_format == NINFER_FORMAT_bf16 ? 0x7F80 : 0x7C00;
        Fp8RowMatrix m{2, 3, {0x01, 0x02, 0x03, 0x81, 0x82, 0x83}, {0x3F80, 0x0001}};
        for (std::uint8_t bad : {std::uint8_t{0x7F}, std::uint8_t{0xFF}}) {
            auto b = m;
            b.codes[4] = bad;
            const auto d = fp8_row_decode(f, 2, 3, fp8_row_encode(f, b));
            CHECK(d.detail == NINFER_DETAIL_ILLEGAL_CODE);
            CHECK(d.message.find("row 1, column 1") != std::string::npos);
        }
        for (std::uint16_t bad : {std::uint16_t{0x8000}, std::uint16_t{0xBF80}, inf, std::uint16_t(inf | 1)}) {
            auto b = m;
            b.scales[1] = bad;
            CHECK(fp8_row_decode(f, 2, 3, fp8_row_encode(f, b)).detail == NINFER_DETAIL_INVALID_SCALE);
        }
        auto z = m;
        z.scales[0] = 0;
        CHECK(fp8_row_decode(f, 2, 3, fp8_row_encode(f, z)).detail == NINFER_DETAIL_ZERO_SCALE_CODES);
        z.codes = {0x00, 0x80, 0x00, 0x81, 0x82, 0x83};  // signed zeros under a +0 multiplier: valid
        CHECK(fp8_row_decode(f, 2, 3, fp8_row_encode(f, z)).status == NINFER_OK);
        auto p = fp8_row_encode(f, m);
        p.push_back(0);
        CHECK(fp8_row_decode(f, 2, 3, p).detail == NINFER_DETAIL_SIZE);
    }
    Fp8RowMatrix m{2, 3, {0x01, 0x02, 0x03, 0x81, 0x82, 0x83}, {0x3F80, 0x0001}};
    auto p = fp8_row_encode(bf, m);
    p[100] = 1;
    CHECK(fp8_row_decode(bf, 2, 3, p).detail == NINFER_DETAIL_NONZERO_GAP);
}

TEST_CASE("FP8 row reconstruction binary32(c32 * s32), overflow to infinity", "[scaled][fp8]") {
    const auto bf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_bf16);
    const auto hf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_fp16);
    CHECK(fp8_row_weight_binary32(bf, 0x38, 0x3F80) == 0x3F800000u);      // 1 * 1
    CHECK(fp8_row_weight_binary32(bf, 0xFE, 0x4000) == 0xC4600000u);      // -448 * 2 = -896
    CHECK(fp8_row_weight_binary32(bf, 0x7E, 0x7F7F) == 0x7F800000u);      // 448 * 3.39e38: infinity
    CHECK(fp8_row_weight_binary32(bf, 0x80, 0x3F80) == 0x80000000u);      // -0 * 1
    CHECK(fp8_row_weight_binary32(bf, 0x01, 0x0001) == 0x00000080u);      // 2^-9 * 2^-133 = 2^-142 = 2^7 * 2^-149
    CHECK(fp8_row_weight_binary32(hf, 0x39, 0x3C01) == 0x3F902400u);      // 1.125 * (1 + 2^-10), exact
    CHECK(fp8_row_weight_binary32(hf, 0x7E, 0x7BFF) == 0x4BDFE400u);      // 448 * 65504 = 29345792, exact
}

TEST_CASE("fp8_row_maxabs on rows worked out by hand", "[scaled][fp8]") {
    const auto bf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_bf16);
    const auto hf = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_fp16);
    // Row [1, -2, 0.5, 0.3] as fp32 (0.3f = 0x3E99999A rounds to BF16 0x3E9A = 0.30078125).
    // amax 2; binary32(2/448) = 0x3B924925; BF16 nearest-even 0x3B92; reciprocal binary32
    // 0x43607038 (224.4375...); 1 * r -> 224.44 -> E4M3 224 = 0x76; -2 * r = -448.9 -> clamp
    // -448 = 0xFE; 0.5 * r = 112.2 -> 112 = 0x6E; 0.30078125 * r = 67.5 -> 64 (E4M3 grid 64, 72:
    // 67.5 is nearer 64) = 0x68.
    const std::vector<std::uint64_t> row{0x3F800000u, 0xC0000000u, 0x3F000000u, 0x3E99999Au};
    auto e = fp8_row_maxabs(bf, NINFER_FORMAT_fp32, row);
    REQUIRE(e.status == NINFER_OK);
    CHECK(e.scale32 == 0x3B924925u);
    CHECK(e.scale == 0x3B92);
    CHECK(e.reciprocal32 == 0x43607038u);
    CHECK(e.codes == std::vector<std::uint8_t>{0x76, 0xFE, 0x6E, 0x68});
    // The same row with a binary16 scale: 0x3B924925 -> binary16 0x1C92, reciprocal 0x43600E01.
    e = fp8_row_maxabs(hf, NINFER_FORMAT_fp32, row);
    CHECK(e.scale == 0x1C92);
    CHECK(e.reciprocal32 == 0x43600E01u);
    CHECK(e.codes == std::vector<std::uint8_t>{0x76, 0xFE, 0x6E, 0x68});
    // Ties to even in E4M3 with a unit scale: amax 448 -> scale 1.0; 1.0625 lies between 1 and
    // 1.125 (even: 1.0 = 0x38); 1.1875 between 1.125 and 1.25 (even: 1.25 = 0x3A); -1.0625 -> 0xB8.
    e = fp8_row_maxabs(bf, NINFER_FORMAT_bf16, std::vector<std::uint64_t>{0x43E0, 0x3F88, 0x3F98, 0xBF88});
    CHECK(e.scale == 0x3F80);
    CHECK(e.codes == std::vector<std::uint8_t>{0x7E, 0x38, 0x3A, 0xB8});
    // Binary16 rescue: amax 2^-20 -> binary32 0x31124925 (2^-20/448) rounds to binary16 +0,
    // rescued as 0x0001 (2^-24); reciprocal 2^24; 2^-20 * 2^24 = 16 = 0x58; -2^-21 -> -8 = 0xD0.
    e = fp8_row_maxabs(hf, NINFER_FORMAT_fp16, std::vector<std::uint64_t>{0x0010, 0x8008, 0x0000});
    CHECK(e.scale32 == 0x31124925u);
    CHECK(e.scale == 0x0001);
    CHECK(e.reciprocal32 == 0x4B800000u);
    CHECK(e.codes == std::vector<std::uint8_t>{0x58, 0xD0, 0x00});
    // All-zero rows (either zero) give positive-zero codes and scale.
    e = fp8_row_maxabs(bf, NINFER_FORMAT_fp32, std::vector<std::uint64_t>{0x80000000u, 0u});
    CHECK(e.status == NINFER_OK);
    CHECK(e.scale == 0);
    CHECK(e.codes == std::vector<std::uint8_t>{0x00, 0x00});
    // Refusals: a NaN or infinite input; a binary16 scale that overflows (amax 2^25: 2^25/448 > 65504).
    CHECK(fp8_row_maxabs(bf, NINFER_FORMAT_fp32, std::vector<std::uint64_t>{0x7FC00000u}).status == NINFER_E_NONFINITE);
    CHECK(fp8_row_maxabs(hf, NINFER_FORMAT_fp16, std::vector<std::uint64_t>{0xFC00}).status == NINFER_E_NONFINITE);
    CHECK(fp8_row_maxabs(hf, NINFER_FORMAT_bf16, std::vector<std::uint64_t>{0x4C00}).status == NINFER_E_SCALE_OVERFLOW);
    // The largest finite fp32 rounds to a BF16 infinity: refused as a non-finite input (suite reading).
    e = fp8_row_maxabs(bf, NINFER_FORMAT_fp32, std::vector<std::uint64_t>{0x7F7FFFFFu});
    CHECK(e.status == NINFER_E_NONFINITE);
    CHECK(e.suite_reading);
    // BF16 rescue: amax 2^-133 -> scale +0 rescued to 0x0001 (2^-133), whose reciprocal 2^133
    // overflows binary32: a nonzero input clamps to 448, a zero input stays a signed zero (suite reading).
    e = fp8_row_maxabs(bf, NINFER_FORMAT_bf16, std::vector<std::uint64_t>{0x0001, 0x8000, 0x8001});
    CHECK(e.scale == 0x0001);
    CHECK(e.reciprocal32 == 0x7F800000u);
    CHECK(e.codes == std::vector<std::uint8_t>{0x7E, 0x80, 0xFE});
    CHECK(e.suite_reading);
    // 100, 7, -1/3 with a binary16 scale: expected words from exact fractions (scale 0x3325, reciprocal 0x408F538F).
    e = fp8_row_maxabs(hf, NINFER_FORMAT_fp32, std::vector<std::uint64_t>{0x42C80000u, 0x40E00000u, 0xBEAAAAABu});
    CHECK(e.scale == 0x3325);
    CHECK(e.reciprocal32 == 0x408F538Fu);
    CHECK(e.codes == std::vector<std::uint8_t>{0x7E, 0x60, 0xBC});
}

namespace {

/// Lesson Examples 14 and 15: the 32 inputs of `new Random(3)`, 32 x (float) nextGaussian(), as
/// binary32 words (generated once with a JVM; the lesson's printed outputs below confirm them).
constexpr std::uint32_t kLessonInputs[32] = {
    0x3E1BEF37u, 0xBE90C354u, 0xBF9554BFu, 0x3F2F9AE0u, 0x3DDB93D9u, 0xBF634343u, 0xBFAECEE0u, 0xC0068A14u,
    0xBF07C324u, 0xBF525357u, 0xBCA0BC3Eu, 0x3F317B04u, 0x3F7B32BCu, 0x3DB7F733u, 0x3EEA5F51u, 0xBFC904E2u,
    0x3D0408C3u, 0x3D9F98D8u, 0xBF55D6B7u, 0xBF9A60A6u, 0xBE5E4897u, 0xBF811A12u, 0x3FD38929u, 0xBE568FF1u,
    0xBFA0A717u, 0xBE3CBEBFu, 0xBFE9E51Eu, 0x3C194A33u, 0x4076ADDAu, 0xBF141801u, 0xBF9221A6u, 0xBF9FF8FEu};

double to_double(const Rational &q) { return q.convert_to<double>(); }
double f32(std::uint32_t w) { return to_double(exact_word_value(word_format(NINFER_FORMAT_fp32), w)); }

}  // namespace

TEST_CASE("MXFP4 recipe reproduces lesson Example 14", "[scaled][lesson]") {
    const auto b = mxfp4_encode_block(kLessonInputs);
    REQUIRE(b.status == NINFER_OK);
    // amax = 3.8544, E8M0 byte = 126, scale = 2^-1 = 0.5
    CHECK(f32(0x4076ADDAu) == Approx(3.8544).margin(5e-5));
    CHECK(b.scale == 126);
    std::string codes;
    for (auto c : b.codes) codes += ninfer::abi::hex_word(c, 1);
    CHECK(codes == "19c30cdeab03402d00bc9c59d9e07acc");
    // mean abs error = 0.1147
    Rational err = 0;
    for (std::size_t i = 0; i < 32; ++i) err += abs(mxfp4_exact_value(b.codes[i], b.scale) - exact_word_value(word_format(NINFER_FORMAT_fp32), kLessonInputs[i]));
    CHECK(to_double(err / 32) == Approx(0.1147).margin(5e-5));
    // Refusals and the all-zero block.
    CHECK(mxfp4_encode_block(std::vector<std::uint32_t>{0x7F800000u}).status == NINFER_E_NONFINITE);
    CHECK(mxfp4_encode_block(std::vector<std::uint32_t>{0x00000001u}).status == NINFER_E_SCALE_OVERFLOW);
    const auto z = mxfp4_encode_block(std::vector<std::uint32_t>{0u, 0x80000000u});
    CHECK(z.scale == 0);
    CHECK(z.codes == std::vector<std::uint8_t>{0, 0});
    // amax 1.0 -> exponent 0 - 2, scale 0.25: 1.0 = 4 * 0.25 (word 0x6); the grid starts 0, 0.125,
    // so +-0.0625 ties 0 and +-0.125 and takes the first word, 0x0.
    const auto t = mxfp4_encode_block(std::vector<std::uint32_t>{0x3F800000u, 0x3D800000u, 0xBD800000u});
    CHECK(t.scale == 125);
    CHECK(t.codes == std::vector<std::uint8_t>{0x6, 0x0, 0x0});
}

TEST_CASE("NVIDIA's two-level NVFP4 recipe reproduces lesson Example 15", "[scaled][lesson]") {
    const auto r = nvfp4_two_level_encode(1, 32, kLessonInputs);
    REQUIRE(r.status == NINFER_OK);
    // tensor scale (FP32) = 1.433914e-03
    CHECK(f32(r.tensor_scale) == Approx(1.433914e-03).margin(5e-10));
    // block 0: E4M3 code 0x77 = 240.0, effective scale 0.3441; block 1: 0x7E = 448.0, 0.6424
    REQUIRE(r.m.scales.size() == 2);
    CHECK(r.m.scales[0] == 0x77);
    CHECK(r.m.scales[1] == 0x7E);
    CHECK(f32(r.block_scale[0]) == Approx(0.3441).margin(5e-5));
    CHECK(f32(r.block_scale[1]) == Approx(0.6424).margin(5e-5));
    // mean abs error = 0.0751 (q = e2m1 * blockScale)
    Rational err = 0;
    for (std::size_t i = 0; i < 32; ++i)
        err += abs(exact_word_value(word_format(NINFER_FORMAT_e2m1), r.m.codes[i]) *
                       exact_word_value(word_format(NINFER_FORMAT_fp32), r.block_scale[i / 16]) -
                   exact_word_value(word_format(NINFER_FORMAT_fp32), kLessonInputs[i]));
    CHECK(to_double(err / 32) == Approx(0.0751).margin(5e-5));
    // The payload is a valid nvfp4 tensor: its divisor is binary32(2688 / tensorAmax), its scales valid.
    CHECK(r.m.divisors == std::vector<std::uint32_t>{r.divisor});
    CHECK(f32(r.divisor) == Approx(2688 / 3.8544).epsilon(1e-4));
    const auto enc = nvfp4_two_level_encode(128, 64, std::vector<std::uint32_t>(128 * 64, 0x3F800000u));
    const auto back = block_scale_decode(128, 64, 1, block_scale_encode(enc.m));
    REQUIRE(back.status == NINFER_OK);
    CHECK(back.m.codes == enc.m.codes);
    // All ones: amax 1, tensor scale 1/2688, block code 448 (0x7E), every code 6.0 (0x7).
    CHECK(enc.m.scales[0] == 0x7E);
    CHECK(enc.m.codes[0] == 0x7);
}

TEST_CASE("nvfp4 row slices and gathers re-swizzle scales and keep each row's divisor", "[scaled][nvfp4]") {
    const auto m = random_nvfp4(512, 64, 4, 11);  // 4 sources of 128 rows
    const auto p = block_scale_encode(m);
    // A slice of the second source: rows 128..255 -> one divisor, rows decoded equal the parent's.
    std::vector<std::uint64_t> rows(128);
    for (std::uint64_t j = 0; j < 128; ++j) rows[j] = 128 + j;
    auto s = block_scale_select_rows(512, 64, 4, p, rows);
    REQUIRE(s.status == NINFER_OK);
    CHECK(s.divisors == 1);
    auto d = block_scale_decode(128, 64, 1, s.payload);
    REQUIRE(d.status == NINFER_OK);
    CHECK(d.m.divisors[0] == m.divisors[1]);
    for (std::uint64_t j = 0; j < 128; ++j)
        for (std::uint64_t g = 0; g < 4; ++g) REQUIRE(d.m.scales[j * 4 + g] == m.scales[(128 + j) * 4 + g]);
    CHECK(std::equal(d.m.codes.begin(), d.m.codes.end(), m.codes.begin() + 128 * 64));
    // A gather of 64 rows of source 3 then 64 of source 0 (reversed): two equal runs -> two divisors.
    rows.clear();
    for (std::uint64_t j = 0; j < 64; ++j) rows.push_back(511 - j);
    for (std::uint64_t j = 0; j < 64; ++j) rows.push_back(j * 2);
    s = block_scale_select_rows(512, 64, 4, p, rows);
    REQUIRE(s.status == NINFER_OK);
    d = block_scale_decode(128, 64, 2, s.payload);
    REQUIRE(d.status == NINFER_OK);
    CHECK(d.m.divisors == std::vector<std::uint32_t>{m.divisors[3], m.divisors[0]});
    CHECK(d.m.scales[70 * 4 + 3] == m.scales[12 * 4 + 3]);
    // Refusals: 64 rows (no geometry), unequal runs, a row out of range, nothing selected.
    CHECK(block_scale_select_rows(512, 64, 4, p, std::vector<std::uint64_t>(64, 0)).status == NINFER_E_INVALID_ARGUMENT);
    rows.assign(100, 0);
    rows.resize(128, 200);
    s = block_scale_select_rows(512, 64, 4, p, rows);
    CHECK(s.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(s.message.find("unequal") != std::string::npos);
    CHECK(block_scale_select_rows(512, 64, 4, p, std::vector<std::uint64_t>{512}).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(block_scale_select_rows(512, 64, 4, p, std::vector<std::uint64_t>{}).status == NINFER_E_INVALID_ARGUMENT);
}

TEST_CASE("FP8 row slices and gathers keep rows whole and recompute the alignment", "[scaled][fp8]") {
    Fp8RowMatrix m{3, 5, {}, {0x3F80, 0x4000, 0x4040}};
    for (int i = 0; i < 15; ++i) m.codes.push_back(static_cast<std::uint8_t>(i + 1));
    for (const auto id : {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const auto f = *fp8_row_format(id);
        const auto p = fp8_row_encode(f, m);
        const auto s = fp8_row_select_rows(f, 3, 5, p, std::vector<std::uint64_t>{2, 0, 2});
        const auto d = fp8_row_decode(f, 3, 5, s);
        REQUIRE(d.status == NINFER_OK);
        CHECK(d.m.scales == std::vector<std::uint16_t>{0x4040, 0x3F80, 0x4040});
        CHECK(d.m.codes[0] == 11);
        CHECK(d.m.codes[5] == 1);
        CHECK(d.m.codes[14] == 15);
        CHECK_THROWS(fp8_row_select_rows(f, 3, 5, p, std::vector<std::uint64_t>{3}));
        CHECK_THROWS(fp8_row_select_rows(f, 3, 5, p, std::vector<std::uint64_t>{}));
    }
}
