// SPDX-License-Identifier: Apache-2.0
// The reference plugin's side of ABI v2 calls (plugin.h, harness/README.md "The plugin C ABI"):
// planes found by name, a missing required plane refused by name, result fields written only
// within result->struct_size. Private to the reference library.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ninfer/abi/plugin.h"

namespace ninfer::reference {

/// The one function behind every op slot of the v2 table (dispatch on call->op).
std::int32_t serve(void *self, const ninfer_call_v2 *call, ninfer_result_v2 *result);

/// Message (and detail, when not 0) into a v2 result where its struct_size covers them; returns `status`.
std::int32_t refuse_v2(ninfer_result_v2 *result, std::int32_t status, const std::string &message, std::uint32_t detail = 0);

/// The input plane `name` of the call, or NULL after writing an NINFER_E_INVALID_ARGUMENT
/// message naming the op and the plane to `result` (`status` set to that code).
const ninfer_input_plane *require_input(const ninfer_call_v2 *call, ninfer_result_v2 *result, std::uint32_t name,
                                        std::int32_t &status);

/// The output plane `name` of the call, or NULL as require_input.
ninfer_output_plane *require_output(const ninfer_call_v2 *call, ninfer_result_v2 *result, std::uint32_t name,
                                    std::int32_t &status);

/// The bytes of an input plane (empty for a NULL plane or NULL data).
inline std::span<const std::uint8_t> plane_bytes(const ninfer_input_plane *p) {
    if (!p || !p->data) return {};
    return {static_cast<const std::uint8_t *>(p->data), static_cast<std::size_t>(p->bytes)};
}

}  // namespace ninfer::reference
