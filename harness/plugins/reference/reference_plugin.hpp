// SPDX-License-Identifier: Apache-2.0
// The reference plugin's table (abi/include/ninfer/abi/plugin.h): scalar words and
// contiguous_le_v1 served by the native codecs (native.hpp), grouped calls by grouped.hpp.
// Mutants (harness/plugins/mutants/) copy this table and patch one behaviour.
#pragma once

#include <cstdint>
#include <span>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// The table of plugin "reference" 0.1.0, built once; its functions ignore `self`.
const ninfer_plugin &reference_table();

/// Every capability the reference declares: the scalar half, then grouped_capabilities().
std::span<const ninfer_capability> reference_capabilities();

/// Write a one-line message into a result (truncated to fit) and return `status`.
std::int32_t refuse_call(ninfer_result *result, std::int32_t status, const char *message);

}  // namespace ninfer::reference
