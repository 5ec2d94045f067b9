/* SPDX-License-Identifier: Apache-2.0 */
/* Moved to abi/ (ninfer/abi/plugin.h); this path forwards to it. */
#include "ninfer/abi/plugin.h"
