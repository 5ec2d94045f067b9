// SPDX-License-Identifier: Apache-2.0
// Waiver files (docs/cli.md, "Baselines"): parsing, matching, application to a report.
#include "ninfer/harness/baseline.hpp"

#include <fnmatch.h>

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ninfer/abi/methods.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness {

namespace {

std::string required_string(const nlohmann::json &w, const char *key, const std::string &where, std::size_t i) {
    if (!w.contains(key) || !w.at(key).is_string() || w.at(key).get<std::string>().empty())
        throw BaselineError(fmt::format("{}: waivers[{}]: field \"{}\" must be a non-empty string", where, i, key));
    return w.at(key).get<std::string>();
}

/// The optional "capabilities" field: an array of non-empty strings.
std::optional<std::vector<std::string>> recorded_capabilities(const nlohmann::json &j, const std::string &where) {
    if (!j.contains("capabilities")) return std::nullopt;
    const auto &a = j.at("capabilities");
    if (!a.is_array())
        throw BaselineError(fmt::format("{}: field \"capabilities\" must be an array of capability lines", where));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_string() || a[i].get<std::string>().empty())
            throw BaselineError(fmt::format("{}: capabilities[{}]: expected a non-empty string", where, i));
        out.push_back(a[i].get<std::string>());
    }
    return out;
}

/// A registry name for a capability field, "any" for 0 and the number when unknown.
std::string field_name(std::string_view name, std::uint32_t id) {
    if (id == 0) return "any";
    return name.empty() ? std::to_string(id) : std::string(name);
}

}  // namespace

Baseline parse_baseline(const std::string &text, const std::string &where) {
    nlohmann::json j;
    std::string error;
    if (!vectors::parse_json_bounded(text, j, error)) {
        // error is "line L: what": name the file and the line, as a compiler would
        const auto colon = error.find(": ");
        const std::string line = error.substr(5, colon - 5), what = error.substr(colon + 2);
        if (what.rfind("not JSON", 0) == 0) throw BaselineError(fmt::format("{}: {}", where, what));
        throw BaselineError(fmt::format("{}:{}: {}", where, line, what));
    }
    if (!j.is_object()) throw BaselineError(fmt::format("{}: expected a JSON object with \"version\" and \"waivers\"", where));
    for (const auto &[k, v] : j.items())
        if (k != "version" && k != "waivers" && k != "comment" && k != "capabilities")
            throw BaselineError(fmt::format("{}: unknown field \"{}\" (expected version, waivers, comment, capabilities)",
                                            where, vectors::echo(k)));
    if (!j.contains("version") || vectors::checked_integer<int>(j.at("version")) != kBaselineVersion)
        throw BaselineError(fmt::format("{}: field \"version\" must be {}", where, kBaselineVersion));
    if (!j.contains("waivers") || !j.at("waivers").is_array())
        throw BaselineError(fmt::format("{}: field \"waivers\" must be an array", where));
    Baseline b;
    b.path = where;
    b.capabilities = recorded_capabilities(j, where);
    std::size_t i = 0;
    for (const auto &w : j.at("waivers")) {
        if (!w.is_object()) throw BaselineError(fmt::format("{}: waivers[{}]: expected an object", where, i));
        for (const auto &[k, v] : w.items())
            if (k != "rule" && k != "case" && k != "reason")
                throw BaselineError(fmt::format("{}: waivers[{}]: unknown field \"{}\" (expected rule, case, reason)", where,
                                                i, vectors::echo(k)));
        b.waivers.push_back({required_string(w, "rule", where, i), required_string(w, "case", where, i),
                             required_string(w, "reason", where, i)});
        ++i;
    }
    return b;
}

Baseline load_baseline(const std::filesystem::path &path) {
    std::string text, error;
    if (!vectors::read_file_capped(path.string(), kMaxBaselineBytes, text, error, vectors::Begins::json_object))
        throw BaselineError(fmt::format("{}: cannot read the baseline file: {}", vectors::echo(path.string()), error));
    Baseline b = parse_baseline(text, vectors::echo(path.string()));
    b.sha256 = vectors::sha256_bytes(text);
    return b;
}

bool waiver_matches(const Waiver &w, const std::string &rule, const std::string &case_id) {
    // FNM_PATHNAME off: `*` also crosses the '/' between rule and slug.
    return w.rule == rule && ::fnmatch(w.pattern.c_str(), case_id.c_str(), 0) == 0;
}

void apply_baseline(const Baseline &b, reports::Report &r) {
    r.baseline = b.path;
    std::vector<bool> fired(b.waivers.size(), false);
    for (auto &c : r.cases) {
        if (!reports::is_failure(c.status)) continue;
        for (std::size_t i = 0; i < b.waivers.size(); ++i) {
            if (!waiver_matches(b.waivers[i], c.rule, c.id)) continue;
            fired[i] = true;
            if (!c.waived) {
                c.waived = true;
                c.waiver_reason = b.waivers[i].reason;
            }
        }
    }
    r.stale_waivers.clear();
    for (std::size_t i = 0; i < b.waivers.size(); ++i)
        if (!fired[i]) r.stale_waivers.push_back({b.waivers[i].rule, b.waivers[i].pattern, b.waivers[i].reason});
}

std::string capability_text(const ninfer_capability_v2 &c) {
    const auto *profile = abi::find_id(abi::kProfiles, c.profile);
    return fmt::format("{} format {} from {} layout {} method {} profile {}", field_name(abi::op_name(c.op), c.op),
                       field_name(abi::format_name(c.format), c.format),
                       field_name(abi::format_name(c.format_in), c.format_in),
                       field_name(abi::layout_name(c.layout), c.layout),
                       field_name(abi::method_name(c.op, c.method), c.method),
                       field_name(profile ? profile->name : std::string_view{}, c.profile));
}

std::vector<std::string> capability_lines(const std::vector<ninfer_capability_v2> &caps) {
    std::vector<std::string> out;
    for (const auto &c : caps) out.push_back(capability_text(c));
    return out;
}

std::vector<std::string> lost_capabilities(const std::vector<std::string> &recorded,
                                           const std::vector<std::string> &declared) {
    std::vector<std::string> lost;
    for (const auto &c : recorded)
        if (std::find(declared.begin(), declared.end(), c) == declared.end()) lost.push_back(c);
    return lost;
}

Baseline baseline_of_run(const reports::Report &r, const Baseline *given) {
    Baseline b;
    b.capabilities = r.subject.capabilities;
    if (given)
        for (const auto &w : given->waivers) {
            const bool stale = std::any_of(r.stale_waivers.begin(), r.stale_waivers.end(), [&](const reports::StaleWaiver &s) {
                return s.rule == w.rule && s.case_pattern == w.pattern;
            });
            if (!stale) b.waivers.push_back(w);
        }
    for (const auto &c : r.cases)
        if (reports::failed_unwaived(c))
            b.waivers.push_back({c.rule, c.id,
                                 fmt::format("recorded by run --write-baseline: {} (give the reason)",
                                             c.message.empty() ? reports::status_name(c.status) : c.message)});
    return b;
}

std::string render_baseline(const Baseline &b) {
    nlohmann::ordered_json j;
    j["version"] = kBaselineVersion;
    if (b.capabilities) j["capabilities"] = *b.capabilities;
    j["waivers"] = nlohmann::ordered_json::array();
    for (const auto &w : b.waivers) j["waivers"].push_back({{"rule", w.rule}, {"case", w.pattern}, {"reason", w.reason}});
    return j.dump(2) + "\n";
}

}  // namespace ninfer::harness
