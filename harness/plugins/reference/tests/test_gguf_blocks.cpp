// SPDX-License-Identifier: Apache-2.0
// The reference's own GGUF codecs (gguf_blocks.cpp, gguf_quantize*.cpp; tensor-formats.txt, the gguf_* table and
// its paragraph; storage-layouts.md Section 7) against the oracle: every type's decoder on
// thousands of random blocks (raw random bytes: NaN and infinite scales included, and blocks
// with forced NaN / Inf / subnormal / zero scales), rows of several blocks, each reference
// quantizer and the MXFP4 recipe on seeded blocks; then the ops of the family contract through
// the v2 table, each refusal offered.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "gguf_blocks.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "reference_plugin.hpp"
#include "v2_call.hpp"

namespace gn = ninfer::reference::gguf_blocks;
namespace orc = ninfer::oracle;
using ninfer::abi::GgufType;
using ninfer::testing::call_v2;
using ninfer::testing::InPlane;
using ninfer::testing::OutPlane;
using ninfer::testing::v2_head;

namespace {

constexpr std::uint64_t kSeed = 20261130;  // include this in bug reports

const GgufType &type_named(std::string_view name) {
    const auto *t = orc::find_gguf_type(name);
    REQUIRE(t != nullptr);
    return *t;
}

/// Byte offsets of a type's binary16 scale words (the ones a forced special lands on), by format
/// id; a type not listed has its d at 0.
const std::map<std::uint32_t, std::vector<std::size_t>> kFp16ScaleOffsets = {
    {NINFER_FORMAT_gguf_q4_1, {0, 2}}, {NINFER_FORMAT_gguf_q5_1, {0, 2}},  // d and m
    {NINFER_FORMAT_gguf_q4_k, {0, 2}}, {NINFER_FORMAT_gguf_q5_k, {0, 2}},  // d and dmin
    {NINFER_FORMAT_gguf_q2_k, {80, 82}}, {NINFER_FORMAT_gguf_q3_k, {108}}, {NINFER_FORMAT_gguf_q6_k, {208}},
    {NINFER_FORMAT_gguf_tq1_0, {52}}, {NINFER_FORMAT_gguf_tq2_0, {64}},
    // binary32 d, iq1_m's scattered d, E8M0, UE4M3
    {NINFER_FORMAT_gguf_q8_k, {}}, {NINFER_FORMAT_gguf_iq1_m, {}}, {NINFER_FORMAT_gguf_mxfp4, {}}, {NINFER_FORMAT_gguf_nvfp4, {}}};

/// The K-quants, whose oracle quantizers are slow.
const std::set<std::uint32_t> kKQuants = {NINFER_FORMAT_gguf_q2_k, NINFER_FORMAT_gguf_q3_k, NINFER_FORMAT_gguf_q4_k,
                                          NINFER_FORMAT_gguf_q5_k, NINFER_FORMAT_gguf_q6_k};

std::vector<std::size_t> fp16_scale_offsets(const GgufType &t) {
    const auto it = kFp16ScaleOffsets.find(t.id);
    return it != kFp16ScaleOffsets.end() ? it->second : std::vector<std::size_t>{0};
}

std::vector<std::uint8_t> random_blocks(const GgufType &t, std::size_t blocks, std::mt19937_64 &rng) {
    std::vector<std::uint8_t> b(blocks * t.block_bytes);
    for (auto &v : b) v = static_cast<std::uint8_t>(rng());
    return b;
}

/// Blocks whose scale words are forced to NaN, +-Inf, subnormals, zeros, the largest finite
/// and small normal values (one special per block, cycling).
void force_scales(const GgufType &t, std::vector<std::uint8_t> &b, std::mt19937_64 &rng) {
    static constexpr std::uint16_t kSpecials[] = {0x7E00, 0xFC00, 0x7C00, 0x0001, 0x03FF, 0x0000, 0x8000, 0x7BFF, 0x3C00, 0x1400, 0x7C01};
    const auto offsets = fp16_scale_offsets(t);
    const std::size_t blocks = b.size() / t.block_bytes;
    for (std::size_t i = 0; i < blocks; ++i) {
        std::uint8_t *blk = b.data() + i * t.block_bytes;
        if (t.id == NINFER_FORMAT_gguf_q8_k) {  // binary32 d
            static constexpr std::uint32_t k32[] = {0x7FC00000u, 0xFF800000u, 0x7F800000u, 0x00000001u, 0x7F7FFFFFu, 0x00000000u, 0x3F800000u};
            ninfer::abi::store_le32(blk, k32[i % 7]);
            continue;
        }
        for (const auto at : offsets) {
            const std::uint16_t h = kSpecials[(i + rng() % 3) % std::size(kSpecials)];
            blk[at] = static_cast<std::uint8_t>(h);
            blk[at + 1] = static_cast<std::uint8_t>(h >> 8);
        }
    }
}

std::uint32_t word_at(const std::vector<std::uint8_t> &b, std::size_t i) {
    return ninfer::abi::load_le32(b.data() + 4 * i);
}

/// Decode `blocks` with the reference's row decoder (one call over the whole row) and compare every
/// element with the oracle's ggml word, bit for bit. Returns the number of mismatches.
std::size_t compare_decode(const GgufType &t, const std::vector<std::uint8_t> &blocks) {
    const std::size_t n = blocks.size() / t.block_bytes;
    std::vector<std::uint8_t> out(n * t.block_values * 4);
    gn::row_decoder(t.ggml_type)(blocks.data(), n, out.data());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto expect = orc::gguf_dequantize_block(t, std::span(blocks).subspan(i * t.block_bytes, t.block_bytes)).ggml;
        for (std::size_t j = 0; j < t.block_values; ++j) {
            const std::uint32_t got = word_at(out, i * t.block_values + j);
            if (got != expect[j] && bad++ < 3)
                UNSCOPED_INFO(t.name << " block " << i << " element " << j << ": decoded 0x" << std::hex << got << ", oracle 0x" << expect[j]
                                     << std::dec);
        }
    }
    return bad;
}

