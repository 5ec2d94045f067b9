// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scaled half through its ABI v2 table (harness/README.md "Operations
// and their planes", the family contract of the scaled formats): every refusal the contract
// names, offered on a hand-built call; the planes each op fills; and every op cross-checked
// against the exact oracle (oracle/SCALED.md) on seeded random tensors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <span>
#include <tuple>
#include <vector>

#include "ninfer/oracle/scaled.hpp"
#include "reference_plugin.hpp"
#include "scaled_ops.hpp"
#include "v2_call.hpp"

namespace {

namespace no = ninfer::oracle;
using ninfer::testing::call_v2;
using ninfer::testing::InPlane;
using ninfer::testing::OutPlane;
using ninfer::testing::V2Outcome;
using ninfer::testing::v2_head;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kNvfp4 = NINFER_FORMAT_nvfp4, kRowBf16 = NINFER_FORMAT_fp8_e4m3fn_row_bf16,
                        kRowFp16 = NINFER_FORMAT_fp8_e4m3fn_row_fp16;
constexpr std::uint32_t kBlock = NINFER_LAYOUT_block_scale_k16_m128x4_v1, kRowScale = NINFER_LAYOUT_row_scale_v1,
                        kInterleaved = NINFER_LAYOUT_row_interleaved_v1;
constexpr std::uint64_t kSeed = 20261130;  // include this in bug reports

std::uint32_t layout_of(std::uint32_t format) {
    return format == kNvfp4 ? kBlock : format == kRowBf16 ? kRowScale : kInterleaved;
}

ninfer_call_v2 head(std::uint32_t op, std::uint32_t format, std::uint32_t layout, std::vector<std::uint64_t> shape,
                    std::uint32_t method = 0, std::uint32_t format_in = 0) {
    ninfer_call_v2 c = v2_head(op, format, format_in, layout, method);
    c.rank = static_cast<std::uint32_t>(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) c.shape[i] = shape[i];
    c.count = shape.size() == 2 ? shape[0] * shape[1] : 0;
    return c;
}

V2Outcome call(const ninfer_call_v2 &c, const std::vector<InPlane> &in, const std::vector<OutPlane> &out) {
    return call_v2(ninfer::reference::reference_table_v2(), c, in, out);
}

template <class Word>
Bytes le(const std::vector<Word> &words) {
    Bytes b;
    for (const auto w : words)
        for (std::size_t i = 0; i < sizeof(Word); ++i) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(w) >> (8 * i)));
    return b;
}

std::vector<std::uint32_t> words32(const Bytes &b) {
    std::vector<std::uint32_t> w(b.size() / 4);
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = static_cast<std::uint32_t>(b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16) | static_cast<std::uint32_t>(b[4 * i + 3]) << 24;
    return w;
}

no::Nvfp4Matrix random_nvfp4(std::uint64_t n, std::uint64_t k, std::uint64_t d, std::mt19937_64 &rng) {
    no::Nvfp4Matrix m{n, k, {}, {}, {}};
    for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::uint8_t>(rng() & 0xF));
    for (std::uint64_t i = 0; i < n * k / 16; ++i) m.scales.push_back(static_cast<std::uint8_t>(rng() % 0x7F));  // +0 included
    for (std::uint64_t i = 0; i < d; ++i) m.divisors.push_back(static_cast<std::uint32_t>(rng() % 0x7F000000u) + 0x00800000u - (i % 2) * 0x7F0000u);
    return m;
}

no::Fp8RowMatrix random_fp8(const no::Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, std::mt19937_64 &rng) {
    no::Fp8RowMatrix m{n, k, {}, {}};
    for (std::uint64_t i = 0; i < n * k; ++i) {
        auto c = static_cast<std::uint8_t>(rng());
        if ((c & 0x7F) == 0x7F) c = 0x7E;
        m.codes.push_back(c);
    }
    const std::uint16_t inf = f.scale_format == NINFER_FORMAT_bf16 ? 0x7F80 : 0x7C00;
    for (std::uint64_t r = 0; r < n; ++r) m.scales.push_back(static_cast<std::uint16_t>(rng() % inf));
    m.scales[0] = static_cast<std::uint16_t>(inf - 1);  // products overflow to infinity
    if (n > 1) {
        m.scales[1] = 0;  // a +0 row holds signed zeros only
        for (std::uint64_t c = 0; c < k; ++c) m.codes[k + c] &= 0x80;
    }
    return m;
}

/// Random binary32 sources spread over many binades, with zeros, ties and repeated magnitudes.
std::vector<std::uint32_t> random_source(std::uint64_t count, std::mt19937_64 &rng) {
    std::vector<std::uint32_t> x(count);
    for (auto &w : x) {
        switch (rng() % 6) {
        case 0: w = 0; break;
        case 1: w = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<int>(rng() % 49) - 24) * 0.25f); break;
        case 2: w = static_cast<std::uint32_t>(rng()) & 0x80FFFFFFu; w |= (0x70u + static_cast<std::uint32_t>(rng() % 0x10)) << 23; break;
        default: w = std::bit_cast<std::uint32_t>(std::normal_distribution<float>(0.0f, 0.05f)(rng)); break;
        }
    }
    return x;
}

/// The planes of an nvfp4 payload call, sized exactly.
std::vector<OutPlane> nvfp4_outputs(std::uint64_t n, std::uint64_t k, std::uint64_t d, bool values) {
    std::vector<OutPlane> o = {{NINFER_PLANE_CODES, n * k}, {NINFER_PLANE_SCALES, n * k / 16}, {NINFER_PLANE_DIVISORS, 4 * d}};
    if (values) o.push_back({NINFER_PLANE_VALUES, 4 * n * k});
    return o;
}

std::vector<OutPlane> fp8_outputs(std::uint64_t n, std::uint64_t k, bool values) {
    std::vector<OutPlane> o = {{NINFER_PLANE_CODES, n * k}, {NINFER_PLANE_SCALES, 2 * n}};
    if (values) o.push_back({NINFER_PLANE_VALUES, 4 * n * k});
    return o;
}

