// SPDX-License-Identifier: Apache-2.0
// The report model of a conformance run and its renderings: versioned JSON (schema in
// reports/schema/report-v3.schema.json), JUnit XML and the one-screen summary (reports/README.md).
// The model holds text only, so that reports depend on nothing but the run's results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ninfer/reports/output_file.hpp"  // write_atomic, output_mutex: every writer of a report

namespace ninfer::reports {

/// The value of the report's "schema" field; bump the suffix on an incompatible change.
inline constexpr std::string_view kSchemaId = "ninfer-conform/report/v3";
/// The previous version (reports/README.md, "Versioning"): still read by `report` and `run --previous`.
inline constexpr std::string_view kSchemaIdV2 = "ninfer-conform/report/v2";

/// Status of one case (and of one rule: the worst of its cases).
enum class Status : std::uint8_t { pass, fail, unsupported, error, crash, timeout };

const char *status_name(Status s);
/// True for the statuses that fail a run unless waived (fail, error, crash, timeout).
bool is_failure(Status s);
/// The worse of two statuses decides a rule's or merged case's status: unsupported < pass < fail
/// < error < timeout < crash.
int severity(Status s);

/// Where a mismatch lies, as fields (report v3 "where"; reports/README.md): only the ones that
/// apply. `plane` is the layout's plane inside the output plane ("base", "high", "scale",
/// "code", "gap", "divisor", "multiplier"; "" when the output plane is the whole of it).
struct Where {
    std::string plane{};
    std::optional<std::uint64_t> row{}, group{}, lane{}, column{}, element{};
    bool empty() const { return plane.empty() && !row && !group && !lane && !column && !element; }
    bool operator==(const Where &) const = default;
};

/// A status mismatch's codes (plugin.h NINFER_STATUSES) and payload details (report v3 "status_codes").
struct StatusCodes {
    std::int32_t expected = 0;
    std::uint32_t expected_detail = 0;
    std::int32_t actual = 0;
    std::uint32_t actual_detail = 0;
    bool operator==(const StatusCodes &) const = default;
};

/// One mismatching element, byte or verdict of a case.
struct Mismatch {
    // NSDMI on every member: designated initializers name only the fields that apply.
    std::uint64_t index = 0;            ///< element index (word ops) or byte offset (buffer ops)
    std::string plane{};                ///< the output plane's registry name ("values", "scales") or "status"
    std::vector<std::string> inputs{};  ///< input word(s) as hex
    std::string input_value{};          ///< exact value of the (first) input word, when a word
    std::string expected{}, actual{};   ///< hex
    std::string expected_value{}, actual_value{};  ///< decoded exact values, when words
    std::string cls{};                  ///< mismatch class (reports/README.md)
    std::string location{};             ///< "element 3", "coordinate [1,2]", "scale plane row 0 group 1"
    std::string blame{};                ///< the rule the plane/field points at, "" = the case's rule
    /// Block formats' VALUES (nvfp4, FP8 rows, GGUF): the exact value of the element's formula, and
    /// what the case compares ("bit for bit equal to ggml's binary32 word; the actual word is
    /// within rounding of the exact value"); "" elsewhere.
    std::string exact_value{}, criterion{};
    /// Operators (op linear): the actual word's error |y - y_exact| in ulps of the output format
    /// at y_exact (infinite for a NaN or an infinity), and as a fraction of the criterion's bound
    /// (only when the criterion has a bound). Absent elsewhere.
    std::optional<double> error_ulps{}, bound_fraction{};
    Where where{};                              ///< `location` as fields; empty where none apply
    std::optional<StatusCodes> status_codes{};  ///< plane "status": the codes `expected`/`actual` spell
};

/// A report's number that may be non-finite: a JSON number when finite, else the string "inf",
/// "-inf" or "nan" (JSON has no such numbers); the reverse for a report read back.
nlohmann::ordered_json number_json(double x);
std::optional<double> number_from_json(const nlohmann::json &j);
/// The number as a report shows it: "%.6g", "inf", "nan".
std::string number_text(double x);

/// A word the case's NaN policy accepted though it differs from the oracle's (nan_policy of
/// the case): the report shows which NaN stood in for which.
struct NanAccepted {
    std::uint64_t index = 0;               ///< element index (word ops) or byte offset (buffer ops)
    std::string expected, actual;          ///< hex
    std::string expected_value, actual_value;  ///< "+qnan(0x1)", "-snan", ...
};

/// The result of one case.
struct CaseResult {
    std::string id, rule, sentence, suite, source;
    bool suite_reading = false;
    Status status = Status::pass;
    std::uint64_t elements = 0;    ///< elements (word ops) or bytes (buffer ops) compared
    std::uint64_t mismatches = 0;  ///< all mismatches, not only the first ones kept
    std::vector<Mismatch> first;   ///< the first mismatches, capped by the run
    std::map<std::string, std::uint64_t> classes;  ///< count of every mismatch class
    std::string message;           ///< why, in one line (subject message, crash reason, ...)
    bool waived = false;           ///< a failure excused by a baseline waiver
    std::string waiver_reason;
    std::string trace;             ///< the oracle's steps for the first failing encoder group, or ""
    std::string nan_policy;        ///< the case's NaN policy (word cases), "" when not a word case
    std::uint64_t nan_accepted = 0;            ///< NaN words accepted by the policy, not bit-equal
    std::vector<NanAccepted> nan_accepted_first;  ///< the first of them, capped as `first`
    /// Swept source words outside the rule's domain (a NaN input of a conversion that leaves it
    /// undefined): counted, never judged, as `run` offers none of them; `not_judged_why` says which.
    std::uint64_t not_judged = 0;
    std::string not_judged_why;
    /// The kind of the rule's reading: "forced", "open", "" when the rule has none.
    std::string reading_kind{};
    /// A case with alternatives: the open rule whose choices they are, and the choice the
    /// subject's reply took ("" when it matched none); both "" for a case with one outcome.
    std::string reading{}, choice{};
};

/// Per rule: the worst status among its cases and the mismatch classes of its failures.
struct RuleSummary {
    std::string id, sentence;
    Status status = Status::pass;
    std::map<std::string, std::uint64_t> counts;   ///< cases per status name (+ "waived")
    std::map<std::string, std::uint64_t> classes;  ///< mismatch class counts over unwaived failures
    std::string first_failure;                     ///< id of its first unwaived failing case
    bool suite_reading = false;    ///< a failing case of the rule rests on a documented suite reading
    std::uint64_t failing_cases = 0, cases = 0;    ///< unwaived failing cases, all cases of the rule
    std::uint64_t blamed = 0;      ///< kept mismatches of any failing case whose plane/field points at this rule
    std::string reading_kind{};    ///< its cases' reading_kind: "forced", "open" or ""
    /// Cases with alternatives: the open rule(s) they rest on and the cases per choice taken.
    std::string reading{};
    std::map<std::string, std::uint64_t> choices{};
};

struct Totals {
    std::uint64_t cases = 0, pass = 0, fail = 0, unsupported = 0, error = 0, crash = 0, timeout = 0;
    std::uint64_t waived = 0;      ///< failures excused by waivers (also counted in their status)
    std::uint64_t mismatches = 0;  ///< over all cases
};

struct SubjectIdentity {
    std::string kind;     ///< "plugin" or "exec"
    std::string name, version;
    std::uint32_t abi = 0;
    std::string path;     ///< plugin path, or the command of an exec subject
    /// What the subject declared, one line per capability as `plugins --capabilities` spells it
    /// (issue 25: `run --previous` and baselines gate on it); empty when none or not recorded.
    std::vector<std::string> capabilities{};
    /// How the kernel contained its processes (harness/README.md, "Containment"); "" when not
    /// recorded (a report of an older build).
    std::string containment{};
    /// The rule a bundled seeded-bug plugin declares it breaks (ninfer_mutant_breaks); "" for any
    /// other subject. The HTML page says such a subject's failure of that rule is what was expected.
    std::string breaks{};
};

struct StaleWaiver {
    std::string rule, case_pattern, reason;
};

/// `run --case-cache DIR`: the directory as given and the id of the key that authenticates its
/// files (the first 16 hex digits of the key's SHA-256; never the key).
struct CaseCacheUse {
    std::string dir, key_id;
    bool operator==(const CaseCacheUse &) const = default;
};

/// Every option of a run or sweep that can change its verdict (reports/README.md, "options"),
/// beside the level, seed, suites and vectors the report records at its top level. `merge`
/// refuses shards whose options differ.
struct ReportOptions {
    std::uint64_t timeout_ms = 0;        ///< time limit of one call (sweep: one batch call)
    std::uint64_t memory_limit_mib = 0;  ///< the subject's address-space limit, 0 none
    std::uint64_t max_mismatches = 0;    ///< first mismatches kept per case
    // NSDMI on the optional members: designated initializers that leave them out stay warning-free
    std::optional<std::string> baseline_sha256{};  ///< SHA-256 of the baseline file's bytes; none: no baseline
    std::optional<CaseCacheUse> case_cache{};      ///< run --case-cache; none: no cache
    std::optional<std::uint64_t> batch{};          ///< sweep: words per call
    std::optional<std::string> expected{};         ///< sweep: "native" or "oracle"
    std::optional<bool> nan_payload{};             ///< sweep: --nan-payload
    std::optional<bool> nan_sign{};                ///< sweep: --nan-sign
    /// run --pin RULE=CHOICE: each open reading pinned to one choice (absent from the JSON when none).
    std::map<std::string, std::string> pins{};
    /// run --policy convert.NAME=POINT, sweep --policy POINT: the lattice point each conversion was
    /// judged by instead of the registry's (absent from the JSON when none).
    std::map<std::string, std::string> policies{};
    bool operator==(const ReportOptions &) const = default;
};

/// The JSON object "options" of a report; and the reverse (std::nullopt and `error` set when
/// the object is not one, naming the field and what was expected).
nlohmann::ordered_json options_json(const ReportOptions &o);
std::optional<ReportOptions> options_from_json(const nlohmann::json &j, std::string &error);

/// One input class of a behaviour fingerprint (issue 24, item 1; docs/cli.md "fingerprint"): how
/// many inputs of the class the domain holds and how many of them the subject maps to another word
/// than the fingerprint's policy does, with the first such input.
struct FingerprintResidue {
    std::string cls;                  ///< input class (docs/cli.md "fingerprint": nan, infinity, overflow, ...)
    std::uint64_t inputs = 0;         ///< inputs of the class in the domain
    std::uint64_t mismatches = 0;     ///< of them, answered with another word than the policy's
    std::string input, expected, actual;  ///< the first mismatch as hex words ("" when none)
    bool operator==(const FingerprintResidue &) const = default;
};

/// The stochastic-rounding convention of an sr conversion (issue 34 item 2; suites/SR.md
/// "Conventions"): named exactly from probes with given random values ("given"), or estimated from
/// the subject's own draws ("self_drawn": k in k_min..k_max, P(up) at the quarter minus 1/4).
struct SrFingerprint {
    std::string bits;                 ///< "given" or "self_drawn"
    int r = 0;                        ///< the conversion's random bits (SR.md)
    int k_min = 0, k_max = 0;         ///< given: the named convention's k (0: none); self_drawn: the estimate
    double quarter_bias = 0, quarter_error = 0;  ///< self_drawn only (0 when given)
    std::vector<std::string> conventions;        ///< the conventions that fit (empty: none)
    bool operator==(const SrFingerprint &) const = default;
};

/// The recipe of a block quantizer (issue 34 item 6; suites/RECIPES.md): its lattice's family,
/// the point's coordinates (axis, value) and every point consistent with the probes.
struct RecipeFingerprint {
    std::string family;                                              ///< "mxfp4", "grouped", "nvfp4"
    std::vector<std::pair<std::string, std::string>> coordinates;     ///< (axis, value) of the named or nearest point
    std::vector<std::string> recipes;                                ///< the consistent points (empty: none)
    bool canonical = false;                                          ///< the named point is the method's own recipe
    bool operator==(const RecipeFingerprint &) const = default;
};

/// A behaviour fingerprint of one conversion or decode (`ninfer-conform fingerprint`, and `run`
/// beside a conversion's failures): the policy of the lattice (rounding x overflow x subnormals x
/// NaN) that matches the subject on the most inputs of the domain, with the residue by input class.
struct Fingerprint {
    std::string op;                   ///< "convert" or "decode"
    std::string conversion;           ///< the registry conversion (convert) or word format (decode) under test
    std::string source, target;       ///< word format names
    std::string domain;               ///< "all" (every source word), "stratified" or "sparse" (docs/cli.md)
    std::uint64_t inputs = 0;         ///< inputs offered
    std::uint64_t matched = 0;        ///< inputs on which the subject's word equals the policy's
    std::string rounding, overflow, subnormals, nan;  ///< the policy's coordinates (lattice names)
    std::string signless, tiny;       ///< unsigned targets' choices (lattice names), "" where the target has none
    std::string policy_text;          ///< "nearest-even, saturate finite only, NaN canonical (0x7F)"
    std::string named;                ///< the registry conversion that is this policy, or ""
    /// The policy as `run --policy` spells it ("rne/inf/kept/signed_canonical"): a convert op's, else "".
    std::string point;
    std::vector<std::string> equivalent;      ///< other policies with the same words on this domain
    std::vector<FingerprintResidue> residue;  ///< input classes with mismatches (empty on a full match)
    std::string sentence;             ///< "matches fp32_to_e4m3fn_rne_satfinite: ... on N of N inputs"
    std::optional<SrFingerprint> sr;  ///< an sr conversion's convention (rounding "sr"), else none
    std::optional<RecipeFingerprint> recipe;  ///< a quant_encode's recipe (op "quant_encode"), else none
    bool operator==(const Fingerprint &) const = default;
};

/// The JSON object of one fingerprint (reports/README.md, "fingerprints"); and the reverse of the
/// report's "fingerprints" array (std::nullopt and `error` set, naming the record and field, when
/// it is not one: a field missing or of another type, a lattice name the schema does not list,
/// a word not in lowercase hex, more matches or mismatches than inputs).
nlohmann::ordered_json fingerprint_json(const Fingerprint &f);
std::optional<std::vector<Fingerprint>> fingerprints_from_json(const nlohmann::json &j, std::string &error);

/// The rule a fingerprint names ("convert.fp32_to_e4m3fn_rne_satfinite", "decode.bf16"), and
/// whether `rule` is it or one of its sub-rules ("convert.fp32_to_bf16_rne.nan_payload").
std::string fingerprint_rule(const Fingerprint &f);
bool fingerprint_covers(const Fingerprint &f, std::string_view rule);
/// The summary's line of one residue class: "residue nan: 12 of 510; first 0x7f800001 -> 0x7e00, policy 0x7e01".
std::string residue_text(const FingerprintResidue &r);

/// A whole run (`ninfer-conform run`) or sweep (`ninfer-conform sweep`).
struct Report {
    std::string kind = "run";        ///< "run" or "sweep"
    std::string tool_version;        ///< project version = suite version
    SubjectIdentity subject;
    std::string open_error;          ///< set when the subject could not be started
    std::string vectors_dir, vectors_manifest_sha256;
    bool vectors_custom = false;     ///< run --custom-vectors: a set this build did not generate
    std::string level;
    std::uint64_t seed = 0;
    std::vector<std::string> suites;
    std::string host;                ///< uname: sysname release machine
    std::string baseline;            ///< baseline file, or ""
    std::vector<StaleWaiver> stale_waivers;
    std::optional<ReportOptions> options;  ///< what run and sweep record; absent in older reports
    std::string started_at, finished_at;  ///< UTC, ISO 8601 (non-deterministic)
    double duration_s = 0;                ///< wall seconds (non-deterministic)
    std::map<std::string, std::string> extra;  ///< sweep figures etc., deterministic text only
    std::vector<CaseResult> cases;
    std::vector<RuleSummary> rules;  ///< filled by finalize()
    Totals totals;                   ///< filled by finalize()
    std::vector<Fingerprint> fingerprints;  ///< behaviour fingerprints (JSON "fingerprints", absent when none)
};

/// Compute rules (sorted by id) and totals from the cases. Idempotent.
void finalize(Report &r);

/// The failing rules, most specific first: the rule the most kept mismatches point at (their
/// blame, else their case's rule), then the larger share of the rule's cases failing, then id.
std::vector<const RuleSummary *> failing_rules_by_specificity(const Report &r);

/// True when a case failed and no waiver excuses it; the run's exit status is 1 when any does.
bool failed_unwaived(const CaseResult &c);
bool run_failed(const Report &r);

/// The JSON document (finalize first). Deterministic except started_at/finished_at/duration_s.
nlohmann::ordered_json to_json(const Report &r);
std::string render_json(const Report &r);
/// Whether `doc` is a report of this version or of v2 (what `report` renders).
bool is_report_schema(const nlohmann::json &doc);
bool is_report_v2(const nlohmann::json &doc);
/// The schema file a document is checked against: "report-v2.schema.json" for a v2 report, else
/// "report-v3.schema.json".
std::string report_schema_file(const nlohmann::json &doc);
/// The first place where `doc` breaks the shipped schema of its version (report_schema_file,
/// embedded at build time), as "JSON pointer: the constraint" ("/: required property \"kind\" is
/// missing"); "" when it validates. `report` and `merge` refuse such inputs (issue 25, item 3).
std::string report_schema_violation(const nlohmann::json &doc);
/// JUnit XML: one testsuite per suite, one testcase per case.
std::string render_junit(const Report &r);
/// A failing case's first mismatch in one line ("element 3: input 0x3fc00000 expected 0x3fc0 (1.5)
/// actual 0x3fc1 [...] [class]"), or its message when it has no mismatch.
std::string first_mismatch_text(const CaseResult &c);
/// The one-screen summary printed on stdout.
std::string render_summary(const Report &r, std::size_t max_rules = 12);
/// The Markdown summary of `run --summary-md` (reports/README.md, "Markdown summary"), fit for
/// $GITHUB_STEP_SUMMARY: the verdict line first, counts, failing rules with their first mismatch,
/// waivers, fingerprints. `gate_failures` are the run's failed CI gates, one line each.
std::string render_summary_md(const Report &r, const std::vector<std::string> &gate_failures = {},
                              std::size_t max_rules = 30);

/// Text a subject said (a plugin's message, an exec reply, a stderr tail, a name), made safe for
/// a report, a message and a terminal: one line of valid UTF-8 where every byte that is not
/// UTF-8 becomes `\xNN`, every C0 control and DEL `\xNN` (tab, CR and LF a space), every C1
/// control, bidirectional override, line or paragraph separator and noncharacter `\uNNNN`; cut
/// at a character boundary to at most `max_bytes` plus a note of how much was cut.
std::string untrusted_text(std::string_view s, std::size_t max_bytes = 2048);

/// UTC now as ISO 8601 ("2026-11-29T23:01:02Z").
std::string utc_now();
/// "sysname release machine" of this host.
std::string host_description();

}  // namespace ninfer::reports
