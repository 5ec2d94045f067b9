// SPDX-License-Identifier: Apache-2.0
// The comparison of an operator's OUTPUT (op linear) under the case's acceptance
// (suites::Expect::accept; reports/README.md, "Operators"). Private to the harness.
#pragma once

#include <cstddef>

#include "ninfer/harness/compare.hpp"

namespace ninfer::harness {

/// Compare the OUTPUT plane of a linear case whose call and reply both succeeded, element by
/// element under Expect::accept (bit for bit against Expect.outputs when accept is empty), into
/// `out`: elements, mismatches, classes and the first `max_first` failing elements with their
/// oracle explanation (oracle::linear_explain). False, with `out` untouched, when the expected
/// OUTPUT plane has no word format (the caller then compares bytes).
bool compare_linear(const suites::Case &c, const Reply &r, Comparison &out, std::size_t max_first);

}  // namespace ninfer::harness
