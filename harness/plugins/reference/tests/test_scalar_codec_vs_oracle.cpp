// SPDX-License-Identifier: Apache-2.0
// The reference's own scalar codec (scalar_codec.cpp: decode and classify from the registry row)
// against the MPFR oracle: every byte pattern of every word format of 16 bits or less, and for the
// 32-bit formats the binary32 boundary words, signed specials and seeded random words (seed
// printed; NINFER_SEED overrides). ninfer::native is not consulted: the reference is compared with
// the oracle alone.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fp32_inputs.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/suites.hpp"
#include "scalar_codec.hpp"

namespace {

using namespace ninfer;

std::uint64_t codec_seed() {
    const char *v = std::getenv("NINFER_SEED");
    const std::uint64_t s = v && *v ? std::strtoull(v, nullptr, 0) : suites::kDefaultSeed;
    std::printf("scalar codec vs oracle: seed=%llu (include this in bug reports; NINFER_SEED overrides)\n",
                static_cast<unsigned long long>(s));
    return s;
}

/// Mismatches of decode and classify over `words` of format `f`, the first five printed.
std::uint64_t mismatches(const oracle::WordFormat &f, const std::vector<std::uint64_t> &words) {
    std::uint64_t bad = 0;
    for (const std::uint64_t w : words) {
        const std::uint64_t want = oracle::decode_to_binary64(f, w), got = reference::decode_word(f, w);
        const std::uint8_t want_class = oracle::word_class_byte(f, w), got_class = reference::classify_word(f, w);
        if (want == got && want_class == got_class) continue;
        if (++bad <= 5)
            std::printf("  MISMATCH %s word 0x%llx: decode 0x%016llx (oracle 0x%016llx), class 0x%02x (oracle 0x%02x)\n",
                        std::string(f.name).c_str(), static_cast<unsigned long long>(w), static_cast<unsigned long long>(got),
                        static_cast<unsigned long long>(want), got_class, want_class);
    }
    return bad;
}

/// 32-bit words to test: the binary32 rounding boundaries, signed specials and integer extremes,
/// then seeded random words.
std::vector<std::uint64_t> words32() {
    std::uint64_t midpoints = 0;
    std::vector<std::uint32_t> w = testing::boundary_inputs(oracle::word_format(NINFER_FORMAT_bf16), midpoints);
    for (std::uint32_t x : {0u, 1u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x7F800000u, 0x7F800001u, 0x7FBFFFFFu,
                            0x7FC00000u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFF800000u, 0xFFC00001u, 0xFFFFFFFFu})
        w.push_back(x);
    testing::add_random(w, w.size() + 200000, oracle::word_format(NINFER_FORMAT_fp32), codec_seed() ^ 0xC0DEC);
    return {w.begin(), w.end()};
}

}  // namespace

TEST_CASE("reference scalar codec: decode and classify equal the oracle on every byte pattern of every format of 16 bits or less",
          "[scalar_codec][oracle]") {
    for (const auto &f : oracle::kWordFormats) {
        if (f.bits > 16) continue;
        std::vector<std::uint64_t> words(1ull << (8 * f.bytes()));
        for (std::uint64_t w = 0; w < words.size(); ++w) words[w] = w;
        INFO(f.name);
        CHECK(mismatches(f, words) == 0);
    }
}

TEST_CASE("reference scalar codec: decode and classify of fp32 and int32 equal the oracle on boundaries and random words",
          "[scalar_codec][oracle]") {
    const std::vector<std::uint64_t> words = words32();
    REQUIRE(words.size() > 200000);
    for (const auto &f : oracle::kWordFormats) {
        if (f.bits <= 16) continue;
        INFO(f.name);
        CHECK(mismatches(f, words) == 0);
        CHECK(mismatches(f, {1ull << 32, ~0ull}) == 0);  // wider than the format: outside
    }
}

TEST_CASE("reference scalar codec: worked words from the spec", "[scalar_codec]") {
    using reference::scalar_decode;
    CHECK(scalar_decode(NINFER_FORMAT_bf16, 0x3F80) == 0x3FF0000000000000ull);     // 1.0
    CHECK(scalar_decode(NINFER_FORMAT_fp16, 0x0001) == 0x3E70000000000000ull);     // 2^-24
    CHECK(scalar_decode(NINFER_FORMAT_e4m3fn, 0x7E) == 0x407C000000000000ull);     // 448
    CHECK(scalar_decode(NINFER_FORMAT_e2m1, 0xF) == 0xC018000000000000ull);        // -6
    CHECK(scalar_decode(NINFER_FORMAT_e8m0, 0xFE) == 0x47E0000000000000ull);       // 2^127
    CHECK(scalar_decode(NINFER_FORMAT_fp16, 0x7C01) == 0x7FF0040000000000ull);     // sNaN payload kept
    CHECK(scalar_decode(NINFER_FORMAT_int32, 0xFFFFFFFFu) == 0xBFF0000000000000ull);  // -1
    CHECK(scalar_decode(12345, 0) == 0x7FF8000000000000ull);                       // unknown format
    CHECK(reference::scalar_classify(NINFER_FORMAT_e2m1, 0x9) == (NINFER_CLASS_SUBNORMAL | NINFER_CLASS_SIGN));
    CHECK(reference::scalar_classify(NINFER_FORMAT_e5m2, 0x7E) == NINFER_CLASS_QNAN);
    CHECK(reference::scalar_classify(NINFER_FORMAT_e5m2, 0xFD) == (NINFER_CLASS_SNAN | NINFER_CLASS_SIGN));
    CHECK(reference::scalar_classify(NINFER_FORMAT_ue4m3, 0x80) == NINFER_CLASS_OUTSIDE);
    CHECK(reference::scalar_classify(NINFER_FORMAT_e8m0, 0x00) == NINFER_CLASS_NORMAL);
    CHECK(reference::scalar_classify(NINFER_FORMAT_int32, 0x80000000u) == (NINFER_CLASS_INTEGER | NINFER_CLASS_SIGN));
}