/// Values drawn from one of several regimes: normal, tiny, huge, half-integers, raw finite
/// bit patterns, a block of zeros, one outlier.
std::vector<float> random_values(std::size_t count, std::mt19937_64 &rng, int regime) {
    std::vector<float> x(count);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_int_distribution<int> half(-40, 40);
    std::uniform_int_distribution<std::uint32_t> bits(0, 0x7F7FFFFFu);
    for (auto &v : x) {
        switch (regime) {
        case 0: v = normal(rng) * 0.05f; break;
        case 1: v = normal(rng) * 1e-6f; break;
        case 2: v = std::ldexp(static_cast<float>(half(rng)), -1); break;
        case 3: v = std::bit_cast<float>(bits(rng) >> (rng() % 9)); v = (rng() & 1) ? -v : v; break;
        case 4: v = 0.0f; break;
        case 5: v = normal(rng) * 3000.0f; break;
        case 7: v = normal(rng) * 1e-40f; break;   // 1/d overflows: codes of infinite products
        case 8: v = normal(rng) * 1e-38f; break;   // a normal maximum, 1/d still overflows
        case 9: v = (rng() & 1) ? FLT_MAX : -FLT_MAX; break;  // max - min overflows (q4_1, q5_1)
        case 10: v = std::min(FLT_MAX, std::fabs(normal(rng)) * 1e38f + 1e38f); break;  // huge, all positive
        default: v = static_cast<float>(half(rng)); break;
        }
    }
    if (regime == 6 && count > 3) x[rng() % count] = -1000.0f;
    if ((regime == 7 || regime == 8) && count > 3) x[rng() % count] = 0.0f;  // 0 * inf: a NaN product
    return x;
}

std::vector<std::uint32_t> words_of(std::span<const float> x) {
    std::vector<std::uint32_t> w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) w[i] = std::bit_cast<std::uint32_t>(x[i]);
    return w;
}

std::vector<std::uint8_t> bytes_of(const std::vector<float> &x) {
    std::vector<std::uint8_t> b(x.size() * 4);
    std::memcpy(b.data(), x.data(), b.size());
    return b;
}

std::vector<std::uint8_t> u64_bytes(std::initializer_list<std::uint64_t> v) {
    std::vector<std::uint8_t> b;
    for (auto x : v)
        for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
    return b;
}

const ninfer_plugin_v2 &table() { return ninfer::reference::reference_table_v2(); }

