// SPDX-License-Identifier: Apache-2.0
// The reference plugin's table (plugin.h): identity, declared capabilities, the defensive
// checks of every call, and contiguous_le_v1 (storage-layouts.md Section 2: bit-exact words,
// size rule, refusal of an unregistered pair and of an implicit cross-type encoding).
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "reference_plugin.hpp"

namespace {

using ninfer::reference::reference_table;

struct Outcome {
    std::int32_t status;
    ninfer_result result;
    std::vector<std::uint8_t> out;
};

Outcome call(ninfer_call c, const std::vector<std::uint8_t> &in, std::size_t out_capacity) {
    Outcome o{};
    o.out.assign(out_capacity, 0xCD);
    c.struct_size = sizeof(ninfer_call);
    c.in = in.data();
    c.in_bytes = in.size();
    c.out = o.out.data();
    c.out_bytes = out_capacity;
    const auto &t = reference_table();
    o.status = t.ops[c.op - 1](t.self, &c, &o.result);
    return o;
}

ninfer_call layout_call(std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout,
                        std::vector<std::uint64_t> shape) {
    ninfer_call c{};
    c.op = op;
    c.format = format;
    c.format_in = format_in;
    c.layout = layout;
    c.rank = static_cast<std::uint32_t>(shape.size());
    for (std::size_t i = 0; i < shape.size() && i < NINFER_MAX_RANK; ++i) c.shape[i] = shape[i];
    return c;
}

bool declared(std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout,
              std::uint32_t method) {
    const auto &t = reference_table();
    for (std::uint32_t i = 0; i < t.capability_count; ++i) {
        const auto &c = t.capabilities[i];
        const auto match = [](std::uint32_t declared, std::uint32_t wanted) { return declared == 0 || declared == wanted; };
        if (c.op == op && match(c.format, format) && match(c.format_in, format_in) && match(c.layout, layout) &&
            match(c.method, method))
            return true;
    }
    return false;
}

}  // namespace

TEST_CASE("reference plugin identity and capabilities", "[plugin]") {
    const auto &t = reference_table();
    CHECK(t.abi_version == NINFER_ABI_VERSION);
    CHECK(t.struct_size == sizeof(ninfer_plugin));
    CHECK(std::string(t.name) == "reference");
    CHECK(std::string(t.version) == "0.1.0");
    for (const auto &f : ninfer::oracle::kWordFormats) {
        CHECK(declared(NINFER_OP_decode, f.id, 0, 0, 0));
        CHECK(declared(NINFER_OP_classify, f.id, 0, 0, 0));
    }
    for (const auto &r : ninfer::oracle::kRoles) CHECK(declared(NINFER_OP_validate, r.format, 0, 0, r.id));
    for (const auto &c : ninfer::oracle::kConversions) CHECK(declared(NINFER_OP_convert, c.dst, c.src, 0, c.id));
    for (std::uint32_t f : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, NINFER_FORMAT_int32}) {
        CHECK(declared(NINFER_OP_layout_encode, f, f, NINFER_LAYOUT_contiguous_le_v1, 0));
        CHECK(declared(NINFER_OP_layout_decode, f, 0, NINFER_LAYOUT_contiguous_le_v1, 0));
    }
    // Unregistered pairs and cross-type words are declared too: the reference answers them with a refusal.
    CHECK(declared(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_FORMAT_fp16, NINFER_LAYOUT_contiguous_le_v1, 0));
    CHECK(declared(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_LAYOUT_contiguous_le_v1, 0));
    CHECK_FALSE(declared(NINFER_OP_quant_encode, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, 0));
}

TEST_CASE("reference word ops check their buffers", "[plugin]") {
    ninfer_call c{};
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    c.count = 2;
    const std::vector<std::uint8_t> in = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0xC0, 0x7F};
    auto ok = call(c, in, 4);
    REQUIRE(ok.status == NINFER_OK);
    CHECK(ok.result.out_written == 4);
    CHECK(ok.out == std::vector<std::uint8_t>{0x80, 0x3F, 0xC0, 0x7F});
    CHECK(call(c, in, 3).status == NINFER_E_BUFFER);
    c.count = 3;
    CHECK(call(c, in, 6).status == NINFER_E_INVALID_ARGUMENT);
    c.count = 2;
    c.format = NINFER_FORMAT_fp16;
    CHECK(call(c, in, 4).status == NINFER_E_INVALID_ARGUMENT);
    c.format = NINFER_FORMAT_bf16;
    c.method = 999;
    CHECK(call(c, in, 4).status == NINFER_E_UNSUPPORTED);

    ninfer_call d{};
    d.op = NINFER_OP_decode;
    d.format = NINFER_FORMAT_e2m1;
    d.count = 2;
    auto dec = call(d, {0x7, 0x9}, 16);
    REQUIRE(dec.status == NINFER_OK);
    CHECK(dec.result.out_written == 16);
    const std::vector<std::uint8_t> six_and_minus_half = {0, 0, 0, 0, 0, 0, 0x18, 0x40, 0, 0, 0, 0, 0, 0, 0xE0, 0xBF};
    CHECK(dec.out == six_and_minus_half);
    CHECK(call(d, {0x7, 0x9}, 15).status == NINFER_E_BUFFER);

    ninfer_call v{};
    v.op = NINFER_OP_validate;
    v.format = NINFER_FORMAT_fp16;
    v.method = NINFER_ROLE_grouped_fp16_scale;
    v.count = 2;
    auto ver = call(v, {0x00, 0x80, 0x00, 0x3C}, 2);
    REQUIRE(ver.status == NINFER_OK);
    CHECK(ver.out == std::vector<std::uint8_t>{NINFER_VERDICT_NEGATIVE_ZERO, NINFER_VERDICT_VALID});
    v.format = NINFER_FORMAT_bf16;
    CHECK(call(v, {0x00, 0x80, 0x00, 0x3C}, 2).status == NINFER_E_INVALID_ARGUMENT);
}