Bytes nvfp4_payload(std::uint64_t n, std::uint64_t k, std::uint64_t d, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    return no::block_scale_encode(random_nvfp4(n, k, d, rng));
}

Bytes fp8_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto f = *no::fp8_row_format(format);
    return no::fp8_row_encode(f, random_fp8(f, n, k, rng));
}

Bytes slice(std::uint64_t first, std::uint64_t count) { return le(std::vector<std::uint64_t>{first, count}); }

}  // namespace

// ---- Routing and capabilities --------------------------------------------------------------

TEST_CASE("scaled half: routing and declared capabilities", "[scaled][plugin]") {
    auto c = head(NINFER_OP_layout_decode, NINFER_FORMAT_fp32, kBlock, {1, 128});
    CHECK(ninfer::reference::is_scaled_call(&c));  // another format with a scaled layout
    c = head(NINFER_OP_layout_decode, kNvfp4, NINFER_LAYOUT_contiguous_le_v1, {1, 128});
    CHECK(ninfer::reference::is_scaled_call(&c));  // a scaled format with another layout
    c = head(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, NINFER_LAYOUT_contiguous_le_v1, {1, 128});
    CHECK_FALSE(ninfer::reference::is_scaled_call(&c));
    const auto caps = ninfer::reference::scaled_capabilities();
    auto declared = [&](std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout, std::uint32_t method) {
        for (const auto &d : caps)
            if (d.op == op && (d.format == 0 || d.format == format) && (d.format_in == 0 || d.format_in == format_in) &&
                (d.layout == 0 || d.layout == layout) && (d.method == 0 || d.method == method))
                return true;
        return false;
    };
    for (const auto f : {kNvfp4, kRowBf16, kRowFp16})
        for (const auto op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode, NINFER_OP_payload_validate,
                              NINFER_OP_rows_select})
            CHECK(declared(op, f, 0, layout_of(f), 0));
    CHECK(declared(NINFER_OP_quant_encode, kNvfp4, NINFER_FORMAT_fp32, kBlock, NINFER_ENCODER_nvfp4_two_level));
    CHECK_FALSE(declared(NINFER_OP_quant_encode, kNvfp4, NINFER_FORMAT_bf16, kBlock, NINFER_ENCODER_nvfp4_two_level));
    CHECK(declared(NINFER_OP_quant_encode, kNvfp4, NINFER_FORMAT_fp32, kBlock, NINFER_ENCODER_fp8_row_maxabs));  // E_METHOD
    for (const auto src : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
        CHECK(declared(NINFER_OP_quant_encode, kRowFp16, src, kInterleaved, NINFER_ENCODER_fp8_row_maxabs));
    CHECK(declared(NINFER_OP_rows_select, NINFER_FORMAT_q4_g64_fp16, 0, kRowScale, 0));  // refused by name
    CHECK_FALSE(declared(NINFER_OP_decode, kNvfp4, 0, 0, 0));
    CHECK_FALSE(declared(NINFER_OP_classify, kRowBf16, 0, 0, 0));
}

// ---- Every refusal of the contract, in its check order --------------------------------------

TEST_CASE("scaled half: an op the family does not define is unsupported", "[scaled][plugin][refusals]") {
    for (const auto op : {NINFER_OP_decode, NINFER_OP_classify, NINFER_OP_linear}) {
        const auto o = call(head(op, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_WORDS, Bytes(16)}}, {{NINFER_PLANE_VALUES, 64}});
        CHECK(o.status == NINFER_E_UNSUPPORTED);
    }
}

TEST_CASE("scaled half: unregistered pairs are refused by name before a plane is read", "[scaled][plugin][refusals]") {
    // As the registry suite offers them: shape {1, 128}, 256 zero bytes in the first input plane.
    struct Pair {
        std::uint32_t format, layout;
    };
    for (const auto p : {Pair{kNvfp4, kRowScale}, Pair{kNvfp4, NINFER_LAYOUT_contiguous_le_v1}, Pair{kNvfp4, NINFER_LAYOUT_ggml_blocks_v1},
                         Pair{kRowBf16, kInterleaved}, Pair{kRowFp16, kRowScale}, Pair{kRowBf16, kBlock}, Pair{NINFER_FORMAT_fp32, kBlock},
                         Pair{NINFER_FORMAT_bf16, kRowScale}, Pair{NINFER_FORMAT_e4m3fn, kInterleaved},
                         Pair{NINFER_FORMAT_gguf_q4_0, kBlock}}) {
        CAPTURE(p.format, p.layout);
        for (const auto op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode, NINFER_OP_payload_validate,
                              NINFER_OP_rows_select}) {
            const auto o = call(head(op, p.format, p.layout, {1, 128}), {{op == NINFER_OP_layout_encode ? NINFER_PLANE_CODES : NINFER_PLANE_PAYLOAD, Bytes(256)}},
                                {{NINFER_PLANE_PAYLOAD, 256}});
            CHECK(o.status == NINFER_E_LAYOUT);
            CHECK(o.message().find("not registered") != std::string::npos);
        }
        const auto e = call(head(NINFER_OP_quant_encode, p.format, p.layout, {1, 128}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32),
                            {{NINFER_PLANE_SOURCE, Bytes(512)}}, {{NINFER_PLANE_PAYLOAD, 1024}});
        CHECK(e.status == NINFER_E_LAYOUT);
    }
}

