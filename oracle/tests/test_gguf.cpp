// SPDX-License-Identifier: Apache-2.0
// The GGUF block oracle (tensor-formats.txt, the gguf_* table and paragraph): the type table
// against the spec's table, the generated ggml tables against their JSON, and blocks whose
// elements were worked out by hand from ggml's formulas (each comment shows the arithmetic),
// including one where ggml's binary32 order rounds and the exact value does not.
#include <catch2/catch.hpp>
#include <cstdint>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <vector>

#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/ggml_tables.hpp"
#include "ninfer/oracle/gguf.hpp"

using namespace ninfer::oracle;

namespace {

std::vector<std::uint8_t> block_of(const char *name) {
    const auto *t = find_gguf_type(name);
    REQUIRE(t);
    return std::vector<std::uint8_t>(t->block_bytes, 0);
}

void put16(std::vector<std::uint8_t> &b, std::size_t at, std::uint16_t w) {
    b[at] = static_cast<std::uint8_t>(w);
    b[at + 1] = static_cast<std::uint8_t>(w >> 8);
}

GgufBlock decode(const char *name, const std::vector<std::uint8_t> &b) { return gguf_dequantize_block(*find_gguf_type(name), b); }

std::string exact_text(const GgufBlock &b, std::size_t i) { return b.exact[i] ? rational_text(*b.exact[i]) : "none"; }

}  // namespace

TEST_CASE("the GGUF type table says what tensor-formats.txt's gguf_* table says", "[gguf]") {
    // name | ggml type | block values | block bytes, typed from the spec's table.
    struct Row { const char *name; std::uint32_t type, values, bytes; };
    const Row spec[] = {{"gguf_q8_0", 8, 32, 34},      {"gguf_q4_0", 2, 32, 18},    {"gguf_q5_0", 6, 32, 22},
                        {"gguf_q2_0", 42, 64, 18},     {"gguf_q2_k", 10, 256, 84},  {"gguf_q3_k", 11, 256, 110},
                        {"gguf_q4_k", 12, 256, 144},   {"gguf_q5_k", 13, 256, 176}, {"gguf_q6_k", 14, 256, 210},
                        {"gguf_iq2_xxs", 16, 256, 66}, {"gguf_iq2_xs", 17, 256, 74}, {"gguf_iq3_xxs", 18, 256, 98},
                        {"gguf_iq1_s", 19, 256, 50},   {"gguf_iq4_nl", 20, 32, 18}, {"gguf_iq3_s", 21, 256, 110},
                        {"gguf_iq2_s", 22, 256, 82},   {"gguf_iq4_xs", 23, 256, 136}, {"gguf_iq1_m", 29, 256, 56}};
    std::size_t in_registry = 0;
    for (const auto &t : kGgufTypes) in_registry += t.in_ninfer_registry;
    CHECK(in_registry == std::size(spec));
    for (const auto &r : spec) {
        CAPTURE(r.name);
        const auto *t = find_gguf_type(r.name);
        REQUIRE(t);
        CHECK(t->ggml_type == r.type);
        CHECK(t->block_values == r.values);
        CHECK(t->block_bytes == r.bytes);
        CHECK(t->in_ninfer_registry);
    }
    CHECK_FALSE(find_gguf_type("gguf_q4_2"));
    CHECK_THROWS(gguf_dequantize_block(*find_gguf_type("gguf_q4_0"), std::vector<std::uint8_t>(17, 0)));
}

TEST_CASE("the generated ggml tables are the JSON's, by digest and by sample", "[gguf]") {
    std::ifstream in(NINFER_GGML_TABLES_JSON, std::ios::binary);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string json = ss.str();
    CHECK(ggml::kTablesSha256.size() == 64);
    // Samples typed from the JSON's text: the first entries of three tables.
    CHECK(json.find("\"kvalues_iq4nl\"") != std::string::npos);
    CHECK(ggml::kvalues_iq4nl[0] == -127);
    CHECK(ggml::kvalues_iq4nl[15] == 113);
    CHECK(ggml::iq2xxs_grid[1] == 0x080808080808082bull);
    CHECK(ggml::iq3s_grid[0] == 0x01010101u);
    CHECK(ggml::kvalues_fp4[7] == 6 * 2);
    CHECK(ggml::iq1s_grid.size() == 2048);
    CHECK(ggml::kQK_K == 256);
}

