// SPDX-License-Identifier: Apache-2.0
// One descriptor per side per row of NINFER_FAMILIES (docs/ARCHITECTURE.md, "A block-format
// family"): the catalog and the reference plugin hold every family, compare and the CLI every
// family with formats of its own (the operator family `linear` has none), each registered the
// same way (abi/family_registry.hpp). The toy family of tests/toy_family/ is the test-only row:
// this executable registers it, so every row here, toy included, has its descriptors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <span>

#include "families.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/suites/suites.hpp"
#include "reference_family.hpp"
#include "toy_family/toy_family.hpp"

using namespace ninfer;

namespace {

template <class D>
std::size_t count_of(std::span<const D *const> all, abi::Family f) {
    return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [f](const D *d) { return d->family == f; }));
}

/// Whether a family of this kind has a descriptor on the sides that compare and list formats.
bool has_formats(abi::FamilyKind k) { return k != abi::FamilyKind::op; }

}  // namespace

TEST_CASE("families: every row of NINFER_FAMILIES has one descriptor per side its kind asks for", "[families]") {
    REQUIRE(toy::toy_registered());
    for (const auto &row : abi::kFamilyRows) {
        INFO("family " << row.name);
        CHECK(abi::family_name(row.id) == row.name);
        CHECK(count_of(suites::catalog_families(), row.id) == 1);
        CHECK(count_of(reference::reference_families(), row.id) == 1);
        const std::size_t formats_sides = has_formats(row.kind) ? 1 : 0;
        CHECK(count_of(harness::compare_families(), row.id) == formats_sides);
        CHECK(count_of(harness::cli::cli_families(), row.id) == formats_sides);
    }
    // No side holds a descriptor of a family the table lacks.
    const auto in_table = [](abi::Family f) { return !abi::family_name(f).empty(); };
    for (const auto *d : suites::catalog_families()) CHECK(in_table(d->family));
    for (const auto *d : reference::reference_families()) CHECK(in_table(d->family));
    for (const auto *d : harness::compare_families()) CHECK(in_table(d->family));
    for (const auto *d : harness::cli::cli_families()) CHECK(in_table(d->family));
}

TEST_CASE("families: each side's order is the table's, the format families own the formats of kAllFormats", "[families]") {
    const auto ordered = [](auto all) {
        return std::is_sorted(all.begin(), all.end(), [](const auto *a, const auto *b) { return a->family < b->family; });
    };
    CHECK(ordered(suites::catalog_families()));
    CHECK(ordered(reference::reference_families()));
    CHECK(ordered(harness::compare_families()));
    CHECK(ordered(harness::cli::cli_families()));
    for (const auto &v : abi::kAllFormats) {
        INFO("format " << v.name);
        const auto *row = std::find_if(abi::kFamilyRows.begin(), abi::kFamilyRows.end(), [&](const auto &r) { return r.id == v.family; });
        REQUIRE(row != abi::kFamilyRows.end());
        CHECK(row->kind == abi::FamilyKind::formats);
    }
    // Every family of kind `formats` has formats in kAllFormats, and `linear` weights in each of them.
    for (const auto &row : abi::kFamilyRows) {
        INFO("family " << row.name);
        const bool listed = std::any_of(abi::kAllFormats.begin(), abi::kAllFormats.end(), [&](const auto &v) { return v.family == row.id; });
        CHECK(listed == (row.kind == abi::FamilyKind::formats));
        CHECK(row.weights == (row.kind == abi::FamilyKind::formats));
    }
}
