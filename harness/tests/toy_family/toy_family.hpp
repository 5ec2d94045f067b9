// SPDX-License-Identifier: Apache-2.0
// The toy format family of toy_family.cpp: its names, for the test that it plugs in.
#pragma once

#include <cstdint>
#include <vector>

namespace ninfer::toy {

inline constexpr const char *kRule = "toy.copy";
inline constexpr const char *kSuite = "toy.copy";
inline constexpr const char *kBlame = "toy.copy (blamed by the toy descriptor)";
/// A format id no registry row uses.
inline constexpr std::uint32_t kFormat = 0x7077;
inline const std::vector<std::uint8_t> kPayload{0x01, 0x02, 0x03, 0x04};

/// True once toy_family.cpp has added its descriptors (before main).
bool toy_registered();

}  // namespace ninfer::toy