TEST_CASE("legacy blocks decode as ggml's formulas say", "[gguf]") {
    auto b = block_of("gguf_q4_0");
    put16(b, 0, 0x3C00);  // d = 1
    b[2] = 0x9F;          // element 0: 15 - 8 = 7; element 16: 9 - 8 = 1
    auto r = decode("gguf_q4_0", b);
    CHECK(r.ggml[0] == 0x40E00000u);
    CHECK(r.ggml[16] == 0x3F800000u);
    CHECK(r.ggml[1] == 0xC1000000u);  // nibble 0: -8
    CHECK(exact_text(r, 0) == "7");

    b = block_of("gguf_q8_0");
    put16(b, 0, 0x3800);  // d = 0.5
    b[2] = 0x80;          // -128 * 0.5 = -64 (q8_0 stores the full int8 range)
    r = decode("gguf_q8_0", b);
    CHECK(r.ggml[0] == 0xC2800000u);

    b = block_of("gguf_q5_1");
    put16(b, 0, 0x4000);  // d = 2
    put16(b, 2, 0xBC00);  // m = -1
    b[4] = 0x01;          // qh bit 0: element 0 gets 16
    b[8] = 0x03;          // element 0: (3 | 16) * 2 - 1 = 37
    r = decode("gguf_q5_1", b);
    CHECK(r.ggml[0] == 0x42140000u);

    b = block_of("gguf_q2_0");
    put16(b, 0, 0x3C00);
    b[2] = 0b11100100;  // elements 0..3: u = 0, 1, 2, 3 -> -1, 0, 1, 2
    r = decode("gguf_q2_0", b);
    CHECK(r.ggml[0] == 0xBF800000u);
    CHECK(r.ggml[1] == 0x00000000u);
    CHECK(r.ggml[3] == 0x40000000u);

    b = block_of("gguf_iq4_nl");
    put16(b, 0, 0x3C00);
    b[2] = 0xF0;  // element 0: kvalues[0] = -127; element 16: kvalues[15] = 113
    r = decode("gguf_iq4_nl", b);
    CHECK(r.ggml[0] == 0xC2FE0000u);
    CHECK(r.ggml[16] == 0x42E20000u);

    b = block_of("gguf_mxfp4");
    b[0] = 127;   // d = 2^(127 - 128) = 0.5
    b[1] = 0x07;  // element 0: kvalues_fp4[7] = 12 -> 6
    r = decode("gguf_mxfp4", b);
    CHECK(r.ggml[0] == 0x40C00000u);

    b = block_of("gguf_nvfp4");
    b[0] = 0x38;  // UE4M3 1.0, halved: 0.5
    b[1] = 0xFF;  // e = 15, m = 7: 480 (no NaN in ggml's decoder), halved: 240
    b[4] = 0x07;  // element 0: 12 * 0.5 = 6
    b[12] = 0x02; // element 16 (sub-block 1): 2 * 240 = 480
    r = decode("gguf_nvfp4", b);
    CHECK(r.ggml[0] == 0x40C00000u);
    CHECK(r.ggml[16] == 0x43F00000u);
}

