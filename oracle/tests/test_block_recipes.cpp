// SPDX-License-Identifier: Apache-2.0
// The MXFP4 recipe lattice (issue 34 item 6; suites/RECIPES.md): its canonical points are the
// oracle's two MXFP4 quantizers (the lesson's mxfp4_ocp and ggml's quantize_row_mxfp4_ref) on
// many blocks, and its bytes equal small cases worked by hand from the lesson's Example 14 and
// the rules' definitions (torchao's mx_tensor.py, cuDNN's block scale quantize).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>

#include "ninfer/oracle/block_recipes.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scaled.hpp"

using namespace ninfer::oracle;
namespace rc = ninfer::oracle::recipes;

namespace {

/// m * 2^e as a binary32 word (m < 2^24: exact).
std::uint32_t f32w(std::int64_t m, int e) { return std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(static_cast<double>(m), e))); }

/// A block of seeded values m * 2^e, 16-bit m of either sign, e in emin..emin+3; some blocks
/// get a tie of the E2M1 grid at their own scale.
std::vector<std::uint32_t> seeded_block(std::mt19937_64 &rng, int emin) {
    std::vector<std::uint32_t> x(32);
    for (auto &w : x) {
        const auto r = rng();
        w = f32w(static_cast<std::int64_t>(r & 0xFFFF) * ((r >> 16) & 1 ? -1 : 1), emin + static_cast<int>((r >> 20) % 4));
    }
    return x;
}

/// The lesson's block codes (value j in the low nibble of byte 1 + j, value j + 16 in the high).
std::vector<std::uint8_t> packed(std::uint8_t e, const std::vector<std::uint8_t> &codes) {
    std::vector<std::uint8_t> b(17, 0);
    b[0] = e;
    for (std::size_t j = 0; j < 16; ++j) b[1 + j] = static_cast<std::uint8_t>(codes[j] | codes[j + 16] << 4);
    return b;
}

}  // namespace

TEST_CASE("the lattice's canonical points are the oracle's two MXFP4 quantizers", "[recipes]") {
    std::mt19937_64 rng(0x6d78667034ull);
    const auto &ggml = *find_gguf_type("gguf_mxfp4");
    for (int i = 0; i < 400; ++i) {
        auto x = seeded_block(rng, -24 + (i % 12) * 4);
        if (i % 5 == 0) x[3] = 0x437FFFFFu;  // just below 2^8: log2f rounds up to 8
        const auto lesson = mxfp4_encode_block(x);
        const auto point = rc::mxfp4_recipe_block(rc::floor_rule, rc::nearest_first, x);
        REQUIRE(point.status == lesson.status);
        if (lesson.status == NINFER_OK) CHECK(point.bytes == packed(lesson.scale, lesson.codes));
        const auto ref = gguf_quantize_block_ref(ggml, x);
        const auto g = rc::mxfp4_recipe_block(rc::floor_log2f, rc::nearest_first, x);
        REQUIRE(g.status == NINFER_OK);
        CHECK(g.bytes == ref.block);
    }
}

