// SPDX-License-Identifier: Apache-2.0
// The HTML conformance report (reports/README.md, "HTML"): one self-contained page of one or
// more JSON reports (report-v2): a rule x subject matrix, the failures with their spec sentence
// and first mismatches, and inline SVG plots of sweeps and of grouped/block locations.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ninfer::reports {

/// One column of the matrix: a label (the report's file name) and its JSON report.
struct HtmlSource {
    std::string label;
    nlohmann::json report;
};

/// Where a rule belongs: the matrix groups its rows by family, then by spec section.
struct HtmlRuleInfo {
    std::string family, section;
};

/// The page. Deterministic: the same sources give the same bytes (no timestamps, no
/// randomness); every text taken from a report is escaped. Rules missing from `catalog` are
/// grouped by the id's first component. Throws std::runtime_error naming the label of a
/// source that is not a report-v2 document, or whose "fingerprints" fingerprints_from_json refuses.
std::string render_html(const std::vector<HtmlSource> &sources, const std::map<std::string, HtmlRuleInfo> &catalog = {});

/// Text escaped for HTML element content and attribute values (& < > " ').
std::string html_escape(std::string_view text);

}  // namespace ninfer::reports
