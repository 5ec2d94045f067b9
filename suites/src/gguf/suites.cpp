// SPDX-License-Identifier: Apache-2.0
// The GGUF family's suites, in catalog order: one file per suite in this folder.
#include "builders.hpp"

namespace ninfer::suites {

std::vector<Suite> gguf_suites() {
    using namespace gguf;
    return {decode_suite(), quantize_suite(), layout_suite(), lesson_suite()};
}

}  // namespace ninfer::suites
