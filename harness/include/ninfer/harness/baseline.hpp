// SPDX-License-Identifier: Apache-2.0
// Baselines: a waiver file of known, accepted failures (docs/cli.md, "Baselines"). A run with
// a baseline fails only on failures no waiver excuses, and reports waivers that no longer fire.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness {

/// Version of the waiver file format.
inline constexpr int kBaselineVersion = 1;
/// Largest waiver file read (a character device such as /dev/zero is read up to this).
inline constexpr std::size_t kMaxBaselineBytes = std::size_t{16} << 20;

struct Waiver {
    std::string rule;     ///< a rule id of the catalog
    std::string pattern;  ///< a case id, or a glob over case ids (`*` any run, `?` one character)
    std::string reason;   ///< why the failure is accepted (required, non-empty)
};

struct Baseline {
    std::string path;
    std::string sha256;  ///< SHA-256 of the file's bytes (load_baseline): a report's options.baseline_sha256
    std::vector<Waiver> waivers;
    /// What the subject declared when the baseline was recorded (field "capabilities", optional:
    /// older baselines have none), one line per capability as `plugins --capabilities` spells it.
    /// `run` fails when the subject stops declaring one of them (issue 25, item 2).
    std::optional<std::vector<std::string>> capabilities;
};

/// A malformed baseline; what() is one line naming the file, the field and what was expected.
class BaselineError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parse a waiver file's text; `where` names it in errors (with the line where one is known:
/// nesting past 64 levels, a number no double holds). Integers are range-checked: "version"
/// 4294967297 is not 1. Throws BaselineError.
Baseline parse_baseline(const std::string &text, const std::string &where);
/// Read and parse a waiver file. Throws BaselineError.
Baseline load_baseline(const std::filesystem::path &path);

/// Whether a waiver excuses a failing case of `rule` with id `case_id`.
bool waiver_matches(const Waiver &w, const std::string &rule, const std::string &case_id);

/// Mark every failing case some waiver excuses as waived (first matching waiver's reason) and
/// record the waivers that excuse nothing as stale. Call before reports::finalize.
void apply_baseline(const Baseline &b, reports::Report &r);

/// One declared capability as `plugins --capabilities` prints it and baselines record it:
/// "convert format bf16 from fp32 layout any method any profile any".
std::string capability_text(const ninfer_capability_v2 &c);
std::vector<std::string> capability_lines(const std::vector<ninfer_capability_v2> &caps);

/// The recorded capabilities the subject no longer declares, in recorded order.
std::vector<std::string> lost_capabilities(const std::vector<std::string> &recorded,
                                           const std::vector<std::string> &declared);

/// The baseline `run --write-baseline` writes after a run: the given baseline's waivers that
/// fired, one waiver per unwaived failing case (its rule and id), and the subject's capabilities.
Baseline baseline_of_run(const reports::Report &r, const Baseline *given);
/// A baseline as the JSON text load_baseline reads back.
std::string render_baseline(const Baseline &b);

}  // namespace ninfer::harness
