// SPDX-License-Identifier: Apache-2.0
// The suite's NaN principle (oracle/README.md, "The NaN principle"): for every rule that sees a
// NaN, what a NaN input must become and which authority decides it, spec first, then the lesson,
// then IEEE 754. The spec waives the payload for every compute operation (tensor-formats.txt 3.1:
// "A compute operation is not required to preserve a NaN payload unless its compute profile says
// so"), so no main rule of a conversion or a decode requires payload bits; the lesson or IEEE 754
// decide the rest (a NaN stays a NaN of its sign, quiet, or with every bit kept on a widening);
// the payload word (the lesson's where it gives one) is the profile rule
// `convert.<conversion>.nan_payload`.
#pragma once

#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/case.hpp"

namespace ninfer::suites {

struct NanPrinciple {
    NanPolicy policy = NanPolicy::exact;  ///< how convert.<name> matches a NaN result
    const char *result = "";              ///< what a NaN input becomes under the conversion's rule
    const char *decided_by = "";          ///< "lesson Example 5", "IEEE 754-2019 6.2, 6.2.3", ...
    bool payload_profile = false;         ///< convert.<name>.nan_payload checks the oracle's word bit for bit
    const char *profile_result = "";      ///< the profile's word (payload_profile only)
    const char *profile_decided_by = "";  ///< the profile's authority (payload_profile only)
};

/// One row of the NaN table (oracle/README.md, "The NaN table"): a rule that sees a NaN, what a
/// NaN must become under it, its NaN policy and the authority that decides it. The doc's table
/// is checked against this data.
struct NanRow {
    std::string rule, result;
    NanPolicy policy = NanPolicy::exact;
    std::string authority;
};

/// The NaN principle of decode.<format> (NaN words to binary64): a quiet binary64 NaN of the
/// word's sign, or (IEEE formats) the binary64 word that keeps every bit, as the widenings.
NanPrinciple decode_nan_principle(const oracle::WordFormat &f);

/// Every row of the NaN table: decode, convert and its payload profiles, classify, validity,
/// layout, gguf decode and linear, in that order.
std::vector<NanRow> nan_table();

/// The row of the principle table for a conversion.
NanPrinciple nan_principle(const oracle::Conversion &c);

/// The id of a conversion's payload profile rule: "convert.<name>.nan_payload".
std::string nan_payload_rule(const oracle::Conversion &c);

}  // namespace ninfer::suites
