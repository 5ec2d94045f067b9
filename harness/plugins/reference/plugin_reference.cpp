// SPDX-License-Identifier: Apache-2.0
// The bundled reference plugin (plugin.h, ABI v2): exports the table of reference_table.cpp.
#include "reference_plugin.hpp"

// A harness of ABI 1 gets NULL (plugin.h, negotiation at ninfer_plugin_entry): this build
// serves ABI 2 and up. No C++ exception crosses the C ABI: a table that cannot be built is NULL.
extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    if (harness_abi < 2) return nullptr;
    try {
        return &ninfer::reference::reference_table_v2();
    } catch (...) {
        return nullptr;
    }
}