ninfer_call_v2 gguf_head(std::uint32_t op, const GgufType &t, std::initializer_list<std::uint64_t> shape, std::uint32_t method = 0,
                         std::uint32_t layout = NINFER_LAYOUT_ggml_blocks_v1) {
    auto c = v2_head(op, t.id, op == NINFER_OP_quant_encode ? NINFER_FORMAT_fp32 : 0, layout, method);
    c.rank = static_cast<std::uint32_t>(shape.size());
    std::uint64_t count = 1;
    std::size_t i = 0;
    for (auto d : shape) {
        c.shape[i++] = d;
        count *= d;
    }
    c.count = count;
    return c;
}

}  // namespace

TEST_CASE("binary16 conversions of the GGUF codecs equal the oracle's", "[gguf][codec]") {
    const auto &widen = orc::conversion(NINFER_CONVERSION_fp16_to_fp32);
    for (std::uint32_t h = 0; h < 0x10000; ++h)
        REQUIRE(std::bit_cast<std::uint32_t>(gn::fp16_to_f32(static_cast<std::uint16_t>(h))) == orc::convert_word(widen, h));
    const auto &narrow = orc::conversion(NINFER_CONVERSION_fp32_to_fp16_rne);
    std::mt19937_64 rng(kSeed);
    for (int i = 0; i < 200000; ++i) {
        // Finite words across the whole range, and the midpoints of binary16 with their neighbours.
        std::uint32_t w = static_cast<std::uint32_t>(rng());
        if (i % 2) w = (static_cast<std::uint32_t>(rng() % 0x3F) + 0x30) << 23 | 0x1000u | (static_cast<std::uint32_t>(rng()) & 0x7FE000u);
        if (i % 4 == 1) w += static_cast<std::uint32_t>(rng() % 3) - 1u;
        if ((w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu)) continue;  // NaN: any signed NaN
        INFO("binary32 0x" << std::hex << w);
        REQUIRE(gn::f32_to_fp16(std::bit_cast<float>(w)) == orc::convert_word(narrow, w));
    }
}

TEST_CASE("the GGUF codecs' nearest_int is ggml's magic-number rounding", "[gguf][codec]") {
    CHECK(gn::nearest_int(0.5f) == 0);
    CHECK(gn::nearest_int(1.5f) == 2);
    CHECK(gn::nearest_int(2.5f) == 2);
    CHECK(gn::nearest_int(-2.5f) == -2);
    CHECK(gn::nearest_int(-127.4f) == -127);
    CHECK(gn::nearest_int(4194303.0f) == 4194303);
}

TEST_CASE("every GGUF type decodes as the oracle's ggml words, bit for bit", "[gguf][codec]") {
    std::mt19937_64 rng(kSeed);
    for (const auto &t : ninfer::abi::kGgufTypes) {
        INFO("type " << t.name << " seed " << kSeed);
        REQUIRE(gn::row_decoder(t.ggml_type) != nullptr);
        // Raw random blocks, one row of 1000 blocks (NaN and infinite scales at their natural rate).
        auto blocks = random_blocks(t, 1000, rng);
        CHECK(compare_decode(t, blocks) == 0);
        // Blocks with forced special scales.
        auto specials = random_blocks(t, 200, rng);
        force_scales(t, specials, rng);
        CHECK(compare_decode(t, specials) == 0);
    }
}

TEST_CASE("an unknown ggml type has no row decoder", "[gguf][codec]") {
    CHECK(gn::row_decoder(0) == nullptr);
    CHECK(gn::row_decoder(4) == nullptr);  // ggml's removed q4_2
    CHECK(gn::row_decoder(43) == nullptr);
}

