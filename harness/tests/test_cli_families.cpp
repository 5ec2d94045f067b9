// SPDX-License-Identifier: Apache-2.0
// The format families' CLI descriptors (harness/src/cli/families.hpp): every family of the
// registry has exactly one, and each gives `list` columns for every format of its family (a
// family outside the registry plugs in from its folder: test_toy_family.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "families.hpp"
#include "ninfer/abi/registry.hpp"

namespace {

using ninfer::harness::cli::CliFamily;
namespace cli = ninfer::harness::cli;
namespace abi = ninfer::abi;

/// The distinct families of the registry, in the order kAllFormats first names them.
std::vector<abi::Family> registry_families() {
    std::vector<abi::Family> out;
    for (const auto &v : abi::kAllFormats)
        if (std::find(out.begin(), out.end(), v.family) == out.end()) out.push_back(v.family);
    return out;
}

std::size_t descriptors_of(abi::Family f) {
    const auto all = cli::cli_families();
    return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [f](const CliFamily *d) { return d->family == f; }));
}

}  // namespace

TEST_CASE("family descriptors: every family of the registry has exactly one CLI descriptor", "[cli][families]") {
    const auto families = registry_families();
    REQUIRE(families.size() == 4);
    for (const auto f : families) {
        INFO("family " << abi::family_name(f));
        CHECK(descriptors_of(f) == 1);
        const auto &d = cli::cli_family(f);
        CHECK(d.family == f);
        CHECK(!d.heading.empty());
        CHECK(d.heading.back() == '\n');
        CHECK(d.format_json != nullptr);
        CHECK(d.format_line != nullptr);
        CHECK(d.geometry != nullptr);
        CHECK(d.pack != nullptr);
        CHECK(d.unpack != nullptr);
        CHECK(d.encode != nullptr);
        CHECK(d.decode != nullptr);
    }
}

TEST_CASE("family descriptors: each descriptor gives list columns for every format of its family", "[cli][families]") {
    for (const auto &v : abi::kAllFormats) {
        INFO("format " << v.name);
        const auto &d = cli::cli_family(v.family);
        const auto row = d.format_json(v);
        REQUIRE(row.is_object());
        CHECK(row.at("id") == v.id);
        CHECK(row.at("name") == std::string(v.name));
        CHECK(row.size() > 2);  // the family table's own columns follow id and name
        const auto line = d.format_line(v);
        CHECK(line.rfind("  ", 0) == 0);
        CHECK(line.find(" " + std::to_string(v.id) + " ") != std::string::npos);
        CHECK(line.find(" " + std::string(v.name) + " ") != std::string::npos);
        CHECK(std::count(line.begin(), line.end(), '\n') == 1);
        CHECK(line.back() == '\n');
    }
}

TEST_CASE("family descriptors: the formats sections of list have one heading and one row per format", "[cli][families]") {
    const auto text = cli::formats_text(abi::kAllFormats);
    const auto rows = cli::formats_json(abi::kAllFormats);
    const auto families = registry_families();
    CHECK(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) ==
          abi::kAllFormats.size() + families.size());
    REQUIRE(rows.size() == families.size());
    std::size_t total = 0;
    for (const auto f : families) {
        const auto &d = cli::cli_family(f);
        CHECK(text.find(d.heading) != std::string::npos);
        total += rows.at(std::string(abi::family_name(d.family))).size();
    }
    CHECK(total == abi::kAllFormats.size());
}
