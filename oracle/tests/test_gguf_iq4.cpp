// SPDX-License-Identifier: Apache-2.0
// ggml's 4-bit non-linear reference quantizers in the oracle (src/gguf_quantize_iq4.cpp;
// oracle/GGUF.md, "iq4_nl and iq4_xs"): blocks whose bytes ggml itself wrote, the refusal of an
// iq4_nl block below GROUP_MAX_EPS at its exact boundary, and finite extremes that never throw.
#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <random>

#include "ninfer/oracle/gguf.hpp"

using namespace ninfer::oracle;

namespace {

std::uint32_t word(float f) {
    std::uint32_t w = 0;
    std::memcpy(&w, &f, 4);
    return w;
}

std::string hex(const std::vector<std::uint8_t> &b) {
    std::string s;
    for (auto v : b) s += fmt::format("{:02x}", v);
    return s;
}

/// x[j] = ((37 j mod 101) - 50) / 64: exact binary32 values (the K-quant test's block).
std::vector<std::uint32_t> sequence(std::size_t n) {
    std::vector<std::uint32_t> x(n);
    for (std::size_t j = 0; j < n; ++j) x[j] = word(static_cast<float>(static_cast<int>((37 * j) % 101) - 50) / 64.0f);
    return x;
}

std::vector<std::uint32_t> flt_max_alternating(std::size_t n) {
    std::vector<std::uint32_t> x(n);
    for (std::size_t j = 0; j < n; ++j) x[j] = j % 2 ? 0x7F7FFFFFu : 0xFF7FFFFFu;
    return x;
}

const GgufType &nl() { return *find_gguf_type("gguf_iq4_nl"); }
const GgufType &xs() { return *find_gguf_type("gguf_iq4_xs"); }

}  // namespace

TEST_CASE("ggml's iq4_nl and iq4_xs reference quantizers: bytes recorded from ggml itself", "[gguf][quantize][iq4]") {
    // Written by ggml d99724f's quantize_row_iq4_nl_ref / quantize_row_iq4_xs_ref (gcc -O2 -DNDEBUG,
    // x86-64); scripts/ggml_crosscheck.sh repeats the comparison on random and extreme blocks.
    auto huge0 = sequence(256);  // sub-block 0 times 1e17: x*x, w*q*x overflow, its scale infinite
    for (std::size_t j = 0; j < 32; ++j) huge0[j] = word(std::bit_cast<float>(huge0[j]) * 1e17f);
    const std::string zeros_codes(256, '8');
    const struct {
        const char *what;
        const GgufType &t;
        std::vector<std::uint32_t> x;
        std::string hex;
    } expected[] = {
        {"iq4_nl sequence", nl(), sequence(32), "551ee035acf147ce1269df249bf036bdf158"},
        {"iq4_xs sequence", xs(), sequence(256),
         "ab8a0ccfe021fff2e035acf157ce1369df249be136adf258630fc942fea721ec751fda530eb842fd47be1269df248be035adf157ce137adf0269df138be035ad"
         "f147ce1269df249b31ec8520db641fb942fda731ec751fda8520db641fc942fea731ec851fda630e259cf147be0269df138be035adf147ce1fc952fea731ec8520db"
         "641fb942fda7"},
        // inf / inf: x86's default NaN (sign set) as d, binary16 0xFE00.
        {"iq4_nl +-FLT_MAX", nl(), flt_max_alternating(32), "00fe00ff00ff00ff00ff00ff00ff00ff00ff"},
        {"iq4_xs +-FLT_MAX", xs(), flt_max_alternating(256), "0080aaaa00000000" + zeros_codes},
        // An all-zero iq4_xs block: d = -0 / 32 (binary16 0x8000), every scale l + 32 = 32, codes 8.
        {"iq4_xs zero", xs(), std::vector<std::uint32_t>(256, 0), "0080aaaa00000000" + zeros_codes},
        {"iq4_xs huge sub-block", xs(), huge0,
         "990af23020ef100e88888888888888888888888888888888630fc942fea721ec751fda530eb842fd47be1269df248be035adf157ce137adf0269df138be035ad"
         "f147ce1269df249b31ec8520db641eb942fda731ec751fca8520db641fc942fea731ec851fda630e259cf147be0269df138be035adf147ce1fc953fea731ec8520db"
         "641eb942fda7"},
    };
    for (const auto &e : expected) {
        CAPTURE(e.what);
        const auto q = gguf_quantize_block_ref(e.t, e.x);
        REQUIRE(q.status == NINFER_OK);
        CHECK(hex(q.block) == e.hex);
    }
}

TEST_CASE("iq4_nl refuses a block below GROUP_MAX_EPS, where ggml packs codes it never wrote", "[gguf][quantize][iq4]") {
    // The largest magnitude exactly 1e-15f (0x26901D7D): encoded, as ggml encodes it.
    std::vector<std::uint32_t> x(32, 0);
    for (std::size_t j = 0; j < 32; j += 3) x[j] = 0xA6901D7Du;  // -1e-15f
    x[5] = 0x26901D7Du;
    const auto at_eps = gguf_quantize_block_ref(nl(), x);
    REQUIRE(at_eps.status == NINFER_OK);
    CHECK(hex(at_eps.block) == "000080880880880f80880880880880880880");  // ggml d99724f's bytes
    // One binary32 step below: refused by name, nothing written.
    for (auto &w : x)
        if (w) --w;
    const auto below = gguf_quantize_block_ref(nl(), x);
    CHECK(below.status == NINFER_E_METHOD);
    CHECK(below.block.empty());
    CHECK(below.message.find("GROUP_MAX_EPS") != std::string::npos);
    CHECK(gguf_quantize_block_ref(nl(), std::vector<std::uint32_t>(32, 0x80000000u)).status == NINFER_E_METHOD);
    // iq4_xs requantizes every sub-block with the super-block's scale: the same values encode.
    std::vector<std::uint32_t> x256(256, 0);
    std::copy(x.begin(), x.end(), x256.begin());
    CHECK(gguf_quantize_block_ref(xs(), x256).status == NINFER_OK);
    // A non-finite input stays NINFER_E_NONFINITE, before anything else.
    x[3] = 0x7F800000u;
    CHECK(gguf_quantize_block_ref(nl(), x).status == NINFER_E_NONFINITE);
}

TEST_CASE("iq4 quantizers answer every finite extreme with bytes or the named refusal, never an exception", "[gguf][quantize][iq4]") {
    std::mt19937_64 rng(20261201);
    std::normal_distribution<float> n(0.0f, 1.0f);
    const float scales[] = {1e-40f, 1e-38f, 2e-16f, 1e-14f, 1.0f, 1e17f, 1e18f, 3e38f};
    for (const GgufType *t : {&nl(), &xs()}) {
        for (const float s : scales) {
            const int blocks = t->block_values == 32 ? 6 : 1;
            for (int b = 0; b < blocks; ++b) {
                std::vector<std::uint32_t> x(t->block_values);
                for (auto &w : x) w = word(std::fmin(3.4028235e38f, std::fmax(-3.4028235e38f, n(rng) * s)));
                x[static_cast<std::size_t>(b) % x.size()] = 0;  // a zero beside them: 0 * inf where 1/d overflows
                CAPTURE(t->name, s, b);
                GgufQuantized q;
                REQUIRE_NOTHROW(q = gguf_quantize_block_ref(*t, x));
                CHECK((q.status == NINFER_OK || q.status == NINFER_E_METHOD));
                CHECK(q.block.size() == (q.status == NINFER_OK ? t->block_bytes : 0));
            }
        }
    }
}