TEST_CASE("each reference quantizer equals the oracle's, byte for byte", "[gguf][codec][quantize]") {
    std::mt19937_64 rng(kSeed);
    std::size_t declared = 0;
    for (const auto &t : ninfer::abi::kGgufTypes) {
        if (!gn::has_reference_quantizer(t.ggml_type)) continue;
        ++declared;
        CHECK(t.ref_quantizer);
        // The oracle's K-quant quantizers take about 0.1 s a block: 55 blocks each (5 a regime).
        const int blocks = kKQuants.contains(t.id) ? 55 : 1100;
        for (int b = 0; b < blocks; ++b) {
            const int regime = b % 11;
            const auto x = random_values(t.block_values, rng, regime);
            std::vector<std::uint8_t> got(t.block_bytes, 0xCD);
            const auto o = gn::quantize_row_ref(t.ggml_type, x, got.data());
            const auto expect = orc::gguf_quantize_block_ref(t, words_of(x));
            INFO(t.name << " block " << b << " regime " << regime << " seed " << kSeed);
            REQUIRE(o.status == expect.status);
            if (o.status == NINFER_OK) REQUIRE(got == expect.block);  // a refusal (iq4_nl below 1e-15) writes nothing valid
        }
        // A non-finite source is refused.
        auto x = random_values(t.block_values, rng, 0);
        x[3] = std::numeric_limits<float>::infinity();
        std::vector<std::uint8_t> got(t.block_bytes);
        CHECK(gn::quantize_row_ref(t.ggml_type, x, got.data()).status == NINFER_E_NONFINITE);
    }
    CHECK(declared == 20);  // q8_0, q4_0, q4_1, q5_0, q5_1, q8_1, q8_K, q2_K .. q6_K, iq4_nl, iq4_xs, q1_0, q2_0, tq1_0, tq2_0, mxfp4, nvfp4
}

TEST_CASE("the reference's MXFP4 recipe equals the oracle's mxfp4_encode_block", "[gguf][codec][quantize]") {
    std::mt19937_64 rng(kSeed);
    for (int b = 0; b < 2000; ++b) {
        const int regime = b % 7;
        auto x = random_values(32, rng, regime);
        if (b % 50 == 7) x.assign(32, 1e-39f);  // a subnormal amax: scale exponent below E8M0
        std::vector<std::uint8_t> got(17, 0xCD);
        const auto o = gn::mxfp4_encode_row(x, got.data());
        const auto expect = orc::mxfp4_encode_block(words_of(x));
        INFO("block " << b << " regime " << regime << " seed " << kSeed);
        REQUIRE(o.status == expect.status);
        if (o.status != NINFER_OK) continue;
        std::vector<std::uint8_t> want(17, 0);
        want[0] = expect.scale;
        for (int j = 0; j < 16; ++j) want[1 + j] = static_cast<std::uint8_t>(expect.codes[j] | expect.codes[j + 16] << 4);
        REQUIRE(got == want);
    }
}

TEST_CASE("gguf ops: quant_decode and payload_validate through the v2 table", "[gguf][ops]") {
    std::mt19937_64 rng(kSeed);
    for (const auto &t : ninfer::abi::kGgufTypes) {
        INFO("type " << t.name);
        const auto payload = random_blocks(t, 6, rng);  // shape [3, 2*block_values]: rank 2, two blocks a row
        auto head = gguf_head(NINFER_OP_quant_decode, t, {3, 2ull * t.block_values});
        const auto o = call_v2(table(), head, {{NINFER_PLANE_PAYLOAD, payload}}, {{NINFER_PLANE_VALUES, 6ull * t.block_values * 4}});
        REQUIRE(o.status == NINFER_OK);
        CHECK(compare_decode(t, payload) == 0);
        std::vector<std::uint8_t> decoded(6ull * t.block_values * 4);
        gn::row_decoder(t.ggml_type)(payload.data(), 6, decoded.data());
        CHECK(o.out(NINFER_PLANE_VALUES) == decoded);
        // Rank 3 [1, 3, 2*bv]: the same blocks.
        auto head3 = gguf_head(NINFER_OP_quant_decode, t, {1, 3, 2ull * t.block_values});
        CHECK(call_v2(table(), head3, {{NINFER_PLANE_PAYLOAD, payload}}, {{NINFER_PLANE_VALUES, decoded.size()}}).out(NINFER_PLANE_VALUES) ==
              decoded);
        // payload_validate: the size is all there is (NaN scales pass).
        auto pv = gguf_head(NINFER_OP_payload_validate, t, {3, 2ull * t.block_values});
        CHECK(call_v2(table(), pv, {{NINFER_PLANE_PAYLOAD, payload}}, {}).status == NINFER_OK);
        auto shortp = payload;
        shortp.pop_back();
        const auto s = call_v2(table(), pv, {{NINFER_PLANE_PAYLOAD, shortp}}, {});
        CHECK(s.status == NINFER_E_SIZE);
        CHECK(s.result.detail == NINFER_DETAIL_SIZE);
        const auto sd = call_v2(table(), head, {{NINFER_PLANE_PAYLOAD, shortp}}, {{NINFER_PLANE_VALUES, decoded.size()}});
        CHECK(sd.status == NINFER_E_SIZE);
        CHECK(sd.written(NINFER_PLANE_VALUES) == 0);
        // A short output: E_BUFFER, nothing written.
        CHECK(call_v2(table(), head, {{NINFER_PLANE_PAYLOAD, payload}}, {{NINFER_PLANE_VALUES, decoded.size() - 1}}).status == NINFER_E_BUFFER);
    }
}

