// SPDX-License-Identifier: Apache-2.0
// The toy format family of toy_family.cpp: its names, for the tests that it plugs in.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ninfer/abi/registry.hpp"

namespace ninfer::toy {

inline constexpr const char *kRule = "toy.copy";
inline constexpr const char *kSuite = "toy.copy";
inline constexpr const char *kBlame = "toy.copy (blamed by the toy descriptor)";
/// A format id no registry row uses.
inline constexpr std::uint32_t kFormat = 0x7077;
inline const std::vector<std::uint8_t> kPayload{0x01, 0x02, 0x03, 0x04};

/// The toy's family: no value of abi::Family names it, and two formats of it for `list`.
inline constexpr auto kFamily = static_cast<abi::Family>(200);
inline constexpr std::array kFormats = {abi::FormatView{900, "toy_a", kFamily, 0}, abi::FormatView{901, "toy_b", kFamily, 0}};

}  // namespace ninfer::toy

namespace ninfer::harness::cli {
struct FamilyCli;
}

namespace ninfer::toy {

/// The toy's CLI descriptor (harness/src/cli/families.hpp).
extern const harness::cli::FamilyCli kCli;

/// True once toy_family.cpp has added its descriptors (before main).
bool toy_registered();

}  // namespace ninfer::toy
