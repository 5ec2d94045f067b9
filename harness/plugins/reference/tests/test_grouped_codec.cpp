// SPDX-License-Identifier: Apache-2.0
// The reference's grouped codecs (grouped_codec.cpp, grouped_search.cpp) against the oracle (tensor-formats.txt
// Sections 5, 6, 7; storage-layouts.md Section 3): every binary16 word, every code word,
// row_split payloads and their corruptions, grouped_absmax and grouped_search on seeded matrices.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <random>

#include "case_call.hpp"
#include "grouped.hpp"
#include "grouped_codec.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/suites.hpp"
#include "reference_plugin.hpp"

namespace gn = ninfer::reference::grouped_codec;
namespace orc = ninfer::oracle;

namespace {

constexpr std::uint64_t kSeed = 20261129;  // include this in bug reports

orc::GroupedMatrix random_matrix(const orc::GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::mt19937_64 &rng) {
    orc::GroupedMatrix m{n, k, {}, {}};
    std::uniform_int_distribution<int> code(f.qmin, f.qmax);
    std::uniform_int_distribution<int> scale(0, 0xFFFF);
    for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::int8_t>(code(rng)));
    const std::uint64_t gpr = orc::grouped_groups_per_row(f, k);
    for (std::uint64_t i = 0; i < n * gpr; ++i) {
        std::uint16_t s = 0;
        do s = static_cast<std::uint16_t>(scale(rng));
        while (orc::grouped_scale_verdict(f, s) != NINFER_VERDICT_VALID || s == 0);
        m.scales.push_back(s);
    }
    return m;
}

gn::Matrix matrix_of(const orc::GroupedMatrix &m) { return {m.rows, m.cols, m.codes, m.scales}; }

std::vector<std::uint8_t> fp32_bytes(const std::vector<float> &x) {
    std::vector<std::uint8_t> b(x.size() * 4);
    std::memcpy(b.data(), x.data(), b.size());
    return b;
}

/// Values of a group drawn from one of several regimes: normal, tiny, huge, exact halves.
std::vector<float> random_values(std::uint64_t count, std::mt19937_64 &rng, int regime) {
    std::vector<float> x(count);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_int_distribution<int> half(-40, 40);
    std::uniform_int_distribution<std::uint32_t> bits(0, 0x7F7FFFFFu);
    for (auto &v : x) {
        switch (regime) {
        case 0: v = normal(rng) * 0.05f; break;
        case 1: v = normal(rng) * 1e-9f; break;                       // subnormal binary16 scales
        case 2: v = std::ldexp(static_cast<float>(half(rng)), -1); break;  // ties of 7.2 step 4
        case 3: v = std::bit_cast<float>(bits(rng) >> (rng() % 9)); v = (rng() & 1) ? -v : v; break;
        default: v = normal(rng) * 3000.0f; break;
        }
    }
    if (regime == 1 && count > 3) x[count / 2] = 0.0f;
    return x;
}

}  // namespace

TEST_CASE("the grouped codecs' binary16 conversions equal the oracle", "[grouped][codec]") {
    const auto &conv16 = orc::conversion(NINFER_CONVERSION_fp16_to_fp32);
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) continue;  // NaN: ANY payload policy
        REQUIRE(gn::f16_to_f32(static_cast<std::uint16_t>(h)) == orc::convert_word(conv16, h));
    }
    const auto &conv = orc::conversion(NINFER_CONVERSION_fp32_to_fp16_rne);
    std::mt19937_64 rng(kSeed);
    std::vector<std::uint32_t> words;
    // Every binary16 midpoint and its binary32 neighbours, across the normal and subnormal range.
    for (std::uint32_t h = 0; h < 0x7C00; h += 7) {
        const std::uint32_t lo = gn::f16_to_f32(static_cast<std::uint16_t>(h));
        for (std::uint32_t d : {0u, 1u, 0xFFFu, 0x1000u, 0x1001u}) words.push_back(lo + (h < 0x400 ? d >> 4 : d));
    }
    for (int i = 0; i < 20000; ++i) words.push_back(static_cast<std::uint32_t>(rng()) & 0x7FFFFFFFu);
    words.push_back(0x477FF000u);  // 65520: rounds to infinity
    words.push_back(0x477FEFFFu);
    words.push_back(0x33000000u);  // 2^-25: tie with zero
    for (std::uint32_t w : words) {
        if ((w & 0x7F800000u) == 0x7F800000u) continue;
        for (std::uint32_t s : {0u, 0x80000000u}) {
            INFO("binary32 word " << std::hex << (w | s));
            REQUIRE(gn::f32_to_f16_rne(w | s) == orc::convert_word(conv, w | s));
        }
    }
}