TEST_CASE("gguf ops: refusals in the contract's order", "[gguf][ops]") {
    const auto &q4 = type_named("gguf_q4_0");
    const auto &q41 = type_named("gguf_q4_1");
    const std::vector<std::uint8_t> two(36, 0);
    auto status = [](ninfer_call_v2 c, std::vector<InPlane> in, std::vector<OutPlane> out) { return call_v2(table(), c, in, out).status; };
    SECTION("pairs: a GGUF type in another layout, another format in ggml_blocks_v1") {
        CHECK(status(gguf_head(NINFER_OP_quant_decode, q4, {1, 64}, 0, NINFER_LAYOUT_contiguous_le_v1), {}, {}) == NINFER_E_LAYOUT);
        CHECK(status(gguf_head(NINFER_OP_quant_decode, q4, {1, 64}, 0, 0), {}, {}) == NINFER_E_LAYOUT);
        CHECK(status(gguf_head(NINFER_OP_rows_select, q4, {1, 64}, 0, NINFER_LAYOUT_row_split_k128_v1), {}, {}) == NINFER_E_LAYOUT);
        auto c = v2_head(NINFER_OP_quant_decode, NINFER_FORMAT_fp32, 0, NINFER_LAYOUT_ggml_blocks_v1);
        c.rank = 2;
        c.shape[0] = 1;
        c.shape[1] = 64;
        CHECK(status(c, {}, {}) == NINFER_E_LAYOUT);
        c.format = NINFER_FORMAT_q4_g64_fp16;
        CHECK(status(c, {}, {}) == NINFER_E_LAYOUT);  // the grouped half refuses its format elsewhere
    }
    SECTION("layout_encode / layout_decode: E_LAYOUT outside the .ninfer registry, else unsupported") {
        CHECK(status(gguf_head(NINFER_OP_layout_encode, q41, {1, 128}), {{NINFER_PLANE_CODES, std::vector<std::uint8_t>(256)}}, {}) ==
              NINFER_E_LAYOUT);
        CHECK(status(gguf_head(NINFER_OP_layout_decode, q41, {1, 128}), {{NINFER_PLANE_PAYLOAD, std::vector<std::uint8_t>(256)}}, {}) ==
              NINFER_E_LAYOUT);
        CHECK(status(gguf_head(NINFER_OP_layout_encode, q4, {1, 128}, 0, NINFER_LAYOUT_contiguous_le_v1),
                     {{NINFER_PLANE_WORDS, std::vector<std::uint8_t>(256)}}, {}) == NINFER_E_LAYOUT);
        CHECK(status(gguf_head(NINFER_OP_layout_encode, q4, {1, 128}), {}, {}) == NINFER_E_UNSUPPORTED);
        CHECK(status(gguf_head(NINFER_OP_layout_decode, q4, {1, 128}), {}, {}) == NINFER_E_UNSUPPORTED);
        auto c = v2_head(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, 0, NINFER_LAYOUT_ggml_blocks_v1);
        c.rank = 2;
        c.shape[0] = 1;
        c.shape[1] = 128;
        CHECK(status(c, {{NINFER_PLANE_WORDS, std::vector<std::uint8_t>(256)}}, {}) == NINFER_E_LAYOUT);
    }
    SECTION("ops the family does not define") {
        CHECK(status(gguf_head(NINFER_OP_decode, q4, {32}), {{NINFER_PLANE_WORDS, two}}, {{NINFER_PLANE_VALUES, 256}}) == NINFER_E_UNSUPPORTED);
        CHECK(status(gguf_head(NINFER_OP_classify, q4, {32}), {{NINFER_PLANE_WORDS, two}}, {{NINFER_PLANE_CLASSES, 256}}) ==
              NINFER_E_UNSUPPORTED);
    }
    SECTION("shapes: rank, zero dimension, K not a multiple of the block, overflow") {
        for (auto shape : {std::initializer_list<std::uint64_t>{48}, {2, 16}, {0, 32}, {32, 0}, {1ull << 62, 1ull << 10}}) {
            const auto o = call_v2(table(), gguf_head(NINFER_OP_quant_decode, q4, shape), {{NINFER_PLANE_PAYLOAD, two}},
                                   {{NINFER_PLANE_VALUES, 1024}});
            CHECK(o.status == NINFER_E_SIZE);
            CHECK(o.result.detail == NINFER_DETAIL_SIZE);
        }
        auto c = gguf_head(NINFER_OP_payload_validate, q4, {32});
        c.rank = 0;
        CHECK(status(c, {{NINFER_PLANE_PAYLOAD, two}}, {}) == NINFER_E_SIZE);
        c.rank = 17;
        CHECK(status(c, {{NINFER_PLANE_PAYLOAD, two}}, {}) == NINFER_E_SIZE);
        c = gguf_head(NINFER_OP_payload_validate, q4, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 32});
        CHECK(status(c, {{NINFER_PLANE_PAYLOAD, std::vector<std::uint8_t>(18)}}, {}) == NINFER_OK);
    }
    SECTION("planes: missing input or output") {
        CHECK(status(gguf_head(NINFER_OP_quant_decode, q4, {32}), {}, {{NINFER_PLANE_VALUES, 128}}) == NINFER_E_INVALID_ARGUMENT);
        CHECK(status(gguf_head(NINFER_OP_quant_decode, q4, {32}), {{NINFER_PLANE_PAYLOAD, std::vector<std::uint8_t>(18)}}, {}) ==
              NINFER_E_INVALID_ARGUMENT);
        CHECK(status(gguf_head(NINFER_OP_rows_select, q4, {2, 32}), {{NINFER_PLANE_PAYLOAD, two}}, {{NINFER_PLANE_PAYLOAD, 36}}) ==
              NINFER_E_INVALID_ARGUMENT);
    }
}

