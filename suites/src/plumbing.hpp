// SPDX-License-Identifier: Apache-2.0
// What every family folder's suites share (suites.hpp): golden cases computed once per process
// and filtered by level, seeded cases, both passed through the family's suite-reading marker.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ninfer/suites/case.hpp"

namespace ninfer::suites {

/// A family's pass over its cases that sets `suite_reading` (nullptr: none).
using ReadingMarker = std::vector<Case> (*)(std::vector<Case>);

/// Sets `suite_reading` on each case whose rule rests on a suite reading.
std::vector<Case> mark_rule_readings(std::vector<Case> cases);

/// Golden cases made once per process (then marked), filtered by level on each call.
std::function<std::vector<Case>(Level)> cached_golden_with(std::vector<Case> (*make)(), ReadingMarker mark);
/// Seeded cases of a suite, marked.
std::function<std::vector<Case>(std::uint64_t, Level)> random_with(std::vector<Case> (*make)(std::uint64_t, Level),
                                                                   ReadingMarker mark);

}  // namespace ninfer::suites