TEST_CASE("the lesson's Example 14 block under every scale rule, worked by hand", "[recipes]") {
    // amax = 3.8544 (0x4076ADDA): floor(log2) = 1, so floor and floorf(log2f) give 1 - 2 = -1
    // (the lesson's byte 126); ceil(log2) = 2 gives 0; 3.8544 / 2 = 1.93 >= 1.75 rounds up to
    // 4: even gives 0; 3.8544 / 6 = 0.64: ceil(log2) = 0 (rceil).
    const std::vector<std::uint32_t> lesson = {
        0x3E1BEF37u, 0xBE90C354u, 0xBF9554BFu, 0x3F2F9AE0u, 0x3DDB93D9u, 0xBF634343u, 0xBFAECEE0u, 0xC0068A14u,
        0xBF07C324u, 0xBF525357u, 0xBCA0BC3Eu, 0x3F317B04u, 0x3F7B32BCu, 0x3DB7F733u, 0x3EEA5F51u, 0xBFC904E2u,
        0x3D0408C3u, 0x3D9F98D8u, 0xBF55D6B7u, 0xBF9A60A6u, 0xBE5E4897u, 0xBF811A12u, 0x3FD38929u, 0xBE568FF1u,
        0xBFA0A717u, 0xBE3CBEBFu, 0xBFE9E51Eu, 0x3C194A33u, 0x4076ADDAu, 0xBF141801u, 0xBF9221A6u, 0xBF9FF8FEu};
    const std::uint8_t bytes[5] = {126, 126, 127, 127, 127};
    for (std::size_t s = 0; s < rc::kMxfp4Scales.size(); ++s)
        CHECK(rc::mxfp4_recipe_block(static_cast<rc::Mxfp4Scale>(s), rc::nearest_first, lesson).bytes[0] == bytes[s]);
    // The lesson prints the codes 19c30cdeab03402d00bc9c59d9e07acc (value 0 first).
    const std::string printed = "19c30cdeab03402d00bc9c59d9e07acc";
    std::vector<std::uint8_t> codes;
    for (const char ch : printed) codes.push_back(static_cast<std::uint8_t>(std::stoi(std::string(1, ch), nullptr, 16)));
    CHECK(rc::mxfp4_recipe_block(rc::floor_rule, rc::nearest_first, lesson).bytes == packed(126, codes));
}

TEST_CASE("scale rules at the mantissas that separate them, worked by hand", "[recipes]") {
    struct Row {
        std::uint32_t amax;
        long floor, floor_log2f, ceil, even, rceil;
    };
    // m = amax / 2^floor(log2 amax): ceil adds 1 unless m = 1; even when m >= 1.75; rceil when
    // m > 1.5 (6 * 2^(f - 2) = 1.5 * 2^f). log2(256 - 2^-16) = 8 - 1.3e-7 is within half an ulp
    // (2.4e-7) of 8, so floorf(log2f) is 8.
    const Row rows[] = {
        {0x3F800000u, -2, -2, -2, -2, -2},  // 1
        {0x3FA00000u, -2, -2, -1, -2, -2},  // 1.25
        {0x3FC00000u, -2, -2, -1, -2, -2},  // 1.5: 1.5 / 6 = 2^-2 exactly
        {0x3FD00000u, -2, -2, -1, -2, -1},  // 1.625
        {0x3FE00000u, -2, -2, -1, -1, -1},  // 1.75: the half-up tie of even
        {0x3FF00000u, -2, -2, -1, -1, -1},  // 1.875
        {0x437FFFFFu, 5, 6, 6, 6, 6},       // 256 - 2^-16
        {0x40C00000u, 0, 0, 1, 0, 0},       // 6: 6 / 6 = 1
    };
    for (const auto &r : rows) {
        INFO("amax 0x" << std::hex << r.amax);
        CHECK(rc::mxfp4_scale_exponent(rc::floor_rule, r.amax) == r.floor);
        CHECK(rc::mxfp4_scale_exponent(rc::floor_log2f, r.amax) == r.floor_log2f);
        CHECK(rc::mxfp4_scale_exponent(rc::ceil_rule, r.amax) == r.ceil);
        CHECK(rc::mxfp4_scale_exponent(rc::even_rule, r.amax) == r.even);
        CHECK(rc::mxfp4_scale_exponent(rc::rceil_rule, r.amax) == r.rceil);
    }
}

