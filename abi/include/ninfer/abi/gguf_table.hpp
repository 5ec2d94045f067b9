// SPDX-License-Identifier: Apache-2.0
// Per-type tables of the GGUF family (registry.h NINFER_GGUF_TYPES), in the spirit of ggml's
// type_traits: a table holds one entry per registry row, in kGgufTypes order, and is generated
// with the X-macro, so each type's functions are named once, by the registry's name of the type.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ninfer/abi/registry.hpp"

namespace ninfer::abi {

/// One entry per GGUF block type, in kGgufTypes order.
template <class T>
using GgufTable = std::array<T, kGgufTypes.size()>;

/// The row of format id `id` in kGgufTypes, or kGgufTypes.size() when it is no GGUF type.
constexpr std::size_t gguf_row(std::uint32_t id) {
    std::size_t r = 0;
    while (r < kGgufTypes.size() && kGgufTypes[r].id != id) ++r;
    return r;
}

/// The row of ggml type number `ggml_type` (GGML_TYPE_*), or kGgufTypes.size().
constexpr std::size_t gguf_row_of_ggml_type(std::uint32_t ggml_type) {
    std::size_t r = 0;
    while (r < kGgufTypes.size() && kGgufTypes[r].ggml_type != ggml_type) ++r;
    return r;
}

/// The entry of format id `id`, or T{} (a null function) when it is no GGUF type.
template <class T>
constexpr T gguf_entry(const GgufTable<T> &table, std::uint32_t id) {
    const std::size_t r = gguf_row(id);
    return r < table.size() ? table[r] : T{};
}

/// The entry of ggml type number `ggml_type`, or T{} when it is no GGUF type.
template <class T>
constexpr T gguf_entry_of_ggml_type(const GgufTable<T> &table, std::uint32_t ggml_type) {
    const std::size_t r = gguf_row_of_ggml_type(ggml_type);
    return r < table.size() ? table[r] : T{};
}

}  // namespace ninfer::abi

/// `fn` where the registry's ref_quantizer column is 1, nullptr where it is 0: a quantizer
/// table reads the column, and a type without a reference quantizer names no function.
#define NINFER_GGUF_IF_REFQ(refq, fn) NINFER_GGUF_IF_REFQ_##refq(fn)
#define NINFER_GGUF_IF_REFQ_0(fn) nullptr
#define NINFER_GGUF_IF_REFQ_1(fn) fn
