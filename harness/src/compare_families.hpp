// SPDX-License-Identifier: Apache-2.0
// The compare descriptors of the format families (compare.hpp, CompareFamily), one per family's
// compare file, and the helpers they share with compare.cpp. Private to the harness.
#pragma once

#include <cstdint>
#include <string>

#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/case.hpp"

namespace ninfer::harness {

/// The word family (compare.cpp): words of a contiguous_le_v1 payload, by coordinate.
extern const CompareFamily kWordCompare;
/// The grouped family (compare_grouped.cpp): row_split_k128_v1 locations, blame and the 7.2 trace.
extern const CompareFamily kGroupedCompare;
/// nvfp4 in block_scale_k16_m128x4_v1 and the FP8 row formats (compare_families.cpp, Sections 4-6).
extern const CompareFamily kScaledCompare;
/// The GGUF block types in ggml_blocks_v1 (compare_families.cpp, Section 7).
extern const CompareFamily kGgufCompare;

/// The unit hook of the block families: binary32 words for quant_decode's VALUES and for the
/// DIVISORS plane, bytes otherwise.
const oracle::WordFormat *binary32_values(const suites::Case &c, std::uint32_t name, int index);

/// A word's value for a report: nan_text for a NaN, the oracle's value text otherwise ("" when
/// the oracle has none).
std::string value_text(const oracle::WordFormat &f, std::uint64_t w);

}  // namespace ninfer::harness
