/* SPDX-License-Identifier: Apache-2.0 */
/* plugin.h alone, as strict C11 (abi/CMakeLists.txt), compiled twice: as written (ABI v2, the
 * default) and with -DNINFER_PLUGIN_ABI=1, where the unsuffixed names are the frozen v1 types
 * so that a v1 source builds unchanged. The X-macro enums are usable either way. */
#include "ninfer/abi/plugin.h"

int ninfer_abi_c11_check(void);

#if NINFER_PLUGIN_ABI == 1
/* v1: three fixed output buffers, written sizes in the result. */
_Static_assert(NINFER_ABI_VERSION == 1u, "NINFER_PLUGIN_ABI=1 selects ABI 1");
int ninfer_abi_c11_check(void) {
    static const uint8_t words[2] = {0x80, 0x3F};
    uint8_t values[8];
    ninfer_call call = {0};
    ninfer_result result = {0};
    ninfer_capability cap = {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0};
    ninfer_plugin table = {0};
    ninfer_call_v1 *same = &call;
    call.struct_size = sizeof call;
    call.op = NINFER_OP_decode;
    call.format = NINFER_FORMAT_bf16;
    call.count = 1;
    call.in = words;
    call.in_bytes = sizeof words;
    call.out = values;
    call.out_bytes = sizeof values;
    result.out_written = 0;
    table.abi_version = NINFER_ABI_VERSION;
    table.capabilities = &cap;
    return (int)same->struct_size + (int)sizeof result + (int)table.abi_version + NINFER_E_INTERNAL + NINFER_CLASS_NAN +
           NINFER_VERDICT_NAN + NINFER_DETAIL_SIZE;
}
#else
/* v2 (default): counted named planes, a result with struct_size. */
_Static_assert(NINFER_ABI_VERSION == 2u, "ABI 2 is the default");
int ninfer_abi_c11_check(void) {
    static const uint8_t words[2] = {0x80, 0x3F};
    uint8_t values[8];
    const ninfer_input_plane inputs[1] = {{NINFER_PLANE_WORDS, 0, words, sizeof words}};
    ninfer_output_plane outputs[1] = {{NINFER_PLANE_VALUES, 0, values, sizeof values, 0}};
    ninfer_call call = {0};
    ninfer_result result = {0};
    ninfer_capability cap = {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0, 0};
    ninfer_plugin table = {0};
    ninfer_call_v2 *same = &call;
    ninfer_output_plane *out;
    call.struct_size = sizeof call;
    call.op = NINFER_OP_decode;
    call.format = NINFER_FORMAT_bf16;
    call.count = 1;
    call.input_count = 1;
    call.inputs = inputs;
    call.output_count = 1;
    call.outputs = outputs;
    result.struct_size = sizeof result;
    out = ninfer_find_output(&call, NINFER_PLANE_VALUES);
    if (out && ninfer_find_input(&call, NINFER_PLANE_WORDS) && NINFER_HAS_FIELD(&result, ninfer_result, message))
        out->written = 8;
    table.abi_version = NINFER_ABI_VERSION;
    table.capabilities = &cap;
    table.capability_size = sizeof cap;
    return (int)same->struct_size + (int)sizeof result + (int)table.abi_version + NINFER_E_INTERNAL + NINFER_CLASS_NAN +
           NINFER_VERDICT_NAN + NINFER_DETAIL_SIZE + NINFER_PLANE_OUTPUT;
}
#endif
