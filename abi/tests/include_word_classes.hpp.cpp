// SPDX-License-Identifier: Apache-2.0
// word_classes.hpp alone, as C++20 (abi/CMakeLists.txt).
#include "ninfer/abi/word_classes.hpp"

static_assert(ninfer::abi::class_is_nan(NINFER_CLASS_NAN));
