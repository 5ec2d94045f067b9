// SPDX-License-Identifier: Apache-2.0
// The reference plugin's gguf half (placeholder of the family contract: nothing routed yet).
#include "gguf_ops.hpp"

namespace ninfer::reference {

std::span<const ninfer_capability_v2> gguf_capabilities() { return {}; }
bool is_gguf_call(const ninfer_call_v2 *) { return false; }
std::int32_t gguf_call(const ninfer_call_v2 *, ninfer_result_v2 *) { return NINFER_E_UNSUPPORTED; }

}  // namespace ninfer::reference
