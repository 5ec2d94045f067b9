// SPDX-License-Identifier: Apache-2.0
// The one spelling of each registry and ABI name in text: status names in the three places a
// status is written (registry key, vector file, C name), and the label of a format or layout id
// in messages. Generated from the X-macros of plugin.h and registry.h, never a hand list.
// Header-only, depends on nothing but the standard library and the headers beside it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ninfer/abi/registry.hpp"

namespace ninfer::abi {

/// One status code of plugin.h NINFER_STATUSES in each of its spellings.
struct StatusSpelling {
    std::int32_t value;
    std::string_view key;     ///< registry key, as reports and `list` write it: "size"
    std::string_view vector;  ///< as the golden vector files write it: "ok", "E_SIZE"
    std::string_view c_name;  ///< the C enumerator, as messages write it: "NINFER_E_SIZE"
};

inline constexpr std::array kStatusSpellings = {
#define NINFER_X_(value, NAME, name, summary) \
    StatusSpelling{value, #name, (value) == 0 ? std::string_view("ok") : std::string_view(#NAME), "NINFER_" #NAME},
    NINFER_STATUSES(NINFER_X_)
#undef NINFER_X_
};

/// The spellings of a status code, or nullptr when plugin.h has no such status.
constexpr const StatusSpelling *find_status(std::int32_t value) {
    for (const auto &s : kStatusSpellings)
        if (s.value == value) return &s;
    return nullptr;
}
/// The status code of a vector-file spelling ("ok", "E_SIZE"), or nullopt.
constexpr std::optional<std::int32_t> status_of_vector_name(std::string_view name) {
    for (const auto &s : kStatusSpellings)
        if (s.vector == name) return s.value;
    return std::nullopt;
}
/// "NINFER_E_SIZE"; a code plugin.h lacks reads "status <n>".
inline std::string status_c_name(std::int32_t value) {
    const auto *s = find_status(value);
    return s ? std::string(s->c_name) : "status " + std::to_string(value);
}

/// The summary of a code in one of registry.hpp's code tables (kVerdicts, ...), or "" when unknown.
template <class Table>
constexpr std::string_view code_summary(const Table &table, std::int32_t value) {
    for (const auto &e : table)
        if (e.value == value) return e.summary;
    return {};
}
/// The name of a classify class (the low four bits of a class byte: "qnan"), "" when unknown.
constexpr std::string_view class_name(std::uint32_t cls) { return code_name(kClasses, static_cast<std::int32_t>(cls)); }
/// The name of a validate verdict ("negative_zero"), "" when unknown.
constexpr std::string_view verdict_name(std::uint32_t verdict) {
    return code_name(kVerdicts, static_cast<std::int32_t>(verdict));
}

/// A format id in a message: its registry name; "none" for 0; "format#<id>" for an id the
/// registry lacks (a plugin may be offered any id).
inline std::string format_label(std::uint32_t id) {
    if (const auto *f = find_format(id)) return std::string(f->name);
    return id == 0 ? std::string("none") : "format#" + std::to_string(id);
}
/// A layout id in a message, spelled as format_label spells formats.
inline std::string layout_label(std::uint32_t id) {
    if (const auto *l = find_id(kLayouts, id)) return std::string(l->name);
    return id == 0 ? std::string("none") : "layout#" + std::to_string(id);
}

}  // namespace ninfer::abi
