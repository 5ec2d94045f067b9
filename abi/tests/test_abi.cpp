// SPDX-License-Identifier: Apache-2.0
// The abi module's C++ view (registry.hpp): one kAllFormats view over the three format tables,
// constexpr lookups, and the names of the ABI's codes (plugin.h X-macros).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "ninfer/abi/registry.hpp"

using namespace ninfer::abi;

// Lookups are constexpr: these hold at compile time.
static_assert(format_id("bf16") == std::optional<std::uint32_t>{NINFER_FORMAT_bf16});
static_assert(format_name(NINFER_FORMAT_q4_g64_fp16) == "q4_g64_fp16");
static_assert(format_name(0).empty());
static_assert(!format_id("BF16"));
static_assert(layout_accepts(NINFER_LAYOUT_row_split_k128_v1, NINFER_FORMAT_q8_g32_fp16));
static_assert(!layout_accepts(NINFER_LAYOUT_contiguous_le_v1, NINFER_FORMAT_fp16));
static_assert(status_name(NINFER_E_INVALID_PAYLOAD) == "invalid_payload");
static_assert(detail_name(NINFER_DETAIL_NONZERO_GAP) == "nonzero_gap");

TEST_CASE("kAllFormats holds every row of the three format tables once, in registry order") {
    REQUIRE(kAllFormats.size() == kWordFormats.size() + kGroupedFormats.size() + kOtherFormats.size());
    std::size_t i = 0;
    for (const auto &w : kWordFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == w.id);
        CHECK(v.name == w.name);
        CHECK(v.family == Family::word);
        CHECK(v.layout == (w.direct ? std::uint32_t{NINFER_LAYOUT_contiguous_le_v1} : 0u));
    }
    for (const auto &g : kGroupedFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == g.id);
        CHECK(v.name == g.name);
        CHECK(v.family == Family::grouped);
        CHECK(v.layout == g.layout);
    }
    for (const auto &o : kOtherFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == o.id);
        CHECK(v.name == o.name);
        CHECK(v.family == Family::other);
        CHECK(v.layout == o.layout);
    }
}

TEST_CASE("format ids and names are unique across families and every layout is registered") {
    std::set<std::uint32_t> ids;
    std::set<std::string_view> names;
    for (const auto &f : kAllFormats) {
        CHECK(ids.insert(f.id).second);
        CHECK(names.insert(f.name).second);
        CHECK(f.id != NINFER_FORMAT_NONE);
        if (f.layout != 0) CHECK(find_id(kLayouts, f.layout) != nullptr);
        CHECK(format_id(f.name) == std::optional<std::uint32_t>{f.id});
        CHECK(format_name(f.id) == f.name);
        CHECK(!family_name(f.family).empty());
    }
}

TEST_CASE("layout_accepts: a format is stored by its own layout only") {
    for (const auto &f : kAllFormats)
        for (const auto &l : kLayouts) CHECK(layout_accepts(l.id, f.id) == (l.id == f.layout));
    CHECK_FALSE(layout_accepts(NINFER_LAYOUT_contiguous_le_v1, 999));
    CHECK_FALSE(layout_accepts(0, NINFER_FORMAT_fp16));
}

TEST_CASE("the ABI's codes have unique values and names, and the C enumerators are the X-macro rows") {
    const auto unique = [](const auto &table) {
        std::set<std::int32_t> values;
        std::set<std::string_view> names;
        for (const auto &c : table)
            if (!values.insert(c.value).second || !names.insert(c.name).second) return false;
        return true;
    };
    CHECK(unique(kStatuses));
    CHECK(unique(kClasses));
    CHECK(unique(kVerdicts));
    CHECK(unique(kPayloadDetails));
    CHECK(status_name(NINFER_OK) == "ok");
    CHECK(status_name(NINFER_E_UNSUPPORTED) == "unsupported");
    CHECK(status_name(NINFER_E_INTERNAL) == "internal");
    CHECK(status_name(-55).empty());
    CHECK(code_name(kClasses, NINFER_CLASS_OUTSIDE) == "outside");
    CHECK(code_name(kVerdicts, NINFER_VERDICT_NEGATIVE_ZERO) == "negative_zero");
    CHECK(detail_name(NINFER_DETAIL_SIZE) == "size");
}
