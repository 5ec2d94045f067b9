// SPDX-License-Identifier: Apache-2.0
// The reference's stochastic-rounding conversions (issue 24 item 3; suites/SR.md): every word with
// its random value equals the oracle's SR(x, R); through the ABI v2 table the random plane is
// read, a random plane of the wrong size is refused, and without one the reference draws its own
// bits (each result one of the two neighbours, both seen).
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "reference_plugin.hpp"
#include "scalar_codec.hpp"
#include "v2_call.hpp"

using namespace ninfer;
using namespace ninfer::testing;

namespace {

std::vector<std::uint8_t> le32_words(const std::vector<std::uint32_t> &words) {
    std::vector<std::uint8_t> out(4 * words.size());
    for (std::size_t i = 0; i < words.size(); ++i) abi::store_le(out.data() + 4 * i, words[i], 4);
    return out;
}

}  // namespace

TEST_CASE("reference sr: every word with its random value is the oracle's SR(x, R)", "[sr]") {
    std::mt19937_64 rng(20261202u);
    for (const auto &s : abi::kStochastic) {
        const auto &c = oracle::conversion(s.conversion);
        const auto &dst = oracle::word_format(c.dst);
        std::vector<std::uint32_t> xs, rs;
        for (std::uint32_t special : {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7F7FFFFFu, 0x00000001u})
            xs.push_back(special);
        while (xs.size() < 20000) {
            // exponents around the target's range, every fraction
            const auto w = static_cast<std::uint32_t>((rng() & 0x807FFFFFu) | ((60 + rng() % 100) << 23));
            xs.push_back(w);
        }
        for (std::size_t i = 0; i < xs.size(); ++i) rs.push_back(static_cast<std::uint32_t>(rng()));
        const auto in = le32_words(xs), random = le32_words(rs);
        std::vector<std::uint8_t> out(xs.size() * dst.bytes());
        REQUIRE(reference::scalar_convert_sr_batch(c.id, in.data(), random.data(), out.data(), xs.size()));
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const auto want = oracle::convert_word_sr(c, xs[i], rs[i]);
            const auto got = abi::load_le(out.data() + dst.bytes() * i, dst.bytes());
            if (want != got && mismatches++ < 4) FAIL_CHECK(c.name << " x " << std::hex << xs[i] << " R " << rs[i] << ": " << got << " != " << want);
        }
        CHECK(mismatches == 0);
        CHECK_FALSE(reference::scalar_convert_sr_batch(NINFER_CONVERSION_fp32_to_bf16_rne, in.data(), nullptr, out.data(), 1));
    }
}

TEST_CASE("reference sr: the random plane of the v2 call is read, refused at the wrong size, drawn when absent", "[sr]") {
    const auto &t = reference::reference_table();
    auto head = v2_head(NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0,
                        NINFER_CONVERSION_fp32_to_bf16_sr_satfinite);
    head.count = 2;
    // 1 + 2^-8 (0x3F808000) halfway between 0x3F80 and 0x3F81: up iff R >= 0x8000
    const auto words = le32_words({0x3F808000u, 0x3F808000u});
    const auto with = call_v2(t, head, {{NINFER_PLANE_WORDS, words}, {NINFER_PLANE_RANDOM, le32_words({0x7FFF, 0x8000})}},
                              {{NINFER_PLANE_WORDS, 4}});
    REQUIRE(with.status == NINFER_OK);
    CHECK(with.out(NINFER_PLANE_WORDS) == std::vector<std::uint8_t>{0x80, 0x3F, 0x81, 0x3F});
    const auto short_random = call_v2(t, head, {{NINFER_PLANE_WORDS, words}, {NINFER_PLANE_RANDOM, le32_words({0x8000})}},
                                      {{NINFER_PLANE_WORDS, 4}});
    CHECK(short_random.status == NINFER_E_INVALID_ARGUMENT);
    // no random plane: the reference's own bits; over 4096 lanes both neighbours occur, nothing else
    std::vector<std::uint32_t> many(4096, 0x3F808000u);
    head.count = many.size();
    const auto drawn = call_v2(t, head, {{NINFER_PLANE_WORDS, le32_words(many)}}, {{NINFER_PLANE_WORDS, 2 * many.size()}});
    REQUIRE(drawn.status == NINFER_OK);
    const auto out = drawn.out(NINFER_PLANE_WORDS);
    REQUIRE(out.size() == 2 * many.size());
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < many.size(); ++i) seen.insert(abi::load_le(out.data() + 2 * i, 2));
    CHECK(seen == std::set<std::uint64_t>{0x3F80, 0x3F81});
}