TEST_CASE("element roundings at the ties of the E2M1 grid, worked by hand", "[recipes]") {
    struct Row {
        float x;
        std::uint8_t first, even, last;
    };
    // Scale 2^0. Table order 0, .5, 1, 1.5, 2, 3, 4, 6, -0, -.5, ..., -6: the first code of a
    // tie is the smaller magnitude and +0; the last the larger magnitude and -0 (+0.25 ties
    // +0, 0.5 and -0: the last is -0); nearest-even takes the even code and keeps the sign.
    const Row rows[] = {
        {0.25f, 0x0, 0x0, 0x8}, {-0.25f, 0x0, 0x8, 0x9}, {0.75f, 0x1, 0x2, 0x2},   {-0.75f, 0x9, 0xA, 0xA},
        {1.25f, 0x2, 0x2, 0x3}, {1.75f, 0x3, 0x4, 0x4},  {2.5f, 0x4, 0x4, 0x5},    {3.5f, 0x5, 0x6, 0x6},
        {5.0f, 0x6, 0x6, 0x7},  {-5.0f, 0xE, 0xE, 0xF},  {7.0f, 0x7, 0x7, 0x7},    {-0.1f, 0x0, 0x8, 0x8},
        {0.1f, 0x0, 0x0, 0x8},  {-0.0f, 0x0, 0x8, 0x8},  {0.0f, 0x0, 0x0, 0x8},    {0.8f, 0x2, 0x2, 0x2},
    };
    for (const auto &r : rows) {
        INFO("x " << r.x);
        const auto w = std::bit_cast<std::uint32_t>(r.x);
        CHECK(rc::fp4_element(rc::nearest_first, w, 0) == r.first);
        CHECK(rc::fp4_element(rc::rne, w, 0) == r.even);
        CHECK(rc::fp4_element(rc::nearest_last, w, 0) == r.last);
    }
    // At scale 2^-3 the same ties are x * 2^-3.
    CHECK(rc::fp4_element(rc::rne, std::bit_cast<std::uint32_t>(0.75f / 8), -3) == 0x2);
}