TEST_CASE("scaled half: shapes without a geometry", "[scaled][plugin][refusals]") {
    const Bytes payload = nvfp4_payload(128, 64, 1, 1);
    auto decode = [&](std::uint32_t format, std::vector<std::uint64_t> shape, const Bytes &p) {
        return call(head(NINFER_OP_payload_validate, format, layout_of(format), std::move(shape)), {{NINFER_PLANE_PAYLOAD, p}}, {});
    };
    CHECK(decode(kNvfp4, {128, 64}, payload).status == NINFER_OK);
    CHECK(decode(kNvfp4, {128 * 64}, payload).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(decode(kNvfp4, {1, 128, 64}, payload).status == NINFER_E_INVALID_ARGUMENT);
    for (const auto &shape : {std::vector<std::uint64_t>{64, 64}, {128, 32}, {128, 80}, {0, 64}, {128, 0}, {192, 64}}) {
        CAPTURE(shape[0], shape[1]);
        const auto o = decode(kNvfp4, shape, payload);
        CHECK(o.status == NINFER_E_SIZE);
        CHECK(o.result.detail == NINFER_DETAIL_SIZE);
    }
    for (const auto f : {kRowBf16, kRowFp16}) {
        CHECK(decode(f, {0, 4}, Bytes(8)).status == NINFER_E_SIZE);
        CHECK(decode(f, {4, 0}, Bytes(8)).status == NINFER_E_SIZE);
        CHECK(decode(f, {4}, Bytes(8)).status == NINFER_E_INVALID_ARGUMENT);
    }
}

TEST_CASE("scaled half: nvfp4's divisor count D from the payload or the divisors plane", "[scaled][plugin][refusals]") {
    const Bytes three = nvfp4_payload(384, 64, 3, 2);  // 3 divisors of 384 rows
    auto validate = [&](std::uint64_t n, const Bytes &p) {
        return call(head(NINFER_OP_payload_validate, kNvfp4, kBlock, {n, 64}), {{NINFER_PLANE_PAYLOAD, p}}, {});
    };
    CHECK(validate(384, three).status == NINFER_OK);
    auto p = three;
    p.resize(p.size() - 4);  // 2 divisors of 192 rows each
    CHECK(validate(384, p).status == NINFER_OK);
    p.resize(p.size() - 2);  // not a whole word
    CHECK(validate(384, p).status == NINFER_E_SIZE);
    CHECK(validate(384, p).result.detail == NINFER_DETAIL_SIZE);
    p.resize(p.size() - 6);  // no divisor at all
    CHECK(validate(384, p).status == NINFER_E_SIZE);
    p = three;
    p.insert(p.end(), 8, 0x3F);  // 5 divisors do not divide 384
    CHECK(validate(384, p).status == NINFER_E_SIZE);
    // layout_encode: D = DIVISORS bytes / 4, a positive integer dividing N.
    std::mt19937_64 rng(3);
    const auto m = random_nvfp4(128, 64, 1, rng);
    for (const auto &divisors : {Bytes{}, Bytes(6, 0x3F), Bytes(12, 0x3F)}) {
        const auto o = call(head(NINFER_OP_layout_encode, kNvfp4, kBlock, {128, 64}),
                            {{NINFER_PLANE_CODES, m.codes}, {NINFER_PLANE_SCALES, m.scales}, {NINFER_PLANE_DIVISORS, divisors}},
                            {{NINFER_PLANE_PAYLOAD, 1 << 14}});
        CHECK(o.status == NINFER_E_SIZE);
    }
}

TEST_CASE("scaled half: layout_encode refuses sizes and words no payload can hold", "[scaled][plugin][refusals]") {
    std::mt19937_64 rng(4);
    const auto m = random_nvfp4(128, 64, 2, rng);
    auto encode = [&](Bytes codes, Bytes scales, std::vector<std::uint32_t> divisors, std::uint32_t format_in = 0) {
        return call(head(NINFER_OP_layout_encode, kNvfp4, kBlock, {128, 64}, 0, format_in),
                    {{NINFER_PLANE_CODES, codes}, {NINFER_PLANE_SCALES, scales}, {NINFER_PLANE_DIVISORS, le(divisors)}},
                    {{NINFER_PLANE_PAYLOAD, 1 << 14}});
    };
    const auto good = encode(m.codes, m.scales, m.divisors);
    REQUIRE(good.status == NINFER_OK);
    CHECK(good.out(NINFER_PLANE_PAYLOAD) == no::block_scale_encode(m));
    CHECK(encode(m.codes, m.scales, m.divisors, kNvfp4).status == NINFER_OK);
    CHECK(encode(m.codes, m.scales, m.divisors, NINFER_FORMAT_e2m1).status == NINFER_E_CONVERSION);
    auto shorter = m.codes;
    shorter.pop_back();
    CHECK(encode(shorter, m.scales, m.divisors).status == NINFER_E_SIZE);
    CHECK(encode(m.codes, Bytes(m.scales.begin(), m.scales.end() - 1), m.divisors).status == NINFER_E_SIZE);
    auto codes = m.codes;
    codes[77] = 0x10;  // not an E2M1 word
    CHECK(encode(codes, m.scales, m.divisors).status == NINFER_E_INVALID_ARGUMENT);
    for (const std::uint8_t bad : {0x80, 0x81, 0xC0, 0x7F, 0xFF}) {
        auto scales = m.scales;
        scales[300] = bad;
        CAPTURE(bad);
        const auto o = encode(m.codes, scales, m.divisors);
        CHECK(o.status == NINFER_E_INVALID_ARGUMENT);
        CHECK(o.written(NINFER_PLANE_PAYLOAD) == 0);
    }
    for (const std::uint32_t bad : {0u, 0x80000000u, 0xBF800000u, 0x7F800000u, 0x7FC00000u}) {
        auto divisors = m.divisors;
        divisors[1] = bad;
        CAPTURE(bad);
        CHECK(encode(m.codes, m.scales, divisors).status == NINFER_E_INVALID_ARGUMENT);
    }
    // The FP8 rows: code 0x7F/0xFF, invalid multipliers, nonzero codes in a +0 row.
    for (const auto format : {kRowBf16, kRowFp16}) {
        CAPTURE(format);
        const auto f = *no::fp8_row_format(format);
        const auto r = random_fp8(f, 4, 24, rng);
        auto fp8 = [&](const Bytes &c, const std::vector<std::uint16_t> &s) {
            return call(head(NINFER_OP_layout_encode, format, f.layout, {4, 24}), {{NINFER_PLANE_CODES, c}, {NINFER_PLANE_SCALES, le(s)}},
                        {{NINFER_PLANE_PAYLOAD, 1024}});
        };
        const auto ok = fp8(r.codes, r.scales);
        REQUIRE(ok.status == NINFER_OK);
        CHECK(ok.out(NINFER_PLANE_PAYLOAD) == no::fp8_row_encode(f, r));
        CHECK(fp8(Bytes(r.codes.begin(), r.codes.end() - 1), r.scales).status == NINFER_E_SIZE);
        CHECK(fp8(r.codes, {r.scales[0], r.scales[1], r.scales[2]}).status == NINFER_E_SIZE);
        for (const std::uint8_t bad : {0x7F, 0xFF}) {
            auto c = r.codes;
            c[50] = bad;
            CHECK(fp8(c, r.scales).status == NINFER_E_INVALID_ARGUMENT);
        }
        const bool bf16 = format == kRowBf16;
        for (const std::uint16_t bad : {std::uint16_t{0x8000}, std::uint16_t(bf16 ? 0xBF80 : 0xBC00), std::uint16_t(bf16 ? 0x7F80 : 0x7C00),
                                        std::uint16_t(bf16 ? 0x7FC0 : 0x7E00)}) {
            auto s = r.scales;
            s[2] = bad;
            CAPTURE(bad);
            CHECK(fp8(r.codes, s).status == NINFER_E_INVALID_ARGUMENT);
        }
        auto c = r.codes;
        c[24 + 3] = 0x80;  // -0 in the +0 row: valid
        CHECK(fp8(c, r.scales).status == NINFER_OK);
        c[24 + 4] = 0x01;
        CHECK(fp8(c, r.scales).status == NINFER_E_INVALID_ARGUMENT);
    }
}

TEST_CASE("scaled half: the decode boundary refuses with the detail and decodes nothing", "[scaled][plugin][refusals]") {
    const auto g = *no::block_scale_geometry(128, 64, 1);
    const Bytes good = nvfp4_payload(128, 64, 1, 5);
    struct Corruption {
        std::uint64_t at;
        std::uint8_t byte;
        std::uint32_t detail;
    };
    const Corruption nv[] = {{g.scale_plane_offset + no::block_scale_swizzle(64, 33, 2), 0x80, NINFER_DETAIL_INVALID_SCALE},
                             {g.scale_plane_offset + 7, 0x7F, NINFER_DETAIL_INVALID_SCALE},
                             {g.scale_plane_offset + 9, 0xB8, NINFER_DETAIL_INVALID_SCALE},
                             {g.divisor_offset + 3, 0x80, NINFER_DETAIL_INVALID_DIVISOR},
                             {g.divisor_offset + 3, 0x7F, NINFER_DETAIL_INVALID_DIVISOR}};
    for (const auto op : {NINFER_OP_layout_decode, NINFER_OP_quant_decode, NINFER_OP_payload_validate}) {
        for (const auto &x : nv) {
            auto p = good;
            p[x.at] = x.byte;
            if (x.detail == NINFER_DETAIL_INVALID_DIVISOR && x.byte == 0x7F) p[x.at - 1] = 0x80;  // +inf
            CAPTURE(op, x.at, x.byte);
            const auto o = call(head(op, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_PAYLOAD, p}}, nvfp4_outputs(128, 64, 1, true));
            CHECK(o.status == NINFER_E_INVALID_PAYLOAD);
            CHECK(o.result.detail == x.detail);
            CHECK(o.result.detail == no::block_scale_decode(128, 64, 1, p).detail);
            for (const auto name : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS, NINFER_PLANE_VALUES})
                CHECK(o.written(name) == 0);
        }
        // +0 block scales are valid: their weights are signed zeros.
        auto zero = good;
        zero[g.scale_plane_offset + 5] = 0x00;
        CHECK(call(head(op, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_PAYLOAD, zero}}, nvfp4_outputs(128, 64, 1, true)).status == NINFER_OK);
    }
    for (const auto format : {kRowBf16, kRowFp16}) {
        const auto f = *no::fp8_row_format(format);
        const std::uint64_t n = 4, k = 24;
        const Bytes p0 = fp8_payload(format, n, k, 6);
        const auto geo = *no::fp8_row_geometry(f, n, k);
        const bool inter = f.layout == kInterleaved;
        const std::uint64_t scale1 = inter ? geo.row_stride + k : geo.scale_plane_offset + 2;  // row 1 (+0 multiplier)
        std::vector<std::pair<std::vector<std::pair<std::uint64_t, std::uint8_t>>, std::uint32_t>> cases = {
            {{{5, 0x7F}}, NINFER_DETAIL_ILLEGAL_CODE},
            {{{geo.row_stride * 2 + 1, 0xFF}}, NINFER_DETAIL_ILLEGAL_CODE},
            {{{geo.row_stride + 3, 0x01}}, NINFER_DETAIL_ZERO_SCALE_CODES},
            {{{scale1 + 1, 0x80}}, NINFER_DETAIL_INVALID_SCALE},                         // -0
            {{{scale1, 0x80}, {scale1 + 1, format == kRowBf16 ? 0x7F : 0x7C}}, NINFER_DETAIL_INVALID_SCALE},  // +inf
        };
        if (!inter) cases.push_back({{{n * k + 3, 0x01}}, NINFER_DETAIL_NONZERO_GAP});
        for (const auto op : {NINFER_OP_layout_decode, NINFER_OP_quant_decode, NINFER_OP_payload_validate}) {
            for (const auto &[edits, detail] : cases) {
                auto p = p0;
                for (const auto &[at, byte] : edits) p[at] = byte;
                CAPTURE(format, op, edits[0].first, detail);
                const auto o = call(head(op, format, f.layout, {n, k}), {{NINFER_PLANE_PAYLOAD, p}}, fp8_outputs(n, k, true));
                CHECK(o.status == NINFER_E_INVALID_PAYLOAD);
                CHECK(o.result.detail == detail);
                CHECK(o.result.detail == no::fp8_row_decode(f, n, k, p).detail);
                for (const auto name : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES}) CHECK(o.written(name) == 0);
            }
            auto p = p0;
            p.push_back(0);
            const auto o = call(head(op, format, f.layout, {n, k}), {{NINFER_PLANE_PAYLOAD, p}}, fp8_outputs(n, k, true));
            CHECK(o.status == NINFER_E_SIZE);
            CHECK(o.result.detail == NINFER_DETAIL_SIZE);
        }
    }
}

