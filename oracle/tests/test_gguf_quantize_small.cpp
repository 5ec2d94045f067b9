// SPDX-License-Identifier: Apache-2.0
// ggml's small reference quantizers in the oracle (src/gguf_quantize_small.cpp): q1_0, q2_0,
// tq1_0, tq2_0, mxfp4 and ggml's nvfp4, against bytes that ggml d99724f's quantize_row_<type>_ref
// wrote itself (gcc -std=c11 -O2, x86-64, glibc 2.36), and blocks worked out by hand from ggml's
// formulas (each comment shows the arithmetic). scripts/ggml_crosscheck.sh repeats the
// comparison on random and extreme blocks.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ninfer/oracle/gguf.hpp"

using namespace ninfer::oracle;

namespace {

std::uint32_t w32(float v) { return std::bit_cast<std::uint32_t>(v); }

/// The block's bytes as lower-case hex.
std::string hex_of(const std::vector<std::uint8_t> &b) {
    std::string s;
    for (const auto v : b) s += fmt::format("{:02x}", v);
    return s;
}

/// The oracle's block of `type` for x (which must be in the domain).
std::vector<std::uint8_t> quantize(const char *type, const std::vector<std::uint32_t> &x) {
    const auto *t = find_gguf_type(type);
    REQUIRE(t);
    const auto q = gguf_quantize_block_ref(*t, std::span<const std::uint32_t>(x).first(t->block_values));
    REQUIRE(q.status == NINFER_OK);
    return q.block;
}

/// The three blocks ggml wrote: kind 0 x[j] = ((37 j mod 101) - 50) / 64; kind 1 the same
/// numerators times 2^-140 (subnormal: 1/d overflows) with x[3] = 0; kind 2 -FLT_MAX, +FLT_MAX
/// alternating.
std::vector<std::uint32_t> recorded_input(int kind) {
    std::vector<std::uint32_t> x(256);
    for (int j = 0; j < 256; ++j) {
        const int v = (37 * j) % 101 - 50;
        const float f = kind == 0 ? static_cast<float>(v) / 64.0f
                        : kind == 1 ? std::ldexp(static_cast<float>(v), -140)
                                    : ((j & 1) ? 3.4028235e38f : -3.4028235e38f);
        x[static_cast<std::size_t>(j)] = w32(f);
    }
    if (kind == 1) x[3] = 0;
    return x;
}

}  // namespace

