// SPDX-License-Identifier: Apache-2.0
// methods.hpp alone, as C++20 (abi/CMakeLists.txt).
#include "ninfer/abi/methods.hpp"

static_assert(ninfer::abi::kMethodKinds.size() > 0);