TEST_CASE("scaled half: missing planes and short outputs", "[scaled][plugin][refusals]") {
    const Bytes p = nvfp4_payload(128, 64, 1, 7);
    auto outs = nvfp4_outputs(128, 64, 1, true);
    outs.erase(outs.begin() + 2);  // no divisors plane
    auto o = call(head(NINFER_OP_quant_decode, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_PAYLOAD, p}}, outs);
    CHECK(o.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(o.message().find("divisors") != std::string::npos);
    o = call(head(NINFER_OP_quant_decode, kNvfp4, kBlock, {128, 64}), {}, nvfp4_outputs(128, 64, 1, true));
    CHECK(o.status == NINFER_E_INVALID_ARGUMENT);
    outs = nvfp4_outputs(128, 64, 1, true);
    outs[3].capacity -= 1;
    CHECK(call(head(NINFER_OP_quant_decode, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_PAYLOAD, p}}, outs).status == NINFER_E_BUFFER);
    CHECK(call(head(NINFER_OP_rows_select, kNvfp4, kBlock, {128, 64}), {{NINFER_PLANE_PAYLOAD, p}, {NINFER_PLANE_ROWS, slice(0, 128)}},
               {{NINFER_PLANE_PAYLOAD, p.size() - 1}})
              .status == NINFER_E_BUFFER);
}

