// SPDX-License-Identifier: Apache-2.0
// nvfp4 and the FP8 row formats through NVIDIA's host conversions (cuda_host_scaled.hpp) against
// the oracle (tensor-formats.txt 3.3, 3.4, the fp8_row_maxabs paragraph): every E2M1 code x every
// valid E4M3 scale x a set of divisors, every finite E4M3 code x a set of multipliers of each scale
// type, and fp8_row_maxabs on seeded random rows of every source type. gpu/README.md records the
// figures; a departure outside the documented class fails the test.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda_host_scaled.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace {

using namespace ninfer;

}  // namespace

TEST_CASE("cuda_host nvfp4 values: every code x every valid scale x divisors equals the oracle's rounding") {
    // Divisors: 1, 3 (a quotient that rounds), 0.1f, the smallest subnormal (products overflow), 2^100.
    const std::uint32_t divisors[] = {0x3f800000u, 0x40400000u, 0x3dcccccdu, 0x00000001u, 0x71800000u};
    std::uint64_t compared = 0, departures = 0;
    for (auto d : divisors)
        for (std::uint32_t s = 0; s <= 0x7E; ++s) {
            // One tensor [128, 64] per (divisor, scale): every row holds all 16 codes four times.
            std::vector<std::uint8_t> codes(128 * 64), scales(128 * 4, static_cast<std::uint8_t>(s));
            for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::uint8_t>(i % 16);
            const std::vector<std::uint32_t> div{d};
            const auto v = gpu::nvidia_nvfp4_values(128, 64, codes, scales, div);
            for (std::size_t i = 0; i < 64; ++i, ++compared)  // row 0 holds every code; the rows repeat it
                departures += v[i] != oracle::nvfp4_weight_binary32(codes[i], static_cast<std::uint8_t>(s), d);
        }
    std::printf("cuda_host nvfp4 values: %llu compared, %llu departures\n", static_cast<unsigned long long>(compared),
                static_cast<unsigned long long>(departures));
    CHECK(compared == 5 * 127 * 64);
    CHECK(departures == 0);
}

TEST_CASE("cuda_host FP8 row values: every finite code x multipliers of each scale type equals binary32(c * s)") {
    const std::uint16_t bf16_scales[] = {0x0000, 0x0001, 0x3f80, 0x3c23, 0x7f7f, 0x4380};
    const std::uint16_t fp16_scales[] = {0x0000, 0x0001, 0x3c00, 0x2e66, 0x7bff, 0x5c00};
    std::uint64_t compared = 0, departures = 0;
    for (bool bf16 : {true, false}) {
        const auto fmt = oracle::fp8_row_format(bf16 ? NINFER_FORMAT_fp8_e4m3fn_row_bf16 : NINFER_FORMAT_fp8_e4m3fn_row_fp16);
        REQUIRE(fmt);
        for (int j = 0; j < 6; ++j) {
            const std::uint16_t s = bf16 ? bf16_scales[j] : fp16_scales[j];
            std::vector<std::uint8_t> codes;
            for (int c = 0; c < 256; ++c)
                if ((c & 0x7F) != 0x7F) codes.push_back(static_cast<std::uint8_t>(c));
            const std::vector<std::uint16_t> row_scales{s};
            const auto v = gpu::nvidia_fp8_row_values(1, codes.size(), codes, row_scales, bf16);
            for (std::size_t i = 0; i < codes.size(); ++i, ++compared)
                departures += v[i] != oracle::fp8_row_weight_binary32(*fmt, codes[i], s);
        }
    }
    std::printf("cuda_host FP8 row values: %llu compared, %llu departures\n", static_cast<unsigned long long>(compared),
                static_cast<unsigned long long>(departures));
    CHECK(compared == 2 * 6 * 254);
    CHECK(departures == 0);
}

TEST_CASE("cuda_host fp8_row_maxabs: seeded random rows of every source type equal the oracle's") {
    std::mt19937_64 rng(20261129);
    std::uint64_t rows = 0, departures = 0;
    for (bool bf16 : {true, false}) {
        const auto fmt = oracle::fp8_row_format(bf16 ? NINFER_FORMAT_fp8_e4m3fn_row_bf16 : NINFER_FORMAT_fp8_e4m3fn_row_fp16);
        for (std::uint32_t src : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
            for (int t = 0; t < 300; ++t, ++rows) {
                // Magnitudes from 2^-30 to 2^30 (fp16 sources: their own range), zeros and ties included by chance.
                std::vector<std::uint64_t> row64(1 + rng() % 70);
                std::vector<std::uint32_t> row32(row64.size());
                const int e = static_cast<int>(rng() % 61) - 30;
                for (std::size_t i = 0; i < row64.size(); ++i) {
                    const float x = std::ldexp(static_cast<float>(static_cast<std::int64_t>(rng() % 2001) - 1000) / 1000.0f, e);
                    std::uint32_t w = std::bit_cast<std::uint32_t>(x);
                    if (src == NINFER_FORMAT_bf16) w >>= 16;
                    if (src == NINFER_FORMAT_fp16) w = (rng() & 0x7BFF) | (rng() & 0x8000);
                    row64[i] = row32[i] = w;
                }
                const auto want = oracle::fp8_row_maxabs(*fmt, src, row64);
                const auto got = gpu::nvidia_fp8_row_maxabs(src, row32, bf16);
                const bool same = want.status == got.status && (want.status != NINFER_OK || (want.scale == got.scale && want.codes == got.codes));
                if (!same && departures++ < 3)
                    std::printf("  departure: %s source %u, status %d/%d scale %04x/%04x\n", bf16 ? "bf16" : "fp16", src,
                                want.status, got.status, want.scale, got.scale);
            }
    }
    std::printf("cuda_host fp8_row_maxabs: %llu rows, %llu departures\n", static_cast<unsigned long long>(rows),
                static_cast<unsigned long long>(departures));
    CHECK(rows == 1800);
    CHECK(departures == 0);
}
