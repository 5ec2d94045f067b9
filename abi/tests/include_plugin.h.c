/* SPDX-License-Identifier: Apache-2.0 */
/* plugin.h alone, as strict C11 (abi/CMakeLists.txt): the enums the X-macros generate are usable. */
#include "ninfer/abi/plugin.h"

int ninfer_abi_c11_check(void);
int ninfer_abi_c11_check(void) {
    ninfer_call call = {0};
    ninfer_result result = {0};
    call.struct_size = sizeof call;
    call.op = NINFER_OP_decode;
    call.format = NINFER_FORMAT_bf16;
    return (int)call.struct_size + (int)sizeof result + NINFER_E_INTERNAL + NINFER_CLASS_NAN + NINFER_VERDICT_NAN +
           NINFER_DETAIL_SIZE;
}
