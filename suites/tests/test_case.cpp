// SPDX-License-Identifier: Apache-2.0
// The case model: word packing, the widths of word ops, and the named planes of every case.
#include <catch2/catch.hpp>

#include <algorithm>

#include "ninfer/suites/case.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer::suites;

TEST_CASE("words pack little-endian at their byte width", "[case]") {
    std::vector<std::uint8_t> buf;
    put_word(buf, 0x3f80, 2);
    put_word(buf, 0xdeadbeef, 4);
    REQUIRE(buf == std::vector<std::uint8_t>{0x80, 0x3f, 0xef, 0xbe, 0xad, 0xde});
    CHECK(get_word(buf, 0, 2) == 0x3f80);
    CHECK_THROWS_AS(get_word(buf, 3, 2), std::out_of_range);
}

TEST_CASE("word-op widths follow the registry", "[case]") {
    Case c;
    c.op = NINFER_OP_convert;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    CHECK(in_word_bytes(c) == 4);
    CHECK(out_word_bytes(c) == 2);
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_e2m1;
    CHECK(in_word_bytes(c) == 1);
    CHECK(out_word_bytes(c) == 8);
    c.op = NINFER_OP_validate;
    c.method = NINFER_ROLE_fp32_weight_divisor;
    CHECK(in_word_bytes(c) == 4);
    CHECK(out_word_bytes(c) == 1);
    Level l;
    CHECK(parse_level("exhaustive", l));
    CHECK(l == Level::exhaustive);
    CHECK_FALSE(parse_level("slow", l));
}

TEST_CASE("planes are found by name and appended in the order they are first named", "[case][planes]") {
    Case c;
    c.op = NINFER_OP_rows_select;
    CHECK(c.input(NINFER_PLANE_ROWS).empty());  // const-free access appends an empty plane
    REQUIRE(c.inputs.size() == 1);
    c.input(NINFER_PLANE_PAYLOAD) = {1, 2, 3};
    c.input(NINFER_PLANE_ROWS) = {9};
    REQUIRE(c.inputs.size() == 2);
    CHECK(c.inputs[0].name == NINFER_PLANE_ROWS);
    CHECK(c.inputs[1].bytes == std::vector<std::uint8_t>{1, 2, 3});
    const Case &k = c;
    CHECK(k.input(NINFER_PLANE_VALUES).empty());
    CHECK(k.inputs.size() == 2);  // a const lookup appends nothing
    CHECK(find_plane(k.inputs, NINFER_PLANE_ROWS)->bytes == std::vector<std::uint8_t>{9});
    CHECK(find_plane(k.inputs, NINFER_PLANE_SCALES) == nullptr);
}

TEST_CASE("the plane table per op follows the ABI v2 contract", "[case][planes]") {
    using V = std::vector<std::uint32_t>;
    CHECK(op_planes(NINFER_OP_decode, NINFER_FORMAT_bf16, 0).inputs == V{NINFER_PLANE_WORDS});
    CHECK(op_planes(NINFER_OP_decode, NINFER_FORMAT_bf16, 0).outputs == V{NINFER_PLANE_VALUES});
    CHECK(op_planes(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_LAYOUT_contiguous_le_v1).inputs ==
          V{NINFER_PLANE_WORDS});
    CHECK(op_planes(NINFER_OP_layout_encode, NINFER_FORMAT_q4_g64_fp16, NINFER_LAYOUT_row_split_k128_v1).inputs ==
          V{NINFER_PLANE_CODES, NINFER_PLANE_SCALES});
    // By the format's family, not the layout: a grouped format in a word layout still offers codes.
    CHECK(op_planes(NINFER_OP_layout_decode, NINFER_FORMAT_q4_g64_fp16, NINFER_LAYOUT_contiguous_le_v1).outputs ==
          V{NINFER_PLANE_CODES, NINFER_PLANE_SCALES});
    CHECK(op_planes(NINFER_OP_quant_decode, NINFER_FORMAT_q8_g32_fp16, NINFER_LAYOUT_row_split_k128_v1).outputs ==
          V{NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES});
    CHECK(op_planes(NINFER_OP_quant_encode, NINFER_FORMAT_q8_g32_fp16, 0).inputs ==
          V{NINFER_PLANE_SOURCE, NINFER_PLANE_IMPORTANCE});
    CHECK(op_planes(NINFER_OP_payload_validate, NINFER_FORMAT_q8_g32_fp16, 0).outputs.empty());
    CHECK(op_planes(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 0).inputs == V{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ROWS});
    CHECK(op_planes(NINFER_OP_linear, NINFER_FORMAT_q8_g32_fp16, 0).inputs == V{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ACTIVATION});
    CHECK(op_planes(NINFER_OP_linear, NINFER_FORMAT_q8_g32_fp16, 0).outputs == V{NINFER_PLANE_OUTPUT});
    // issue 24: an sr conversion's random values follow its words
    CHECK(op_planes(NINFER_OP_convert, NINFER_FORMAT_bf16, 0).inputs == V{NINFER_PLANE_WORDS, NINFER_PLANE_RANDOM});
}

TEST_CASE("every golden case carries the op's planes, in the op's order", "[case][planes]") {
    std::size_t checked = 0;
    for (const auto &s : suite_catalog())
        for (const auto &c : s.golden(Level::quick)) {
            const auto table = op_planes(c.op, c.format, c.layout);
            const auto in_order = [](const Planes &planes, const std::vector<std::uint32_t> &order) {
                std::size_t next = 0;
                for (const auto &p : planes) {
                    const auto at = std::find(order.begin(), order.end(), p.name);
                    if (at == order.end() || static_cast<std::size_t>(at - order.begin()) < next) return false;
                    next = static_cast<std::size_t>(at - order.begin()) + 1;
                }
                return true;
            };
            INFO(c.id);
            CHECK(in_order(c.inputs, table.inputs));
            CHECK(in_order(c.expect.outputs, table.outputs));
            // The first input plane is never missing. An accepted case has every plane but
            // IMPORTANCE (optional) and RANDOM (only an sr conversion's, which always has it); a
            // refusal decided before the planes are read (an unregistered format/layout pair)
            // may offer the first alone.
            REQUIRE(!c.inputs.empty());
            CHECK(c.inputs[0].name == table.inputs[0]);
            const auto *conv = c.op == NINFER_OP_convert ? ninfer::abi::find_id(ninfer::abi::kConversions, c.method) : nullptr;
            const bool stochastic = conv && ninfer::abi::is_stochastic(*conv);
            for (const auto name : table.inputs)
                if (name != NINFER_PLANE_IMPORTANCE && (name != NINFER_PLANE_RANDOM || stochastic) && c.expect.status == NINFER_OK)
                    CHECK(find_plane(c.inputs, name) != nullptr);
            if (!stochastic) CHECK(find_plane(c.inputs, NINFER_PLANE_RANDOM) == nullptr);
            // An absent expected output plane expects no bytes (a zero-size tensor). A refusal
            // expects no bytes; it may name an output plane's format (an operator's OUTPUT).
            // Only linear.shape's short OUTPUT holds bytes: the capacity the runner offers.
            if (c.expect.status != NINFER_OK)
                for (const auto &p : c.expect.outputs)
                    if (!(c.rule == std::string(rule::linear_shape) && c.expect.status == NINFER_E_SIZE && p.name == NINFER_PLANE_OUTPUT))
                        CHECK(p.bytes.empty());
            ++checked;
        }
    CHECK(checked > 2000);
}