TEST_CASE("ternary and K-quant blocks decode as ggml's formulas say", "[gguf]") {
    auto b = block_of("gguf_tq2_0");
    put16(b, 64, 0x3C00);
    b[0] = 0x1B;  // element 0 (l = 0): 3 - 1 = 2; element 32 (l = 1): 2 - 1 = 1
    auto r = decode("gguf_tq2_0", b);
    CHECK(r.ggml[0] == 0x40000000u);
    CHECK(r.ggml[32] == 0x3F800000u);

    b = block_of("gguf_tq1_0");
    put16(b, 52, 0x3C00);
    b[0] = 0xFF;  // digit n = 0: (255*3)>>8 = 2 -> 1; n = 1: 253 -> (759)>>8 = 2 -> 1
    r = decode("gguf_tq1_0", b);
    CHECK(r.ggml[0] == 0x3F800000u);
    CHECK(r.ggml[32] == 0x3F800000u);
    CHECK(r.ggml[1] == 0xBF800000u);  // byte 0: digit 0 -> -1

    b = block_of("gguf_q4_k");
    put16(b, 0, 0x3C00);  // d = 1
    put16(b, 2, 0x3C00);  // dmin = 1
    b[4] = 2;             // sub-block 0: scale 2
    b[8] = 1;             // sub-block 0: min 1
    b[16] = 0x05;         // element 0: 1*2 * 5 - 1*1 = 9
    r = decode("gguf_q4_k", b);
    CHECK(r.ggml[0] == 0x41100000u);

    // ggml's order rounds where the exact value does not: d = 65504, scale 63, q = 15:
    // d*sc*q = 61901280 (binary32 exact), minus dmin*m = 2^-14: the binary32 subtraction
    // returns 61901280, the exact value is 61901280 - 2^-14.
    b = block_of("gguf_q4_k");
    put16(b, 0, 0x7BFF);
    put16(b, 2, 0x0400);  // dmin = 2^-14
    b[4] = 63;
    b[8] = 1;
    b[16] = 0x0F;
    r = decode("gguf_q4_k", b);
    CHECK(r.ggml[0] == 0x4C6C2278u);
    CHECK(exact_text(r, 0) == "61901279.99993896484375");

    b = block_of("gguf_q6_k");
    put16(b, 208, 0x3C00);  // d = 1
    b[192] = static_cast<std::uint8_t>(-2);  // scale of sub-block 0: -2
    b[0] = 0x01;                             // element 0: (1 | 0) - 32 = -31 -> 1 * -2 * -31 = 62
    r = decode("gguf_q6_k", b);
    CHECK(r.ggml[0] == 0x42780000u);
}

TEST_CASE("i-quant blocks decode through ggml's grids and signs", "[gguf]") {
    auto b = block_of("gguf_iq2_xxs");
    put16(b, 0, 0x3C00);  // d = 1; scale nibble 0: db = 1 * 0.5 * 0.25 = 0.125; grid 0 bytes 8 -> 1.0
    auto r = decode("gguf_iq2_xxs", b);
    for (int j = 0; j < 8; ++j) CHECK(r.ggml[static_cast<std::size_t>(j)] == 0x3F800000u);

    b = block_of("gguf_iq1_s");
    put16(b, 0, 0x3C00);  // dl = 1 * (2*0 + 1); grid 0 = all 0xFF = -1; -1 + 0.125 = -0.875
    r = decode("gguf_iq1_s", b);
    CHECK(r.ggml[0] == 0xBF600000u);
    CHECK(exact_text(r, 0) == "-0.875");
    put16(b, 34, 0x8000);  // delta negative for sub-block 0: -1 - 0.125
    r = decode("gguf_iq1_s", b);
    CHECK(r.ggml[0] == 0xBF900000u);

    // A NaN scale: ggml's words are NaN, no exact value.
    b = block_of("gguf_iq4_nl");
    put16(b, 0, 0x7E00);
    r = decode("gguf_iq4_nl", b);
    CHECK((r.ggml[0] & 0x7F800000u) == 0x7F800000u);
    CHECK((r.ggml[0] & 0x007FFFFFu) != 0);
    CHECK_FALSE(r.exact[0]);
    // An infinite scale times code 0 would be NaN; kvalues_iq4nl has no 0, so -inf * -127 = +inf.
    put16(b, 0, 0xFC00);
    r = decode("gguf_iq4_nl", b);
    CHECK(r.ggml[0] == 0x7F800000u);
}

