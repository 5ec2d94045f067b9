// SPDX-License-Identifier: Apache-2.0
// Shard reports into one (`ninfer-conform merge`, docs/cli.md): the reports of `run --shard I/N`
// or `sweep --shard I/N` for every I of one N, combined into the report the unsharded run writes,
// timings aside (reports/README.md, "Shards and merge").
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ninfer::reports {

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

/// The merged JSON report, rendered as render_json renders a report. The shards must be report-v2
/// documents of one kind ("run" or "sweep"), tool version, subject (kind, name, version, ABI),
/// level, seed, suites, vector manifest and baseline, with equal extras but the shard's own, and
/// carry every shard I of one N exactly once (extra "shard" = "I/N"), in any order.
/// run: cases concatenated in shard order (each shard holding its slice of extra "cases_total");
/// sweep: the one case's elements, mismatches, classes and accepted NaNs summed, first mismatches
/// merged by index and cut to extra "max_mismatches", extra "mismatch_bins" summed, the worst
/// status and the first message. Shard extras removed, rules and totals recomputed (finalize);
/// started_at the earliest, finished_at the latest, duration_s the sum. Throws MergeError.
std::string merge_shards(const std::vector<ShardReport> &shards);

}  // namespace ninfer::reports
