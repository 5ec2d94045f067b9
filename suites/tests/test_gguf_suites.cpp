// SPDX-License-Identifier: Apache-2.0
// The GGUF suites (suites/src/gguf/) and rules (rules_gguf.cpp): the registry's 18 .ninfer types
// against the spec's gguf_* table (parsed here from tensor-formats.txt), every GGUF rule has
// cases, every case names a catalog rule, decode cases' expected values are the oracle's block
// decode, the coverage sweeps really hold every sub-block scale and grid index they claim, and a
// changed byte of a block changes the expected values (so a mutant that misreads it is killed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "ninfer/oracle/gguf.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "spec_text.hpp"

using namespace ninfer::suites;
using namespace ninfer::oracle;
using namespace ninfer::suites::testing;

namespace {

const std::vector<Suite> &suites() {
    static const std::vector<Suite> s = gguf_suites();
    return s;
}

/// The golden cases of one suite (computed once per process: the K-quant quantizer cases take
/// seconds), or of all four.
const std::vector<Case> &golden(const std::string &suite) {
    static std::map<std::string, std::vector<Case>> cache;
    if (!cache.count(suite)) {
        std::vector<Case> v;
        for (const auto &s : suites())
            if (suite.empty() || s.name == suite)
                for (auto &c : s.golden(Level::exhaustive)) v.push_back(std::move(c));
        cache[suite] = std::move(v);
    }
    return cache[suite];
}
const std::vector<Case> &golden() { return golden(""); }

/// Seeded cases of every suite (or all but gguf.quantize, whose K-quant cases take seconds).
std::vector<Case> seeded(Level level, std::uint64_t seed = kDefaultSeed, bool quantize = true) {
    std::vector<Case> v;
    for (const auto &s : suites())
        if (s.random && (quantize || s.name != "gguf.quantize"))
            for (auto &c : s.random(seed, level)) v.push_back(std::move(c));
    return v;
}

std::string trim(const std::string &s) {
    const auto a = s.find_first_not_of(" \t\r");
    const auto b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

/// The spec's gguf_* table (tensor-formats.txt): name -> {ggml type, block values, block bytes,
/// bits/weight text}. Each row is "gguf_x |" followed by a line "8 | 32 | 34 | 8.50 |".
struct SpecRow {
    std::uint32_t ggml_type, values, bytes;
    double bits;
};
std::map<std::string, SpecRow> spec_gguf_table() {
    std::istringstream in(spec_file("tensor-formats.txt"));
    std::map<std::string, SpecRow> rows;
    std::string line, pending;
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (!pending.empty()) {
            std::vector<std::string> cells;
            std::stringstream ss(t);
            for (std::string cell; std::getline(ss, cell, '|');)
                if (!trim(cell).empty()) cells.push_back(trim(cell));
            REQUIRE(cells.size() == 4);
            rows[pending] = {static_cast<std::uint32_t>(std::stoul(cells[0])), static_cast<std::uint32_t>(std::stoul(cells[1])),
                             static_cast<std::uint32_t>(std::stoul(cells[2])), std::stod(cells[3])};
            pending.clear();
        } else if (t.rfind("gguf_", 0) == 0 && t.size() > 2 && t.substr(t.size() - 2) == " |") {
            pending = trim(t.substr(0, t.size() - 1));
        }
    }
    return rows;
}

std::uint32_t word32(const std::vector<std::uint8_t> &b, std::size_t i) { return static_cast<std::uint32_t>(get_word(b, i, 4)); }

/// The decode cases of a type that succeed, with their payloads.
std::vector<const Case *> decode_cases(const GgufType &t) {
    std::vector<const Case *> out;
    for (const auto &c : golden("gguf.decode"))
        if (c.op == NINFER_OP_quant_decode && c.format == t.id && c.expect.status == NINFER_OK) out.push_back(&c);
    return out;
}

/// Every block of every succeeding decode case of a type.
std::vector<std::vector<std::uint8_t>> decoded_blocks(const GgufType &t) {
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto *c : decode_cases(t)) {
        const auto &p = c->input(NINFER_PLANE_PAYLOAD);
        for (std::size_t at = 0; at + t.block_bytes <= p.size(); at += t.block_bytes)
            out.emplace_back(p.begin() + static_cast<long>(at), p.begin() + static_cast<long>(at + t.block_bytes));
    }
    return out;
}

const GgufType &type(const char *name) {
    const auto *t = find_gguf_type(name);
    REQUIRE(t != nullptr);
    return *t;
}

}  // namespace