TEST_CASE("scaled half: quant_encode refuses methods, sources and inputs", "[scaled][plugin][refusals]") {
    auto encode = [](std::uint32_t format, std::vector<std::uint64_t> shape, std::uint32_t method, std::uint32_t src, Bytes source) {
        return call(head(NINFER_OP_quant_encode, format, layout_of(format), std::move(shape), method, src), {{NINFER_PLANE_SOURCE, source}},
                    {{NINFER_PLANE_PAYLOAD, 1 << 16}});
    };
    const Bytes ones = le(std::vector<std::uint32_t>(128 * 64, 0x3F800000u));
    CHECK(encode(kNvfp4, {128, 64}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, ones).status == NINFER_OK);
    CHECK(encode(kNvfp4, {128, 64}, 99, NINFER_FORMAT_fp32, ones).status == NINFER_E_UNSUPPORTED);
    for (const auto m : {NINFER_ENCODER_fp8_row_maxabs, NINFER_ENCODER_grouped_absmax, NINFER_ENCODER_mxfp4_ocp, NINFER_ENCODER_ggml_quantize_ref})
        CHECK(encode(kNvfp4, {128, 64}, m, NINFER_FORMAT_fp32, ones).status == NINFER_E_METHOD);
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, Bytes(32)).status == NINFER_E_METHOD);
    CHECK(encode(kRowFp16, {2, 4}, NINFER_ENCODER_grouped_search, NINFER_FORMAT_fp32, Bytes(32)).status == NINFER_E_METHOD);
    CHECK(encode(kNvfp4, {128, 64}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, Bytes(ones.begin(), ones.end() - 4)).status ==
          NINFER_E_INVALID_ARGUMENT);
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_bf16, Bytes(32)).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_bf16, Bytes(16)).status == NINFER_OK);
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_int32, Bytes(32)).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(encode(kRowBf16, {0, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32, Bytes{}).status == NINFER_E_SIZE);
    CHECK(encode(kNvfp4, {100, 64}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, Bytes(100 * 64 * 4)).status == NINFER_E_SIZE);
    // Non-finite inputs; a multiplier beyond binary16; a tensor scale that underflows.
    auto x = std::vector<std::uint32_t>(8, 0x3F800000u);
    x[5] = 0x7FC00000u;
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32, le(x)).status == NINFER_E_NONFINITE);
    x[5] = 0x7F7FFFFFu;  // finite, but infinite in BF16 (oracle/SCALED.md R2)
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32, le(x)).status == NINFER_E_NONFINITE);
    x[5] = std::bit_cast<std::uint32_t>(1.0e8f);  // 1e8 / 448 overflows binary16
    CHECK(encode(kRowFp16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32, le(x)).status == NINFER_E_SCALE_OVERFLOW);
    CHECK(encode(kRowBf16, {2, 4}, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32, le(x)).status == NINFER_OK);
    auto big = std::vector<std::uint32_t>(128 * 64, 0);
    big[3] = 0xFF800000u;
    CHECK(encode(kNvfp4, {128, 64}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, le(big)).status == NINFER_E_NONFINITE);
    big[3] = 0x00000001u;  // 2^-149 / 2688 is binary32 zero
    CHECK(encode(kNvfp4, {128, 64}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32, le(big)).status == NINFER_E_SCALE_OVERFLOW);
}

