// SPDX-License-Identifier: Apache-2.0
// Placeholder until the grouped family is written: declares nothing, serves nothing.
#include "grouped.hpp"

namespace ninfer::reference {
std::span<const ninfer_capability> grouped_capabilities() { return {}; }
bool is_grouped_call(const ninfer_call *) { return false; }
std::int32_t grouped_call(const ninfer_call *, ninfer_result *) { return NINFER_E_UNSUPPORTED; }
}  // namespace ninfer::reference
