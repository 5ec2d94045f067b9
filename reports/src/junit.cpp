// SPDX-License-Identifier: Apache-2.0
// The JUnit XML rendering of a report (reports/README.md, "JUnit mapping"): one testsuite per
// suite, one testcase per case; fail -> <failure>, error/crash/timeout -> <error>,
// unsupported and waived failures -> <skipped>.
#include <fmt/format.h>

#include <algorithm>
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

}  // namespace

std::string render_junit(const Report &r) {
    // Suites in order of first appearance, cases in run order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const CaseResult *>> by_suite;
    for (const auto &c : r.cases) {
        auto &v = by_suite[c.suite];
        if (v.empty()) order.push_back(c.suite);
        v.push_back(&c);
    }
    const auto &t = r.totals;
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += fmt::format("<testsuites name=\"ninfer-conform\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
                     "timestamp=\"{}\" time=\"{:.3f}\">\n",
                     t.cases, t.fail, t.error + t.crash + t.timeout, t.unsupported, xml_escape(r.started_at),
                     r.duration_s);
    for (const auto &suite : order) {
        const auto &cases = by_suite[suite];
        std::uint64_t failures = 0, errors = 0, skipped = 0;
        for (const auto *c : cases) {
            if (c->status == Status::unsupported || c->waived) ++skipped;
            else if (c->status == Status::fail) ++failures;
            else if (is_failure(c->status)) ++errors;
        }
        x += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
                         xml_escape(suite), cases.size(), failures, errors, skipped);
        x += "    <properties>\n";
        x += fmt::format("      <property name=\"subject\" value=\"{}\"/>\n",
                         xml_escape(r.subject.name + " " + r.subject.version));
        x += fmt::format("      <property name=\"level\" value=\"{}\"/>\n", xml_escape(r.level));
        x += fmt::format("      <property name=\"seed\" value=\"{}\"/>\n", r.seed);
        x += fingerprint_properties(r, suite);
        x += "    </properties>\n";
        for (const auto *c : cases) {
            const std::string open = fmt::format("    <testcase name=\"{}\" classname=\"{}\"", xml_escape(c->id),
                                                 xml_escape(c->rule));
            if (c->status == Status::pass) {
                x += open + "/>\n";
                continue;
            }
            x += open + ">\n";
            if (c->waived) {
                x += fmt::format("      <skipped message=\"{}\"/>\n",
                                 xml_escape(fmt::format("waived ({}): {}", status_name(c->status), c->waiver_reason)));
            } else if (c->status == Status::unsupported) {
                x += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(c->message));
            } else {
                const char *tag = c->status == Status::fail ? "failure" : "error";
                const std::string message = c->first.empty() ? c->message : mismatch_line(c->first.front());
                x += fmt::format("      <{} type=\"{}\" message=\"{}\">{}</{}>\n", tag, status_name(c->status),
                                 xml_escape(message), xml_escape(case_body(*c)), tag);
            }
            x += "    </testcase>\n";
        }
        x += "  </testsuite>\n";
    }
    // Fingerprints of conversions no case of the run covers (`fingerprint` alone): a suite of no tests.
    if (const std::string rest = fingerprint_properties(r, std::nullopt); !rest.empty())
        x += "  <testsuite name=\"fingerprints\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    <properties>\n" +
             rest + "    </properties>\n  </testsuite>\n";
    x += "</testsuites>\n";
    return x;
}

}  // namespace ninfer::reports
