// SPDX-License-Identifier: Apache-2.0
// The reference's own iq4_nl and iq4_xs quantizers (gguf_quantize_iq4.cpp) against the oracle's
// (oracle/src/gguf_quantize_iq4.cpp), byte for byte and status for status, over random blocks of
// every magnitude the classes of oracle/GGUF.md name: ordinary, both sides of GROUP_MAX_EPS,
// tiny (1/d overflows), x*x overflowing, +-FLT_MAX, all of one sign, zeros among them.
#include <catch2/catch.hpp>

#include <bit>
#include <cfloat>
#include <cmath>
#include <random>

#include "gguf_blocks.hpp"
#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/gguf.hpp"

namespace {

namespace gn = ninfer::reference::gguf_blocks;
namespace orc = ninfer::oracle;

constexpr std::uint64_t kSeed = 20261201;  // include this in bug reports

/// A block of `n` values of class `cls` (0..9): normal values at a class's scale, +-FLT_MAX
/// alternating (8), all positive (9); every third block holds a zero.
std::vector<float> block_of(std::size_t n, int cls, std::mt19937_64 &rng, bool with_zero) {
    static constexpr float kScale[] = {0.05f, 1e-40f, 1e-38f, 2e-16f, 1e-14f, 1e17f, 1e18f, 3000.0f};
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(n);
    for (std::size_t j = 0; j < n; ++j) {
        if (cls == 8) x[j] = j % 2 ? FLT_MAX : -FLT_MAX;
        else if (cls == 9) x[j] = std::fabs(normal(rng)) + 0.25f;
        else x[j] = std::fmax(-FLT_MAX, std::fmin(FLT_MAX, normal(rng) * kScale[cls]));
    }
    if (with_zero) x[rng() % n] = 0.0f;
    return x;
}

std::vector<std::uint32_t> words_of(const std::vector<float> &x) {
    std::vector<std::uint32_t> w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) w[i] = std::bit_cast<std::uint32_t>(x[i]);
    return w;
}

const orc::GgufType &type(const char *name) { return *orc::find_gguf_type(name); }

}  // namespace

TEST_CASE("the reference's iq4_nl and iq4_xs equal the oracle's over random and extreme blocks", "[gguf][codec][quantize][iq4]") {
    std::mt19937_64 rng(kSeed);
    for (const char *name : {"gguf_iq4_nl", "gguf_iq4_xs"}) {
        const auto &t = type(name);
        REQUIRE(gn::has_reference_quantizer(t.ggml_type));
        const int blocks = t.block_values == 32 ? 600 : 60;
        int refused = 0;
        for (int b = 0; b < blocks; ++b) {
            const int cls = b % 10;
            const auto x = block_of(t.block_values, cls, rng, b % 3 == 0);
            std::vector<std::uint8_t> got(t.block_bytes, 0xCD);
            const auto o = gn::quantize_row_ref(t.ggml_type, x, got.data());
            const auto want = orc::gguf_quantize_block_ref(t, words_of(x));
            INFO(name << " block " << b << " class " << cls << " seed " << kSeed);
            REQUIRE(o.status == want.status);
            if (o.status != NINFER_OK) {
                ++refused;
                continue;
            }
            REQUIRE(got == want.block);
        }
        // iq4_nl refuses the classes below 1e-15 (tiny, 1e-38 and most of 2e-16); iq4_xs refuses none.
        CHECK((t.id == NINFER_FORMAT_gguf_iq4_nl ? refused >= blocks / 5 : refused == 0));
    }
}

TEST_CASE("the reference's iq4_nl refuses a row where one block is below GROUP_MAX_EPS", "[gguf][codec][quantize][iq4]") {
    std::mt19937_64 rng(kSeed);
    auto row = block_of(64, 0, rng, false);
    for (std::size_t j = 32; j < 64; ++j) row[j] = 9.9e-16f;  // the second block: all below 1e-15f
    std::vector<std::uint8_t> out(36);
    const auto o = gn::quantize_row_ref(20, row, out.data());
    CHECK(o.status == NINFER_E_METHOD);
    CHECK(o.message.find("block 1") != std::string::npos);
    row[40] = 1e-15f;  // the largest magnitude at GROUP_MAX_EPS exactly: encoded
    CHECK(gn::quantize_row_ref(20, row, out.data()).status == NINFER_OK);
    const auto second = orc::gguf_quantize_block_ref(type("gguf_iq4_nl"), words_of(std::vector<float>(row.begin() + 32, row.end())));
    CHECK(std::vector<std::uint8_t>(out.begin() + 18, out.end()) == second.block);
}
