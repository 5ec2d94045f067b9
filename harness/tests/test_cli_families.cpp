// SPDX-License-Identifier: Apache-2.0
// The format families' CLI descriptors (harness/src/cli/families.hpp): every family of the
// registry has exactly one, each gives `list` columns for every format of its family, and a
// family outside the registry plugs into the `list` sections by adding one descriptor.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "families.hpp"
#include "ninfer/abi/registry.hpp"

namespace {

using ninfer::harness::cli::FamilyCli;
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
    const auto all = cli::family_clis();
    return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [f](const FamilyCli *d) { return d->family == f; }));
}

// A toy family (no value of abi::Family names it): the columns say which format they are for.
constexpr auto kToyFamily = static_cast<abi::Family>(200);
cli::json toy_json(const abi::FormatView &v) { return {{"id", v.id}, {"name", v.name}, {"toy", true}}; }
std::string toy_line(const abi::FormatView &v) { return "  toy " + std::string(v.name) + "\n"; }
cli::json toy_geometry(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t) {
    return {{"op", "geometry"}, {"format", v.name}, {"shape", shape}};
}
cli::Packed toy_pack(const abi::FormatView &, const std::vector<std::uint64_t> &shape, const cli::tensor::LayoutOpts &) {
    return {std::vector<std::uint8_t>(shape.size()), "toy_layout"};
}
cli::json toy_unpack(const abi::FormatView &v, const std::vector<std::uint64_t> &, const cli::tensor::LayoutOpts &) {
    return {{"op", "unpack"}, {"format", v.name}};
}
void toy_encode(const abi::FormatView &, const cli::tensor::EncodeOpts &) {}
void toy_decode(const abi::FormatView &, const cli::tensor::DecodeOpts &) {}
const FamilyCli kToyCli = {.family = kToyFamily,
                           .name = "toy",
                           .heading = "toy formats:\n",
                           .format_json = toy_json,
                           .format_line = toy_line,
                           .geometry = toy_geometry,
                           .pack = toy_pack,
                           .unpack = toy_unpack,
                           .encode = toy_encode,
                           .decode = toy_decode};

}  // namespace

TEST_CASE("family descriptors: every family of the registry has exactly one CLI descriptor", "[cli][families]") {
    const auto families = registry_families();
    REQUIRE(families.size() == 4);
    for (const auto f : families) {
        INFO("family " << abi::family_name(f));
        CHECK(descriptors_of(f) == 1);
        const auto &d = cli::family_cli(f);
        CHECK(d.family == f);
        CHECK(d.name == abi::family_name(f));
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
        const auto &d = cli::family_cli(v.family);
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
        const auto &d = cli::family_cli(f);
        CHECK(text.find(d.heading) != std::string::npos);
        total += rows.at(std::string(d.name)).size();
    }
    CHECK(total == abi::kAllFormats.size());
}

TEST_CASE("family descriptors: a toy family plugs into the list sections by adding its descriptor", "[cli][families]") {
    CHECK(cli::find_family_cli(kToyFamily) == nullptr);
    CHECK_THROWS_AS(cli::family_cli(kToyFamily), std::logic_error);
    auto word_again = kToyCli;
    word_again.family = abi::Family::word;
    CHECK_FALSE(cli::add_family_cli(word_again));
    REQUIRE(cli::add_family_cli(kToyCli));
    CHECK_FALSE(cli::add_family_cli(kToyCli));  // one descriptor per family
    CHECK(&cli::family_cli(kToyFamily) == &kToyCli);
    CHECK(descriptors_of(abi::Family::word) == 1);

    const std::array formats = {abi::kAllFormats[0], abi::FormatView{900, "toy_a", kToyFamily, 0},
                                abi::FormatView{901, "toy_b", kToyFamily, 0}};
    const auto text = cli::formats_text(formats);
    CHECK(text == std::string(cli::kWordCli.heading) + cli::kWordCli.format_line(formats[0]) +
                      "toy formats:\n  toy toy_a\n  toy toy_b\n");
    const auto rows = cli::formats_json(formats);
    REQUIRE(rows.contains("toy"));
    CHECK(rows.at("toy").size() == 2);
    CHECK(rows.at("toy").at(1).at("name") == "toy_b");
    CHECK(rows.at("toy").at(1).at("toy") == true);
    // the oracle subcommands reach the toy family through the same lookup
    const auto &d = cli::family_cli(formats[1].family);
    CHECK(d.geometry(formats[1], {2, 3}, 1).at("shape") == cli::json({2, 3}));
    CHECK(d.pack(formats[1], {2, 3}, {}).layout == "toy_layout");
}
