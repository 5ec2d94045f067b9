/* SPDX-License-Identifier: Apache-2.0 */
/* registry.h alone, as strict C11 (abi/CMakeLists.txt). */
#include "ninfer/abi/registry.h"

int ninfer_abi_c11_check(void);
int ninfer_abi_c11_check(void) { return 0; }
