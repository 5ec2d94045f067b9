// SPDX-License-Identifier: Apache-2.0
// The one array of the families' CLI descriptors (families.hpp), one line per family, and the
// formats section of `list` that iterates it.
#include "families.hpp"

#include <stdexcept>

namespace ninfer::harness::cli {

namespace {

/// The built-in families, in the order of abi::Family. A new family adds one line here.
constexpr const FamilyCli *kBuiltinFamilyClis[] = {
    &kWordCli,
    &kGroupedCli,
    &kScaledCli,
    &kGgufCli,
};

std::vector<const FamilyCli *> &registered() {
    static std::vector<const FamilyCli *> all(std::begin(kBuiltinFamilyClis), std::end(kBuiltinFamilyClis));
    return all;
}

}  // namespace

std::span<const FamilyCli *const> family_clis() { return registered(); }

bool add_family_cli(const FamilyCli &d) {
    if (find_family_cli(d.family)) return false;
    registered().push_back(&d);
    return true;
}

const FamilyCli *find_family_cli(abi::Family f) {
    for (const auto *d : registered())
        if (d->family == f) return d;
    return nullptr;
}

const FamilyCli &family_cli(abi::Family f) {
    if (const auto *d = find_family_cli(f)) return *d;
    throw std::logic_error("no CLI descriptor for format family " + std::to_string(static_cast<int>(f)));
}

json formats_json(std::span<const abi::FormatView> formats) {
    json j = json::object();
    for (const auto &v : formats) {
        const auto &d = family_cli(v.family);
        auto &rows = j[std::string(d.name)];
        if (rows.is_null()) rows = json::array();
        rows.push_back(d.format_json(v));
    }
    return j;
}

std::string formats_text(std::span<const abi::FormatView> formats) {
    std::string s;
    for (std::size_t i = 0; i < formats.size(); ++i) {
        const auto &d = family_cli(formats[i].family);
        if (i == 0 || formats[i].family != formats[i - 1].family) s += d.heading;
        s += d.format_line(formats[i]);
    }
    return s;
}

}  // namespace ninfer::harness::cli
