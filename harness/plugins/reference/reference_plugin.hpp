// SPDX-License-Identifier: Apache-2.0
// The reference plugin's table (abi/include/ninfer/abi/plugin.h, ABI v2): scalar words and
// contiguous_le_v1 served by the scalar codecs (scalar_codec.hpp), grouped calls by grouped.hpp.
// Mutants (harness/plugins/mutants/) copy this table and patch one behaviour; they are written
// against ABI v1 and see the same plugin through reference_table_v1().
//
// This header serves translation units of either ABI version (NINFER_PLUGIN_ABI): its
// declarations name the versioned types, and reference_table() means the table of the
// version the including source is written against.
#pragma once

#include <cstdint>
#include <span>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// The ABI v2 table of plugin "reference" (version: the project version), built once; its
/// functions ignore `self`.
const ninfer_plugin_v2 &reference_table_v2();

/// The same plugin as an ABI v1 table: each v1 call becomes the v2 call of its op (`in`, `aux`
/// the op's input planes, `out`..`out3` its output planes, in the order of harness/README.md)
/// and is served by the v2 functions; the written sizes, detail and message come back.
const ninfer_plugin_v1 &reference_table_v1();

/// Every capability the reference declares: the scalar half, then grouped_capabilities().
std::span<const ninfer_capability_v2> reference_capabilities();

/// Write a one-line message into a result (truncated to fit; v2: only where struct_size covers
/// it) and return `status`.
std::int32_t refuse_call(ninfer_result_v2 *result, std::int32_t status, const char *message);
std::int32_t refuse_call(ninfer_result_v1 *result, std::int32_t status, const char *message);

// The table of the including source's ABI version (distinct names per version: no ODR clash
// between a v1 mutant and the v2 library linked into it).
#if NINFER_PLUGIN_ABI == 1
inline namespace abi_v1 {
inline const ninfer_plugin_v1 &reference_table() { return reference_table_v1(); }
}  // namespace abi_v1
#else
inline namespace abi_v2 {
inline const ninfer_plugin_v2 &reference_table() { return reference_table_v2(); }
}  // namespace abi_v2
#endif

}  // namespace ninfer::reference
