// SPDX-License-Identifier: Apache-2.0
// The bundled reference plugin (plugin.h): exports the table of reference_table.cpp.
#include "reference_plugin.hpp"

// No C++ exception crosses the C ABI: a table that cannot be built is NULL.
extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    if (harness_abi != NINFER_ABI_VERSION) return nullptr;
    try {
        return &ninfer::reference::reference_table();
    } catch (...) {
        return nullptr;
    }
}