TEST_CASE("gguf ops: rows_select slices and gathers whole rows", "[gguf][ops]") {
    std::mt19937_64 rng(kSeed);
    const auto &t = type_named("gguf_q6_k");
    const auto payload = random_blocks(t, 10, rng);  // [5, 512]: two blocks a row
    const std::vector<std::uint64_t> shape = {5, 512};
    auto head = gguf_head(NINFER_OP_rows_select, t, {5, 512});
    auto run = [&](std::vector<std::uint8_t> rows, std::uint32_t flags) {
        auto c = head;
        c.flags = flags;
        return call_v2(table(), c, {{NINFER_PLANE_PAYLOAD, payload}, {NINFER_PLANE_ROWS, rows}}, {{NINFER_PLANE_PAYLOAD, payload.size() * 2}});
    };
    const auto slice = run(u64_bytes({1, 3}), 0);
    REQUIRE(slice.status == NINFER_OK);
    const std::vector<std::uint64_t> rows13 = {1, 2, 3};
    CHECK(slice.out(NINFER_PLANE_PAYLOAD) == orc::ggml_blocks_select_rows(t, shape, payload, rows13));
    const auto gather = run(u64_bytes({4, 0, 4, 2, 1, 0}), NINFER_FLAG_GATHER);
    REQUIRE(gather.status == NINFER_OK);
    const std::vector<std::uint64_t> picks = {4, 0, 4, 2, 1, 0};
    CHECK(gather.out(NINFER_PLANE_PAYLOAD) == orc::ggml_blocks_select_rows(t, shape, payload, picks));
    // Refusals: empty, past the rows, malformed row words, a wrong parent.
    CHECK(run(u64_bytes({0, 0}), 0).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run(u64_bytes({3, 3}), 0).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run(u64_bytes({~0ull, 2}), 0).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run(u64_bytes({1}), 0).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run({}, NINFER_FLAG_GATHER).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run(u64_bytes({5}), NINFER_FLAG_GATHER).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(run({1, 2, 3}, NINFER_FLAG_GATHER).status == NINFER_E_INVALID_ARGUMENT);
    auto shortp = payload;
    shortp.pop_back();
    const auto bad = call_v2(table(), head, {{NINFER_PLANE_PAYLOAD, shortp}, {NINFER_PLANE_ROWS, u64_bytes({0, 1})}},
                             {{NINFER_PLANE_PAYLOAD, payload.size()}});
    CHECK(bad.status == NINFER_E_SIZE);
    CHECK(bad.result.detail == NINFER_DETAIL_SIZE);
    auto small = call_v2(table(), head, {{NINFER_PLANE_PAYLOAD, payload}, {NINFER_PLANE_ROWS, u64_bytes({0, 2})}},
                         {{NINFER_PLANE_PAYLOAD, 2 * 2 * t.block_bytes - 1}});
    CHECK(small.status == NINFER_E_BUFFER);
}

TEST_CASE("gguf ops: quant_encode serves ggml's quantizers and refuses by name", "[gguf][ops][quantize]") {
    std::mt19937_64 rng(kSeed);
    for (const auto &t : ninfer::abi::kGgufTypes) {
        if (!gn::has_reference_quantizer(t.ggml_type)) continue;
        INFO("type " << t.name);
        const auto x = random_values(2 * t.block_values, rng, 0);
        const auto o = call_v2(table(), gguf_head(NINFER_OP_quant_encode, t, {2, t.block_values}, NINFER_ENCODER_ggml_quantize_ref),
                               {{NINFER_PLANE_SOURCE, bytes_of(x)}}, {{NINFER_PLANE_PAYLOAD, 2ull * t.block_bytes}});
        REQUIRE(o.status == NINFER_OK);
        auto want = orc::gguf_quantize_block_ref(t, words_of(std::span(x).first(t.block_values))).block;
        const auto second = orc::gguf_quantize_block_ref(t, words_of(std::span(x).subspan(t.block_values))).block;
        want.insert(want.end(), second.begin(), second.end());
        CHECK(o.out(NINFER_PLANE_PAYLOAD) == want);
    }
    const auto &q4 = type_named("gguf_q4_0");
    const auto &mx = type_named("gguf_mxfp4");
    const auto &iq2 = type_named("gguf_iq2_xxs");
    const auto &q2k = type_named("gguf_q2_k");
    const auto x32 = bytes_of(random_values(32, rng, 0));
    auto encode = [&](const GgufType &t, std::uint32_t method, const std::vector<std::uint8_t> &src, std::uint32_t format_in = NINFER_FORMAT_fp32) {
        auto c = gguf_head(NINFER_OP_quant_encode, t, {t.block_values}, method);
        c.format_in = format_in;
        return call_v2(table(), c, {{NINFER_PLANE_SOURCE, src}}, {{NINFER_PLANE_PAYLOAD, t.block_bytes}});
    };
    const auto mxo = encode(mx, NINFER_ENCODER_mxfp4_ocp, x32);
    REQUIRE(mxo.status == NINFER_OK);
    const auto mxe = orc::mxfp4_encode_block(words_of(std::span(reinterpret_cast<const float *>(x32.data()), 32)));
    CHECK(mxo.out(NINFER_PLANE_PAYLOAD)[0] == mxe.scale);
    CHECK(encode(mx, NINFER_ENCODER_mxfp4_ocp, bytes_of(std::vector<float>(32, 1e-39f))).status == NINFER_E_SCALE_OVERFLOW);
    // gguf_mxfp4 has both encoders: ggml's quantize_row_mxfp4_ref too (ggml_quantize_ref).
    const auto mxg = encode(mx, NINFER_ENCODER_ggml_quantize_ref, x32);
    REQUIRE(mxg.status == NINFER_OK);
    CHECK(mxg.out(NINFER_PLANE_PAYLOAD) ==
          orc::gguf_quantize_block_ref(mx, words_of(std::span(reinterpret_cast<const float *>(x32.data()), 32))).block);
    CHECK(encode(q4, NINFER_ENCODER_mxfp4_ocp, x32).status == NINFER_E_METHOD);
    CHECK(encode(q4, NINFER_ENCODER_fp8_row_maxabs, x32).status == NINFER_E_METHOD);
    CHECK(encode(q4, NINFER_ENCODER_grouped_absmax, x32).status == NINFER_E_METHOD);
    CHECK(encode(q4, 99, x32).status == NINFER_E_UNSUPPORTED);
    CHECK(encode(iq2, NINFER_ENCODER_ggml_quantize_ref, bytes_of(std::vector<float>(256, 1.0f))).status == NINFER_E_METHOD);
    CHECK(encode(q2k, NINFER_ENCODER_ggml_quantize_ref, bytes_of(std::vector<float>(256, 1.0f))).status == NINFER_OK);
    CHECK(encode(q4, NINFER_ENCODER_ggml_quantize_ref, x32, NINFER_FORMAT_bf16).status == NINFER_E_CONVERSION);
    CHECK(encode(q4, NINFER_ENCODER_ggml_quantize_ref, std::vector<std::uint8_t>(x32.begin(), x32.end() - 4)).status == NINFER_E_INVALID_ARGUMENT);
    auto nan = random_values(32, rng, 0);
    nan[5] = std::nanf("");
    CHECK(encode(q4, NINFER_ENCODER_ggml_quantize_ref, bytes_of(nan)).status == NINFER_E_NONFINITE);
    auto c = gguf_head(NINFER_OP_quant_encode, q4, {48}, NINFER_ENCODER_ggml_quantize_ref);
    CHECK(call_v2(table(), c, {{NINFER_PLANE_SOURCE, std::vector<std::uint8_t>(192)}}, {{NINFER_PLANE_PAYLOAD, 64}}).status == NINFER_E_SIZE);
}

TEST_CASE("gguf capabilities: what is served, nothing more", "[gguf][ops]") {
    const auto &t = table();
    auto declared = [&](std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout, std::uint32_t method) {
        for (std::uint32_t i = 0; i < t.capability_count; ++i) {
            const auto &c = t.capabilities[i];
            if ((c.op == op) && (c.format == 0 || c.format == format) && (c.format_in == 0 || c.format_in == format_in) &&
                (c.layout == 0 || c.layout == layout) && (c.method == 0 || c.method == method))
                return true;
        }
        return false;
    };
    for (const auto &g : ninfer::abi::kGgufTypes) {
        INFO(g.name);
        CHECK(declared(NINFER_OP_quant_decode, g.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0));
        CHECK(declared(NINFER_OP_payload_validate, g.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0));
        CHECK(declared(NINFER_OP_rows_select, g.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0));
        // quant_encode is declared for every type: served where the registry's ref_quantizer column
        // is 1 (the reference has every such quantizer), refused by name elsewhere.
        CHECK(declared(NINFER_OP_quant_encode, g.id, NINFER_FORMAT_fp32, NINFER_LAYOUT_ggml_blocks_v1, NINFER_ENCODER_ggml_quantize_ref));
        CHECK(gn::has_reference_quantizer(g.ggml_type) == g.ref_quantizer);
        CHECK_FALSE(declared(NINFER_OP_decode, g.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0));
        CHECK_FALSE(declared(NINFER_OP_classify, g.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0));
    }
}

TEST_CASE("gguf ops: the v1 face (what the v1 mutants wrap) decodes a GGUF payload into its one output", "[gguf][ops]") {
    std::mt19937_64 rng(kSeed);
    const auto &t = type_named("gguf_iq3_s");
    const auto payload = random_blocks(t, 2, rng);
    std::vector<std::uint8_t> values(2 * t.block_values * 4, 0xCD), decoded(values.size());
    gn::row_decoder(t.ggml_type)(payload.data(), 2, decoded.data());
    ninfer_call_v1 c{};
    c.struct_size = sizeof c;
    c.op = NINFER_OP_quant_decode;
    c.format = t.id;
    c.layout = NINFER_LAYOUT_ggml_blocks_v1;
    c.rank = 1;
    c.shape[0] = 2 * t.block_values;
    c.count = c.shape[0];
    c.in = payload.data();
    c.in_bytes = payload.size();
    c.out = values.data();
    c.out_bytes = values.size();
    ninfer_result_v1 r{};
    const auto &v1 = ninfer::reference::reference_table_v1();
    REQUIRE(v1.ops[NINFER_OP_quant_decode - 1](v1.self, &c, &r) == NINFER_OK);
    CHECK(r.out_written == values.size());
    CHECK(values == decoded);
}