TEST_CASE("gguf registry: the 18 .ninfer types equal the spec's gguf_* table", "[gguf][spec][reads-spec]") {
    const auto table = spec_gguf_table();
    CHECK(table.size() == 18);
    std::size_t registered = 0;
    for (const auto &t : kGgufTypes) {
        INFO(t.name);
        CHECK(t.id == 64 + t.ggml_type);
        const auto it = table.find(std::string(t.name));
        CHECK(t.in_ninfer_registry == (it != table.end()));
        if (it == table.end()) continue;
        ++registered;
        CHECK(t.ggml_type == it->second.ggml_type);
        CHECK(t.block_values == it->second.values);
        CHECK(t.block_bytes == it->second.bytes);
        CHECK(8.0 * t.block_bytes / t.block_values == Approx(it->second.bits).margin(0.006));
    }
    CHECK(registered == 18);
    CHECK(kGgufTypes.size() == 27);
}

TEST_CASE("gguf suites: ids unique, every case names a catalog rule, every GGUF rule has cases", "[gguf]") {
    std::set<std::string> ids, rules;
    auto all = golden();
    for (auto &c : seeded(Level::full)) all.push_back(std::move(c));
    for (const auto &c : all) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(find_rule(c.rule) != nullptr);
        CHECK(c.id.rfind(c.rule + "/", 0) == 0);
        rules.insert(c.rule);
        if (c.expect.status != NINFER_OK) CHECK(c.expect.outputs.empty());
        if (c.expect.status == NINFER_E_SIZE) CHECK(c.expect.detail == NINFER_DETAIL_SIZE);
    }
    for (const RuleId id : rule::kGguf) {
        INFO(id.view());
        CHECK(rules.count(std::string(id.view())) == 1);
    }
    std::size_t quantizers = 0;
    for (const auto &t : kGgufTypes) {
        INFO(t.name);
        CHECK(rules.count(rule::gguf_decode(t)) == 1);
        if (t.ref_quantizer) {
            ++quantizers;
            CHECK(rules.count(rule::gguf_quantize(t)) == 1);
        }
    }
    CHECK(quantizers == 20);  // q8_0 .. q8_K, q2_K .. q6_K, iq4_nl, iq4_xs, q1_0, q2_0, tq1_0, tq2_0, mxfp4, nvfp4
    // Every GGUF rule of the catalog is one of these.
    for (const auto &r : gguf_rules()) CHECK(rules.count(r.id) == 1);
}

TEST_CASE("gguf suites: golden and seeded cases are deterministic, levels cumulative", "[gguf]") {
    CHECK(suites()[3].golden(Level::quick).size() == suites()[3].golden(Level::exhaustive).size());
    const auto a = seeded(Level::full, 7, false), b = seeded(Level::full, 7, false), c = seeded(Level::full, 8, false);
    REQUIRE(a.size() == b.size());
    REQUIRE(!a.empty());
    bool differs = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].id == b[i].id);
        CHECK(a[i].inputs == b[i].inputs);
        CHECK(a[i].expect.outputs == b[i].expect.outputs);
        differs = differs || a[i].inputs != c[i].inputs;
    }
    CHECK(differs);
    CHECK(seeded(Level::quick).empty());
}

TEST_CASE("gguf.decode: expected values are the oracle's block decode, NaN cases compare under NanPolicy::any", "[gguf]") {
    std::size_t checked = 0, with_nan = 0, with_inf = 0;
    std::vector<Case> cases = golden("gguf.decode");
    for (const auto &c : golden("layout.ggml_blocks_v1")) cases.push_back(c);
    for (const auto &c : golden("lesson.mxfp4")) cases.push_back(c);
    for (const auto &c : cases) {
        if (c.op != NINFER_OP_quant_decode || c.expect.status != NINFER_OK) continue;
        INFO(c.id);
        const auto *t = find_id(kGgufTypes, c.format);
        REQUIRE(t != nullptr);
        const auto &p = c.input(NINFER_PLANE_PAYLOAD);
        const auto &v = c.expect.output(NINFER_PLANE_VALUES);
        REQUIRE(p.size() % t->block_bytes == 0);
        REQUIRE(v.size() == 4 * (p.size() / t->block_bytes) * t->block_values);
        bool nan = false, inf = false;
        for (std::size_t b = 0; b < p.size() / t->block_bytes; ++b) {
            const auto d = gguf_dequantize_block(*t, std::span<const std::uint8_t>(p).subspan(b * t->block_bytes, t->block_bytes));
            for (std::size_t j = 0; j < t->block_values; ++j) {
                const std::uint32_t w = word32(v, b * t->block_values + j);
                CHECK(w == d.ggml[j]);
                const bool special = (w & 0x7F800000u) == 0x7F800000u;
                nan = nan || (special && (w & 0x7FFFFFu));
                inf = inf || (special && !(w & 0x7FFFFFu));
                // A finite ggml word has an exact value (no non-finite scale entered).
                if (!special) CHECK(d.exact[j].has_value());
            }
        }
        CHECK((c.nan == NanPolicy::any) == nan);
        with_nan += nan;
        with_inf += inf;
        ++checked;
    }
    CHECK(checked > 250);
    CHECK(with_nan > 25);  // a NaN scale of every type that has a binary16 or binary32 one
    CHECK(with_inf > 25);
}