TEST_CASE("every type decodes every block size it declares", "[gguf]") {
    for (const auto &t : kGgufTypes) {
        CAPTURE(t.name);
        std::vector<std::uint8_t> b(t.block_bytes, 0x5A);
        const auto r = gguf_dequantize_block(t, b);
        CHECK(r.ggml.size() == t.block_values);
        CHECK(r.exact.size() == t.block_values);
    }
}

TEST_CASE("ggml's reference quantizers: q4_0 and q8_0 on a block emulated in numpy float32", "[gguf][quantize]") {
    // x[j] = float32(float32(j - 13) * 0.37f); the expected bytes come from a numpy float32
    // transcription of quantize_row_q4_0_ref / q8_0_ref (roundf as ties away), not from the oracle.
    const std::vector<std::uint32_t> x = {
        0xc099eb85, 0xc08e147b, 0xc0823d71, 0xc06ccccd, 0xc0551eb8, 0xc03d70a4, 0xc025c290, 0xc00e147b,
        0xbfeccccd, 0xbfbd70a4, 0xbf8e147b, 0xbf3d70a4, 0xbebd70a4, 0x0,        0x3ebd70a4, 0x3f3d70a4,
        0x3f8e147b, 0x3fbd70a4, 0x3feccccd, 0x400e147b, 0x4025c290, 0x403d70a4, 0x40551eb8, 0x406ccccd,
        0x40823d71, 0x408e147b, 0x4099eb85, 0x40a5c290, 0x40b1999a, 0x40bd70a4, 0x40c947ae, 0x40d51eb8};
    const auto q4 = gguf_quantize_block_ref(*find_gguf_type("gguf_q4_0"), x);
    REQUIRE(q4.status == NINFER_OK);
    const std::vector<std::uint8_t> q4_expected = {0xa9, 0xba, 0x7e, 0x6d, 0x6d, 0x5c, 0x5c, 0x4c, 0x4b,
                                                   0x4b, 0x3a, 0x3a, 0x29, 0x29, 0x18, 0x18, 0x08, 0x07};
    CHECK(q4.block == q4_expected);
    const auto q8 = gguf_quantize_block_ref(*find_gguf_type("gguf_q8_0"), x);
    const std::vector<std::uint8_t> q8_expected = {0xb6, 0x2a, 0xa4, 0xab, 0xb2, 0xb9, 0xc1, 0xc8, 0xcf, 0xd6, 0xdd, 0xe4,
                                                   0xeb, 0xf2, 0xf9, 0x00, 0x07, 0x0e, 0x15, 0x1c, 0x23, 0x2a, 0x31, 0x38,
                                                   0x3f, 0x47, 0x4e, 0x55, 0x5c, 0x63, 0x6a, 0x71, 0x78, 0x7f};
    CHECK(q8.block == q8_expected);
    // The block decodes back through the decoder: element 31 = 127 * d.
    const auto back = gguf_dequantize_block(*find_gguf_type("gguf_q8_0"), q8.block);
    CHECK(back.exact[31]);
}

TEST_CASE("ggml's reference quantizers refuse what is outside the suite's domain", "[gguf][quantize]") {
    std::vector<std::uint32_t> x(32, 0x3F800000u);
    x[5] = 0x7FC00000u;
    CHECK(gguf_quantize_block_ref(*find_gguf_type("gguf_q4_0"), x).status == NINFER_E_NONFINITE);
    CHECK(gguf_quantize_block_ref(*find_gguf_type("gguf_iq2_xxs"), std::vector<std::uint32_t>(256, 0)).status == NINFER_E_UNSUPPORTED);
    CHECK_THROWS(gguf_quantize_block_ref(*find_gguf_type("gguf_q4_0"), std::vector<std::uint32_t>(31, 0)));
    // q8_K of an all-zero block: d = 0, codes 0, bsums 0 (the suite's reading; ggml leaves them unwritten).
    const auto z = gguf_quantize_block_ref(*find_gguf_type("gguf_q8_k"), std::vector<std::uint32_t>(256, 0x80000000u));
    CHECK(z.block == std::vector<std::uint8_t>(292, 0));
}

