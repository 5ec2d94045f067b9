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
    for (const auto &f : kOtherFormats) add(f.id, f.name);
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
