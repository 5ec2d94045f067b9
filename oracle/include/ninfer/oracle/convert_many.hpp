// SPDX-License-Identifier: Apache-2.0
// One source word under many named conversions of the same source (issue 24 item 2: the
// exhaustive proof rounds each binary32 word under every FP32-source conversion in one pass).
// Exactly convert_word (scalar.hpp) per conversion; the word is decomposed once.
#pragma once

#include <cstdint>
#include <span>

#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

/// convert_word of one source word under every conversion of `cs` (all of one source format,
/// else std::invalid_argument): out[i] is convert_word(*cs[i], src_word).
void convert_word_many(std::span<const Conversion *const> cs, std::uint64_t src_word, std::uint64_t *out);

}  // namespace ninfer::oracle
