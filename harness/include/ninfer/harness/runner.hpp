// SPDX-License-Identifier: Apache-2.0
// The runner: cases of the suites on a subject, compared with the oracle's expectations, into a
// report; and exhaustive sweeps of a conversion's whole source domain (docs/cli.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <utility>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ninfer/harness/case_cache.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/oracle/fingerprint_lattice.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/suites/case.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/suites/sr_statistics.hpp"

namespace ninfer::harness {

/// A usage or input error (unknown suite, format, conversion; bad range): exit status 2.
/// what() is one line naming the thing and what is accepted.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The project version, which is also the suite version recorded in reports.
const char *suite_version();

struct RunOptions {
    std::vector<std::string> suites;  ///< suite names; empty: every suite of the catalog
    suites::Level level = suites::Level::quick;
    std::uint64_t seed = suites::kDefaultSeed;
    std::filesystem::path vectors_dir;  ///< empty: vectors::default_vectors_dir()
    std::size_t max_mismatches = 8;   ///< first mismatches kept per case
    bool progress = false;            ///< one line per suite on stderr
    /// A live line on stderr while the cases are collected (progress.hpp; `run --progress`).
    bool live_progress = false;
    /// `run --case-cache DIR`: the seeded random cases kept there, per build, level, seed and
    /// suite (case_cache.hpp); empty: generated every run.
    std::filesystem::path case_cache;
    CaseCacheKey case_cache_key;  ///< authenticates the files of case_cache (case_cache.hpp)
    /// Subjects calling at once (`run --jobs`), each on a contiguous slice of the ordered cases;
    /// the report is the same for any value (timings aside). More than 1 needs run_cases's open_more.
    unsigned jobs = 1;
    /// `run --pin RULE=CHOICE`: each open reading named keeps only that choice in its cases
    /// (suites::pin_choice); checked by check_pins.
    std::map<std::string, std::string> pins;
    /// `run --policy convert.NAME=POINT`: the cases of NAME judged by a lattice point instead of
    /// the registry conversion (policy.cpp; docs/cli.md "Judging by a policy"); checked by check_policies.
    std::map<std::string, std::string> policies;
    /// When set (`run` sets its subject's): a suite none of whose golden cases the subject
    /// declares (case_declared) is left out, its random cases never generated, none of its cases
    /// reported (CaseSet::undeclared names it). The golden cases of a suite cover every call of
    /// its random ones (a test checks it at full), so no declared case is lost.
    const SubjectInfo *declared_by = nullptr;
    /// `run --max-failures N` (0: none; `--fail-fast` is 1): stop after the N-th failing case in
    /// case order that `waived` does not excuse; the report holds the cases up to it and says so
    /// (extra "stopped"), the same for any number of jobs.
    std::size_t max_failures = 0;
    std::function<bool(const reports::CaseResult &)> waived;  ///< empty: no failure is excused
};

/// Parse "RULE=CHOICE" (`run --pin`); throws UsageError naming the text and the form expected.
std::pair<std::string, std::string> parse_pin(const std::string &text);
/// Throws UsageError unless every pin names an open rule of the catalog and one of its choices.
void check_pins(const std::map<std::string, std::string> &pins);

/// A case and the suite it comes from.
struct SuiteCase {
    std::string suite;
    suites::Case c;
};

/// A conversion judged by a lattice point (`run --policy`, `sweep --policy`): the conversion, the
/// point, and its spelling (oracle::lattice::policy_spelling).
struct JudgedPolicy {
    const oracle::Conversion *conversion = nullptr;
    oracle::lattice::Policy policy;
    std::string spelling;
};
/// The point `text` of conversion `name` (a registry conversion the lattice covers: not an sr one);
/// throws UsageError naming what is wrong.
JudgedPolicy judged_policy(const std::string &name, const std::string &text);
/// Parse "convert.NAME=POINT" (`run --policy`) into (rule, point); throws UsageError.
std::pair<std::string, std::string> parse_policy_option(const std::string &text);
/// Throws UsageError unless every policy names a covered conversion's rule and one of its lattice's points.
void check_policies(const std::map<std::string, std::string> &policies);
/// Every case of a judged conversion's rule convert.NAME expects the policy's words, NaNs bit for
/// bit (alternatives and NaN policy dropped); the cases of its profile rules (convert.NAME.*) are
/// left out, since the policy decides what they judge. A case that expects a refusal keeps it.
void apply_policies(std::vector<SuiteCase> &cases, const std::map<std::string, std::string> &policies);
/// The policy's words of `n` source words (`in`: n words of the conversion's source, little-endian)
/// into `out` (n target words): the oracle lattice's policy_word, exact integer logic.
void policy_words(const JudgedPolicy &p, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n);

/// Pin each case whose alternatives are a pinned reading's to that choice (suites::pin_choice);
/// throws UsageError when a case lacks the pinned choice.
void apply_pins(std::vector<SuiteCase> &cases, const std::map<std::string, std::string> &pins);

/// The statistical tests of every sr conversion pinned to a convention, as that convention judges
/// a subject (suites::sr::pinned: its P(up), its shared lanes); the others unchanged.
std::vector<suites::sr::Test> apply_sr_pins(std::vector<suites::sr::Test> tests, const std::map<std::string, std::string> &pins);

struct CaseSet {
    std::vector<std::string> suites;  ///< names, in catalog order
    std::vector<SuiteCase> cases;
    std::string vectors_dir, manifest_sha256;
    std::string manifest;  ///< the text of MANIFEST.sha256 whose digest is manifest_sha256
    std::vector<std::string> undeclared;  ///< suites left out: nothing in them declared (RunOptions::declared_by)
};

/// Which cases of a set to run (`run --rule`, `--case`, `--rerun-failed`): a case is kept when
/// it matches one of `rules` (globs over rule ids), one of `cases` (globs over case ids) and is
/// one of `ids`, each where given. Globs as a baseline's waivers (`*` crosses '/').
struct CaseSelection {
    std::vector<std::string> rules, cases;
    std::optional<std::vector<std::string>> ids;
    std::string ids_from;  ///< where `ids` come from, for messages ("--rerun-failed old.json")
    bool empty() const { return rules.empty() && cases.empty() && !ids; }
};

/// Keep the selected cases of the set, in order; throws UsageError with one line (and the
/// nearest names) when a pattern or the ids select nothing.
void select_cases(CaseSet &set, const CaseSelection &sel);

/// Golden cases from the vectors (digests verified, all suites in one load: each file read
/// once, ids unique across files) plus, at full and exhaustive, the suites' seeded random
/// cases (from opts.case_cache when set); opts.pins applied to the cases of their readings.
/// Throws UsageError (unknown suite, a bad pin) or vectors::VectorError.
CaseSet collect_cases(const RunOptions &opts);

/// The call of a case: its inputs, and output capacities (the expected sizes; a generous
/// capacity for error-expecting cases).
Call call_of(const suites::Case &c);

/// Whether the subject declares the capability the case needs.
bool case_declared(const SubjectInfo &info, const suites::Case &c);

/// Run one case on a subject: unsupported when not declared, else call and compare.
reports::CaseResult run_case(Subject &s, const suites::Case &c, const std::string &suite, std::size_t max_mismatches);

/// The identity of a subject for reports.
reports::SubjectIdentity identity_of(const Subject &s, const std::string &kind, const std::string &path);

/// Run every case of the set and return the finalized report (baseline not applied); its
/// options hold max_mismatches and the case cache (the caller adds the subject's limits and the
/// baseline). With opts.jobs > 1, open_more opens the other jobs' subjects (in their threads); a
/// job whose subject cannot start reports each of its cases as an error naming why.
reports::Report run_cases(Subject &s, const CaseSet &set, const RunOptions &opts, const reports::SubjectIdentity &id,
                          const std::function<std::unique_ptr<Subject>()> &open_more = {});

// ---- Exhaustive sweeps ---------------------------------------------------------------------

/// Where a sweep's expected words come from.
enum class SweepExpected : std::uint8_t {
    native,  ///< ninfer::native (native_words.hpp), cross-checked against the oracle by the tests
    oracle   ///< the MPFR oracle itself, word by word (exhaustive.hpp), in parallel
};

struct SweepOptions {
    std::uint32_t op = NINFER_OP_convert;  ///< convert (by `conversion`) or decode (of `format`)
    std::uint32_t conversion = 0;
    std::uint32_t format = 0;
    std::uint64_t start = 0;
    std::optional<std::uint64_t> count;     ///< default: the rest of the source domain
    std::uint64_t batch = 1ull << 17;       ///< words per Iota call (in cache: 512 KiB of fp32 input)
    std::size_t max_mismatches = 8;
    bool progress = false;                  ///< the closing line on stderr: words, mismatches, rate
    /// A live line on stderr while the jobs run: words, share, mismatches, rate, ETA (progress.hpp).
    bool live_progress = false;
    /// convert: judge NaN words bit for bit under the profile rule convert.<name>.nan_payload
    /// instead of the conversion's NaN principle policy (oracle/README.md).
    bool nan_payload = false;
    /// convert: judge NaN words under the profile rule convert.<name>.nan_sign (a NaN of the
    /// input's sign) instead of the conversion's NaN principle policy.
    bool nan_sign = false;
    SweepExpected expected = SweepExpected::native;
    /// `sweep --policy POINT`: the expected words are the point's (policy_words), NaNs bit for bit.
    std::optional<JudgedPolicy> policy;
    /// Workers (subjects) on disjoint contiguous runs of whole batches; the report is the same
    /// for any value (timings aside). More than 1 needs run_sweep's open_more.
    unsigned jobs = 1;
    /// A shard I/N (shard_count 0: none): the words [start + floor(count*I/N),
    /// start + floor(count*(I+1)/N)) of the range; the report keeps the whole range's start and
    /// count (docs/cli.md, "Shards").
    std::uint64_t shard_index = 0, shard_count = 0;
    /// `--max-failures N` (0: none; `--fail-fast` is 1): stop after the batch in which the N-th
    /// mismatching word (in word order) is found; the report judges the words up to there and
    /// says so (extra "stopped"), the same for any number of jobs.
    std::uint64_t max_failures = 0;
};

struct SweepResult {
    reports::Report report;  ///< one case: "<rule>/sweep"
    std::uint64_t words = 0; ///< the words swept (a shard's part)
    double seconds = 0;      ///< wall time of calls and comparison
    double words_per_second = 0;
};

/// The verdict of one word of a conversion sweep, the one `run` gives the same word in a case:
/// not judged outside the rule's domain (suites/conversions.hpp), else pass when the actual word
/// is the expected one or the NaN policy accepts it, else fail.
enum class WordVerdict : std::uint8_t { pass, fail, not_judged };
/// Whether a source word is inside the conversion's domain (suites::conversion_in_domain), from
/// the source word's bits alone: the sweep's test per word, cross-checked against the oracle's
/// classes in the tests.
bool sweep_in_domain(const oracle::Conversion &c, std::uint64_t src);
/// How many of the source words first .. first+n-1 lie outside the conversion's domain, counted
/// by ranges (a block that compares equal); the words sweep_in_domain refuses, one by one.
std::uint64_t sweep_words_outside_domain(const oracle::Conversion &c, std::uint64_t first, std::uint64_t n);

WordVerdict sweep_word_verdict(const oracle::Conversion &c, suites::NanPolicy policy, std::uint64_t src,
                               std::uint64_t expected, std::uint64_t actual);

/// Size of the source domain of a conversion or format (2^bits).
std::uint64_t source_domain(const SweepOptions &o);

/// Sweep [start, start+count) (or its shard) of the source domain through the subject in
/// pipelined Iota batches; expected words from the native codecs (cross-checked against the
/// oracle in the tests) or the oracle itself, compared block by block (memcmp) under the
/// conversion's NaN principle policy (or bit for bit with nan_payload). With o.jobs > 1,
/// open_more opens the other jobs' subjects (in their threads).
/// Throws UsageError for a bad conversion, format, range or shard.
SweepResult run_sweep(Subject &s, const SweepOptions &o, const reports::SubjectIdentity &id,
                      const std::function<std::unique_ptr<Subject>()> &open_more = {});

}  // namespace ninfer::harness
