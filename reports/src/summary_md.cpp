// SPDX-License-Identifier: Apache-2.0
// Issue 25, item 2: the Markdown summary of a run (`run --summary-md FILE`, reports/README.md
// "Markdown summary"), fit for GitHub's $GITHUB_STEP_SUMMARY.
#include <fmt/format.h>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

/// Subject text in Markdown: made safe, then every character Markdown or HTML would read as
/// markup escaped, so that a plugin's name cannot add links, tables or tags to the page.
std::string md_text(std::string_view raw) {
    std::string out;
    for (const char ch : untrusted_text(raw, 300)) {
        switch (ch) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '|': case '\\': case '`': case '*': case '_': case '[': case ']': case '#': case '!': case '~':
                out += '\\';
                out += ch;
                break;
            default: out += ch;
        }
    }
    return out;
}

/// Subject text as a code span: backslash escapes do not work inside one, so the only character
/// to keep out is the backtick that would end it (HTML is shown as text there).
std::string md_code(std::string_view raw) {
    std::string t = untrusted_text(raw, 300);
    for (auto &ch : t)
        if (ch == '`') ch = '\'';
    return "`" + t + "`";
}

/// The verdict word: what a reader needs before anything else.
std::string verdict(const Report &r, bool gates_failed) {
    const auto &t = r.totals;
    if (!r.open_error.empty()) return "ERROR (the subject did not start)";
    if (run_failed(r) || gates_failed) return "FAIL";
    if (t.cases > 0 && t.unsupported == t.cases) return "NOTHING TESTED";
    return "PASS";
}

std::string counts_table(const Totals &t) {
    return fmt::format("| cases | pass | fail | unsupported | error | crash | timeout | waived |\n"
                       "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                       "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                       t.cases, t.pass, t.fail, t.unsupported, t.error, t.crash, t.timeout, t.waived);
}

const CaseResult *case_by_id(const Report &r, const std::string &id) {
    for (const auto &c : r.cases)
        if (c.id == id) return &c;
    return nullptr;
}

/// The failing rules, most specific first, with their first failing case and its first mismatch.
std::string failing_rules_table(const Report &r, std::size_t max_rules) {
    std::vector<const RuleSummary *> failing;
    for (const auto *rs : failing_rules_by_specificity(r))
        if (is_failure(rs->status) && !rs->first_failure.empty()) failing.push_back(rs);
    if (failing.empty()) return "";
    std::string s = fmt::format("\n### Failing rules ({})\n\n| rule | status | failing cases | first failing case | "
                                "first mismatch |\n|---|---|---:|---|---|\n",
                                failing.size());
    for (std::size_t i = 0; i < failing.size() && i < max_rules; ++i) {
        const auto &rs = *failing[i];
        const CaseResult *first = case_by_id(r, rs.first_failure);
        s += fmt::format("| `{}` | {} | {} of {} | `{}` | {} |\n", rs.id, status_name(rs.status), rs.failing_cases,
                         rs.cases, rs.first_failure, first ? md_text(first_mismatch_text(*first)) : "");
    }
    if (failing.size() > max_rules)
        s += fmt::format("\n... and {} more failing rules (see the JSON report).\n", failing.size() - max_rules);
    return s;
}

std::string gates_section(const std::vector<std::string> &gate_failures) {
    if (gate_failures.empty()) return "";
    std::string s = "\n### CI gates failed\n\n";
    for (const auto &g : gate_failures) s += "- " + md_text(g) + "\n";
    return s;
}

std::string waivers_section(const Report &r) {
    if (r.baseline.empty()) return "";
    std::string s = fmt::format("\n### Waivers\n\n{} failing case(s) waived by baseline {}; {} stale waiver(s).\n",
                                r.totals.waived, md_code(r.baseline), r.stale_waivers.size());
    for (const auto &w : r.stale_waivers)
        s += fmt::format("- stale: {} case {}: {}\n", md_code(w.rule), md_code(w.case_pattern), md_text(w.reason));
    return s;
}

std::string fingerprints_section(const Report &r) {
    if (r.fingerprints.empty()) return "";
    std::string s = "\n### Behaviour fingerprints\n\n";
    for (const auto &f : r.fingerprints) {
        s += "- " + md_text(f.sentence) + "\n";
        for (const auto &res : f.residue)
            if (res.mismatches) s += "  - " + md_text(residue_text(res)) + "\n";
    }
    return s;
}

}  // namespace

std::string render_summary_md(const Report &r, const std::vector<std::string> &gate_failures, std::size_t max_rules) {
    std::string suites;
    for (const auto &n : r.suites) suites += (suites.empty() ? "" : ", ") + n;
    std::string s = fmt::format("## ninfer-conform: {}: {} {}\n\n", verdict(r, !gate_failures.empty()),
                                r.subject.name.empty() ? "?" : md_text(r.subject.name), md_text(r.subject.version));
    s += fmt::format("{} {}, level {}, suites {}, seed {}, ninfer-conform {}\n\n", md_text(r.subject.kind),
                     md_text(r.subject.path), r.level, suites.empty() ? "all" : suites, r.seed, r.tool_version);
    if (!r.open_error.empty()) s += "The subject did not start: " + md_text(r.open_error) + "\n\n";
    s += counts_table(r.totals);
    s += gates_section(gate_failures);
    s += failing_rules_table(r, max_rules);
    s += waivers_section(r);
    s += fingerprints_section(r);
    return s;
}

}  // namespace ninfer::reports
