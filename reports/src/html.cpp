// SPDX-License-Identifier: Apache-2.0
// The HTML conformance report (reports/README.md, "HTML"): a page of one or more report-v3 (or
// v2) documents, self-contained (inline CSS, SVG and a small filter script; no network) and
// deterministic. Issue 25, item 3: the verdict per subject first, then the failures, then the
// rule x subject matrix with its all-pass rows collapsed; without scripts every part shows.
// Every string from a report is untrusted (subjects write messages) and goes through html_escape.
#include "ninfer/reports/html.hpp"

#include <algorithm>
#include <cmath>
#include <climits>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/reports/merge.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

using json = nlohmann::json;

constexpr std::size_t kCasesPerRule = 3;     // failing cases shown in full per subject and rule
constexpr std::size_t kMismatchesShown = 8;  // first mismatches shown per case
constexpr std::size_t kWaiversShown = 20;

std::string text_of(const json &j, const char *key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::uint64_t count_of(const json &j, const char *key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return 0;
    const auto v = it->get<std::int64_t>();
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

const json &member(const json &j, const char *key) {
    static const json empty = json::object();
    const auto it = j.find(key);
    return it != j.end() ? *it : empty;
}

const json &array_of(const json &j, const char *key) {
    static const json empty = json::array();
    const auto it = j.find(key);
    return it != j.end() && it->is_array() ? *it : empty;
}

/// A matrix cell: the rule's status in one report.
enum class Cell { none, pass, fail, waived, unsupported, error, crash, timeout };

struct CellStyle {
    const char *css, *symbol, *word;
};

CellStyle style_of(Cell c) {
    switch (c) {
    case Cell::none: return {"none", "", "not in this report"};
    case Cell::pass: return {"pass", "\u2713", "pass"};
    case Cell::fail: return {"fail", "\u2717", "fail"};
    case Cell::waived: return {"waived", "W", "failed, waived by the baseline"};
    case Cell::unsupported: return {"unsupported", "\u2013", "unsupported"};
    case Cell::error: return {"error", "E", "error"};
    case Cell::crash: return {"crash", "C", "crash"};
    case Cell::timeout: return {"timeout", "T", "timeout"};
    }
    return {"none", "", ""};
}

/// The rule summary's status, with "waived" when only waived failures kept it from failing.
Cell cell_of(const json &rule) {
    const std::string s = text_of(rule, "status");
    const bool waived = count_of(member(rule, "counts"), "waived") > 0;
    if (s == "fail") return Cell::fail;
    if (s == "error") return Cell::error;
    if (s == "crash") return Cell::crash;
    if (s == "timeout") return Cell::timeout;
    if (waived) return Cell::waived;
    if (s == "pass") return Cell::pass;
    return Cell::unsupported;
}

bool is_failure_cell(Cell c) { return c == Cell::fail || c == Cell::error || c == Cell::crash || c == Cell::timeout; }

bool failed_unwaived_rule(const RuleSummary &r) { return is_failure(r.status); }

bool case_failed_unwaived(const json &c) {
    const std::string s = text_of(c, "status");
    const auto w = c.find("waived");
    const bool waived = w != c.end() && w->is_boolean() && w->get<bool>();
    return !waived && (s == "fail" || s == "error" || s == "crash" || s == "timeout");
}

struct Row {
    std::string family, section, id, sentence;
};

struct Column {
    const HtmlSource *src;
    std::map<std::string, const json *> rules;               // rule id -> rules[] entry
    std::map<std::string, std::vector<const json *>> cases;  // rule id -> cases[] in run order
    std::vector<Fingerprint> fingerprints{};                 // the report's "fingerprints", read strictly
};

std::string e(std::string_view s) { return html_escape(s); }

/// "Example 9" before "Example 14": digit runs compare by value, the rest by character.
bool natural_less(const std::string &a, const std::string &b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && a[i2] == '0') ++i2;
            while (j2 < b.size() && b[j2] == '0') ++j2;
            std::size_t ie = i2, je = j2;
            while (ie < a.size() && digit(a[ie])) ++ie;
            while (je < b.size() && digit(b[je])) ++je;
            if (ie - i2 != je - j2) return ie - i2 < je - j2;
            if (const int c = a.compare(i2, ie - i2, b, j2, je - j2); c != 0) return c < 0;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

constexpr const char *kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1d1d1f;background:#fff}
h1{font-size:1.6em;margin:0 0 .2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}h3{margin:1.2em 0 .3em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:2px 6px;vertical-align:top}
th{background:#f4f4f6;text-align:left}.num{text-align:right;font-variant-numeric:tabular-nums}
table.matrix td.c{text-align:center;padding:0;width:1.5em;height:1.4em;font-weight:bold}
table.matrix td.c a{display:block;color:inherit;text-decoration:none}
table.matrix th.col{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:normal;padding:4px 1px}
table.matrix th.rule{font-weight:normal;white-space:nowrap;font-family:ui-monospace,monospace;font-size:12px}
table.matrix tr.group th{background:#e6e9f0;font-weight:bold}
.pass{background:#cdebd0;color:#1b5e20}.fail{background:#f7b9b9;color:#8b0000}.waived{background:#fde7a6;color:#6d4c00}
.unsupported{background:#e8e8e8;color:#555}.error,.crash,.timeout{background:#d9c3f0;color:#4a148c}.none{background:#fff}
.verdict-pass{color:#1b5e20;font-weight:bold}.verdict-fail{color:#8b0000;font-weight:bold}
code,.mono{font-family:ui-monospace,monospace;font-size:12px}.sentence{background:#f7f7fa;border-left:3px solid #99a;padding:.3em .6em}
.failure{border:1px solid #e3b4b4;border-radius:4px;padding:.2em .8em .6em;margin:.8em 0}
.fingerprint{border:1px solid #b4c6e3;border-radius:4px;padding:.2em .8em .6em;margin:.8em 0;background:#fbfcff}
.legend span{display:inline-block;padding:0 .5em;margin-right:.4em;border:1px solid #ccc}
svg{background:#fcfcfd;border:1px solid #ddd;max-width:100%;height:auto}.scroll{overflow-x:auto;max-width:100%}
table.wide td{overflow-wrap:anywhere;min-width:4em}p,li,h1,h2,h3,h4{overflow-wrap:anywhere}
table.verdicts td:last-child{word-break:break-word;min-width:18em}
table.verdicts td:first-child{white-space:nowrap}
#filters{position:sticky;top:0;background:#fff;padding:.3em 0;border-bottom:1px solid #eee;z-index:1}
details>summary{cursor:pointer;margin:.6em 0;font-weight:bold}.path{word-break:break-all}.small{color:#555;font-size:12px})";

/// At most `max` bytes of `text` (never splitting a UTF-8 sequence), with an ellipsis when cut.
std::string shortened(const std::string &text, std::size_t max) {
    if (text.size() <= max) return text;
    std::size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    return text.substr(0, n) + "\u2026";
}

/// The failing rules of a report, most specific first, as the CLI summary orders them
/// (failing_rules_by_specificity over the cases' statuses, waivers and mismatch blame).
std::vector<std::string> specific_failures(const json &report) {
    Report r;
    for (const auto &c : array_of(report, "cases")) {
        CaseResult cr;
        cr.id = text_of(c, "id");
        cr.rule = text_of(c, "rule");
        const std::string st = text_of(c, "status");
        for (const Status s : {Status::pass, Status::fail, Status::unsupported, Status::error, Status::crash, Status::timeout})
            if (st == status_name(s)) cr.status = s;
        const auto w = c.find("waived");
        cr.waived = w != c.end() && w->is_boolean() && w->get<bool>();
        for (const auto &m : array_of(c, "first_mismatches")) {
            Mismatch mm;
            mm.blame = text_of(m, "blame");
            cr.first.push_back(std::move(mm));
        }
        r.cases.push_back(std::move(cr));
    }
    finalize(r);
    std::vector<std::string> ids;
    for (const RuleSummary *rs : failing_rules_by_specificity(r))
        if (failed_unwaived_rule(*rs)) ids.push_back(rs->id);
    return ids;
}

bool passed_of(const json &report) {
    const auto p = report.find("passed");
    return p != report.end() && p->is_boolean() && p->get<bool>();
}

/// What a report's subject had to do and whether it did: a seeded-bug plugin (subject.breaks)
/// must fail the rule it declares, which is then the expected outcome; a subject judged on its
/// own terms (options.pins, options.policies) must pass under them; any other must pass.
struct Expected {
    bool met = false;
    std::string verdict;  ///< the verdict cell's words
    enum class Kind { plain, mutant, own_terms } kind = Kind::plain;
};

Expected expected_of(const json &report) {
    const std::string breaks = text_of(member(report, "subject"), "breaks");
    if (!breaks.empty()) {
        bool failed = false;
        for (const auto &rule : array_of(report, "rules"))
            failed |= text_of(rule, "id") == breaks && text_of(rule, "status") != "pass" && text_of(rule, "status") != "unsupported";
        return {failed, failed ? "caught by its rule (expected)" : "missed: its rule did not fail", Expected::Kind::mutant};
    }
    const json &options = member(report, "options");
    const bool terms = (options.contains("pins") && !options["pins"].empty()) || (options.contains("policies") && !options["policies"].empty());
    const bool passed = passed_of(report);
    if (terms) return {passed, passed ? "passed on its own terms" : "failed on its own terms", Expected::Kind::own_terms};
    return {passed, passed ? "passed" : "failed", Expected::Kind::plain};
}

/// The page's first words: the job's verdict when a subject was judged by what it had to do
/// ("137 of 137 subjects did what they must: ..."), else how many reports failed.
std::string overview_verdict(const std::vector<const json *> &reports) {
    std::size_t met = 0, failed = 0, mutants = 0, caught = 0, own = 0, own_met = 0;
    for (const json *r : reports) {
        const auto x = expected_of(*r);
        met += x.met;
        failed += !passed_of(*r);
        if (x.kind == Expected::Kind::mutant) ++mutants, caught += x.met;
        if (x.kind == Expected::Kind::own_terms) ++own, own_met += x.met;
    }
    if (mutants + own == 0)
        return fmt::format("<b class=\"verdict-{}\">{} of {} report(s) failed</b>", failed ? "fail" : "pass", failed, reports.size());
    std::string parts;
    if (mutants) parts += fmt::format("{} of {} seeded-bug plugins caught by the rule each declares (their failures expected)", caught, mutants);
    if (own) parts += fmt::format("{}{} of {} subjects passed on their own terms (--pin, --policy)", parts.empty() ? "" : "; ", own_met, own);
    const std::size_t plain = reports.size() - mutants - own, plain_met = met - caught - own_met;
    if (plain) parts += fmt::format("{}{} of {} other reports passed", parts.empty() ? "" : "; ", plain_met, plain);
    return fmt::format("<b class=\"verdict-{}\">{} of {} subjects did what they must</b> ({})", met == reports.size() ? "pass" : "fail",
                       met, reports.size(), parts);
}

/// The rows of `rows` by id (an anchor of a failure is "d<column>-<row>").
std::map<std::string, std::size_t> row_index(const std::vector<Row> &rows) {
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < rows.size(); ++i) at[rows[i].id] = i;
    return at;
}

/// The first table of the page: one row per subject, failed ones first, with its counts and its
/// most specific failing rules linked to their failures.
void put_verdicts(std::string &o, const std::vector<Row> &rows, const std::vector<Column> &cols) {
    constexpr std::size_t kRulesNamed = 3;
    const auto at = row_index(rows);
    std::vector<std::size_t> order(cols.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {  // what missed its mark first
        return !expected_of(cols[a].src->report).met && expected_of(cols[b].src->report).met;
    });
    o += "<h2 id=\"verdicts\">Verdict by subject</h2>\n<div class=\"scroll\"><table class=\"verdicts\">\n<tr><th>verdict</th>"
         "<th>report <span class=\"small\">(subject, when not the report's name)</span></th><th>level</th><th class=\"num\">pass</th><th class=\"num\">fail</th><th class=\"num\">waived</th>"
         "<th class=\"num\">unsupported</th><th class=\"num\">error/crash/timeout</th>"
         "<th>most specific failing rules</th></tr>\n";
    for (const std::size_t i : order) {
        const json &r = cols[i].src->report;
        const json &subj = member(r, "subject");
        const json &t = member(r, "totals");
        const bool passed = passed_of(r);
        const Expected expected = expected_of(r);
        std::string level = text_of(r, "level");
        if (text_of(r, "kind") == "sweep") level = "sweep " + text_of(member(r, "extra"), "sweep");
        const std::string who = text_of(subj, "name") + " " + text_of(subj, "version");
        const bool same_name = text_of(subj, "name") == cols[i].src->label;  // the usual NAME.json: said once
        const auto failing = specific_failures(r);
        std::string named;
        for (std::size_t k = 0; k < std::min(failing.size(), kRulesNamed); ++k) {
            const auto row = at.find(failing[k]);
            const std::string code = "<code>" + e(failing[k]) + "</code>";
            named += (k ? ", " : "") + (row == at.end() ? code : fmt::format("<a href=\"#d{}-{}\">{}</a>", i, row->second, code));
        }
        if (failing.size() > kRulesNamed) named += fmt::format(" <span class=\"small\">and {} more</span>", failing.size() - kRulesNamed);
        if (!text_of(r, "open_error").empty()) named += "<span class=\"small\">did not start</span>";
        o += fmt::format(
            "<tr data-status=\"{}\" data-text=\"{}\"><td class=\"verdict-{}\">{}</td><td title=\"{}\"><a href=\"#s{}\">{}</a>"
            "{}</td><td>{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
            "</tr>\n",
            passed ? "pass" : "fail", e(cols[i].src->label + " " + who), expected.met ? "pass" : "fail",
            e(expected.verdict), e(who + " (" + text_of(subj, "kind") + ") \u2014 " + text_of(subj, "path")), i,
            e(cols[i].src->label), same_name ? "" : " <span class=\"small\">" + e(shortened(who, 48)) + "</span>", e(level), count_of(t, "pass"), count_of(t, "fail"),
            count_of(t, "waived"), count_of(t, "unsupported"),
            count_of(t, "error") + count_of(t, "crash") + count_of(t, "timeout"), named.empty() ? "\u2014" : named);
    }
    o += "</table></div>\n";
}

void put_legend(std::string &o) {
    o += "<p class=\"legend\">";
    for (Cell c : {Cell::pass, Cell::fail, Cell::waived, Cell::unsupported, Cell::error, Cell::crash, Cell::timeout}) {
        const auto s = style_of(c);
        o += fmt::format("<span class=\"{}\">{} {}</span>", s.css, s.symbol, s.word);
    }
    o += "<span class=\"none\">&nbsp; rule not in that report</span></p>\n";
}

/// The filter's attributes of a matrix row: the statuses its cells hold ("fail waived pass").
std::string row_statuses(const Row &row, const std::vector<Column> &cols) {
    std::set<std::string> seen;
    for (const auto &col : cols) {
        const auto it = col.rules.find(row.id);
        if (it == col.rules.end()) continue;
        const Cell c = cell_of(*it->second);
        seen.insert(is_failure_cell(c) ? "fail" : style_of(c).css);
    }
    std::string s;
    for (const auto &x : seen) s += (s.empty() ? "" : " ") + x;
    return s;
}

/// True when no report fails or waives the rule (its row is collapsed).
bool row_all_pass(const Row &row, const std::vector<Column> &cols) {
    for (const auto &col : cols) {
        const auto it = col.rules.find(row.id);
        if (it == col.rules.end()) continue;
        const Cell c = cell_of(*it->second);
        if (is_failure_cell(c) || c == Cell::waived) return false;
    }
    return true;
}

void put_matrix_head(std::string &o, const std::vector<Column> &cols) {
    o += "<div class=\"scroll\"><table class=\"matrix\">\n<tr><th>rule</th>";
    for (std::size_t i = 0; i < cols.size(); ++i)
        o += fmt::format("<th class=\"col\"><a href=\"#s{}\">{}</a></th>", i, e(cols[i].src->label));
    o += "</tr>\n";
}

/// The rows `rs` (indices into `rows`) of one matrix table, with their family and section groups.
void put_matrix_rows(std::string &o, const std::vector<Row> &rows, const std::vector<std::size_t> &rs,
                     const std::vector<Column> &cols) {
    put_matrix_head(o, cols);
    std::string group;
    for (const std::size_t r : rs) {
        const Row &row = rows[r];
        const std::string g = row.family + '\n' + row.section;
        if (g != group) {
            group = g;
            o += fmt::format("<tr class=\"group\" data-family=\"{}\"><th colspan=\"{}\">{}{}{}</th></tr>\n", e(row.family),
                             cols.size() + 1, e(row.family), row.section.empty() ? "" : " \u2014 ", e(row.section));
        }
        o += fmt::format("<tr data-family=\"{}\" data-status=\"{}\" data-text=\"{}\"><th class=\"rule\" title=\"{}\">{}</th>",
                         e(row.family), row_statuses(row, cols), e(row.id + " " + row.sentence), e(row.sentence), e(row.id));
        for (std::size_t i = 0; i < cols.size(); ++i) {
            const auto it = cols[i].rules.find(row.id);
            const Cell c = it == cols[i].rules.end() ? Cell::none : cell_of(*it->second);
            const auto s = style_of(c);
            const std::string title = e(cols[i].src->label + ": " + row.id + ": " + s.word);
            if (is_failure_cell(c))
                o += fmt::format("<td class=\"c {}\" title=\"{}\"><a href=\"#d{}-{}\">{}</a></td>", s.css, title, i, r,
                                 s.symbol);
            else
                o += fmt::format("<td class=\"c {}\" title=\"{}\">{}</td>", s.css, title, s.symbol);
        }
        o += "</tr>\n";
    }
    o += "</table></div>\n";
}

/// The matrix, last: rules some report fails or waives open, the rules every report passes (or
/// does not support) in a collapsed <details>.
void put_matrix(std::string &o, const std::vector<Row> &rows, const std::vector<Column> &cols) {
    o += "<h2 id=\"matrix\">Rules by subject</h2>\n<p>Rows are the rules, grouped by family and spec section; "
         "columns are the reports. A failing cell links to its failure above.</p>\n";
    put_legend(o);
    std::vector<std::size_t> open, passing;
    for (std::size_t r = 0; r < rows.size(); ++r) (row_all_pass(rows[r], cols) ? passing : open).push_back(r);
    if (open.empty()) o += "<p>No rule fails or is waived in any report.</p>\n";
    else put_matrix_rows(o, rows, open, cols);
    if (passing.empty()) return;
    o += fmt::format("<details id=\"allpass\"><summary>{} rule(s) that every report passes or does not support</summary>\n",
                     passing.size());
    put_matrix_rows(o, rows, passing, cols);
    o += "</details>\n";
}

/// Filters by family, status and text over the verdict rows, failures and matrix rows: shown only
/// when scripts run (the page without them shows everything), applied by the script below.
void put_filters(std::string &o, const std::vector<Row> &rows) {
    std::set<std::string> families;
    for (const auto &r : rows) families.insert(r.family);
    o += "<form id=\"filters\" hidden>Filter: <select id=\"f-family\" aria-label=\"family\"><option value=\"\">every family"
         "</option>";
    for (const auto &f : families) o += fmt::format("<option>{}</option>", e(f));
    o += "</select> <select id=\"f-status\" aria-label=\"status\"><option value=\"\">every status</option>"
         "<option value=\"fail\">failing</option><option value=\"waived\">waived</option>"
         "<option value=\"unsupported\">unsupported</option><option value=\"pass\">passing</option></select> "
         "<input id=\"f-text\" type=\"search\" placeholder=\"rule, subject or text\" aria-label=\"text\"> "
         "<span id=\"f-count\" class=\"small\"></span></form>\n";
}

// Hides every [data-status]/[data-family]/[data-text] element the filters exclude; an element
// without an attribute is not filtered by it. Group rows follow their family only.
constexpr const char *kFilterScript = R"(<script>
(function(){
var f=document.getElementById('filters');f.hidden=false;
var fam=document.getElementById('f-family'),st=document.getElementById('f-status'),tx=document.getElementById('f-text');
function apply(){
var a=fam.value,b=st.value,c=tx.value.toLowerCase(),n=0,m=0;
document.querySelectorAll('[data-status],[data-family],[data-text]').forEach(function(el){
var ok=(!a||!el.dataset.family||el.dataset.family===a)&&(!b||!el.dataset.status||el.dataset.status.split(' ').indexOf(b)>=0)
&&(!c||!el.dataset.text||el.dataset.text.toLowerCase().indexOf(c)>=0);
el.style.display=ok?'':'none';if(el.dataset.text){m++;if(ok)n++;}});
if(b||c||a){var d=document.getElementById('allpass');if(d)d.open=true;}
document.getElementById('f-count').textContent=(a||b||c)?n+' of '+m+' shown':'';}
[fam,st,tx].forEach(function(x){x.addEventListener('input',apply);x.addEventListener('change',apply);});
})();
</script>
)";

std::string classes_text(const json &classes) {
    std::string s;
    if (!classes.is_object()) return s;
    for (const auto &[k, v] : classes.items())
        s += fmt::format("{}<code>{}</code> \u00d7 {}", s.empty() ? "" : ", ", e(k), v.is_number_integer() ? v.get<std::int64_t>() : 0);
    return s;
}

/// A status of a v3 mismatch's "status_codes" (`side`: "expected" or "actual") as the C name with
/// its payload detail named as `ninfer-conform oracle` names it ("NINFER_E_INVALID_PAYLOAD detail
/// 4 (nonzero_padding)"); a v2 report has only the words, shown as they are.
std::string status_word(const json &m, const char *side) {
    const json &codes = member(m, "status_codes");
    const auto code = codes.find(side);
    if (code == codes.end() || !code->is_number_integer()) return text_of(m, side);
    const auto value = code->get<std::int64_t>();
    std::string w = value < INT32_MIN || value > INT32_MAX ? "status " + std::to_string(value)
                                                             : abi::status_c_name(static_cast<std::int32_t>(value));
    const std::uint64_t detail = count_of(codes, side == std::string_view("expected") ? "expected_detail" : "actual_detail");
    if (detail == 0) return w;
    const std::string_view name = detail <= UINT32_MAX ? abi::detail_name(static_cast<std::uint32_t>(detail)) : "";
    return fmt::format("{} detail {}{}", w, detail, name.empty() ? "" : " (" + std::string(name) + ")");
}

std::string word_and_value(const json &m, const char *word, const char *value) {
    const std::string v = text_of(m, value);
    const std::string w = text_of(m, "plane") == "status" ? status_word(m, word) : text_of(m, word);
    return fmt::format("<code>{}</code>{}", e(w), v.empty() ? "" : " = " + e(v));
}

/// The exact value of a block format's element and the case's criterion, when the report has them.
std::string exact_note(const json &m) {
    const std::string x = text_of(m, "exact_value"), crit = text_of(m, "criterion");
    std::string s;
    if (!x.empty()) s += "<br><span class=\"small\">exact value " + e(x) + "</span>";
    if (!crit.empty()) s += "<br><span class=\"small\">requires " + e(crit) + "</span>";
    // Operators: the error in output ulps and as a fraction of the criterion's bound.
    const auto ulps = m.contains("error_ulps") ? number_from_json(m["error_ulps"]) : std::nullopt;
    const auto frac = m.contains("bound_fraction") ? number_from_json(m["bound_fraction"]) : std::nullopt;
    if (ulps || frac) {
        s += "<br><span class=\"small\">error";
        if (ulps) s += " " + e(number_text(*ulps)) + " ulps";
        if (frac) s += std::string(ulps ? "," : "") + " " + e(number_text(*frac)) + " of the bound";
        s += "</span>";
    }
    return s;
}

void put_mismatches(std::string &o, const json &c) {
    const json &first = array_of(c, "first_mismatches");
    if (first.empty()) return;
    o += "<div class=\"scroll\"><table class=\"wide\"><tr><th>where</th><th>class</th><th>input</th><th>expected</th>"
         "<th>actual</th></tr>\n";
    std::size_t n = 0;
    for (const auto &m : first) {
        if (n++ == kMismatchesShown) break;
        std::string in;
        for (const auto &w : array_of(m, "inputs"))
            if (w.is_string()) in += (in.empty() ? "" : " ") + w.get<std::string>();
        const std::string iv = text_of(m, "input_value");
        o += fmt::format("<tr><td>{} <span class=\"small\">({} {})</span></td><td><code>{}</code></td>"
                         "<td><code>{}</code>{}</td><td>{}</td><td>{}</td></tr>\n",
                         e(text_of(m, "location")), e(text_of(m, "plane")), count_of(m, "index"), e(text_of(m, "class")),
                         e(in), iv.empty() ? "" : " = " + e(iv),
                         word_and_value(m, "expected", "expected_value") + exact_note(m),
                         word_and_value(m, "actual", "actual_value"));
    }
    o += "</table></div>\n";
    if (first.size() > kMismatchesShown)
        o += fmt::format("<p class=\"small\">{} more first mismatches in the JSON report.</p>\n",
                         first.size() - kMismatchesShown);
}

/// A field of a v3 mismatch's "where", when present and within `limit`.
std::optional<int> where_field(const json &where, const char *key, int limit) {
    const auto it = where.find(key);
    if (it == where.end() || !it->is_number_unsigned()) return std::nullopt;
    return static_cast<int>(std::min<std::uint64_t>(it->get<std::uint64_t>(), static_cast<std::uint64_t>(limit)));
}

/// Grouped and block formats: the first mismatches of the failing cases by plane, row and group
/// (lanes listed), from their v3 "where" fields (a v2 report has none: no grid).
void put_locations(std::string &o, const std::vector<const json *> &cases) {
    std::map<std::string, std::map<std::pair<int, int>, std::pair<std::uint64_t, std::string>>> planes;
    int rows = 0, groups = 0;
    for (const json *c : cases)
        for (const auto &m : array_of(*c, "first_mismatches")) {
            const json &where = member(m, "where");
            const auto row = where_field(where, "row", 1 << 20), grp = where_field(where, "group", 1 << 20);
            if (!row || !grp) continue;
            const std::string plane = text_of(where, "plane");
            auto &cell = planes[plane.empty() ? text_of(m, "plane") : plane][{*row, *grp}];
            ++cell.first;
            if (const auto lane = where.find("lane"); lane != where.end() && lane->is_number_unsigned())
                cell.second += (cell.second.empty() ? "" : " ") + std::to_string(lane->get<std::uint64_t>());
            rows = std::max(rows, *row + 1);
            groups = std::max(groups, *grp + 1);
        }
    if (planes.empty()) return;
    constexpr int kMax = 64, kCell = 16;
    const int shown_rows = std::min(rows, kMax), shown_groups = std::min(groups, kMax);
    o += "<p>Where the first mismatches lie, by plane, row and group (darker: more):</p>\n";
    for (const auto &[plane, cells] : planes) {
        std::uint64_t most = 1;
        for (const auto &[k, v] : cells) most = std::max(most, v.first);
        // Wide enough for the title too (about 7 px a character at 12 px), so that nothing is cut.
        const std::string title = plane + " plane (rows \u2193, groups \u2192)";
        const int w = std::max(60 + shown_groups * kCell + 10, 8 + 7 * static_cast<int>(title.size())),
                  h = 34 + shown_rows * kCell + 10;
        o += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
                         "aria-label=\"{} plane: mismatches by row and group\">\n",
                         w, h, w, h, e(plane));
        o += fmt::format("<text x=\"4\" y=\"14\" font-size=\"12\">{}</text>\n", e(title));
        for (int r = 0; r < shown_rows; ++r)
            o += fmt::format("<text x=\"56\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">{}</text>\n",
                             34 + r * kCell + 12, r);
        o += fmt::format("<rect x=\"60\" y=\"34\" width=\"{}\" height=\"{}\" fill=\"#f5f5f5\" stroke=\"#ccc\"/>\n",
                         shown_groups * kCell, shown_rows * kCell);
        for (const auto &[k, v] : cells) {
            if (k.first >= shown_rows || k.second >= shown_groups) continue;
            const int shade = 200 - static_cast<int>(180 * v.first / most);
            o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"rgb(255,{},{})\" "
                             "stroke=\"#c00\"><title>row {} group {}: {} mismatch(es){}{}</title></rect>\n",
                             60 + k.second * kCell, 34 + k.first * kCell, kCell, kCell, shade, shade, k.first, k.second,
                             v.first, v.second.empty() ? "" : ", lanes ", e(v.second));
        }
        o += "</svg>\n";
    }
    o += "<div class=\"scroll\"><table class=\"wide\"><tr><th>plane</th><th>row</th><th>group</th>"
         "<th class=\"num\">first mismatches</th><th>lanes</th></tr>\n";
    for (const auto &[plane, cells] : planes)
        for (const auto &[k, v] : cells)
            o += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                             "<td class=\"mono\">{}</td></tr>\n",
                             e(plane), k.first, k.second, v.first, v.second.empty() ? "\u2014" : e(v.second));
    o += "</table></div>\n";
    if (rows > kMax || groups > kMax)
        o += fmt::format("<p class=\"small\">The grid shows rows and groups below {}.</p>\n", kMax);
}

struct Bin {
    bool negative;
    int binade;
    std::uint64_t count;
};

/// The y axis of the sweep plot: ticks at 1, 10, 100, ... up to `most`, at their log-scale
/// heights above and below the axis (`half`: the height of the largest bar).
void put_count_ticks(std::string &o, std::uint64_t most, double scale, int left, int axis, double half) {
    if (most == 0 || !(scale > 0)) return;
    for (std::uint64_t t = 1; t <= most; t *= 10) {
        const double h = half * std::log10(1.0 + static_cast<double>(t)) / scale;
        for (const double y : {axis - h, axis + h})
            o += fmt::format("<line x1=\"{}\" y1=\"{:.2f}\" x2=\"{}\" y2=\"{:.2f}\" stroke=\"#999\"/><text x=\"{}\" "
                             "y=\"{:.2f}\" font-size=\"10\" text-anchor=\"end\">{}</text>\n",
                             left - 4, y, left, y, left - 6, y + 3, t < 1000000 ? fmt::format("{}", t) : fmt::format("1e{}", std::to_string(t).size() - 1));
        if (t > most / 10) break;
    }
}

/// The table under the sweep plot: one row per run of consecutive binades of one sign that have
/// mismatches ("1\u2013254"), so that a sweep failing everywhere is a few rows, not 510; the
/// count of each binade is in its bar's tooltip.
void put_bin_table(std::string &o, const std::vector<Bin> &bins, const std::string &by, std::uint64_t total) {
    o += fmt::format("<div class=\"scroll\"><table><tr><th>sign</th><th>{}</th><th class=\"num\">mismatches</th>"
                     "<th class=\"num\">share</th></tr>\n",
                     e(by));
    for (std::size_t i = 0; i < bins.size();) {
        std::size_t j = i + 1;
        std::uint64_t sum = bins[i].count;
        while (j < bins.size() && bins[j].negative == bins[i].negative && bins[j].binade == bins[j - 1].binade + 1) sum += bins[j++].count;
        const std::string range = j - i == 1 ? std::to_string(bins[i].binade)
                                             : fmt::format("{}\u2013{}", bins[i].binade, bins[j - 1].binade);
        o += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1f}%</td></tr>\n",
                         bins[i].negative ? "\u2212" : "+", range, sum, 100.0 * static_cast<double>(sum) / static_cast<double>(total));
        i = j;
    }
    o += "</table></div>\n";
}

/// The sweep's word mismatches by sign and binade of the source word: positive words above the
/// axis, negative below, bar height on a log scale, the count in each bar's tooltip.
void put_sweep_plot(std::string &o, const json &report) {
    const json &extra = member(report, "extra");
    // The compact form merge reads too (mismatch_bins_of); an unreadable one shows no bars.
    std::vector<Bin> bins;
    if (const auto read = mismatch_bins_of(text_of(extra, "mismatch_bins")))
        for (const auto &[key, count] : *read) bins.push_back({key.first, std::min(key.second, 1 << 16), count});
    const std::string by = text_of(extra, "binade");
    int binades = 0;
    try {
        binades = std::stoi(text_of(extra, "binades"));
    } catch (const std::exception &) {
        binades = 0;
    }
    for (const auto &b : bins) binades = std::max(binades, b.binade + 1);
    o += fmt::format("<h3>Sweep {} from {}, {} words: where the mismatches lie</h3>\n", e(text_of(extra, "sweep")),
                     e(text_of(extra, "start")), e(text_of(extra, "count")));
    if (text_of(extra, "mismatch_bins").empty() && !extra.contains("mismatch_bins")) {
        o += "<p class=\"small\">This report has no mismatch histogram (extra \"mismatch_bins\").</p>\n";
        return;
    }
    std::uint64_t most = 0, total = 0, neg = 0;
    for (const auto &b : bins) {
        most = std::max(most, b.count);
        total += b.count;
        if (b.negative) neg += b.count;
    }
    if (binades <= 0) binades = 1;
    constexpr int left = 112, right = 12, top = 10, plot_h = 200, bottom = 44, width = 800;
    const int plot_w = width - left - right, axis = top + plot_h / 2, height = top + plot_h + bottom;
    const double bw = static_cast<double>(plot_w) / binades;
    const double scale = most ? std::log10(1.0 + static_cast<double>(most)) : 1.0;
    o += fmt::format("<p>{} word mismatches ({} negative) by sign and {} of the source word; bar height on a log "
                     "scale, the highest bar {}.</p>\n",
                     total, neg, e(by), most);
    o += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
                     "aria-label=\"word mismatches by sign and {}\">\n",
                     width, height, width, height, e(by));
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbb\"/>\n", left, top,
                     plot_w, plot_h);
    o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", left, axis, left + plot_w, axis);
    // The sign labels at the left edge; the count ticks (mismatches, log scale) beside the plot.
    o += fmt::format("<text x=\"4\" y=\"{}\" font-size=\"12\">+ words</text>\n", top + plot_h / 4);
    o += fmt::format("<text x=\"4\" y=\"{}\" font-size=\"12\">\u2212 words</text>\n", axis + plot_h / 4);
    put_count_ticks(o, most, scale, left, axis, plot_h / 2 - 2);
    for (const auto &b : bins) {
        const double h = scale > 0 ? (plot_h / 2 - 2) * std::log10(1.0 + static_cast<double>(b.count)) / scale : 0;
        const double x = left + bw * b.binade;
        o += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"><title>{} {} "
                         "{}: {} mismatches</title></rect>\n",
                         x, b.negative ? static_cast<double>(axis) : axis - h, std::max(bw - 0.5, 1.0), std::max(h, 1.0),
                         b.negative ? "#b03060" : "#c62828", b.negative ? "negative" : "positive", e(by), b.binade,
                         b.count);
    }
    const int step = binades <= 32 ? 1 : binades <= 64 ? 4 : binades <= 128 ? 8 : 16;
    for (int t = 0; t < binades; t += step)
        o += fmt::format("<text x=\"{:.2f}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
                         left + bw * (t + 0.5), top + plot_h + 14, t);
    o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{} of the source word (0 to {})"
                     "</text>\n</svg>\n",
                     left + plot_w / 2, top + plot_h + 34, e(by), binades - 1);
    if (bins.empty()) {
        o += "<p>No word mismatches in this sweep.</p>\n";
        return;
    }
    put_bin_table(o, bins, by, total);
}

/// The box of fingerprint `k` of column `ci`: its sentence, the policy's four coordinates, the
/// equivalent policies and the residue by input class with the first mismatch of each.
void put_fingerprint(std::string &o, const Fingerprint &f, std::size_t ci, std::size_t k) {
    o += fmt::format("<div class=\"fingerprint\" id=\"f{}-{}\">\n<p class=\"sentence\"><b>Behaviour fingerprint</b> of "
                     "<code>{}</code> ({} \u2192 {}): {}</p>\n",
                     ci, k, e(fingerprint_rule(f)), e(f.source), e(f.target), e(f.sentence));
    o += fmt::format("<div class=\"scroll\"><table class=\"wide\"><tr><th>rounding</th><th>overflow</th><th>subnormals</th><th>NaN</th><th>policy</th>"
                     "<th>named</th><th class=\"num\">matched</th><th>domain</th></tr>\n<tr><td><code>{}</code></td>"
                     "<td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td>"
                     "<td class=\"num\">{} of {}</td><td>{}</td></tr>\n</table></div>\n",
                     e(f.rounding), e(f.overflow), e(f.subnormals), e(f.nan), e(f.policy_text),
                     f.named.empty() ? "\u2014" : "<code>" + e(f.named) + "</code>", f.matched, f.inputs, e(f.domain));
    if (!f.equivalent.empty()) {
        std::string list;
        for (const auto &x : f.equivalent) list += (list.empty() ? "<code>" : ", <code>") + e(x) + "</code>";
        o += "<p>Equivalent on this domain: " + list + "</p>\n";
    }
    if (f.residue.empty()) {
        o += "<p>No residue: the policy matches on every input.</p>\n</div>\n";
        return;
    }
    o += "<div class=\"scroll\"><table class=\"wide\"><tr><th>input class</th><th class=\"num\">inputs</th><th class=\"num\">mismatches</th>"
         "<th>first input</th><th>subject</th><th>policy</th></tr>\n";
    const auto word = [](const std::string &hex) { return hex.empty() ? std::string("\u2014") : "<code>" + e(hex) + "</code>"; };
    for (const auto &r : f.residue)
        o += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td></tr>\n",
                         e(r.cls), r.inputs, r.mismatches, word(r.input), word(r.actual), word(r.expected));
    o += "</table></div>\n</div>\n";
}

/// Near the subject's verdict: every fingerprint's sentence, linked to its box; the boxes of
/// those that no failure of this report stands beside (`beside`: fingerprint -> its failure row).
void put_fingerprint_list(std::string &o, const Column &col, std::size_t ci, const std::map<std::size_t, std::size_t> &beside) {
    if (col.fingerprints.empty()) return;
    o += fmt::format("<p>Behaviour fingerprints ({}):</p>\n<ul>\n", col.fingerprints.size());
    for (std::size_t k = 0; k < col.fingerprints.size(); ++k)
        o += fmt::format("<li><a href=\"#f{}-{}\"><code>{}</code></a>: {}</li>\n", ci, k,
                         e(fingerprint_rule(col.fingerprints[k])), e(col.fingerprints[k].sentence));
    o += "</ul>\n";
    for (std::size_t k = 0; k < col.fingerprints.size(); ++k)
        if (!beside.count(k)) put_fingerprint(o, col.fingerprints[k], ci, k);
}

void put_failure(std::string &o, const Column &col, std::size_t ci, std::size_t ri, const Row &row, const json &rule,
                 const std::vector<std::size_t> &fingerprints) {
    const auto s = style_of(cell_of(rule));
    o += fmt::format("<div class=\"failure\" id=\"d{}-{}\" data-family=\"{}\" data-status=\"fail\" data-text=\"{}\">\n"
                     "<h4><code>{}</code> <span class=\"{}\">&nbsp;{}&nbsp;</span></h4>\n",
                     ci, ri, e(row.family), e(col.src->label + " " + row.id + " " + row.sentence), e(row.id), s.css, s.word);
    o += fmt::format("<p class=\"sentence\">{}{}</p>\n", row.section.empty() ? "" : e(row.section) + ": ",
                     e(text_of(rule, "sentence").empty() ? row.sentence : text_of(rule, "sentence")));
    const std::string cls = classes_text(member(rule, "classes"));
    if (!cls.empty()) o += "<p>Mismatch classes: " + cls + "</p>\n";
    std::vector<const json *> failing;
    if (const auto it = col.cases.find(row.id); it != col.cases.end())
        for (const json *c : it->second)
            if (case_failed_unwaived(*c)) failing.push_back(c);
    std::vector<const json *> shown(failing.begin(), failing.begin() + std::min(failing.size(), kCasesPerRule));
    for (const json *c : shown) {
        const std::string case_classes = classes_text(member(*c, "classes"));
        o += fmt::format("<p><b>case</b> <code>{}</code> ({}, {}): {} of {} compared mismatched{}</p>\n", e(text_of(*c, "id")),
                         e(text_of(*c, "status")), e(text_of(*c, "source")), count_of(*c, "mismatches"),
                         count_of(*c, "elements"), case_classes.empty() ? "" : "; " + case_classes);
        const std::string msg = text_of(*c, "message");
        if (!msg.empty()) o += "<p>Message: <code>" + e(msg) + "</code></p>\n";
        put_mismatches(o, *c);
    }
    if (failing.size() > shown.size())
        o += fmt::format("<p class=\"small\">{} more failing cases of this rule in the JSON report.</p>\n",
                         failing.size() - shown.size());
    put_locations(o, failing);
    for (const std::size_t k : fingerprints) put_fingerprint(o, col.fingerprints[k], ci, k);
    o += "</div>\n";
}

/// Each fingerprint's box stands beside the first failing rule (in row order) it covers:
/// fingerprint -> row.
std::map<std::size_t, std::size_t> fingerprints_beside(const std::vector<Row> &rows, const Column &col) {
    std::map<std::size_t, std::size_t> beside;
    for (std::size_t k = 0; k < col.fingerprints.size(); ++k)
        for (std::size_t ri = 0; ri < rows.size() && !beside.count(k); ++ri) {
            const auto it = col.rules.find(rows[ri].id);
            if (it != col.rules.end() && is_failure_cell(cell_of(*it->second)) && fingerprint_covers(col.fingerprints[k], rows[ri].id))
                beside[k] = ri;
        }
    return beside;
}

void put_subject_details(std::string &o, const std::vector<Row> &rows, const std::vector<Column> &cols) {
    o += "<h2 id=\"failures\">Failures</h2>\n";
    for (std::size_t ci = 0; ci < cols.size(); ++ci) {
        const Column &col = cols[ci];
        const json &r = col.src->report;
        std::vector<const json *> waived;
        for (const auto &c : array_of(r, "cases")) {
            const auto w = c.find("waived");
            if (w != c.end() && w->is_boolean() && w->get<bool>()) waived.push_back(&c);
        }
        // The status filter hides the sections of reports it excludes (a passing report under "failing").
        o += fmt::format("<section id=\"s{}\" data-status=\"{}{}\">\n<h3>{}</h3>\n", ci, passed_of(r) ? "pass" : "fail",
                         waived.empty() ? "" : " waived", e(col.src->label));
        const std::string open = text_of(r, "open_error");
        if (!open.empty()) o += "<p class=\"fail\">The subject did not start: <code>" + e(open) + "</code></p>\n";
        const auto beside = fingerprints_beside(rows, col);
        put_fingerprint_list(o, col, ci, beside);
        if (text_of(r, "kind") == "sweep") put_sweep_plot(o, r);
        std::size_t failures = 0;
        for (std::size_t ri = 0; ri < rows.size(); ++ri) {
            const auto it = col.rules.find(rows[ri].id);
            if (it == col.rules.end() || !is_failure_cell(cell_of(*it->second))) continue;
            ++failures;
            std::vector<std::size_t> boxes;
            for (const auto &[k, row] : beside)
                if (row == ri) boxes.push_back(k);
            put_failure(o, col, ci, ri, rows[ri], *it->second, boxes);
        }
        if (!failures) o += "<p>No unwaived failure.</p>\n";
        if (!waived.empty()) {
            o += fmt::format("<p>Waived failures ({}):</p>\n<ul>\n", waived.size());
            for (std::size_t i = 0; i < std::min(waived.size(), kWaiversShown); ++i)
                o += fmt::format("<li><code>{}</code> ({}): {}</li>\n", e(text_of(*waived[i], "id")),
                                 e(text_of(*waived[i], "status")), e(text_of(*waived[i], "waiver_reason")));
            if (waived.size() > kWaiversShown) o += fmt::format("<li>and {} more</li>\n", waived.size() - kWaiversShown);
            o += "</ul>\n";
        }
        o += "</section>\n";
    }
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string s;
    s.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&': s += "&amp;"; break;
        case '<': s += "&lt;"; break;
        case '>': s += "&gt;"; break;
        case '"': s += "&quot;"; break;
        case '\'': s += "&#39;"; break;
        default: s += c;
        }
    }
    return s;
}

