// SPDX-License-Identifier: Apache-2.0
// The report model: statuses, rule summaries and totals, atomic writes (reports/README.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

const char *status_name(Status s) {
    switch (s) {
    case Status::pass: return "pass";
    case Status::fail: return "fail";
    case Status::unsupported: return "unsupported";
    case Status::error: return "error";
    case Status::crash: return "crash";
    case Status::timeout: return "timeout";
    }
    return "?";
}

bool is_failure(Status s) {
    return s == Status::fail || s == Status::error || s == Status::crash || s == Status::timeout;
}

bool failed_unwaived(const CaseResult &c) { return is_failure(c.status) && !c.waived; }

bool run_failed(const Report &r) {
    if (!r.open_error.empty()) return true;
    for (const auto &c : r.cases)
        if (failed_unwaived(c)) return true;
    return false;
}

int severity(Status s) {
    switch (s) {
    case Status::unsupported: return 0;
    case Status::pass: return 1;
    case Status::fail: return 2;
    case Status::error: return 3;
    case Status::timeout: return 4;
    case Status::crash: return 5;
    }
    return 0;
}

void finalize(Report &r) {
    std::map<std::string, RuleSummary> rules;
    std::map<std::string, bool> any_applicable;
    r.totals = Totals{};
    for (const auto &c : r.cases) {
        auto &t = r.totals;
        ++t.cases;
        t.mismatches += c.mismatches;
        switch (c.status) {
        case Status::pass: ++t.pass; break;
        case Status::fail: ++t.fail; break;
        case Status::unsupported: ++t.unsupported; break;
        case Status::error: ++t.error; break;
        case Status::crash: ++t.crash; break;
        case Status::timeout: ++t.timeout; break;
        }
        if (c.waived) ++t.waived;

        auto [it, fresh] = rules.try_emplace(c.rule);
        auto &rs = it->second;
        if (fresh) {
            rs.id = c.rule;
            rs.sentence = c.sentence;
            rs.status = Status::unsupported;
        }
        ++rs.counts[status_name(c.status)];
        ++rs.cases;
        if (!c.reading_kind.empty()) rs.reading_kind = c.reading_kind;
        if (!c.reading.empty()) {
            rs.reading = c.reading;
            if (!c.choice.empty()) ++rs.choices[c.choice];
        }
        if (c.waived) ++rs.counts["waived"];
        // A waived failure counts as a pass.
        if (severity(c.waived ? Status::pass : c.status) > severity(rs.status)) rs.status = c.waived ? Status::pass : c.status;
        if (failed_unwaived(c)) {
            for (const auto &[k, v] : c.classes) rs.classes[k] += v;
            if (rs.first_failure.empty()) rs.first_failure = c.id;
            ++rs.failing_cases;
            rs.suite_reading = rs.suite_reading || c.suite_reading;
        }
    }
    // Attribution: every kept mismatch of a failing case counts for the rule it points at.
    for (const auto &c : r.cases) {
        if (!failed_unwaived(c)) continue;
        for (const auto &m : c.first) {
            const std::string &to = m.blame.empty() ? c.rule : m.blame;
            auto [it, fresh] = rules.try_emplace(to);
            if (fresh) {
                it->second.id = to;
                it->second.status = Status::pass;
            }
            ++it->second.blamed;
        }
        if (c.first.empty()) ++rules[c.rule].blamed;  // a status or crash: the case's own rule
    }
    r.rules.clear();
    for (auto &[id, rs] : rules) r.rules.push_back(std::move(rs));
}

std::vector<const RuleSummary *> failing_rules_by_specificity(const Report &r) {
    std::vector<const RuleSummary *> out;
    for (const auto &rs : r.rules)
        if (is_failure(rs.status) || rs.blamed) out.push_back(&rs);
    std::stable_sort(out.begin(), out.end(), [](const RuleSummary *a, const RuleSummary *b) {
        if (a->blamed != b->blamed) return a->blamed > b->blamed;
        // share of the rule's cases failing: a/ac > b/bc without division
        const auto l = a->failing_cases * (b->cases ? b->cases : 1), rr = b->failing_cases * (a->cases ? a->cases : 1);
        if (l != rr) return l > rr;
        return a->id < b->id;
    });
    return out;
}

std::string utc_now() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string host_description() {
    struct utsname u {};
    if (::uname(&u) != 0) return "unknown";
    return fmt::format("{} {} {}", u.sysname, u.release, u.machine);
}

}  // namespace ninfer::reports

namespace ninfer::reports {

namespace {

/// Length of the well-formed UTF-8 sequence at s[i] and its code point; 0 when ill-formed.
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t &cp) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
        cp = b;
        return 1;
    }
    const std::size_t len = b >= 0xF5 ? 0 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (len == 0 || i + len > s.size()) return 0;
    cp = b & (0x7Fu >> len);
    for (std::size_t k = 1; k < len; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (c & 0x3Fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/// Code points shown as \uNNNN: C1 controls (CSI among them), bidirectional overrides and
/// isolates, line and paragraph separators, the noncharacters XML refuses.
bool escaped_code_point(std::uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x200E || cp == 0x200F || cp == 0xFFFE || cp == 0xFFFF;
}

/// The safe form of s, stopping before it would pass `limit` bytes; `used` input bytes taken.
std::string safe_prefix(std::string_view s, std::size_t limit, std::size_t &used) {
    std::string out;
    out.reserve(std::min(s.size(), limit) + 8);
    std::size_t i = 0;
    while (i < s.size()) {
        std::uint32_t cp = 0;
        const std::size_t len = utf8_at(s, i, cp);
        std::string piece;
        if (len == 0) {
            const auto b = static_cast<unsigned char>(s[i]);
            piece = fmt::format("\\x{:02x}", b);
        } else if (cp == '\t' || cp == '\n' || cp == '\r') {
            piece = " ";
        } else if (cp < 0x20 || cp == 0x7F) {
            piece = fmt::format("\\x{:02x}", cp);
        } else if (escaped_code_point(cp)) {
            piece = fmt::format("\\u{:04x}", cp);
        } else {
            piece.assign(s.substr(i, len));
        }
        if (out.size() + piece.size() > limit) break;
        out += piece;
        i += len == 0 ? 1 : len;
    }
    used = i;
    return out;
}

}  // namespace

std::string untrusted_text(std::string_view s, std::size_t max_bytes) {
    std::size_t used = 0;
    std::string out = safe_prefix(s, max_bytes, used);
    if (used == s.size()) return out;
    // Cut with room for the note, so that the result stays within max_bytes and a second pass
    // leaves it as it is.
    constexpr std::size_t kNote = 40;
    out = safe_prefix(s, max_bytes > kNote ? max_bytes - kNote : 0, used);
    return out + " ... (" + std::to_string(s.size() - used) + " bytes cut)";
}

}  // namespace ninfer::reports
