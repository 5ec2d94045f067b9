/* SPDX-License-Identifier: Apache-2.0 */
/* A plugin that declares nothing, built from the installed header alone. */
#include <ninfer/harness/plugin.h>

static const ninfer_plugin table = {NINFER_ABI_VERSION, sizeof(ninfer_plugin), "consumer", "0", 0, 0, 0, 0, {0}};

NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(uint32_t harness_abi) {
    return harness_abi == NINFER_ABI_VERSION ? &table : 0;
}
