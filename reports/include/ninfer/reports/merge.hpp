// SPDX-License-Identifier: Apache-2.0
// Shard reports into one (`ninfer-conform merge`, docs/cli.md): the reports of `run --shard I/N`
// or `sweep --shard I/N` for every I of one N, combined into the report the unsharded run writes,
// timings aside (reports/README.md, "Shards and merge").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ninfer::reports {

/// A sweep's word mismatches by source word: (negative, binade) -> count (sweep.cpp's binade_of).
using MismatchBins = std::map<std::pair<bool, int>, std::uint64_t>;

/// The extra "mismatch_bins" of a sweep report: "+3:5 -7:2", bins in key order, one
/// "<sign><binade>:<count>" each (docs/cli.md, "sweep"); "" when none.
std::string mismatch_bins_text(const MismatchBins &bins);
/// The reverse, for `merge` and the HTML page: std::nullopt when a token is not
/// "<sign><binade>:<count>" (binade at most 5 digits, count at most 19), that token in `bad`.
std::optional<MismatchBins> mismatch_bins_of(std::string_view text, std::string *bad = nullptr);

/// A shard report as read from its file (parsed as ordered_json, so that the merged report
/// keeps the key order); `label` (the file name) names it in errors.
struct ShardReport {
    std::string label;
    nlohmann::ordered_json doc;
};

/// Why shard reports cannot be merged: one line naming the file and what was expected.
class MergeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The merged report and its verdict (`merge` exits 0 when passed, 1 when not).
struct MergedReport {
    std::string json;      ///< rendered as render_json renders a report
    bool passed = false;   ///< the verdict recomputed from the merged cases ("passed")
    std::uint64_t cases = 0;
};

/// The merged JSON report, rendered as render_json renders a report. The shards must be report-v2
/// documents of one kind ("run" or "sweep"), tool version, subject (kind, name, version, ABI),
/// level, seed, suites, vector manifest and baseline, with equal extras but the shard's own, and
/// carry every shard I of one N exactly once (extra "shard" = "I/N"), in any order.
/// run: cases concatenated in shard order (each shard holding its slice of extra "cases_total");
/// sweep: the one case's elements, mismatches, classes and accepted NaNs summed, first mismatches
/// merged by index and cut to extra "max_mismatches", extra "mismatch_bins" summed, the worst
/// status and the first message. Shard extras removed, rules and totals recomputed (finalize);
/// started_at the earliest, finished_at the latest, duration_s the sum. Behaviour fingerprints
/// (read strictly, fingerprints_from_json) are kept once per conversion, in shard order; shards
/// that fingerprinted the same conversion must agree.
/// Only what the shards prove is certified (reports/README.md, "Shards and merge"): every shard
/// records the same "options"; its totals and "passed" are those its cases add up to; no case
/// says pass or unsupported beside mismatches; a case is waived only when its status is a
/// failure and the shard records a baseline (options.baseline_sha256); no case id occurs twice;
/// a run shard holds exactly its slice of a cases_total above 0 (none when its subject did not
/// open). Throws MergeError.
MergedReport merge_shards(const std::vector<ShardReport> &shards);

}  // namespace ninfer::reports
