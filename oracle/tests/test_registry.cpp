// SPDX-License-Identifier: Apache-2.0
// The closed registry: ids unique, names unique, compositions consistent (registry.h).
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "ninfer/oracle/formats.hpp"

using namespace ninfer::oracle;

TEST_CASE("format ids and names are unique across word, grouped and other formats", "[registry]") {
    std::set<std::uint32_t> ids;
    std::set<std::string> names;
    std::size_t n = 0;
    auto add = [&](std::uint32_t id, std::string_view name) {
        ids.insert(id);
        names.insert(std::string(name));
        ++n;
    };
    for (const auto &f : kWordFormats) add(f.id, f.name);
    for (const auto &f : kGroupedFormats) add(f.id, f.name);
    for (const auto &f : kScaledFormats) add(f.id, f.name);
    for (const auto &f : ninfer::abi::kGgufTypes) add(f.id, f.name);
    CHECK(ids.size() == n);
    CHECK(names.size() == n);
    CHECK(format_id("q8_g32_fp16").value() == NINFER_FORMAT_q8_g32_fp16);
    CHECK(format_name(NINFER_FORMAT_bf16) == "bf16");
    CHECK_FALSE(format_id("q3_g64_fp16").has_value());
}

TEST_CASE("grouped formats compose a binary16 scale and the row-split layout", "[registry]") {
    for (const auto &g : kGroupedFormats) {
        CAPTURE(g.name);
        CHECK(g.scale_format == NINFER_FORMAT_fp16);
        CHECK(layout_accepts(NINFER_LAYOUT_row_split_k128_v1, g.id));
        CHECK_FALSE(layout_accepts(NINFER_LAYOUT_contiguous_le_v1, g.id));
        // logical bits per weight b + 16/G (tensor-formats.txt Section 6), pinned from Section 1
        const double bpw = g.code_bits + 16.0 / g.group;
        if (g.name == "q2_g64_fp16") CHECK(bpw == 2.25);
        if (g.name == "q8_g32_fp16") CHECK(bpw == 8.5);
        if (g.name == "t2_g128_fp16") CHECK(bpw == 2.125);
    }
}

TEST_CASE("grouped packing and scale role columns agree with the geometry and the spec", "[registry]") {
    for (const auto &g : kGroupedFormats) {
        CAPTURE(g.name);
        // storage-layouts.md Section 3: base bytes hold 8, 4 or 2 bits of each lane.
        switch (g.packing) {
        case Packing::BYTE: CHECK(g.base_bytes == g.group); CHECK(g.code_bits == 8); break;
        case Packing::NIBBLE_HIGH: CHECK(2 * g.base_bytes == g.group); break;
        case Packing::TWO_BIT_LSB: CHECK(4 * g.base_bytes == g.group); CHECK(g.code_bits == 2); break;
        }
        CHECK(8 * g.high_bytes == g.high_bits() * g.group);
        // The scale role validates words of the scale format.
        const auto *r = find_id(kRoles, g.scale_role);
        REQUIRE(r != nullptr);
        CHECK(r->format == g.scale_format);
    }
    // Typed from the spec, not read off the registry: the high stream holds q5's bit 4 and
    // q6's bits 4..5; Q2 alone has its own scale rule (tensor-formats.txt Section 3.2).
    CHECK(grouped_format(NINFER_FORMAT_q4_g64_fp16).high_bits() == 0);
    CHECK(grouped_format(NINFER_FORMAT_q5_g64_fp16).high_bits() == 1);
    CHECK(grouped_format(NINFER_FORMAT_q6_g64_fp16).high_bits() == 2);
    CHECK(grouped_format(NINFER_FORMAT_q2_g64_fp16).scale_role == NINFER_ROLE_q2_fp16_scale);
    for (const auto &g : kGroupedFormats)
        if (g.id != NINFER_FORMAT_q2_g64_fp16) CHECK(g.scale_role == NINFER_ROLE_grouped_fp16_scale);
}

TEST_CASE("direct formats are exactly bf16, fp32 and int32 (Section 3.1)", "[registry]") {
    std::set<std::string> direct;
    for (const auto &f : kWordFormats)
        if (f.direct) direct.insert(std::string(f.name));
    CHECK(direct == std::set<std::string>{"bf16", "fp32", "int32"});
    CHECK(layout_accepts(NINFER_LAYOUT_contiguous_le_v1, NINFER_FORMAT_int32));
    CHECK_FALSE(layout_accepts(NINFER_LAYOUT_contiguous_le_v1, NINFER_FORMAT_fp16));
    CHECK_FALSE(layout_accepts(NINFER_LAYOUT_row_split_k128_v1, NINFER_FORMAT_nvfp4));
}

TEST_CASE("every conversion names registered word formats", "[registry]") {
    for (const auto &c : kConversions) {
        CAPTURE(c.name);
        CHECK(find_id(kWordFormats, c.src) != nullptr);
        CHECK(find_id(kWordFormats, c.dst) != nullptr);
        CHECK(find_id(kRoundings, c.rounding) != nullptr);
        CHECK(find_id(kOverflows, c.overflow) != nullptr);
    }
}