TEST_CASE("the grouped codecs' code words, scale validity and reconstruction equal the oracle", "[grouped][codec]") {
    for (const auto &f : orc::kGroupedFormats) {
        INFO(f.name);
        for (std::uint32_t w = 0; w < 512; ++w) REQUIRE(gn::code_value(f, w) == orc::grouped_code_value(f, w));
        for (int q = f.qmin; q <= f.qmax; ++q) REQUIRE(gn::code_word(f, q) == orc::grouped_code_word(f, q));
        for (std::uint32_t s = 0; s < 0x10000; ++s)
            REQUIRE(gn::scale_valid(f, static_cast<std::uint16_t>(s)) ==
                    (orc::grouped_scale_verdict(f, static_cast<std::uint16_t>(s)) == NINFER_VERDICT_VALID));
    }
    const auto &q8 = *orc::find_name(orc::kGroupedFormats, "q8_g32_fp16");
    for (std::uint32_t s = 0; s < 0x10000; s += 3) {
        if ((s & 0x7C00u) == 0x7C00u) continue;
        for (int q : {q8.qmin, -1, 0, 1, 77, q8.qmax})
            REQUIRE(gn::reconstruct(static_cast<std::uint16_t>(s), q) == orc::grouped_reconstruct(static_cast<std::uint16_t>(s), q));
    }
}

TEST_CASE("the grouped codecs' row_split payloads, decode, refusals and selections equal the oracle", "[grouped][codec]") {
    std::mt19937_64 rng(kSeed + 1);
    const std::uint64_t ks[] = {1, 63, 64, 65, 127, 128, 129, 130, 300};
    for (const auto &f : orc::kGroupedFormats) {
        for (std::uint64_t k : ks) {
            const std::uint64_t n = 1 + rng() % 4;
            INFO(f.name << " [" << n << "," << k << "]");
            const auto m = random_matrix(f, n, k, rng);
            const auto payload = orc::row_split_encode(f, m);
            REQUIRE(gn::encode_payload(f, matrix_of(m)) == payload);
            gn::Matrix back;
            REQUIRE(gn::decode_payload(f, n, k, payload, back).status == NINFER_OK);
            CHECK(back.codes == m.codes);
            CHECK(back.scales == m.scales);
            // Single-byte corruptions: same verdict and detail (GROUPED.md R2 order).
            for (int t = 0; t < 60; ++t) {
                auto bad = payload;
                const std::size_t at = rng() % bad.size();
                bad[at] = static_cast<std::uint8_t>(bad[at] ^ (1u << (rng() % 8)));
                const auto o = orc::row_split_decode(f, n, k, bad);
                gn::Matrix nm;
                const auto r = gn::decode_payload(f, n, k, bad, nm);
                INFO("flip at byte " << at);
                REQUIRE(r.status == o.status);
                REQUIRE(r.detail == o.detail);
            }
            gn::Matrix nm;
            auto longer = payload;
            longer.push_back(0);
            CHECK(gn::decode_payload(f, n, k, longer, nm).status == NINFER_E_SIZE);
            // Slices and gathers.
            std::vector<std::uint64_t> rows;
            for (std::uint64_t i = 0; i < 1 + rng() % 5; ++i) rows.push_back(rng() % n);
            std::vector<std::uint8_t> sel;
            REQUIRE(gn::select_rows(f, n, k, payload, rows, sel).status == NINFER_OK);
            REQUIRE(sel == orc::row_split_select_rows(f, n, k, payload, rows));
        }
    }
}

