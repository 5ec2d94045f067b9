// SPDX-License-Identifier: Apache-2.0
// The JUnit XML rendering of a report (reports/README.md, "JUnit mapping"): one testsuite per
// suite, one testcase per case; fail -> <failure>, error/crash/timeout -> <error>,
// unsupported and waived failures -> <skipped>.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

/// XML 1.0 text: every line made safe by untrusted_text (well-formed UTF-8, no control
/// characters or noncharacters XML cannot carry), then markup escaped.
std::string xml_escape(std::string_view raw) {
    std::string s;
    for (std::size_t at = 0; at <= raw.size();) {
        const std::size_t nl = std::min(raw.find('\n', at), raw.size());
        if (at > 0) s += '\n';
        s += untrusted_text(raw.substr(at, nl - at), std::string::npos);
        at = nl + 1;
    }
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (u < 0x20 && ch != '\n' && ch != '\t') out += '?';
            else out += ch;
        }
    }
    return out;
}

std::string mismatch_line(const Mismatch &m) {
    std::string in;
    for (const auto &w : m.inputs) in += (in.empty() ? "" : ",") + w;
    return fmt::format("{} at {}: input {} expected {}{} actual {}{}{}{}{}{}", m.cls, m.location, in.empty() ? "-" : in,
                       m.expected, m.expected_value.empty() ? "" : " (" + m.expected_value + ")", m.actual,
                       m.actual_value.empty() ? "" : " (" + m.actual_value + ")",
                       m.exact_value.empty() ? "" : "; exact value " + m.exact_value,
                       m.criterion.empty() ? "" : "; requires " + m.criterion,
                       m.error_ulps ? "; error " + number_text(*m.error_ulps) + " ulps" : "",
                       m.bound_fraction ? ", " + number_text(*m.bound_fraction) + " of the bound" : "");
}

std::string case_body(const CaseResult &c) {
    std::string body = fmt::format("rule {}: {}\n", c.rule, c.sentence);
    if (!c.message.empty()) body += c.message + "\n";
    body += fmt::format("{} mismatches in {} elements\n", c.mismatches, c.elements);
    for (const auto &m : c.first) body += mismatch_line(m) + "\n";
    return body;
}

/// The suite of a fingerprint: that of the first case of a rule it covers, none when no case is.
std::optional<std::string> fingerprint_suite(const Report &r, const Fingerprint &f) {
    for (const auto &c : r.cases)
        if (fingerprint_covers(f, c.rule)) return c.suite;
    return std::nullopt;
}

/// A property per fingerprint of `suite` (none: of no suite), its sentence the value.
std::string fingerprint_properties(const Report &r, const std::optional<std::string> &suite) {
    std::string x;
    for (const auto &f : r.fingerprints)
        if (fingerprint_suite(r, f) == suite)
            x += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape("fingerprint " + fingerprint_rule(f)),
                             xml_escape(f.sentence));
    return x;
}

/// The JUnit counts of a suite: waived failures are skipped (the message says "waived (STATUS): ..."),
/// as unsupported cases are, so that the root and every suite count them alike.
struct SuiteCounts {
    std::uint64_t tests = 0, failures = 0, errors = 0, skipped = 0, millis = 0;
};

void count_case(const CaseResult &c, std::uint64_t millis, SuiteCounts &n) {
    ++n.tests;
    n.millis += millis;
    if (c.status == Status::unsupported || c.waived) ++n.skipped;
    else if (c.status == Status::fail) ++n.failures;
    else if (is_failure(c.status)) ++n.errors;
}

/// The report records only the run's wall time (duration_s): each case gets an equal share of it,
/// in whole milliseconds that add up exactly to the run's (the first cases take the remainder).
std::vector<std::uint64_t> case_millis(const Report &r) {
    std::vector<std::uint64_t> ms(r.cases.size(), 0);
    if (ms.empty() || !(r.duration_s > 0) || !std::isfinite(r.duration_s)) return ms;
    const auto total = static_cast<std::uint64_t>(std::llround(r.duration_s * 1000.0));
    for (std::size_t i = 0; i < ms.size(); ++i) ms[i] = total / ms.size() + (i < total % ms.size() ? 1 : 0);
    return ms;
}

std::string seconds(std::uint64_t millis) { return fmt::format("{}.{:03}", millis / 1000, millis % 1000); }

std::string testcase_xml(const CaseResult &c, std::uint64_t millis) {
    std::string x = fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"", xml_escape(c.id),
                                xml_escape(c.rule), seconds(millis));
    if (c.status == Status::pass) return x + "/>\n";
    x += ">\n";
    if (c.waived) {
        x += fmt::format("      <skipped message=\"{}\"/>\n",
                         xml_escape(fmt::format("waived ({}): {}", status_name(c.status), c.waiver_reason)));
    } else if (c.status == Status::unsupported) {
        x += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(c.message));
    } else {
        const char *tag = c.status == Status::fail ? "failure" : "error";
        const std::string message = c.first.empty() ? c.message : mismatch_line(c.first.front());
        x += fmt::format("      <{} type=\"{}\" message=\"{}\">{}</{}>\n", tag, status_name(c.status), xml_escape(message),
                         xml_escape(case_body(c)), tag);
    }
    return x + "    </testcase>\n";
}

}  // namespace

std::string render_junit(const Report &r) {
    // Suites in order of first appearance, cases in run order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> by_suite;
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        auto &v = by_suite[r.cases[i].suite];
        if (v.empty()) order.push_back(r.cases[i].suite);
        v.push_back(i);
    }
    const auto millis = case_millis(r);
    std::string body;
    SuiteCounts all;
    for (const auto &suite : order) {
        SuiteCounts n;
        std::string cases;
        for (const std::size_t i : by_suite[suite]) {
            count_case(r.cases[i], millis[i], n);
            cases += testcase_xml(r.cases[i], millis[i]);
        }
        all.tests += n.tests, all.failures += n.failures, all.errors += n.errors, all.skipped += n.skipped,
            all.millis += n.millis;
        body += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
                            "time=\"{}\" timestamp=\"{}\">\n",
                            xml_escape(suite), n.tests, n.failures, n.errors, n.skipped, seconds(n.millis),
                            xml_escape(r.started_at));
        body += "    <properties>\n";
        body += fmt::format("      <property name=\"subject\" value=\"{}\"/>\n",
                            xml_escape(r.subject.name + " " + r.subject.version));
        body += fmt::format("      <property name=\"level\" value=\"{}\"/>\n", xml_escape(r.level));
        body += fmt::format("      <property name=\"seed\" value=\"{}\"/>\n", r.seed);
        body += fingerprint_properties(r, suite);
        body += "    </properties>\n" + cases + "  </testsuite>\n";
    }
    // Fingerprints of conversions no case of the run covers (`fingerprint` alone): a suite of no tests.
    if (const std::string rest = fingerprint_properties(r, std::nullopt); !rest.empty())
        body += "  <testsuite name=\"fingerprints\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
                "    <properties>\n" + rest + "    </properties>\n  </testsuite>\n";
    // The root sums its suites; Jenkins' junit-10.xsd allows no skipped or timestamp here (the suites carry them).
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ninfer-conform\" tests=\"{}\" "
                       "failures=\"{}\" errors=\"{}\" time=\"{}\">\n{}</testsuites>\n",
                       all.tests, all.failures, all.errors, seconds(all.millis), body);
}

}  // namespace ninfer::reports