TEST_CASE("ggml's small reference quantizers: bytes recorded from ggml itself", "[gguf][quantize]") {
    const struct { int kind; const char *type, *hex; } expected[] = {
        {0, "gguf_q1_0", "4e36a4a52d6d69494b5b5ad2d29696b4b4a5"},
        {0, "gguf_q2_0", "403a14491649924592659164912459244916"},
        {0, "gguf_tq1_0", "296d7a486dd24676d36c7a456dcf466dd3467ad36c7a456dcf466dd39b7ad36c7cf25e7f5174d51b7ef25d7c475ed451de925f33403a"},
        {0, "gguf_tq2_0", "14618558611658451661851861865861165885166185186186586116598516611659851661855861965845165185186186586116588516618518618658611658403a"},
        {0, "gguf_mxfp4", "7c6fdb257ec946fea267ec146fda357eb0"},
        {0, "gguf_nvfp4", "202020207fcb45fea956ee0266ed1267dc347fba45ffb956ee0167dd0267dc347fca56fe"},
        {1, "gguf_q1_0", "0000aca52d6d69494b5b5ad2d29696b4b4a5"},
        {1, "gguf_q2_0", "000000000000000000000000000000000000"},
        {1, "gguf_tq1_0", "8080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080807f7f7f7f0000"},
        {1, "gguf_tq2_0", "555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555550000"},
        {1, "gguf_mxfp4", "f600000000000000000000000000000000"},
        {1, "gguf_nvfp4", "000000000000000000000000000000000000000000000000000000000000000000000000"},
        {2, "gguf_q1_0", "007caaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
        {2, "gguf_q2_0", "007c88888888888888888888888888888888"},
        {2, "gguf_tq1_0", "00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00fd00fd007c"},
        {2, "gguf_tq2_0", "00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa00aa007c"},
        {2, "gguf_mxfp4", "fddd55dd55dd55dd55dd55dd55dd55dd55"},
        {2, "gguf_nvfp4", "7e7e7e7e0000000000000000000000000000000000000000000000000000000000000000"},
    };
    for (const auto &e : expected) {
        CAPTURE(e.kind, e.type);
        CHECK(hex_of(quantize(e.type, recorded_input(e.kind))) == e.hex);
    }
}

TEST_CASE("ggml's small reference quantizers: blocks worked out by hand", "[gguf][quantize]") {
    // q1_0 of 128 x -0.0 and +1: sum 64 * 1 = 64, d = 64 / 128 = 0.5 (0x3800); -0 >= 0 sets its bit.
    std::vector<std::uint32_t> x(128);
    for (std::size_t j = 0; j < 128; ++j) x[j] = j % 2 ? w32(1.0f) : 0x80000000u;
    CHECK(hex_of(quantize("gguf_q1_0", x)) == "0038" + std::string(32, 'f'));
    // q2_0 with amax 2 (d = 2 = 0x4000, id 0.5): x = 2 -> roundf(1) = 1, u = 2; x = 1 -> roundf(0.5) = 1
    // (ties away), u = 2; x = -1 -> -1, u = 0; x = 0 -> u = 1. [2, 1, -1, 0]: 2 | 2 << 2 | 0 << 4 | 1 << 6 = 0x4a.
    x.assign(64, 0);
    for (std::size_t j = 0; j < 64; ++j) x[j] = w32(j % 4 == 0 ? 2.0f : j % 4 == 1 ? 1.0f : j % 4 == 2 ? -1.0f : 0.0f);
    std::string q2 = "0040";
    for (int i = 0; i < 16; ++i) q2 += "4a";
    CHECK(hex_of(quantize("gguf_q2_0", x)) == q2);
    // tq2_0 with amax 2: x = +-1 are ties of lroundf, away from zero: fields 2 and 0.
    x.assign(256, w32(1.0f));
    for (std::size_t j = 0; j < 256; j += 2) x[j] = w32(-1.0f);
    x[0] = w32(2.0f);  // field 2 too
    // byte m of run r holds values 128 r + m + 32 n: m even -> -1 (field 0), odd -> +1 (field 2 each: 0xaa).
    const auto tq2 = quantize("gguf_tq2_0", x);
    CHECK(tq2[0] == 0x02);  // value 0 is 2: field 2; values 32, 64, 96 are -1: fields 0
    CHECK(tq2[1] == 0xaa);
    CHECK(tq2[2] == 0x00);
    CHECK((tq2[64] | tq2[65] << 8) == 0x4000);  // d = 2
    // mxfp4: amax 6, e = floor(log2 6) - 2 + 127 = 127, d = 2^-1; 2.5 lies between 2 (index 4)
    // and 3 (index 5): the first wins; -2.5 between -2 (12) and -3 (13): 12.
    x.assign(32, 0);
    x[0] = w32(6.0f), x[1] = w32(2.5f), x[2] = w32(-2.5f), x[16] = w32(0.25f);  // 0.25: between 0 and 0.5: 0
    const auto mx = quantize("gguf_mxfp4", x);
    CHECK(mx[0] == 127);
    CHECK(mx[1] == 0x07);  // 6 = 12 * 0.5: index 7; x[16] = 0.25: index 0 in the high nibble
    CHECK(mx[2] == 0x04);
    CHECK(mx[3] == 0x0c);
    // mxfp4: amax = 8 * (1 - 2^-24), just below 2^3: log2f rounds to 3.0f, so e = 3 - 2 + 127 = 128.
    x.assign(32, 0);
    x[0] = w32(std::nextafter(8.0f, 0.0f));
    CHECK(quantize("gguf_mxfp4", x)[0] == 128);
    // ggml's nvfp4: amax 6 -> ue4m3(1.0) = 0x38 (exponent 7, mantissa 0); amax 448 * 6 -> 448 -> 0x7e;
    // amax 0.09 -> 0.015 < 2^-6: (int)(0.015 * 512 + 0.5) = 8, clamped to 7; amax 0 -> 0.
    x.assign(64, 0);
    x[0] = w32(6.0f), x[16] = w32(2688.0f), x[32] = w32(0.09f);
    const auto nv = quantize("gguf_nvfp4", x);
    CHECK(nv[0] == 0x38);
    CHECK(nv[1] == 0x7e);
    CHECK(nv[2] == 0x07);
    CHECK(nv[3] == 0x00);
}

TEST_CASE("ggml's small reference quantizers take every finite extreme and refuse non-finite inputs", "[gguf][quantize]") {
    for (const char *type : {"gguf_q1_0", "gguf_q2_0", "gguf_tq1_0", "gguf_tq2_0", "gguf_mxfp4", "gguf_nvfp4"}) {
        CAPTURE(type);
        const auto &t = *find_gguf_type(type);
        CHECK(t.ref_quantizer);
        CHECK(gguf_has_reference_quantizer(t));
        for (const std::uint32_t w : {0x00000001u, 0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u, 0u}) {
            std::vector<std::uint32_t> x(t.block_values, w);
            x[1] = 0;
            const auto q = gguf_quantize_block_ref(t, x);
            CHECK(q.status == NINFER_OK);
            CHECK(q.block.size() == t.block_bytes);
        }
        std::vector<std::uint32_t> x(t.block_values, w32(1.0f));
        x[t.block_values - 1] = 0x7F800000u;
        CHECK(gguf_quantize_block_ref(t, x).status == NINFER_E_NONFINITE);
    }
}
