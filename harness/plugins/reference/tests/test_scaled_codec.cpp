// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scaled-format codecs against the exact oracle (oracle/SCALED.md):
// packing, validation verdicts and details, binary32 weights and fp8_row_maxabs, on seeded
// random tensors and on rows built to reach every edge (ties, rescues, overflow, zeros).
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

#include "scaled_codec.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace nr = ninfer::reference;
namespace no = ninfer::oracle;

TEST_CASE("the reference's nvfp4 pack, unpack and weights equal the oracle's", "[scaled][codec]") {
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        CAPTURE(seed);
        std::mt19937 rng(seed);
        const std::uint64_t n = 128 * (1 + seed % 2), k = 64 * (1 + seed % 3), d = seed % 2 ? 1 : 2;
        no::Nvfp4Matrix m{n, k, {}, {}, {}};
        for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::uint8_t>(rng() & 0xF));
        for (std::uint64_t i = 0; i < n * k / 16; ++i) m.scales.push_back(static_cast<std::uint8_t>(rng() % 0x7F));
        for (std::uint64_t i = 0; i < d; ++i) m.divisors.push_back(static_cast<std::uint32_t>(rng() % 0x7F000000u) + 0x00800000u);
        const auto expected = no::block_scale_encode(m);
        nr::Nvfp4Planes planes{m.codes, m.scales, m.divisors};
        std::vector<std::uint8_t> payload;
        REQUIRE(nr::nvfp4_pack(n, k, planes, payload).status == NINFER_OK);
        REQUIRE(payload == expected);
        nr::Nvfp4Planes back;
        REQUIRE(nr::nvfp4_unpack(n, k, d, payload, back).status == NINFER_OK);
        CHECK(back.codes == m.codes);
        const auto values = nr::nvfp4_values(n, k, back);
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t c = 0; c < k; ++c)
                REQUIRE(values[r * k + c] == no::nvfp4_weight_binary32(m.codes[r * k + c], m.scales[r * (k / 16) + c / 16],
                                                                       m.divisors[r / (n / d)]));
        // Corrupt one scale and one divisor: the same refusal and detail as the oracle.
        for (std::uint8_t bad : {std::uint8_t{0x80}, std::uint8_t{0xFF}, std::uint8_t{0x90}}) {
            auto p = payload;
            p[n * k / 2 + (rng() % (n * k / 16))] = bad;
            nr::Nvfp4Planes out;
            const auto o = nr::nvfp4_unpack(n, k, d, p, out);
            const auto e = no::block_scale_decode(n, k, d, p);
            CHECK(o.status == e.status);
            CHECK(o.detail == e.detail);
        }
        auto p = payload;
        p[p.size() - 1] = 0xFF;  // divisor's top byte: negative
        nr::Nvfp4Planes out;
        CHECK(nr::nvfp4_unpack(n, k, d, p, out).detail == no::block_scale_decode(n, k, d, p).detail);
    }
}

TEST_CASE("the reference's FP8 row codecs and weights equal the oracle's", "[scaled][codec]") {
    for (const auto id : {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const auto f = *no::fp8_row_format(id);
        std::mt19937 rng(id);
        const std::uint64_t n = 5, k = 300;
        no::Fp8RowMatrix m{n, k, {}, {}};
        for (std::uint64_t i = 0; i < n * k; ++i) {
            auto c = static_cast<std::uint8_t>(rng());
            if ((c & 0x7F) == 0x7F) c = 0x7E;
            m.codes.push_back(c);
        }
        for (std::uint64_t r = 0; r < n; ++r) m.scales.push_back(static_cast<std::uint16_t>(rng() % (f.scale_format == NINFER_FORMAT_bf16 ? 0x7F80 : 0x7C00)));
        m.scales[2] = f.scale_format == NINFER_FORMAT_bf16 ? 0x7F7F : 0x7BFF;  // overflowing products
        for (std::uint64_t c = 0; c < k; ++c) m.codes[3 * k + c] &= 0x80;  // a +0 row of signed zeros
        m.scales[3] = 0;
        const auto expected = no::fp8_row_encode(f, m);
        nr::Fp8RowPlanes planes{m.codes, m.scales};
        std::vector<std::uint8_t> payload;
        REQUIRE(nr::fp8_row_pack(id, n, k, planes, payload).status == NINFER_OK);
        REQUIRE(payload == expected);
        nr::Fp8RowPlanes back;
        REQUIRE(nr::fp8_row_unpack(id, n, k, payload, back).status == NINFER_OK);
        const auto values = nr::fp8_row_values(id, n, k, back);
        for (std::uint64_t i = 0; i < n * k; ++i) REQUIRE(values[i] == no::fp8_row_weight_binary32(f, m.codes[i], m.scales[i / k]));
        for (auto corrupt : {0, 1, 2, 3}) {
            auto p = payload;
            const std::uint64_t stride = f.layout == NINFER_LAYOUT_row_interleaved_v1 ? k + 2 : k;
            if (corrupt == 0) p[stride + 7] = 0x7F;
            if (corrupt == 1) p[3 * stride + 1] = 0x01;
            if (corrupt == 2) (f.layout == NINFER_LAYOUT_row_interleaved_v1 ? p[k + 1] : p[p.size() - 9]) = 0x80;
            if (corrupt == 3) p.push_back(0);
            nr::Fp8RowPlanes out;
            const auto o = nr::fp8_row_unpack(id, n, k, p, out);
            const auto e = no::fp8_row_decode(f, n, k, p);
            CAPTURE(corrupt, e.message, o.message);
            CHECK(o.status == e.status);
            CHECK(o.detail == e.detail);
        }
    }
}

TEST_CASE("the reference's fp8_row_maxabs equals the oracle's, edges included", "[scaled][codec]") {
    std::mt19937 rng(99);
    for (const auto id : {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const auto f = *no::fp8_row_format(id);
        for (const auto src : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}) {
            CAPTURE(id, src);
            const std::uint32_t width_mask = src == NINFER_FORMAT_fp32 ? 0xFFFFFFFFu : 0xFFFFu;
            const std::uint32_t exp_mask = src == NINFER_FORMAT_fp32 ? 0x7F800000u : src == NINFER_FORMAT_bf16 ? 0x7F80u : 0x7C00u;
            for (int trial = 0; trial < 400; ++trial) {
                const std::uint64_t k = 1 + rng() % 40;
                std::vector<std::uint32_t> row(k);
                // Random words of one binade band, so that rows reach rescues, ties and overflow.
                const std::uint32_t shift = rng() % 3;
                for (auto &w : row) {
                    w = static_cast<std::uint32_t>(rng()) & width_mask;
                    if (shift == 1) w &= ~(exp_mask & (exp_mask << 2));  // tiny magnitudes
                    if ((w & exp_mask) == exp_mask) w ^= exp_mask & (exp_mask >> 1) & exp_mask;
                    if (trial % 17 == 0) w = 0;
                }
                std::vector<std::uint64_t> wide(row.begin(), row.end());
                const auto e = no::fp8_row_maxabs(f, src, wide);
                nr::Fp8RowPlanes out;
                const auto o = nr::fp8_row_maxabs_encode(id, src, 1, k, row, out);
                CAPTURE(trial, e.message, o.message);
                REQUIRE(o.status == e.status);
                if (e.status != NINFER_OK) continue;
                REQUIRE(out.scales[0] == e.scale);
                REQUIRE(out.codes == e.codes);
            }
        }
    }
}