TEST_CASE("the reference's grouped_absmax equals the oracle bit for bit", "[grouped][codec]") {
    std::mt19937_64 rng(kSeed + 2);
    const std::uint64_t ks[] = {1, 31, 64, 65, 130, 256};
    for (const auto &f : orc::kGroupedFormats) {
        for (std::uint64_t k : ks)
            for (int regime = 0; regime < 5; ++regime) {
                const std::uint64_t n = 1 + rng() % 3;
                INFO(f.name << " [" << n << "," << k << "] regime " << regime);
                const auto x = random_values(n * k, rng, regime);
                const auto src = fp32_bytes(x);
                const auto want = orc::grouped_absmax(f, NINFER_FORMAT_fp32, n, k, src);
                gn::Matrix m;
                const auto got = f.canonical_encoders ? gn::absmax(f, n, k, x, m) : gn::Outcome{NINFER_E_METHOD, 0, {}};
                REQUIRE(got.status == want.status);
                if (want.status != NINFER_OK) continue;
                REQUIRE(m.scales == want.m.scales);
                REQUIRE(m.codes == want.m.codes);
            }
        // bf16 and fp16 sources, non-finite words included.
        for (std::uint32_t src_fmt : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}) {
            std::vector<std::uint8_t> src(2 * 2 * 64);
            for (auto &b : src) b = static_cast<std::uint8_t>(rng());
            const auto want = orc::grouped_absmax(f, src_fmt, 2, 64, src);
            std::vector<float> x;
            auto got = gn::source_to_f32(src_fmt, src, 128, x);
            gn::Matrix m;
            if (got.status == NINFER_OK) got = f.canonical_encoders ? gn::absmax(f, 2, 64, x, m) : gn::Outcome{NINFER_E_METHOD, 0, {}};
            if (!f.canonical_encoders) got.status = NINFER_E_METHOD;
            REQUIRE(got.status == want.status);
            if (want.status == NINFER_OK) REQUIRE(m.codes == want.m.codes);
        }
    }
}

TEST_CASE("the reference's grouped_search equals the oracle on seeded groups", "[grouped][codec][search]") {
    std::mt19937_64 rng(kSeed + 3);
    std::uniform_real_distribution<float> w(0.0f, 4.0f);
    std::size_t replaced = 0, negative_won = 0;
    for (const auto &f : orc::kGroupedFormats) {
        if (!f.canonical_encoders) continue;
        for (int trial = 0; trial < 6; ++trial) {
            const std::uint64_t n = 2, k = trial % 2 ? 70 : 64;
            const auto x = random_values(n * k, rng, trial % 3 == 2 ? 4 : trial % 3);
            std::vector<float> imp;
            std::vector<std::uint32_t> imp32;
            if (trial >= 3)
                for (std::uint64_t c = 0; c < k; ++c) {
                    imp.push_back(w(rng));
                    imp32.push_back(std::bit_cast<std::uint32_t>(imp.back()));
                }
            for (bool negative : {false, true}) {
                INFO(f.name << " trial " << trial << " negative " << negative);
                const auto want = orc::grouped_search(f, NINFER_FORMAT_fp32, n, k, fp32_bytes(x), imp32, negative);
                gn::Matrix m;
                const auto got = gn::search(f, n, k, x, imp, negative, m);
                REQUIRE(got.status == want.status);
                REQUIRE(m.scales == want.m.scales);
                REQUIRE(m.codes == want.m.codes);
                for (bool b : want.suite_reading_groups) replaced += b;
                for (auto sc : m.scales) negative_won += (sc & 0x8000u) != 0;
            }
        }
    }
    // The comparison means something only if the search moved away from 7.2 in many groups.
    CHECK(replaced > 20);
    CHECK(negative_won > 0);
}

namespace {

/// One case through the grouped half's ABI v2 entry, and through the reference's v1 face (the
/// table the mutants wrap), which must answer the same; an empty string when both match the case.
std::string run_case(const ninfer::suites::Case &c) {
    const ninfer_call_v2 head = ninfer::testing::case_head(c);
    if (!ninfer::reference::is_grouped_call(&head)) return "not routed to the grouped half";
    const auto v2 = ninfer::testing::run_case_v2(ninfer::reference::reference_table_v2(), c);
    if (auto m = ninfer::testing::mismatch(c, v2); !m.empty()) return "v2: " + m;
    const auto v1 = ninfer::testing::run_case_v1(ninfer::reference::reference_table_v1(), c);
    // A v1 call has three output buffers: the planes past them (nvfp4's fourth) are v2's alone.
    auto v2_outputs = v2.outputs;
    if (v2_outputs.size() > 3) v2_outputs.resize(3);
    if (v1.status != v2.status || v1.detail != v2.detail || v1.message != v2.message || v1.outputs != v2_outputs)
        return "the v1 face answers otherwise than the v2 table: status " + std::to_string(v1.status) + ", " + v1.message;
    return {};
}

}  // namespace

TEST_CASE("the grouped half passes every grouped golden case and seeded case", "[grouped][codec][suites]") {
    std::size_t ran = 0;
    for (const auto &s : ninfer::suites::grouped_suites()) {
        auto cases = s.golden(ninfer::suites::Level::full);
        for (auto &c : s.random(kSeed, ninfer::suites::Level::full)) cases.push_back(std::move(c));
        for (const auto &c : cases) {
            INFO(c.id);
            CHECK(run_case(c).empty());
            ++ran;
        }
    }
    CHECK(ran > 1000);
}
