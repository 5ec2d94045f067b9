// SPDX-License-Identifier: Apache-2.0
// family_registry.hpp alone, as C++20 (abi/CMakeLists.txt).
#include "ninfer/abi/family_registry.hpp"

static_assert(ninfer::abi::kFamilyRows.size() > 0);
