// SPDX-License-Identifier: Apache-2.0
// The reference's family descriptors (reference_family.hpp): the table's capabilities are the
// families' in array order, each call is claimed by at most one format family, `linear` by the
// linear family whatever its weight format, and a call no family claims goes to the word family.
#include <catch2/catch.hpp>
#include <cstring>
#include <set>
#include <string_view>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "reference_family.hpp"
#include "reference_plugin.hpp"
#include "v2_call.hpp"

namespace {

using ninfer::reference::ReferenceFamily;
using ninfer::reference::reference_families;

/// The families that claim a call (the word family claims none: it is the fallback).
std::vector<std::string_view> claimants(const ninfer_call_v2 &c) {
    std::vector<std::string_view> names;
    for (const ReferenceFamily *f : reference_families())
        if (f->claims && f->claims(&c)) names.push_back(ninfer::abi::family_name(f->family));
    return names;
}

}  // namespace

TEST_CASE("the reference's capabilities are its families' in array order", "[plugin][families]") {
    std::vector<ninfer_capability_v2> joined;
    for (const ReferenceFamily *f : reference_families())
        for (const auto &cap : f->capabilities()) joined.push_back(cap);
    const auto table = ninfer::reference::reference_capabilities();
    REQUIRE(joined.size() == table.size());
    for (std::size_t i = 0; i < joined.size(); ++i) CHECK(std::memcmp(&joined[i], &table[i], sizeof joined[i]) == 0);
}

TEST_CASE("the reference has one descriptor per family, the word family the only fallback", "[plugin][families]") {
    std::set<std::string_view> names;
    int fallbacks = 0;
    for (const ReferenceFamily *f : reference_families()) {
        CHECK(names.insert(ninfer::abi::family_name(f->family)).second);
        CHECK(f->serve != nullptr);
        CHECK(f->capabilities != nullptr);
        if (f->claims) continue;
        ++fallbacks;
        CHECK(f->family == ninfer::abi::Family::word);
    }
    CHECK(fallbacks == 1);
    CHECK(names == std::set<std::string_view>{"word", "grouped", "scaled", "gguf", "linear"});
}

TEST_CASE("each call is claimed by the family of its format, `linear` by the linear family alone", "[plugin][families]") {
    auto head = [](std::uint32_t op, std::uint32_t format, std::uint32_t layout) {
        return ninfer::testing::v2_head(op, format, 0, layout);
    };
    using V = std::vector<std::string_view>;
    CHECK(claimants(head(NINFER_OP_decode, NINFER_FORMAT_bf16, 0)).empty());
    CHECK(claimants(head(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_LAYOUT_contiguous_le_v1)).empty());
    CHECK(claimants(head(NINFER_OP_quant_decode, NINFER_FORMAT_q4_g64_fp16, NINFER_LAYOUT_row_split_k128_v1)) == V{"grouped"});
    CHECK(claimants(head(NINFER_OP_quant_decode, NINFER_FORMAT_nvfp4, NINFER_LAYOUT_block_scale_k16_m128x4_v1)) == V{"scaled"});
    CHECK(claimants(head(NINFER_OP_quant_decode, NINFER_FORMAT_gguf_q4_0, NINFER_LAYOUT_ggml_blocks_v1)) == V{"gguf"});
    for (const std::uint32_t format : {NINFER_FORMAT_bf16, NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_nvfp4, NINFER_FORMAT_gguf_q4_0})
        CHECK(claimants(head(NINFER_OP_linear, format, 0)) == V{"linear"});
    // A grouped format offered in a scaled layout is the grouped family's (it comes first).
    const auto both = claimants(head(NINFER_OP_layout_decode, NINFER_FORMAT_q4_g64_fp16, NINFER_LAYOUT_block_scale_k16_m128x4_v1));
    REQUIRE_FALSE(both.empty());
    CHECK(both.front() == "grouped");
}
