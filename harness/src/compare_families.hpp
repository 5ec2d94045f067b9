// SPDX-License-Identifier: Apache-2.0
// Locations and exact values for the block families in a comparison (compare.cpp): nvfp4 in
// block_scale_k16_m128x4_v1, the FP8 row formats (storage-layouts.md Sections 4-6) and the GGUF
// block types in ggml_blocks_v1 (Section 7). Private to the harness.
#pragma once

#include <cstdint>
#include <string>

#include "ninfer/reports/report.hpp"
#include "ninfer/suites/case.hpp"

namespace ninfer::harness {

/// Where byte `offset` of output plane `plane` lies for a case of the scaled or GGUF family
/// ("scale plane row 130 group 5 (byte 16898)", "value row 2 column 7", "row 1 block 3 byte 2"),
/// or "" for a case of another family.
std::string locate_block_family(const suites::Case &c, std::uint32_t plane, std::uint64_t offset);

/// For a mismatching binary32 word of the VALUES plane of an nvfp4, FP8-row or GGUF quant_decode
/// case: the exact value of the element's formula (oracle: e2m1*e4m3/d_w, c*s, ggml's block
/// formula) into `m.exact_value`, and into `m.criterion` what the case requires beside whether
/// the actual word is within rounding of the exact value (one of the two binary32 words around
/// it). Leaves `m` alone for other cases.
void explain_block_value(const suites::Case &c, std::uint64_t element, std::uint32_t actual, reports::Mismatch &m);

}  // namespace ninfer::harness
