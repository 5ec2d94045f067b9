/* SPDX-License-Identifier: Apache-2.0 */
/* Moved to abi/ (ninfer/abi/registry.h); this path forwards to it. */
#include "ninfer/abi/registry.h"
