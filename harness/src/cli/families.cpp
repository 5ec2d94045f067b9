// SPDX-License-Identifier: Apache-2.0
// The one array of the families' CLI descriptors (families.hpp), one line per family, and the
// formats section of `list` that iterates it.
#include "families.hpp"

#include <stdexcept>

#include "ninfer/abi/family_registry.hpp"

namespace ninfer::harness::cli {

namespace {

/// The built-in families, in the order of NINFER_FAMILIES. A new family adds one line here.
abi::FamilyRegistry<CliFamily> &registered() {
    static abi::FamilyRegistry<CliFamily> all("CLI", {
                                                         &kWordCli,
                                                         &kGroupedCli,
                                                         &kScaledCli,
                                                         &kGgufCli,
                                                     });
    return all;
}

}  // namespace

std::span<const CliFamily *const> cli_families() { return registered().all(); }

bool add_cli_family(const CliFamily &d) { return registered().add(d); }

const CliFamily *find_cli_family(abi::Family f) { return registered().find(f); }

const CliFamily &cli_family(abi::Family f) {
    if (const auto *d = find_cli_family(f)) return *d;
    throw std::logic_error("no CLI descriptor for format family " + std::to_string(static_cast<int>(f)));
}

json formats_json(std::span<const abi::FormatView> formats) {
    json j = json::object();
    for (const auto &v : formats) {
        const auto &d = cli_family(v.family);
        auto &rows = j[std::string(abi::family_name(d.family))];
        if (rows.is_null()) rows = json::array();
        rows.push_back(d.format_json(v));
    }
    return j;
}

std::string formats_text(std::span<const abi::FormatView> formats) {
    std::string s;
    for (std::size_t i = 0; i < formats.size(); ++i) {
        const auto &d = cli_family(formats[i].family);
        if (i == 0 || formats[i].family != formats[i - 1].family) s += d.heading;
        s += d.format_line(formats[i]);
    }
    return s;
}

}  // namespace ninfer::harness::cli
