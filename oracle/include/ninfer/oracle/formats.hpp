// SPDX-License-Identifier: Apache-2.0
// The oracle's names for the registry's C++ view (ninfer/abi/registry.hpp, where the constexpr
// tables and lookups live) and the oracle's throwing lookups by id. Nothing here is a second list.
#pragma once

#include <cstdint>

#include "ninfer/abi/registry.hpp"

namespace ninfer::oracle {

using abi::CodeEncoding;
using abi::Conversion;
using abi::Encoder;
using abi::Family;
using abi::FormatView;
using abi::GroupedFormat;
using abi::Layout;
using abi::NanRule;
using abi::Op;
using abi::ScaledFormat;
using abi::Packing;
using abi::Overflow;
using abi::Role;
using abi::Rounding;
using abi::Special;
using abi::WordFormat;
namespace detail {
using abi::detail::OverflowId;
using abi::detail::RoundingId;
using enum abi::detail::OverflowId;
using enum abi::detail::RoundingId;
}  // namespace detail

using abi::kAllFormats;
using abi::kConversions;
using abi::kEncoders;
using abi::kGroupedFormats;
using abi::kLayouts;
using abi::kOps;
using abi::kScaledFormats;
using abi::kOverflows;
using abi::kRoles;
using abi::kRoundings;
using abi::kWordFormats;

using abi::find_id;
using abi::find_name;
using abi::format_id;
using abi::format_name;
using abi::layout_accepts;
using abi::layout_name;
using abi::op_name;

const WordFormat &word_format(std::uint32_t id);          ///< throws std::invalid_argument
const GroupedFormat &grouped_format(std::uint32_t id);    ///< throws std::invalid_argument
const Conversion &conversion(std::uint32_t id);           ///< throws std::invalid_argument
const Role &role(std::uint32_t id);                       ///< throws std::invalid_argument

}  // namespace ninfer::oracle