TEST_CASE("gguf.decode: the K-quant sweeps hold every 6-bit sub-block scale at every position", "[gguf]") {
    // q4_K, q5_K: get_scale_min_k4 read independently here; every (position, value) of scale and min.
    for (const char *name : {"gguf_q4_k", "gguf_q5_k"}) {
        INFO(name);
        std::set<std::pair<int, int>> sc, mn;
        for (const auto &b : decoded_blocks(type(name)))
            for (int j = 0; j < 8; ++j) {
                const std::uint8_t *q = b.data() + 4;
                const int s = j < 4 ? q[j] & 63 : (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
                const int m = j < 4 ? q[j + 4] & 63 : (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
                sc.insert({j, s});
                mn.insert({j, m});
            }
        CHECK(sc.size() == 8 * 64);
        CHECK(mn.size() == 8 * 64);
    }
    // q3_K: sixteen 6-bit scales, low nibbles in bytes 0..7, high pairs in bytes 8..11.
    std::set<std::pair<int, int>> s3;
    for (const auto &b : decoded_blocks(type("gguf_q3_k")))
        for (int i = 0; i < 16; ++i) {
            const std::uint8_t *q = b.data() + 96;
            s3.insert({i, ((q[i % 8] >> (4 * (i / 8))) & 0xF) | (((q[8 + i % 4] >> (2 * (i / 4))) & 3) << 4)});
        }
    CHECK(s3.size() == 16 * 64);
    // q2_K: every 4-bit scale and min at each of the 16 positions.
    std::set<std::pair<int, int>> s2;
    for (const auto &b : decoded_blocks(type("gguf_q2_k")))
        for (int i = 0; i < 16; ++i) s2.insert({i, b[static_cast<std::size_t>(i)]});
    CHECK(s2.size() >= 16 * 16);
}

TEST_CASE("gguf.decode: the i-quant sweeps hold every grid index and every ksigns entry", "[gguf]") {
    // iq2_xxs: grid index bytes, 7-bit sign indices.
    std::set<int> grid, signs;
    for (const auto &b : decoded_blocks(type("gguf_iq2_xxs")))
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint8_t *q = b.data() + 2 + 8 * ib;
            const std::uint32_t a1 = q[4] | q[5] << 8 | q[6] << 16 | static_cast<std::uint32_t>(q[7]) << 24;
            for (int l = 0; l < 4; ++l) {
                grid.insert(q[l]);
                signs.insert(static_cast<int>((a1 >> (7 * l)) & 127));
            }
        }
    CHECK(grid.size() == 256);
    CHECK(signs.size() == 128);
    // iq1_s: 11-bit grid indices (qs | 3 bits of qh), both delta signs.
    std::set<int> g1, delta;
    for (const auto &b : decoded_blocks(type("gguf_iq1_s")))
        for (int ib = 0; ib < 8; ++ib) {
            const int qh = b[34 + 2 * ib] | b[35 + 2 * ib] << 8;
            delta.insert(qh >> 15);
            for (int l = 0; l < 4; ++l) g1.insert(b[2 + 4 * ib + l] | ((qh >> (3 * l)) & 7) << 8);
        }
    CHECK(g1.size() == 2048);
    CHECK(delta.size() == 2);
    // iq1_m: 11-bit grid indices, the four delta-sign bits.
    std::set<int> gm;
    std::set<int> dm;
    for (const auto &b : decoded_blocks(type("gguf_iq1_m")))
        for (int ib = 0; ib < 8; ++ib) {
            const std::uint8_t h0 = b[32 + 2 * ib], h1 = b[33 + 2 * ib];
            gm.insert(b[4 * ib] | (h0 & 7) << 8);
            gm.insert(b[4 * ib + 1] | ((h0 >> 4) & 7) << 8);
            gm.insert(b[4 * ib + 2] | (h1 & 7) << 8);
            gm.insert(b[4 * ib + 3] | ((h1 >> 4) & 7) << 8);
            dm.insert((h0 >> 3 & 1) | (h0 >> 7 & 1) << 1 | (h1 >> 3 & 1) << 2 | (h1 >> 7 & 1) << 3);
        }
    CHECK(gm.size() == 2048);
    CHECK(dm.size() == 16);
    // iq2_xs (9-bit), iq2_s (10-bit), iq3_xxs (8-bit), iq3_s (9-bit) grid indices.
    std::set<int> gxs, gs, g3, g3s, sxs;
    for (const auto &b : decoded_blocks(type("gguf_iq2_xs")))
        for (int i = 0; i < 32; ++i) {
            const int q = b[2 + 2 * i] | b[3 + 2 * i] << 8;
            gxs.insert(q & 511);
            sxs.insert(q >> 9);
        }
    for (const auto &b : decoded_blocks(type("gguf_iq2_s")))
        for (int ib = 0; ib < 8; ++ib)
            for (int l = 0; l < 4; ++l) gs.insert(b[2 + 4 * ib + l] | ((b[66 + ib] >> (2 * l)) & 3) << 8);
    for (const auto &b : decoded_blocks(type("gguf_iq3_xxs")))
        for (int i = 0; i < 64; ++i) g3.insert(b[2 + i]);
    for (const auto &b : decoded_blocks(type("gguf_iq3_s")))
        for (int k = 0; k < 8; ++k)
            for (int e = 0; e < 8; ++e) g3s.insert(b[2 + 8 * k + e] | ((b[66 + k] >> e) & 1) << 8);
    CHECK(gxs.size() == 512);
    CHECK(sxs.size() == 128);
    CHECK(gs.size() == 1024);
    CHECK(g3.size() == 256);
    CHECK(g3s.size() == 512);
}

TEST_CASE("gguf.decode: a changed byte of a block changes the expected values (mutants can be killed)", "[gguf]") {
    for (const auto &t : kGgufTypes) {
        INFO(t.name);
        // The last block of the type's first coverage group (the first blocks of a 256-value type
        // carry extreme scales, under which binary32 rounding may absorb a code).
        const auto *c0 = [&]() -> const Case * {
            for (const auto *c : decode_cases(t))
                if (c->source == "domain") return c;
            return nullptr;
        }();
        REQUIRE(c0 != nullptr);
        const auto &p = c0->input(NINFER_PLANE_PAYLOAD);
        const std::size_t last = p.size() / t.block_bytes - 1;
        const std::vector<std::uint8_t> block(p.begin() + static_cast<long>(last * t.block_bytes), p.end());
        // The case's expected values of that block are the oracle's decode of the block.
        const auto base = gguf_dequantize_block(t, block).ggml;
        for (std::size_t j = 0; j < t.block_values; ++j)
            CHECK(word32(c0->expect.output(NINFER_PLANE_VALUES), last * t.block_values + j) == base[j]);
        std::size_t read = 0;
        for (std::size_t i = 0; i < t.block_bytes; ++i) {
            // Fields ggml's dequantizer does not read: q8_1's sum s, q8_K's bsums.
            if (t.id == NINFER_FORMAT_gguf_q8_1 && (i == 2 || i == 3)) continue;
            if (t.id == NINFER_FORMAT_gguf_q8_k && i >= 260) continue;
            auto m = block;
            m[i] ^= 0xFF;
            INFO("byte " << i);
            CHECK(gguf_dequantize_block(t, m).ggml != base);
            ++read;
        }
        CHECK(read > 0);
    }
}

TEST_CASE("gguf.quantize: cases follow the oracle and the registry column ref_quantizer", "[gguf]") {
    std::map<std::int32_t, std::size_t> statuses;
    std::size_t below_eps = 0;
    const auto &quantize = golden("gguf.quantize");
    for (const auto &c : quantize) {
        if (c.method != NINFER_ENCODER_ggml_quantize_ref) continue;
        INFO(c.id);
        const auto *t = find_id(kGgufTypes, c.format);
        REQUIRE(t != nullptr);
        ++statuses[c.expect.status];
        if (!t->ref_quantizer) {
            CHECK(c.expect.status == NINFER_E_METHOD);
            CHECK(c.rule == std::string(rule::gguf_registry.view()));
            continue;
        }
        CHECK(c.format_in == NINFER_FORMAT_fp32);
        if (c.expect.status == NINFER_E_METHOD) {  // iq4_nl below GROUP_MAX_EPS, a reading (oracle/GGUF.md)
            CHECK(t->id == NINFER_FORMAT_gguf_iq4_nl);
            CHECK(c.suite_reading);
            ++below_eps;
            continue;
        }
        if (c.expect.status != NINFER_OK) continue;
        const auto &src = c.input(NINFER_PLANE_SOURCE);
        const auto &out = c.expect.output(NINFER_PLANE_PAYLOAD);
        REQUIRE(src.size() == 4 * c.count);
        REQUIRE(out.size() == c.count / t->block_values * t->block_bytes);
        // The first block again, straight from the oracle.
        std::vector<std::uint32_t> x(t->block_values);
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = word32(src, j);
        const auto q = gguf_quantize_block_ref(*t, x);
        REQUIRE(q.status == NINFER_OK);
        CHECK(std::equal(q.block.begin(), q.block.end(), out.begin()));
    }
    CHECK(statuses[NINFER_OK] > 100);
    CHECK(statuses[NINFER_E_NONFINITE] >= 24);
    CHECK(statuses[NINFER_E_INVALID_ARGUMENT] == 20);
    CHECK(statuses[NINFER_E_METHOD] == 7 + below_eps);  // the types without a reference quantizer, iq4_nl below 1e-15
    CHECK(below_eps >= 6);  // zero, signed zeros, subnormal, the two inverse-overflow blocks, below_group_max_eps, a row
    // q8_0's tie block: amax 127 gives d = 1, so x = k + 1/2 rounds away from zero (roundf).
    for (const auto &c : quantize)
        if (c.id == "gguf.quantize.gguf_q8_0/gguf_q8_0.ties") {
            const auto &src = c.input(NINFER_PLANE_SOURCE);
            const auto &out = c.expect.output(NINFER_PLANE_PAYLOAD);
            REQUIRE(out.size() == 34);
            CHECK((out[0] | out[1] << 8) == 0x3C00);  // d = 1.0
            for (std::size_t j = 1; j < 32; ++j) {
                // x = +-(k + 1/2) exactly: roundf takes |q| = k + 1 (ties away from zero).
                const float x = std::bit_cast<float>(word32(src, j));
                const auto q = static_cast<std::int8_t>(out[2 + j]);
                CHECK(static_cast<float>(q) == (x < 0 ? x - 0.5f : x + 0.5f));
            }
        }
}

TEST_CASE("layout.ggml_blocks_v1: every GGUF type accepted, every other pair refused", "[gguf]") {
    std::set<std::uint32_t> accepted, foreign;
    std::set<std::pair<std::uint32_t, std::uint32_t>> elsewhere;
    for (const auto &c : golden("layout.ggml_blocks_v1")) {
        if (c.rule != std::string(rule::gguf_registry.view()) || c.op == NINFER_OP_quant_encode) continue;
        const auto *f = ninfer::abi::find_format(c.format);
        REQUIRE(f != nullptr);
        if (c.expect.status == NINFER_OK) {
            CHECK(c.layout == NINFER_LAYOUT_ggml_blocks_v1);
            accepted.insert(c.format);
        } else {
            CHECK(c.expect.status == NINFER_E_LAYOUT);
            if (f->family == ninfer::abi::Family::gguf) elsewhere.insert({c.format, c.layout});
            else foreign.insert(c.format);
            CHECK(!ninfer::abi::gguf_layout_accepts(c.layout, c.format));
        }
    }
    CHECK(accepted.size() == kGgufTypes.size());
    CHECK(elsewhere.size() == kGgufTypes.size() * (ninfer::abi::kLayouts.size() - 1));
    CHECK(foreign.size() == ninfer::abi::kAllFormats.size() - kGgufTypes.size());
}

TEST_CASE("lesson.mxfp4: the lesson's block is the lesson's printed output", "[gguf][lesson]") {
    const Case *enc = nullptr;
    for (const auto &c : golden("lesson.mxfp4"))
        if (c.id == "lesson.mxfp4/lesson_block") enc = &c;
    REQUIRE(enc != nullptr);
    const auto &out = enc->expect.output(NINFER_PLANE_PAYLOAD);
    REQUIRE(out.size() == 17);
    // "E8M0 byte = 126", "codes = 19c30cdeab03402d00bc9c59d9e07acc" (element j low nibble of
    // qs[j], element j + 16 high nibble).
    CHECK(out[0] == 126);
    const std::string codes = "19c30cdeab03402d00bc9c59d9e07acc";
    auto digit = [&](std::size_t j) { return static_cast<int>(std::stoi(codes.substr(j, 1), nullptr, 16)); };
    for (std::size_t j = 0; j < 16; ++j) {
        INFO(j);
        CHECK((out[1 + j] & 0xF) == digit(j));
        CHECK((out[1 + j] >> 4) == digit(j + 16));
    }
}