TEST_CASE("the grouped lattice's canonical point is grouped_absmax", "[recipes]") {
    std::mt19937_64 rng(0x67726f7570ull);
    for (const char *name : {"q4_g64_fp16", "q5_g64_fp16", "q6_g64_fp16", "q8_g32_fp16"}) {
        const auto &f = *find_name(kGroupedFormats, name);
        for (int i = 0; i < 4; ++i) {
            std::vector<std::uint32_t> x(2 * 130);  // two rows, a partial group
            for (auto &w : x) {
                const auto r = rng();
                w = f32w(static_cast<std::int64_t>(r & 0xFFFF) * ((r >> 16) & 1 ? -1 : 1), -30 + 8 * i + static_cast<int>((r >> 20) % 4));
            }
            std::vector<std::uint8_t> src(4 * x.size());
            for (std::size_t j = 0; j < x.size(); ++j)
                for (int b = 0; b < 4; ++b) src[4 * j + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(x[j] >> (8 * b));
            const auto want = grouped_absmax(f, NINFER_FORMAT_fp32, 2, 130, src);
            REQUIRE(want.status == NINFER_OK);
            const auto got = rc::grouped_recipe_payload(f, rc::reciprocal, rc::code_rne, 2, 130, x);
            REQUIRE(got.status == NINFER_OK);
            CHECK(got.bytes == row_split_encode(f, want.m));
        }
    }
}

TEST_CASE("grouped code roundings at the spec's integral rounding examples", "[recipes]") {
    // tensor-formats.txt 7.2: +0.5 -> 0, -0.5 -> 0, +1.5 -> 2, -1.5 -> -2, +2.5 -> 2, -2.5 -> -2
    // (ties to even); ties away give 1, -1, 2, -2, 3, -3; truncation 0, 0, 1, -1, 2, -2. Scale
    // 0x3C00 (1.0): 1 / 1 = 1 exactly, so both normalizations give x.
    struct Row {
        float x;
        long rne, rna, rtz;
    };
    const Row rows[] = {{0.5f, 0, 1, 0}, {-0.5f, 0, -1, 0}, {1.5f, 2, 2, 1}, {-1.5f, -2, -2, -1},
                        {2.5f, 2, 3, 2}, {-2.5f, -2, -3, -2}, {1.6875f, 2, 2, 1}};
    for (const auto &r : rows) {
        INFO("x " << r.x);
        const auto w = std::bit_cast<std::uint32_t>(r.x);
        for (const auto n : {rc::reciprocal, rc::division}) {
            CHECK(rc::grouped_recipe_code(n, rc::code_rne, w, 0x3C00) == r.rne);
            CHECK(rc::grouped_recipe_code(n, rc::code_rna, w, 0x3C00) == r.rna);
            CHECK(rc::grouped_recipe_code(n, rc::code_rtz, w, 0x3C00) == r.rtz);
        }
    }
}

TEST_CASE("the nvfp4 lattice's canonical point is the lesson's nvfp4_two_level", "[recipes]") {
    std::mt19937_64 rng(0x6e76667034ull);
    for (int t = 0; t < 6; ++t) {
        std::vector<std::uint32_t> x(128 * 64);
        for (std::size_t b = 0; b < x.size() / 32; ++b) {
            const auto block = seeded_block(rng, -30 + t * 6 + static_cast<int>(b % 5));
            std::copy(block.begin(), block.end(), x.begin() + static_cast<std::ptrdiff_t>(32 * b));
        }
        if (t == 1) std::fill(x.begin() + 64, x.begin() + 80, 0u);  // one all-zero block
        if (t == 2) x[17] = 0x7F800000u;                            // a non-finite input: refused
        const auto lesson = nvfp4_two_level_encode(128, 64, x);
        const auto point = rc::nvfp4_recipe_payload({}, 128, 64, x);
        INFO(t);
        REQUIRE(point.status == lesson.status);
        if (lesson.status == NINFER_OK) CHECK(point.bytes == block_scale_encode(lesson.m));
    }
}

TEST_CASE("nvfp4 scale formulas, roundings and normalizations worked by hand", "[recipes]") {
    const std::uint32_t t2688 = f32w(2688, 0);  // tensorScale 1, S_enc 1
    // amax 6.375: 6.375 / 6 = 1.0625 exactly, halfway between E4M3 1.0 (0x38) and 1.125 (0x39);
    // Transformer Engine's 6.375 * binary32(1/6) = 1.0625000317 rounds to 1.0625 too.
    for (const auto s : {rc::scale_lesson, rc::scale_te}) {
        CHECK(rc::nvfp4_recipe_scale({.scale = s, .rounding = rc::e4m3_rne}, t2688, f32w(51, -3)) == 0x38);
        CHECK(rc::nvfp4_recipe_scale({.scale = s, .rounding = rc::e4m3_rnu}, t2688, f32w(51, -3)) == 0x39);
        CHECK(rc::nvfp4_recipe_scale({.scale = s}, t2688, f32w(6, 0)) == 0x38);           // 1.0
        CHECK(rc::nvfp4_recipe_scale({.scale = s}, t2688, t2688) == 0x7E);                // 448
        CHECK(rc::nvfp4_recipe_scale({.scale = s}, t2688, f32w(6 * 500, 0)) == 0x7E);     // 500 saturates at 448
    }
    // At scale 1.0 both normalizations are exact: 0.75 stays 0.75 (0x3F400000).
    for (const auto n : {rc::nv_division, rc::nv_reciprocal})
        CHECK(rc::nvfp4_recipe_normalized({.normalize = n}, t2688, 0x38, f32w(3, -2)) == f32w(3, -2));
    // Tensor amax 3: S_enc = 896 exactly, tensorScale = binary32(1 / 896) = 2^-10 * 8/7 * (1 +
    // 3 * 2^-26) (8/7 = 1.001001...b rounds up). Block scale 0x30 (0.5), x = 2^-9, exactly 3.5:
    // the division's 2^-9 / (tensorScale / 2) = 3.5 / (1 + 3 * 2^-26) and the reciprocal's
    // 2^-9 * binary32(1792 / (1 + 3 * 2^-26)) = 2^-9 * (1792 - 2^-13) both give 3.5 - 2^-22.
    for (const auto n : {rc::nv_division, rc::nv_reciprocal})
        CHECK(rc::nvfp4_recipe_normalized({.normalize = n}, f32w(3, 0), 0x30, f32w(1, -9)) == 0x405FFFFFu);
    // The zero block scale: the division's +0 (codes +0), the reciprocal's FLT_MAX * 2^-10.
    CHECK(rc::nvfp4_recipe_normalized({.normalize = rc::nv_division}, t2688, 0x00, f32w(1, 0)) == 0u);
    CHECK(rc::nvfp4_recipe_normalized({.normalize = rc::nv_reciprocal}, t2688, 0x00, f32w(1, -10)) == 0x7A7FFFFFu);
}
