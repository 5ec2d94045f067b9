// SPDX-License-Identifier: Apache-2.0
// Registry lookups (registry.h; tensor-formats.txt Section 1, storage-layouts.md Section 1).
#include "ninfer/oracle/formats.hpp"

#include <stdexcept>
#include <string>

namespace ninfer::oracle {

namespace {
template <class Table>
const typename Table::value_type &require(const Table &table, std::uint32_t id, const char *what) {
    if (const auto *e = find_id(table, id)) return *e;
    throw std::invalid_argument(std::string("unknown ") + what + " id " + std::to_string(id));
}
}  // namespace

const WordFormat &word_format(std::uint32_t id) { return require(kWordFormats, id, "word format"); }
const GroupedFormat &grouped_format(std::uint32_t id) { return require(kGroupedFormats, id, "grouped format"); }
const Conversion &conversion(std::uint32_t id) { return require(kConversions, id, "conversion"); }
const Role &role(std::uint32_t id) { return require(kRoles, id, "role"); }

std::string_view format_name(std::uint32_t id) {
    if (const auto *w = find_id(kWordFormats, id)) return w->name;
    if (const auto *g = find_id(kGroupedFormats, id)) return g->name;
    if (const auto *o = find_id(kOtherFormats, id)) return o->name;
    return {};
}

std::optional<std::uint32_t> format_id(std::string_view name) {
    if (const auto *w = find_name(kWordFormats, name)) return w->id;
    if (const auto *g = find_name(kGroupedFormats, name)) return g->id;
    if (const auto *o = find_name(kOtherFormats, name)) return o->id;
    return std::nullopt;
}

std::string_view op_name(std::uint32_t id) {
    const auto *o = find_id(kOps, id);
    return o ? o->name : std::string_view{};
}

std::string_view layout_name(std::uint32_t id) {
    const auto *l = find_id(kLayouts, id);
    return l ? l->name : std::string_view{};
}

bool layout_accepts(std::uint32_t layout, std::uint32_t format) {
    if (const auto *w = find_id(kWordFormats, format)) return w->direct && layout == NINFER_LAYOUT_contiguous_le_v1;
    if (const auto *g = find_id(kGroupedFormats, format)) return g->layout == layout;
    if (const auto *o = find_id(kOtherFormats, format)) return o->layout == layout;
    return false;
}

}  // namespace ninfer::oracle
