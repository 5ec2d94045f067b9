// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding run on a subject (issue 24 item 3; suites/SR.md):
// each test's lanes of one input x go to the subject in convert calls without the random plane,
// so that the subject draws its own bits; the count of ups (or of (up, up) pairs) is judged
// against the test's exact binomial acceptance region.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ninfer/harness/subject.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/suites/sr_statistics.hpp"

namespace ninfer::harness {

/// The verdict of one statistical test.
struct SrVerdict {
    suites::sr::Test test;
    suites::sr::Region region;
    suites::sr::Tally tally;
    bool passed = false;
    std::string error;  ///< the call that failed (status, crash, short output), else ""
};

/// One convert call of the binary32 words `xs`, with the random plane `random` (one value per
/// word) or without it (nullptr: the subject draws its own bits): the target words appended to
/// `words`, or the error ("" on success).
std::string convert_lanes(Subject &s, const oracle::Conversion &c, const std::vector<std::uint32_t> &xs,
                          const std::vector<std::uint32_t> *random, std::vector<std::uint64_t> &words);

/// One convert call of `n` lanes of the binary32 word x without the random plane (the subject
/// draws its own bits): the target words appended to `words`, or the error ("" on success).
std::string draw_self(Subject &s, const oracle::Conversion &c, std::uint32_t x, std::uint64_t n,
                      std::vector<std::uint64_t> &words);

/// Whether the subject declares an sr conversion for the statistical rules: a convert
/// capability of profile 0 (reads the random plane, draws its own bits without it) or
/// NINFER_SR_SELF_DRAWN (always draws its own).
bool declares_sr(const SubjectInfo &info, const oracle::Conversion &c);

/// Every statistical test of the conversions the subject declares, at run level `run`
/// (Bonferroni over the tests run), `lanes` words per call; a conversion pinned to an SR
/// convention (`run --pin`, apply_sr_pins) is judged by that convention's law.
std::vector<SrVerdict> run_sr_statistics(Subject &s, suites::sr::Level run, std::uint64_t lanes = suites::sr::kCallLanes,
                                         const std::map<std::string, std::string> &pins = {});

/// The given tests, each at level `level` (no division), `lanes` words per call.
std::vector<SrVerdict> run_sr_tests(Subject &s, const std::vector<suites::sr::Test> &tests, suites::sr::Level level,
                                    std::uint64_t lanes = suites::sr::kCallLanes);

/// The verdicts as report cases: id <rule>/<input>, suite scalar.convert_sr_statistics; a
/// failure says the count, the trials, p and the region (reports/README: one case per test).
std::vector<reports::CaseResult> sr_case_results(const std::vector<SrVerdict> &verdicts);

}  // namespace ninfer::harness