TEST_CASE("ggml_blocks_v1 geometry, refusals and whole-row selections", "[gguf]") {
    const auto &q4k = *find_gguf_type("gguf_q4_k");
    const std::vector<std::uint64_t> shape = {2, 3, 512};  // 6 rows of 2 blocks of 144 bytes
    const auto g = ggml_blocks_geometry(q4k, shape);
    REQUIRE(g);
    CHECK(g->rows == 6);
    CHECK(g->blocks_per_row == 2);
    CHECK(g->row_bytes == 288);
    CHECK(g->payload_bytes == 1728);
    CHECK(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>{256}));            // rank 1
    CHECK_FALSE(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>{4, 300}));   // K % 256
    CHECK_FALSE(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>{}));         // rank 0
    CHECK_FALSE(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>(17, 256)));  // rank 17
    CHECK_FALSE(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>{0, 256}));
    CHECK_FALSE(ggml_blocks_geometry(q4k, std::vector<std::uint64_t>{1ull << 62, 1ull << 20}));
    CHECK(ggml_blocks_shape_error(q4k, std::vector<std::uint64_t>{4, 300}).find("multiple of 256") != std::string::npos);
    std::vector<std::uint8_t> p(1728);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(i / 288);  // byte = its row
    const auto s = ggml_blocks_select_rows(q4k, shape, p, std::vector<std::uint64_t>{5, 0, 5});
    REQUIRE(s.size() == 3 * 288);
    CHECK(s[0] == 5);
    CHECK(s[288] == 0);
    CHECK(s[3 * 288 - 1] == 5);
    CHECK_THROWS(ggml_blocks_select_rows(q4k, shape, p, std::vector<std::uint64_t>{6}));
    CHECK_THROWS(ggml_blocks_select_rows(q4k, shape, p, std::vector<std::uint64_t>{}));
}

