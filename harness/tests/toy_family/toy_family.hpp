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

/// The toy's family: the test-only row of NINFER_FAMILIES, and two formats of it for `list`.
inline constexpr auto kFamily = abi::Family::toy;
inline constexpr std::array kFormats = {abi::FormatView{900, "toy_a", kFamily, 0}, abi::FormatView{901, "toy_b", kFamily, 0}};

}  // namespace ninfer::toy

namespace ninfer::harness::cli {
struct CliFamily;
}
namespace ninfer::harness {
struct CompareFamily;
}
namespace ninfer::suites {
struct CatalogFamily;
}
namespace ninfer::reference {
struct ReferenceFamily;
}

namespace ninfer::toy {

/// The toy's descriptors, one per side (docs/ARCHITECTURE.md, "A block-format family").
extern const suites::CatalogFamily kCatalog;
extern const harness::CompareFamily kCompare;
extern const harness::cli::CliFamily kCli;
extern const reference::ReferenceFamily kReference;

/// True once toy_family.cpp has added its descriptors (before main).
bool toy_registered();

}  // namespace ninfer::toy
