// SPDX-License-Identifier: Apache-2.0
// registry.hpp alone, as C++20 (abi/CMakeLists.txt).
#include "ninfer/abi/registry.hpp"

static_assert(ninfer::abi::kAllFormats.size() > 0);
