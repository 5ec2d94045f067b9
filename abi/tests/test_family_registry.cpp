// SPDX-License-Identifier: Apache-2.0
// The family table (registry.h NINFER_FAMILIES) and the one way a side registers its descriptors
// (family_registry.hpp): names unique and round-tripping, one descriptor per family, none once
// the side is sealed.
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string_view>

#include "ninfer/abi/family_registry.hpp"

using namespace ninfer::abi;

namespace {

struct Side {
    Family family = {};
    int tag = 0;
};

constexpr Side kWord{.family = Family::word, .tag = 1};
constexpr Side kGguf{.family = Family::gguf, .tag = 2};
constexpr Side kToy{.family = Family::toy, .tag = 3};
constexpr Side kWordAgain{.family = Family::word, .tag = 4};

}  // namespace

TEST_CASE("families: one row per family, names unique, the kinds of linear and toy", "[abi][families]") {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < kFamilyRows.size(); ++i) {
        const auto &r = kFamilyRows[i];
        INFO(r.name);
        CHECK(static_cast<std::size_t>(r.id) == i);  // the enum is the table's order
        CHECK(names.insert(r.name).second);
        CHECK(family_name(r.id) == r.name);
    }
    CHECK(family_name(Family::word) == "word");
    CHECK(kFamilyRows[static_cast<std::size_t>(Family::linear)].kind == FamilyKind::op);
    CHECK(kFamilyRows[static_cast<std::size_t>(Family::toy)].kind == FamilyKind::test);
    CHECK(family_name(static_cast<Family>(200)).empty());
    for (const auto &e : kEncoders) CHECK(kFamilyRows[static_cast<std::size_t>(e.family)].kind == FamilyKind::formats);
}

TEST_CASE("families: a registry keeps built-in then added descriptors, one per family, none once sealed", "[abi][families]") {
    FamilyRegistry<Side> side("test side", {&kWord, &kGguf});
    REQUIRE(side.all().size() == 2);
    CHECK(side.find(Family::gguf) == &kGguf);
    CHECK(side.find(Family::toy) == nullptr);
    CHECK_FALSE(side.add(kWordAgain));  // the word family has one
    CHECK(side.find(Family::word) == &kWord);
    CHECK(side.add(kToy));
    REQUIRE(side.all().size() == 3);
    CHECK(side.all().back() == &kToy);
    side.seal();
    CHECK_THROWS_WITH(side.add(kWordAgain), "test side family word added after the test side was read");
}
