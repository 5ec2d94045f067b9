// SPDX-License-Identifier: Apache-2.0
// The suite's NaN principle (oracle/README.md, "The NaN principle"): for every rule that sees a
// NaN, what a NaN input must become and which authority decides it, spec first, then the lesson,
// then IEEE 754. The spec waives the payload for every compute operation (tensor-formats.txt 3.1:
// "A compute operation is not required to preserve a NaN payload unless its compute profile says
// so"), so no main rule of a conversion or a decode requires payload bits; the lesson or IEEE 754
// decide the rest (a NaN stays a NaN, quiet, or with every bit kept on a widening). IEEE 754-2019
// 6.3 leaves the sign of a NaN result unspecified, so a main rule requires the input's sign only
// where the lesson does (Example 5's BF16 pair); elsewhere the sign is the profile rule
// `convert.<conversion>.nan_sign`, and the payload word (the lesson's where it gives one) with
// its sign is the profile rule `convert.<conversion>.nan_payload`.
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
    bool sign_profile = false;            ///< convert.<name>.nan_sign requires a NaN of the input's sign
};

/// One row of the NaN table (oracle/README.md, "The NaN table"): a rule that sees a NaN, what a
/// NaN must become under it, its NaN policy and the authority that decides it. The doc's table
/// is checked against this data.
struct NanRow {
    std::string rule, result;
    NanPolicy policy = NanPolicy::exact;
    std::string authority;
};

/// The NaN principle of decode.<format> (NaN words to binary64): (IEEE formats) a quiet binary64
/// NaN of either sign or the binary64 word that keeps every bit, the sign and payload being the
/// profiles of the format's conversions; (formats with one NaN word per sign) a quiet NaN of the
/// word's sign, as the format defines its NaN words.
NanPrinciple decode_nan_principle(const oracle::WordFormat &f);

/// Every row of the NaN table: decode, convert and its payload profiles, classify, validity,
/// layout, gguf decode and linear, in that order.
std::vector<NanRow> nan_table();

/// The row of the principle table for a conversion.
NanPrinciple nan_principle(const oracle::Conversion &c);

/// The id of a conversion's payload profile rule: "convert.<name>.nan_payload".
std::string nan_payload_rule(const oracle::Conversion &c);

/// The id of a conversion's sign profile rule: "convert.<name>.nan_sign" (sign_profile only).
std::string nan_sign_rule(const oracle::Conversion &c);

/// What a NaN of the sign profile becomes: a NaN of the input's sign, quiet where the format has a quiet bit.
inline constexpr const char *kNanSignProfileResult = "a NaN of the input's sign (quiet where the format has a quiet bit)";
/// The sign profile's authority: the suite's own profile (IEEE 754-2019 6.3 leaves the sign open).
inline constexpr const char *kNanSignProfileAuthority = "suite profile (sign kept); IEEE 754-2019 6.3 leaves it unspecified";

}  // namespace ninfer::suites