TEST_CASE("ggml's K-quant reference quantizers: bytes recorded from ggml itself", "[gguf][quantize]") {
    // x[j] = ((37 j mod 101) - 50) / 64, exact binary32 values. The expected blocks were written
    // by ggml d99724f's quantize_row_q{2..6}_K_ref (gcc -O2 -DNDEBUG), the definition the suite
    // reproduces (scripts/ggml_crosscheck.sh repeats the comparison on random blocks).
    std::vector<std::uint32_t> x(256);
    for (int j = 0; j < 256; ++j) {
        const int v = (37 * j) % 101 - 50;
        if (v == 0) continue;
        const unsigned m = static_cast<unsigned>(v < 0 ? -v : v);
        int e = 0;
        while ((m >> (e + 1)) != 0) ++e;  // floor(log2 m)
        x[static_cast<std::size_t>(j)] = (v < 0 ? 0x80000000u : 0u) | static_cast<std::uint32_t>(e - 6 + 127) << 23 |
                                         ((m << (23 - e)) & 0x7FFFFFu);
    }
    const struct { const char *type, *hex; } expected[] = {
        {"gguf_q2_k", "dedecddffedeffcedebcdeeedcefbeef68b1d66cb11b6c861bb1c66cb1d66cb21b6d861b71c628b1d76cb61b6d861bb11b7d862b71c62cb1db6c861b718628b1db6cb51b6c861ba1c66cb1db6cb61b6c01289d2a"},
        {"gguf_q3_k", "86dc2bc6fd23d67923dc3986fc2bd6fda451fe045bae05fbae51fba459fe045b4827e28d7823de897722dd8877e29d785df2b79c2db68b5de2f7485d22b7882dfd6297c82d528bf8225688fd2e578b3de2c7787dd29bbc2d968b7de2d7787dd2b69ab69a653aa600303ff033de9f"},
        {"gguf_q4_k", "de162c22fefffffcfffdfefecfdcfffea0156bc1278cd3489e045ab0167bc2378de349ae056ab1267cd2389de459af15268ce248ad0459b0157bd1379ce348ae046ac0267bd2379df359be156ac1268c9df359be157ac1268ce248ad0459b0157bd1379ce348ae046ac0267bd2379df3156ac1268cd2489df459b0157bc1378ce348ae046ab0267bd2379de359ae156a"},
        {"gguf_q5_k", "8e125322fffdfdfdfffcfeffdfeffdcf326c9936cc9366c9b36499324c9926cc9366c9336c99364c9b66cdb366d9336c702be7a35f1ad6824d09c5813cf8b46f2be7935e1ad6824d09c5703cf8a36f2b5e1ad5914d09c4803cf8b36f2be6a25e1ad5914d09c4703cf7b36f2be6a25e1a3be8b36e2be6925e19c5814c08b4703cf7a36f2ad6925d19c5814c08b4703be71bd7824e0ab5713de9a4602cd8935f1bc6824e0ab5713de9a4601cd7935f1bc6"},
        {"gguf_q6_k", "d158bf37be25ad048b047bf37ad159d0c941ea63eb74fb741d951ea72fc841c9bf35ad169b048df26be069d147cf38bd1a922c840d85ed77ff57d038b04aa22b67df58c139b22aa22b931c85fd76ee57ce5ad137b31a902c830f86ec78ff55d1c841da62eb63fc840d951ea63fb840c9d129b30b931c74fe86de67ff47d129b118b1c66cb11b6c861b71c61cb1c76cb22453f9248ef9138ef4538d2452f9248ed4a209d47e09a37e14a349d4ae09d77ec863be1463c9147ec923bec463bd1463807f897a867a84877f737d7a81877c89758a"},
    };
    for (const auto &e : expected) {
        CAPTURE(e.type);
        const auto q = gguf_quantize_block_ref(*find_gguf_type(e.type), x);
        REQUIRE(q.status == NINFER_OK);
        std::string got;
        for (auto b : q.block) got += fmt::format("{:02x}", b);
        CHECK(got == e.hex);
    }
}

namespace {
/// A per-type table as the GGUF code builds them: each row's name where the registry's
/// ref_quantizer column is 1, nullptr where it is 0.
constexpr ninfer::abi::GgufTable<const char *> kQuantizerNames = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) NINFER_GGUF_IF_REFQ(refq, #name),
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};
}  // namespace

TEST_CASE("GGUF per-type tables: rows, entries and the ref_quantizer column follow the registry", "[gguf][registry]") {
    namespace abi = ninfer::abi;
    for (std::size_t r = 0; r < kGgufTypes.size(); ++r) {
        const auto &t = kGgufTypes[r];
        INFO(t.name);
        CHECK(abi::gguf_row(t.id) == r);
        CHECK(abi::gguf_row_of_ggml_type(t.ggml_type) == r);
        const char *name = abi::gguf_entry(kQuantizerNames, t.id);
        CHECK((name != nullptr) == t.ref_quantizer);
        if (name) CHECK(t.name == name);
        CHECK(abi::gguf_entry_of_ggml_type(kQuantizerNames, t.ggml_type) == name);
        CHECK(gguf_has_reference_quantizer(t) == t.ref_quantizer);
    }
    // Ids outside the GGUF family: none, a word format, ggml's removed q4_2 (type 4), past the last type.
    CHECK(abi::gguf_row(0) == kGgufTypes.size());
    CHECK(abi::gguf_row(NINFER_FORMAT_fp32) == kGgufTypes.size());
    CHECK(abi::gguf_row_of_ggml_type(4) == kGgufTypes.size());
    CHECK(abi::gguf_row_of_ggml_type(43) == kGgufTypes.size());
    CHECK(abi::gguf_entry(kQuantizerNames, 0) == nullptr);
    CHECK(abi::gguf_entry_of_ggml_type(kQuantizerNames, 4) == nullptr);
}