TEST_CASE("scaled half: rows_select refuses what it cannot select", "[scaled][plugin][refusals]") {
    const Bytes p = nvfp4_payload(256, 64, 2, 8);
    auto select = [](std::uint32_t format, std::uint64_t n, std::uint64_t k, const Bytes &parent, const Bytes &rows, bool gather) {
        auto h = head(NINFER_OP_rows_select, format, layout_of(format), {n, k});
        if (gather) h.flags = NINFER_FLAG_GATHER;
        return call(h, {{NINFER_PLANE_PAYLOAD, parent}, {NINFER_PLANE_ROWS, rows}}, {{NINFER_PLANE_PAYLOAD, parent.size()}});
    };
    CHECK(select(kNvfp4, 256, 64, p, slice(128, 128), false).status == NINFER_OK);
    CHECK(select(kNvfp4, 256, 64, Bytes(p.begin(), p.end() - 1), slice(0, 128), false).status == NINFER_E_SIZE);
    CHECK(select(kNvfp4, 256, 64, Bytes(p.begin(), p.end() - 1), slice(0, 128), false).result.detail == NINFER_DETAIL_SIZE);
    CHECK(select(kNvfp4, 256, 64, p, slice(0, 0), false).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(select(kNvfp4, 256, 64, p, slice(129, 128), false).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(select(kNvfp4, 256, 64, p, slice(0, ~std::uint64_t{0}), false).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(select(kNvfp4, 256, 64, p, Bytes(24), false).status == NINFER_E_INVALID_ARGUMENT);  // three words
    CHECK(select(kNvfp4, 256, 64, p, slice(0, 64), false).status == NINFER_E_INVALID_ARGUMENT);  // 64 rows: no geometry
    CHECK(select(kNvfp4, 256, 64, p, slice(64, 128), false).status == NINFER_OK);  // runs of 64 and 64: two divisors
    CHECK(select(kNvfp4, 256, 64, p, Bytes{}, true).status == NINFER_E_INVALID_ARGUMENT);
    std::vector<std::uint64_t> rows(128);
    for (std::uint64_t i = 0; i < 128; ++i) rows[i] = i;
    rows[5] = 256;
    CHECK(select(kNvfp4, 256, 64, p, le(rows), true).status == NINFER_E_INVALID_ARGUMENT);
    // Runs of unequal length: 100 rows of source 0, then 28 of source 1.
    for (std::uint64_t i = 0; i < 128; ++i) rows[i] = i < 100 ? i : 128 + i;
    CHECK(select(kNvfp4, 256, 64, p, le(rows), true).status == NINFER_E_INVALID_ARGUMENT);
    for (const auto format : {kRowBf16, kRowFp16}) {
        const Bytes q = fp8_payload(format, 5, 24, 9);
        CHECK(select(format, 5, 24, q, slice(4, 1), false).status == NINFER_OK);
        CHECK(select(format, 5, 24, q, slice(4, 2), false).status == NINFER_E_INVALID_ARGUMENT);
        CHECK(select(format, 5, 24, q, slice(2, 0), false).status == NINFER_E_INVALID_ARGUMENT);
        CHECK(select(format, 5, 24, q, Bytes{}, true).status == NINFER_E_INVALID_ARGUMENT);
        CHECK(select(format, 5, 24, q, le(std::vector<std::uint64_t>{1, 5}), true).status == NINFER_E_INVALID_ARGUMENT);
        CHECK(select(format, 5, 24, Bytes(q.begin(), q.end() - 1), slice(0, 1), false).status == NINFER_E_SIZE);
    }
}

// ---- The planes filled, against the oracle --------------------------------------------------

TEST_CASE("scaled half: nvfp4 layout and decode ops fill their planes as the oracle says", "[scaled][plugin][oracle]") {
    std::mt19937_64 rng(kSeed);
    for (const auto &[n, k, d] : {std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>{128, 64, 1}, {256, 128, 2}, {384, 192, 3}, {256, 64, 4}}) {
        CAPTURE(kSeed, n, k, d);
        const auto m = random_nvfp4(n, k, d, rng);
        const Bytes payload = no::block_scale_encode(m);
        const auto enc = call(head(NINFER_OP_layout_encode, kNvfp4, kBlock, {n, k}),
                              {{NINFER_PLANE_CODES, m.codes}, {NINFER_PLANE_SCALES, m.scales}, {NINFER_PLANE_DIVISORS, le(m.divisors)}},
                              {{NINFER_PLANE_PAYLOAD, payload.size()}});
        REQUIRE(enc.status == NINFER_OK);
        CHECK(enc.out(NINFER_PLANE_PAYLOAD) == payload);
        const auto dec = call(head(NINFER_OP_quant_decode, kNvfp4, kBlock, {n, k}), {{NINFER_PLANE_PAYLOAD, payload}},
                              nvfp4_outputs(n, k, d, true));
        REQUIRE(dec.status == NINFER_OK);
        CHECK(dec.out(NINFER_PLANE_CODES) == m.codes);
        CHECK(dec.out(NINFER_PLANE_SCALES) == m.scales);
        CHECK(dec.out(NINFER_PLANE_DIVISORS) == le(m.divisors));
        const auto values = words32(dec.out(NINFER_PLANE_VALUES));
        REQUIRE(values.size() == n * k);
        std::uint64_t wrong = 0;
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t c = 0; c < k; ++c)
                wrong += values[r * k + c] != no::nvfp4_weight_binary32(m.codes[r * k + c], m.scales[r * (k / 16) + c / 16],
                                                                        m.divisors[r / (n / d)]);
        CHECK(wrong == 0);
        const auto lay = call(head(NINFER_OP_layout_decode, kNvfp4, kBlock, {n, k}), {{NINFER_PLANE_PAYLOAD, payload}},
                              nvfp4_outputs(n, k, d, false));
        REQUIRE(lay.status == NINFER_OK);
        CHECK(lay.out(NINFER_PLANE_CODES) == m.codes);
        CHECK(lay.out(NINFER_PLANE_DIVISORS) == le(m.divisors));
    }
}

TEST_CASE("scaled half: FP8 row layout and decode ops fill their planes as the oracle says", "[scaled][plugin][oracle]") {
    std::mt19937_64 rng(kSeed + 1);
    for (const auto format : {kRowBf16, kRowFp16})
        for (const auto &[n, k] : {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {3, 300}, {7, 37}, {16, 256}}) {
            const auto f = *no::fp8_row_format(format);
            CAPTURE(kSeed, format, n, k);
            const auto m = random_fp8(f, n, k, rng);
            const Bytes payload = no::fp8_row_encode(f, m);
            const auto enc = call(head(NINFER_OP_layout_encode, format, f.layout, {n, k}),
                                  {{NINFER_PLANE_CODES, m.codes}, {NINFER_PLANE_SCALES, le(m.scales)}}, {{NINFER_PLANE_PAYLOAD, payload.size()}});
            REQUIRE(enc.status == NINFER_OK);
            CHECK(enc.out(NINFER_PLANE_PAYLOAD) == payload);
            const auto dec = call(head(NINFER_OP_quant_decode, format, f.layout, {n, k}), {{NINFER_PLANE_PAYLOAD, payload}},
                                  fp8_outputs(n, k, true));
            REQUIRE(dec.status == NINFER_OK);
            CHECK(dec.out(NINFER_PLANE_CODES) == m.codes);
            CHECK(dec.out(NINFER_PLANE_SCALES) == le(m.scales));
            const auto values = words32(dec.out(NINFER_PLANE_VALUES));
            REQUIRE(values.size() == n * k);
            std::uint64_t wrong = 0;
            for (std::uint64_t i = 0; i < n * k; ++i) wrong += values[i] != no::fp8_row_weight_binary32(f, m.codes[i], m.scales[i / k]);
            CHECK(wrong == 0);
        }
}

TEST_CASE("scaled half: fp8_row_maxabs quant_encode equals the oracle for every source type", "[scaled][plugin][oracle]") {
    std::mt19937_64 rng(kSeed + 2);
    for (const auto format : {kRowBf16, kRowFp16})
        for (const auto src : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16})
            for (int trial = 0; trial < 6; ++trial) {
                const auto f = *no::fp8_row_format(format);
                const std::uint64_t n = 1 + rng() % 6, k = 1 + rng() % 70;
                CAPTURE(kSeed, format, src, trial, n, k);
                auto x32 = random_source(n * k, rng);
                if (trial == 0)
                    for (std::uint64_t c = 0; c < k; ++c) x32[c] = c % 2 ? 0x80000000u : 0u;  // an all-zero row of both zeros
                std::vector<std::uint64_t> words;
                Bytes source;
                for (const auto w : x32) {
                    // fp16: the sign and the low 15 bits from bit 13 on (every class, NaN and infinity included).
                    const std::uint64_t s = src == NINFER_FORMAT_fp32 ? w : src == NINFER_FORMAT_bf16 ? w >> 16 : (w >> 16 & 0x8000) | (w >> 13 & 0x7FFF);
                    words.push_back(s);
                    for (int b = 0; b < (src == NINFER_FORMAT_fp32 ? 4 : 2); ++b) source.push_back(static_cast<std::uint8_t>(s >> (8 * b)));
                }
                no::Fp8RowMatrix want{n, k, {}, {}};
                std::int32_t status = NINFER_OK;
                for (std::uint64_t r = 0; r < n && status == NINFER_OK; ++r) {
                    const auto e = no::fp8_row_maxabs(f, src, std::span(words).subspan(r * k, k));
                    status = e.status;
                    want.codes.insert(want.codes.end(), e.codes.begin(), e.codes.end());
                    want.scales.push_back(e.scale);
                }
                const auto o = call(head(NINFER_OP_quant_encode, format, f.layout, {n, k}, NINFER_ENCODER_fp8_row_maxabs, src),
                                    {{NINFER_PLANE_SOURCE, source}}, {{NINFER_PLANE_PAYLOAD, 4 * n * k + 1024}});
                REQUIRE(o.status == status);
                if (status == NINFER_OK) CHECK(o.out(NINFER_PLANE_PAYLOAD) == no::fp8_row_encode(f, want));
            }
}

TEST_CASE("scaled half: nvfp4_two_level quant_encode equals the oracle's recipe", "[scaled][plugin][oracle]") {
    std::mt19937_64 rng(kSeed + 3);
    auto check = [](std::uint64_t n, std::uint64_t k, const std::vector<std::uint32_t> &x) {
        const auto want = no::nvfp4_two_level_encode(n, k, x);
        const auto o = call(head(NINFER_OP_quant_encode, kNvfp4, kBlock, {n, k}, NINFER_ENCODER_nvfp4_two_level, NINFER_FORMAT_fp32),
                            {{NINFER_PLANE_SOURCE, le(x)}}, {{NINFER_PLANE_PAYLOAD, n * k}});
        REQUIRE(o.status == want.status);
        if (want.status == NINFER_OK) CHECK(o.out(NINFER_PLANE_PAYLOAD) == no::block_scale_encode(want.m));
    };
    // Ties of every E2M1 midpoint: tensor amax 2688 gives tensorScale = d_w = 1, a block of amax
    // 6 the scale 1.0, so x / blockScale = x lands on 0.25, 0.75, ..., 5 of either sign.
    std::vector<std::uint32_t> ties(128 * 64, 0);
    ties[0] = std::bit_cast<std::uint32_t>(2688.0f);
    const float mids[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, 6.0f};
    for (std::uint64_t i = 0; i < 64; ++i) {
        const float v = mids[i % 8] * (i % 16 < 8 ? 1.0f : -1.0f);
        ties[64 + i] = std::bit_cast<std::uint32_t>(v);
    }
    ties[64 + 20] = 0x80000000u;  // -0
    check(128, 64, ties);
    check(128, 64, std::vector<std::uint32_t>(128 * 64, 0));  // all zero: d_w = 1
    for (int trial = 0; trial < 3; ++trial) {
        CAPTURE(kSeed, trial);
        auto x = random_source(128 * 64, rng);
        if (trial == 2)
            for (auto &w : x) w &= 0x807FFFFFu;  // subnormal magnitudes only: tiny tensor scales
        check(128, 64, x);
    }
}

TEST_CASE("scaled half: rows_select equals the oracle's slices and gathers", "[scaled][plugin][oracle]") {
    std::mt19937_64 rng(kSeed + 4);
    const std::uint64_t n = 512, k = 64, d = 4;  // four sources of 128 rows
    const Bytes p = nvfp4_payload(n, k, d, kSeed + 5);
    auto run = [&](const std::vector<std::uint64_t> &rows, bool gather) {
        auto h = head(NINFER_OP_rows_select, kNvfp4, kBlock, {n, k});
        Bytes plane = gather ? le(rows) : slice(rows.front(), rows.size());
        if (gather) h.flags = NINFER_FLAG_GATHER;
        const auto want = no::block_scale_select_rows(n, k, d, p, rows);
        const auto o = call(h, {{NINFER_PLANE_PAYLOAD, p}, {NINFER_PLANE_ROWS, plane}}, {{NINFER_PLANE_PAYLOAD, p.size()}});
        CHECK(o.status == want.status);
        if (want.status == NINFER_OK) CHECK(o.out(NINFER_PLANE_PAYLOAD) == want.payload);
        return o.status;
    };
    auto range = [](std::uint64_t first, std::uint64_t count) {
        std::vector<std::uint64_t> r(count);
        for (std::uint64_t i = 0; i < count; ++i) r[i] = first + i;
        return r;
    };
    CHECK(run(range(128, 256), false) == NINFER_OK);  // two whole sources
    CHECK(run(range(64, 256), false) == NINFER_E_INVALID_ARGUMENT);  // runs of 64, 128, 64
    CHECK(run(range(0, 512), false) == NINFER_OK);
    // Gathers: a source's rows permuted; two runs of 64 from different sources; sources reordered.
    auto perm = range(256, 128);
    std::shuffle(perm.begin(), perm.end(), rng);
    CHECK(run(perm, true) == NINFER_OK);
    auto two = range(0, 64);
    for (auto r : range(448, 64)) two.push_back(r);
    CHECK(run(two, true) == NINFER_OK);
    auto back = range(384, 128);
    for (auto r : range(0, 128)) back.push_back(r);
    CHECK(run(back, true) == NINFER_OK);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::uint64_t> rows(128 * (1 + rng() % 2));
        for (auto &r : rows) r = rng() % n;
        run(rows, true);  // mostly refused: the oracle and the plugin must agree either way
    }
    for (const auto format : {kRowBf16, kRowFp16}) {
        const auto f = *no::fp8_row_format(format);
        const Bytes q = fp8_payload(format, 9, 33, kSeed + 6);
        for (int trial = 0; trial < 10; ++trial) {
            std::vector<std::uint64_t> rows(1 + rng() % 12);
            for (auto &r : rows) r = rng() % 9;
            auto h = head(NINFER_OP_rows_select, format, f.layout, {9, 33});
            h.flags = NINFER_FLAG_GATHER;
            const auto o = call(h, {{NINFER_PLANE_PAYLOAD, q}, {NINFER_PLANE_ROWS, le(rows)}}, {{NINFER_PLANE_PAYLOAD, 4096}});
            REQUIRE(o.status == NINFER_OK);
            CHECK(o.out(NINFER_PLANE_PAYLOAD) == no::fp8_row_select_rows(f, 9, 33, q, rows));
        }
        auto h = head(NINFER_OP_rows_select, format, f.layout, {9, 33});
        const auto o = call(h, {{NINFER_PLANE_PAYLOAD, q}, {NINFER_PLANE_ROWS, slice(3, 5)}}, {{NINFER_PLANE_PAYLOAD, 4096}});
        REQUIRE(o.status == NINFER_OK);
        CHECK(o.out(NINFER_PLANE_PAYLOAD) == no::fp8_row_select_rows(f, 9, 33, q, std::vector<std::uint64_t>{3, 4, 5, 6, 7}));
    }
}

