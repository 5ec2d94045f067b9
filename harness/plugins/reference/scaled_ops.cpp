// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scaled half (placeholder of the family contract: nothing routed yet).
#include "scaled_ops.hpp"

namespace ninfer::reference {

std::span<const ninfer_capability_v2> scaled_capabilities() { return {}; }
bool is_scaled_call(const ninfer_call_v2 *) { return false; }
std::int32_t scaled_call(const ninfer_call_v2 *, ninfer_result_v2 *) { return NINFER_E_UNSUPPORTED; }

}  // namespace ninfer::reference