std::string render_html(const std::vector<HtmlSource> &sources, const std::map<std::string, HtmlRuleInfo> &catalog) {
    // 1. Check the sources and index their rules and cases.
    std::vector<Column> cols;
    std::map<std::string, Row> by_id;
    for (const auto &src : sources) {
        if (!is_report_schema(src.report))
            throw std::runtime_error(fmt::format("{}: not a report of schema {} (or {})", src.label, kSchemaId, kSchemaIdV2));
        Column col{&src, {}, {}};
        for (const auto &rule : array_of(src.report, "rules")) {
            const std::string id = text_of(rule, "id");
            col.rules.emplace(id, &rule);
            Row &row = by_id[id];
            if (row.id.empty()) {
                row.id = id;
                row.sentence = text_of(rule, "sentence");
                if (const auto it = catalog.find(id); it != catalog.end()) {
                    row.family = it->second.family;
                    row.section = it->second.section;
                } else {
                    row.family = id.substr(0, id.find('.'));
                }
            }
        }
        for (const auto &c : array_of(src.report, "cases")) col.cases[text_of(c, "rule")].push_back(&c);
        if (const auto it = src.report.find("fingerprints"); it != src.report.end()) {
            std::string error;
            auto fingerprints = fingerprints_from_json(*it, error);
            if (!fingerprints) throw std::runtime_error(fmt::format("{}: {}", src.label, error));
            col.fingerprints = std::move(*fingerprints);
        }
        cols.push_back(std::move(col));
    }
    // 2. Rows by family, spec section, id.
    std::vector<Row> rows;
    for (auto &[id, row] : by_id) rows.push_back(row);
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.family != b.family) return a.family < b.family;
        if (a.section != b.section) return natural_less(a.section, b.section);
        return a.id < b.id;
    });
    // 3. The page.
    std::string versions;
    for (const auto &c : cols) {
        const std::string v = text_of(c.src->report, "tool_version");
        if (versions.find(v) == std::string::npos) versions += (versions.empty() ? "" : ", ") + v;
    }
    std::vector<const json *> reports;
    for (const auto &c : cols) reports.push_back(&c.src->report);
    std::string o;
    o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>ninfer-conform conformance report</title>\n<style>\n";
    o += kStyle;
    o += "\n</style>\n</head>\n<body>\n<h1>ninfer-conform conformance report</h1>\n";
    o += fmt::format("<p id=\"overview\">{}; {} rule(s); suite version {}. "
                     "<a href=\"#verdicts\">Verdicts</a> \u00b7 <a href=\"#failures\">Failures</a> \u00b7 "
                     "<a href=\"#matrix\">Matrix</a></p>\n",
                     overview_verdict(reports), rows.size(), e(versions.empty() ? "?" : versions));
    put_filters(o, rows);
    put_verdicts(o, rows, cols);
    put_subject_details(o, rows, cols);
    put_matrix(o, rows, cols);
    o += "<p class=\"small\">Written by <code>ninfer-conform report --html</code> from the JSON reports "
         "(reports/README.md); self-contained: its one script only filters, and without it everything shows.</p>\n";
    o += kFilterScript;
    o += "</body>\n</html>\n";
    return o;
}

}  // namespace ninfer::reports
