// SPDX-License-Identifier: Apache-2.0
// The method of an op (ninfer_call.method, ninfer_capability_v2.method; registry.h NINFER_OPS):
// which registry table an op's `method` id names a row of (convert: a conversion, validate: a
// role, quant_encode: an encoder) and that row's name. The one copy: the harness, the vector
// files and the CLI spell a method through it. Header-only, depends on nothing but the standard
// library and the headers beside it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ninfer/abi/registry.hpp"

namespace ninfer::abi {

/// One row of a method table: its id and canonical name.
struct MethodRow {
    std::uint32_t id;
    std::string_view name;
};

/// The ops that take a method, each with the kind of its method and that kind's table.
struct MethodKind {
    std::uint32_t op;
    std::string_view kind;  ///< "conversion", "role", "encoder": how messages name the table
    std::span<const MethodRow> methods;
};

namespace detail {
/// The (id, name) column of a registry table, in its order.
template <const auto &Table>
constexpr auto method_rows() {
    std::array<MethodRow, Table.size()> rows{};
    for (std::size_t i = 0; i < Table.size(); ++i) rows[i] = {Table[i].id, Table[i].name};
    return rows;
}
inline constexpr auto kConversionMethods = method_rows<kConversions>();
inline constexpr auto kRoleMethods = method_rows<kRoles>();
inline constexpr auto kEncoderMethods = method_rows<kEncoders>();
}  // namespace detail

/// registry.h's op summaries say the same: validate's `method` is a role, convert's a
/// conversion, quant_encode's an encoder (test_methods.cpp checks the summaries).
inline constexpr std::array kMethodKinds = {
    MethodKind{NINFER_OP_validate, "role", detail::kRoleMethods},
    MethodKind{NINFER_OP_convert, "conversion", detail::kConversionMethods},
    MethodKind{NINFER_OP_quant_encode, "encoder", detail::kEncoderMethods},
};

/// The method kind of `op`, or nullptr when the op takes no method.
constexpr const MethodKind *find_method_kind(std::uint32_t op) {
    for (const auto &k : kMethodKinds)
        if (k.op == op) return &k;
    return nullptr;
}

/// The kind of method `op` takes ("conversion", "role", "encoder"), or "" when it takes none.
constexpr std::string_view method_kind(std::uint32_t op) {
    const auto *k = find_method_kind(op);
    return k ? k->kind : std::string_view{};
}

/// The name of method `id` of `op`, or "" when the op takes no method or its table lacks the id.
constexpr std::string_view method_name(std::uint32_t op, std::uint32_t id) {
    if (const auto *k = find_method_kind(op))
        for (const auto &m : k->methods)
            if (m.id == id) return m.name;
    return {};
}

/// The id of method `name` of `op`, or nullopt when the op takes no method or its table lacks
/// the name (case-sensitive, as artifacts store names).
constexpr std::optional<std::uint32_t> method_id(std::uint32_t op, std::string_view name) {
    if (const auto *k = find_method_kind(op))
        for (const auto &m : k->methods)
            if (m.name == name) return m.id;
    return std::nullopt;
}

}  // namespace ninfer::abi