TEST_CASE("contiguous_le_v1 keeps words bit for bit at every rank", "[plugin][layout]") {
    // NaN payloads, signaling NaN, -0 and subnormals survive (storage-layouts.md 2).
    const std::vector<std::uint8_t> words = {0x01, 0x00, 0x80, 0x7F, 0x00, 0x00, 0x00, 0x80,
                                             0x01, 0x00, 0x00, 0x00, 0x45, 0x23, 0xC1, 0xFF};
    for (std::uint32_t rank = 0; rank <= 16; ++rank) {
        std::vector<std::uint64_t> shape(rank, 1);
        const std::uint64_t n = rank == 0 ? 1 : 4;
        if (rank) shape[rank - 1] = 4;
        const std::vector<std::uint8_t> in(words.begin(), words.begin() + 4 * n);
        auto enc = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_fp32,
                                    NINFER_LAYOUT_contiguous_le_v1, shape),
                        in, 64);
        REQUIRE(enc.status == NINFER_OK);
        REQUIRE(enc.result.out_written == 4 * n);
        CHECK(std::vector<std::uint8_t>(enc.out.begin(), enc.out.begin() + 4 * n) == in);
        auto dec = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_fp32, 0, NINFER_LAYOUT_contiguous_le_v1, shape),
                        in, 64);
        REQUIRE(dec.status == NINFER_OK);
        CHECK(std::vector<std::uint8_t>(dec.out.begin(), dec.out.begin() + 4 * n) == in);
    }
}

TEST_CASE("contiguous_le_v1 refuses what storage-layouts.md 2 and tensor-formats.txt 3.1 refuse", "[plugin][layout]") {
    const std::vector<std::uint8_t> four = {0x80, 0x3F, 0x00, 0x00};
    // Unregistered pair, refused by name.
    auto fp16 = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_FORMAT_fp16,
                                 NINFER_LAYOUT_contiguous_le_v1, {2}),
                     four, 16);
    CHECK(fp16.status == NINFER_E_LAYOUT);
    CHECK(std::string(fp16.result.message).find("fp16") != std::string::npos);
    CHECK(std::string(fp16.result.message).find("contiguous_le_v1") != std::string::npos);
    auto row_scale = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_row_scale_v1, {1, 2}),
                          four, 16);
    CHECK(row_scale.status == NINFER_E_LAYOUT);
    CHECK(std::string(row_scale.result.message).find("row_scale_v1") != std::string::npos);
    // BF16 words offered for an FP32 tensor: no implicit cross-type encoding.
    auto cross = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16,
                                  NINFER_LAYOUT_contiguous_le_v1, {2}),
                      four, 16);
    CHECK(cross.status == NINFER_E_CONVERSION);
    // Size rule and overflow.
    CHECK(call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_bf16, NINFER_FORMAT_bf16, NINFER_LAYOUT_contiguous_le_v1,
                           {3}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_int32, 0, NINFER_LAYOUT_contiguous_le_v1,
                           {1ull << 32, 1ull << 32}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_int32, 0, NINFER_LAYOUT_contiguous_le_v1,
                           {1ull << 62}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_contiguous_le_v1, {2}), four, 3)
              .status == NINFER_E_BUFFER);
    auto rank17 = layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_contiguous_le_v1, {});
    rank17.rank = 17;
    CHECK(call(rank17, four, 16).status == NINFER_E_INVALID_ARGUMENT);
    // A registered pair the reference does not implement is unsupported, not unregistered.
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_nvfp4, 0, NINFER_LAYOUT_block_scale_k16_m128x4_v1,
                           {128, 64}),
               four, 16)
              .status == NINFER_E_UNSUPPORTED);
}
