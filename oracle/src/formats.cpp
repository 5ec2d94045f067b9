// SPDX-License-Identifier: Apache-2.0
// The oracle's throwing registry lookups (ninfer/abi/registry.hpp; tensor-formats.txt Section 1, storage-layouts.md Section 1).
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

}  // namespace ninfer::oracle