// ---- The v1 face (what the ABI v1 mutants wrap) ---------------------------------------------

TEST_CASE("scaled half: the v1 face maps a scaled call's buffers onto the family's planes", "[scaled][plugin][v1]") {
    // nvfp4 layout_decode: out, out2, out3 are codes, scales, divisors; FP8 quant_decode: codes, scales, values.
    const auto &t1 = ninfer::reference::reference_table_v1();
    auto run = [&](std::uint32_t op, std::uint32_t format, std::uint64_t n, std::uint64_t k, const Bytes &payload,
                   std::array<std::uint64_t, 3> capacity) {
        ninfer_call_v1 c{};
        c.struct_size = sizeof c;
        c.op = op;
        c.format = format;
        c.layout = layout_of(format);
        c.rank = 2;
        c.shape[0] = n;
        c.shape[1] = k;
        c.count = n * k;
        c.in = payload.data();
        c.in_bytes = payload.size();
        std::array<Bytes, 3> out = {Bytes(capacity[0]), Bytes(capacity[1]), Bytes(capacity[2])};
        c.out = out[0].data();
        c.out_bytes = capacity[0];
        c.out2 = out[1].data();
        c.out2_bytes = capacity[1];
        c.out3 = out[2].data();
        c.out3_bytes = capacity[2];
        ninfer_result_v1 r{};
        const std::int32_t status = t1.ops[op - 1](t1.self, &c, &r);
        out[0].resize(r.out_written);
        out[1].resize(r.out2_written);
        out[2].resize(r.out3_written);
        return std::pair{status, out};
    };
    std::mt19937_64 rng(kSeed + 7);
    const auto m = random_nvfp4(256, 64, 2, rng);
    const auto [s1, nv] = run(NINFER_OP_layout_decode, kNvfp4, 256, 64, no::block_scale_encode(m), {256 * 64, 256 * 4, 8});
    REQUIRE(s1 == NINFER_OK);
    CHECK(nv[0] == m.codes);
    CHECK(nv[1] == m.scales);
    CHECK(nv[2] == le(m.divisors));
    const auto f = *no::fp8_row_format(kRowFp16);
    const auto r = random_fp8(f, 3, 40, rng);
    const auto [s2, fp8] = run(NINFER_OP_quant_decode, kRowFp16, 3, 40, no::fp8_row_encode(f, r), {120, 6, 480});
    REQUIRE(s2 == NINFER_OK);
    CHECK(fp8[0] == r.codes);
    CHECK(fp8[1] == le(r.scales));
    std::vector<std::uint32_t> want;
    for (std::size_t i = 0; i < r.codes.size(); ++i) want.push_back(no::fp8_row_weight_binary32(f, r.codes[i], r.scales[i / 40]));
    CHECK(words32(fp8[2]) == want);
}
