// SPDX-License-Identifier: Apache-2.0
// The gguf family's suites (placeholder of the family contract; the generators land next).
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

std::vector<Suite> gguf_suites() { return {}; }

}  // namespace ninfer::suites
