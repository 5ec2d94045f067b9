// SPDX-License-Identifier: Apache-2.0
// The suite's NaN principle (oracle/README.md, "The NaN principle"): for every named conversion,
// what a NaN input must become and who decides it. Where the spec or the lesson fixes a NaN
// result, it decides; where both are silent, IEEE 754 decides (a converted NaN is quiet and
// keeps its sign); anything stricter (every payload bit kept, a signalling NaN kept signalling)
// is the separate profile rule `convert.<conversion>.nan_payload`.
#pragma once

#include <string>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/case.hpp"

namespace ninfer::suites {

struct NanPrinciple {
    NanPolicy policy = NanPolicy::exact;  ///< how convert.<name> matches a NaN result
    const char *result = "";              ///< what a NaN input becomes under the conversion's rule
    const char *decided_by = "";          ///< "lesson Example 5", "IEEE 754-2019 6.2, 6.2.3", ...
    bool payload_profile = false;         ///< convert.<name>.nan_payload checks the oracle's word bit for bit
};

/// The row of the principle table for a conversion.
NanPrinciple nan_principle(const oracle::Conversion &c);

/// The id of a conversion's payload profile rule: "convert.<name>.nan_payload".
std::string nan_payload_rule(const oracle::Conversion &c);

}  // namespace ninfer::suites
