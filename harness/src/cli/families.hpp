// SPDX-License-Identifier: Apache-2.0
// What the CLI knows of a format family (docs/cli.md: `list`, `oracle geometry / pack / unpack /
// encode / decode`): one descriptor per format family, a struct of values and function pointers in
// the spirit of ggml's type_traits, defined in the family's own file (family_word.cpp,
// oracle_grouped.cpp, oracle_scaled.cpp, oracle_gguf.cpp) and registered like every side's
// (abi/family_registry.hpp). Central code (cmd_list.cpp, oracle_layout.cpp) looks a family's
// descriptor up here and never dispatches on the family itself.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ninfer/abi/registry.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli {

using tensor::json;

/// The payload `oracle pack` built, and the name of the layout that holds it.
struct Packed {
    std::vector<std::uint8_t> payload;
    std::string layout;
};

/// One format family as the CLI sees it. Each function receives a format of this family.
struct CliFamily {
    abi::Family family;        ///< its name is the family's key in `list --json` ("word", "grouped", ...)
    std::string_view heading;  ///< `list`: the text heading of the family's section
    /// `list --json`: the format's row (the view's columns, then the family table's).
    json (*format_json)(const abi::FormatView &v);
    /// `list`: the format's text line.
    std::string (*format_line)(const abi::FormatView &v);
    /// `oracle geometry`: every plane, gap and layout parameter of `shape` (`divisors`: nvfp4's D).
    json (*geometry)(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t divisors);
    /// `oracle pack`: the canonical payload of the logical planes of `o`.
    Packed (*pack)(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const tensor::LayoutOpts &o);
    /// `oracle unpack`: the validated payload of `o` as logical planes in hex.
    json (*unpack)(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const tensor::LayoutOpts &o);
    /// `oracle encode`: encode a raw source matrix and write the payload (or exit 1/2).
    void (*encode)(const abi::FormatView &v, const tensor::EncodeOpts &o);
    /// `oracle decode`: validate a payload and write its words and values (or exit 1/2).
    void (*decode)(const abi::FormatView &v, const tensor::DecodeOpts &o);
};

/// The families' descriptors, each defined in its family's file.
extern const CliFamily kWordCli;
extern const CliFamily kGroupedCli;
extern const CliFamily kScaledCli;
extern const CliFamily kGgufCli;

/// Every descriptor the CLI dispatches on: the built-in families (one line each in
/// families.cpp), then those added by add_cli_family, in that order.
std::span<const CliFamily *const> cli_families();
/// Adds a family's descriptor (a family outside the built-in four, e.g. a test's toy family);
/// false, and nothing added, when its family already has one. The descriptor must outlive the CLI.
bool add_cli_family(const CliFamily &d);
/// The descriptor of a family, or nullptr.
const CliFamily *find_cli_family(abi::Family f);
/// The descriptor of a family; throws std::logic_error when it has none (a family of
/// abi::kAllFormats always has one: tests/test_cli_families.cpp).
const CliFamily &cli_family(abi::Family f);

/// `list --json`'s "formats": an array of rows per family key, keys in the order of `formats`.
json formats_json(std::span<const abi::FormatView> formats);
/// `list`'s formats: a heading where the family changes, then one line per format.
std::string formats_text(std::span<const abi::FormatView> formats);

/// The name of a registry id of `table` in a list column, or "?" when the table lacks it.
template <class Table>
std::string_view name_of(const Table &t, std::uint32_t id) {
    const auto *e = abi::find_id(t, id);
    return e ? e->name : std::string_view("?");
}

}  // namespace ninfer::harness::cli
