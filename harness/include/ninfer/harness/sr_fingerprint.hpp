// SPDX-License-Identifier: Apache-2.0
// The stochastic-rounding convention of a subject (issue 34 item 2; suites/SR.md "Conventions"):
// named exactly when the subject takes the random plane, estimated (k, bias) when it draws its
// own bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/harness/subject.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness {

/// Given bits: the conventions of oracle::kSrConventions (at their k; those without one at r) that
/// give the subject's word on every probe (inputs with and without bits below 2^(q - r), both
/// signs, subnormal results, random values at the edges and drawn from a fixed seed; each input
/// also at the random values beside its threshold, and an exact input at the largest ones).
struct SrConventionMatch {
    std::vector<std::string> names;  ///< empty: none of the conventions
    std::uint64_t probes = 0;
    std::string nearest;             ///< the convention (at its best k) giving the most probes' words
    std::uint64_t nearest_matched = 0;  ///< how many
    int k = 0;                       ///< the k of names[0] (else of nearest)
    std::string error;  ///< the call that failed, else ""
};
SrConventionMatch sr_convention_given_bits(Subject &s, const oracle::Conversion &c);

/// Self-drawn: k, the random bits the subject uses, from the smallest dropped bit 2^j that still
/// rounds up (1 + 2^j 2^-23 with 16 ups expected under k = r; none when j < r - k; more than 64:
/// a sticky bit below 2^(q - k), k = log2(N / ups)), and the bias of P(up) at the quarter (ups / N
/// - 1/4, its standard error sqrt(3/16 / N)).
struct SrEstimate {
    int k_min = 0, k_max = 0;  ///< k in [k_min, k_max] (equal when the probes resolve it)
    double quarter_bias = 0, quarter_error = 0;
    std::vector<std::string> names;  ///< conventions of that k (oracle::kSrConventions)
    std::uint64_t draws = 0;         ///< lanes the subject drew
    std::string error;
};
SrEstimate sr_convention_self_drawn(Subject &s, const oracle::Conversion &c);

/// One line naming the estimate: "k = 8 of r = 16, bias +0.0012 +- 0.0017 at the quarter: ...".
std::string describe(const SrEstimate &e, const oracle::Conversion &c);

/// The fingerprint of an sr conversion (`fingerprint`, docs/cli.md "Stochastic rounding"): rounding
/// "sr" and an "sr" record; given bits (a capability of profile 0) names the convention exactly on
/// the probes (domain "sr_probes"), a NINFER_SR_SELF_DRAWN subject gets the estimate (domain
/// "sr_draws", matched 0: no word is expected of a draw). `error` is set when a call failed.
reports::Fingerprint sr_fingerprint(Subject &s, const oracle::Conversion &c, std::string &error);

}  // namespace ninfer::harness
