// SPDX-License-Identifier: Apache-2.0
// The one-screen summary of a report, printed on stdout by `run` and `sweep`.
#include <fmt/format.h>

#include <algorithm>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

/// A decoded value in parentheses, left out when too long for one screen (the report has it).
std::string short_value(const std::string &v) { return v.empty() || v.size() > 24 ? "" : " (" + v + ")"; }

/// The mark of a rule that rests on a documented suite reading.
constexpr const char *kReadingMark = "(R)";

/// Per rule whose cases carry alternatives, the choices its subject took ("fp8_row_maxabs.rescue:
/// took refuse 2, encode 1 (fp8_row_maxabs.rescue open)"); and the pins in force.
std::string choices_text(const Report &r) {
    std::string s;
    for (const auto &rs : r.rules) {
        if (rs.reading.empty() || rs.choices.empty()) continue;
        std::string took;
        for (const auto &[name, n] : rs.choices) took += fmt::format("{}{} {}", took.empty() ? "" : ", ", name, n);
        s += fmt::format("{}: took {} ({} open)\n", rs.id, took, rs.reading);
    }
    if (r.options)
        for (const auto &[rule, choice] : r.options->pins) s += fmt::format("pinned: {} = {}\n", rule, choice);
    if (r.options)
        for (const auto &[rule, point] : r.options->policies) s += fmt::format("judged by policy: {} = {}\n", rule, point);
    return s;
}

/// One block per behaviour fingerprint: its sentence, then each input class with mismatches.
std::string fingerprints_text(const Report &r) {
    std::string s;
    for (const auto &f : r.fingerprints) {
        s += fmt::format("fingerprint: {}\n", untrusted_text(f.sentence));
        for (const auto &res : f.residue)
            if (res.mismatches) s += "  " + residue_text(res) + "\n";
    }
    return s;
}

}  // namespace

std::string first_mismatch_text(const CaseResult &c) {
    if (c.first.empty()) return c.message.empty() ? std::string(status_name(c.status)) : untrusted_text(c.message);
    const auto &m = c.first.front();
    std::string in;
    for (const auto &w : m.inputs) in += (in.empty() ? "" : ",") + w;
    return fmt::format("{}: input {} expected {}{} actual {}{} [{}]", m.location, in.empty() ? "-" : in, m.expected,
                       short_value(m.expected_value), m.actual, short_value(m.actual_value), m.cls);
}

std::string render_summary(const Report &r, std::size_t max_rules) {
    const auto &t = r.totals;
    std::string s;
    s += fmt::format("ninfer-conform {} {}: {} {} {} (abi {}) {}\n", r.tool_version, r.kind, r.subject.kind,
                     r.subject.name.empty() ? "?" : untrusted_text(r.subject.name), untrusted_text(r.subject.version),
                     r.subject.abi, untrusted_text(r.subject.path));
    if (r.kind != "sweep") {  // a sweep has no level, suites or seed: its extra lines say what it swept
        std::string suites;
        for (const auto &n : r.suites) suites += (suites.empty() ? "" : ",") + n;
        s += fmt::format("level {}, suites {}\n", r.level, suites.empty() ? "all" : suites);
        s += fmt::format("seed {} (include this in bug reports)\n", r.seed);
    }
    if (!r.open_error.empty()) s += fmt::format("subject did not start: {}\n", untrusted_text(r.open_error));
    for (const auto &[k, v] : r.extra) s += fmt::format("{}: {}\n", k, v);
    s += fmt::format("cases {}: {} passed, {} failed, {} unsupported, {} crash, {} timeout, {} error", t.cases, t.pass,
                     t.fail, t.unsupported, t.crash, t.timeout, t.error);
    s += t.waived ? fmt::format(" ({} failures waived)\n", t.waived) : "\n";

    const std::vector<const RuleSummary *> failing = failing_rules_by_specificity(r);
    std::map<std::string, std::uint64_t> classes;
    std::size_t own_failures = 0;
    for (const auto *rs : failing) {
        if (!is_failure(rs->status)) continue;
        ++own_failures;
        for (const auto &[k, v] : rs->classes) classes[k] += v;
    }
    if (!failing.empty()) {
        s += fmt::format("failing rules ({}), most specific first ({} = rests on a suite reading):\n", own_failures, kReadingMark);
        std::string trace;
        for (std::size_t i = 0; i < failing.size() && i < max_rules; ++i) {
            const auto &rs = *failing[i];
            const CaseResult *first = nullptr;
            for (const auto &c : r.cases)
                if (c.id == rs.first_failure) first = &c;
            const std::string mark = rs.suite_reading ? std::string(" ") + kReadingMark : "";
            if (!is_failure(rs.status)) {
                s += fmt::format("  {}{} [pointed at by {} mismatches of other rules' cases]\n", rs.id, mark, rs.blamed);
                continue;
            }
            s += fmt::format("  {}{} [{}] {}\n", rs.id, mark, status_name(rs.status),
                             first ? first->id + " " + first_mismatch_text(*first) : "");
            if (trace.empty() && first) trace = first->trace;
        }
        if (failing.size() > max_rules) s += fmt::format("  ... and {} more (see the report)\n", failing.size() - max_rules);
        if (!trace.empty()) s += "first failing encoder group (oracle steps): " + trace + "\n";
    }
    if (!classes.empty()) {
        std::string line;
        for (const auto &[k, v] : classes) line += fmt::format("{}{} {}", line.empty() ? "" : ", ", k, v);
        s += "mismatch classes: " + line + "\n";
    }
    std::uint64_t nan_accepted = 0, nan_cases = 0;
    const CaseResult *first_nan = nullptr;
    for (const auto &c : r.cases)
        if (c.nan_accepted) {
            nan_accepted += c.nan_accepted;
            ++nan_cases;
            if (!first_nan) first_nan = &c;
        }
    if (first_nan) {
        std::string example;
        if (!first_nan->nan_accepted_first.empty()) {
            const auto &n = first_nan->nan_accepted_first.front();
            example = fmt::format(": {} expected {} ({}) accepted {} ({})", first_nan->id, n.expected, n.expected_value,
                                  n.actual, n.actual_value);
        }
        s += fmt::format("NaN words accepted by a NaN policy, not bit-equal: {} in {} cases{}\n", nan_accepted, nan_cases, example);
    }
    s += choices_text(r);
    for (const auto &c : r.cases)
        if (c.not_judged)
            s += fmt::format("not judged: {} source words of {}, {}\n", c.not_judged, c.rule, c.not_judged_why);
    if (!r.stale_waivers.empty()) {
        s += fmt::format("stale waivers ({}, no longer fire):\n", r.stale_waivers.size());
        for (std::size_t i = 0; i < r.stale_waivers.size() && i < 5; ++i)
            s += fmt::format("  {} {}\n", r.stale_waivers[i].rule, r.stale_waivers[i].case_pattern);
    }
    const bool nothing_tested = t.cases > 0 && t.unsupported == t.cases;
    s += run_failed(r)     ? "result: FAIL\n"
         : nothing_tested ? "result: NOTHING TESTED (the subject declares none of these capabilities)\n"
                          : "result: PASS\n";
    s += fingerprints_text(r);
    return s;
}

}  // namespace ninfer::reports
