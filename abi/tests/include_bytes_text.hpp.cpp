// SPDX-License-Identifier: Apache-2.0
// bytes.hpp and text.hpp alone, as C++20 (abi/CMakeLists.txt).
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/text.hpp"

static_assert(ninfer::abi::kStatusSpellings.size() > 0);
