// SPDX-License-Identifier: Apache-2.0
// The JSON rendering of a report, schema "ninfer-conform/report/v3"
// (reports/schema/report-v3.schema.json, reports/README.md).
#include "ninfer/reports/report.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

namespace ninfer::reports {

namespace {

/// v3 "where": the fields that apply, in a fixed order.
nlohmann::ordered_json where_json(const Where &w) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (!w.plane.empty()) j["plane"] = w.plane;
    for (const auto &[key, v] : {std::pair{"row", &w.row}, std::pair{"group", &w.group}, std::pair{"lane", &w.lane},
                                 std::pair{"column", &w.column}, std::pair{"element", &w.element}})
        if (*v) j[key] = **v;
    return j;
}

nlohmann::ordered_json mismatch_json(const Mismatch &m) {
    nlohmann::ordered_json j = {{"index", m.index}, {"plane", m.plane}, {"location", m.location},
                                {"class", m.cls},   {"inputs", m.inputs}};
    if (!m.input_value.empty()) j["input_value"] = m.input_value;
    j["expected"] = m.expected;
    if (!m.expected_value.empty()) j["expected_value"] = m.expected_value;
    j["actual"] = m.actual;
    if (!m.actual_value.empty()) j["actual_value"] = m.actual_value;
    if (!m.blame.empty()) j["blame"] = m.blame;
    if (!m.exact_value.empty()) j["exact_value"] = m.exact_value;
    if (!m.criterion.empty()) j["criterion"] = m.criterion;
    if (m.error_ulps) j["error_ulps"] = number_json(*m.error_ulps);
    if (m.bound_fraction) j["bound_fraction"] = number_json(*m.bound_fraction);
    if (!m.where.empty()) j["where"] = where_json(m.where);
    if (const auto &s = m.status_codes)
        j["status_codes"] = {{"expected", s->expected}, {"expected_detail", s->expected_detail},
                             {"actual", s->actual}, {"actual_detail", s->actual_detail}};
    return j;
}

nlohmann::ordered_json counts_json(const std::map<std::string, std::uint64_t> &m) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto &[k, v] : m) j[k] = v;
    return j;
}

nlohmann::ordered_json case_json(const CaseResult &c) {
    nlohmann::ordered_json j = {{"id", c.id},
                        {"rule", c.rule},
                        {"sentence", c.sentence},
                        {"suite", c.suite},
                        {"source", c.source},
                        {"suite_reading", c.suite_reading},
                        {"status", status_name(c.status)},
                        {"elements", c.elements},
                        {"mismatches", c.mismatches},
                        {"classes", counts_json(c.classes)},
                        {"first_mismatches", nlohmann::ordered_json::array()},
                        {"message", c.message},
                        {"waived", c.waived}};
    for (const auto &m : c.first) j["first_mismatches"].push_back(mismatch_json(m));
    if (c.waived) j["waiver_reason"] = c.waiver_reason;
    if (!c.trace.empty()) j["trace"] = c.trace;
    if (c.nan_accepted) {
        nlohmann::ordered_json a = {{"policy", c.nan_policy}, {"count", c.nan_accepted}, {"first", nlohmann::ordered_json::array()}};
        for (const auto &n : c.nan_accepted_first)
            a["first"].push_back({{"index", n.index}, {"expected", n.expected}, {"expected_value", n.expected_value},
                                  {"actual", n.actual}, {"actual_value", n.actual_value}});
        j["nan_accepted"] = a;
    }
    if (c.not_judged) j["not_judged"] = {{"count", c.not_judged}, {"why", c.not_judged_why}};
    if (!c.reading_kind.empty()) j["reading_kind"] = c.reading_kind;
    if (!c.reading.empty()) {
        j["reading"] = c.reading;
        j["choice"] = c.choice;
    }
    return j;
}

/// A field of the "options" object: `want` when present and of its type, else `error` set.
template <class T>
std::optional<T> option_field(const nlohmann::json &j, const char *key, const char *type, std::string &error) {
    const auto it = j.find(key);
    const bool ok = it != j.end() && (std::is_same_v<T, bool>          ? it->is_boolean()
                                      : std::is_same_v<T, std::string> ? it->is_string()
                                                                       : it->is_number_unsigned());
    if (!ok) {
        if (error.empty()) error = fmt::format("options \"{}\" is {}, expected {}", key, it == j.end() ? "missing" : it->type_name(), type);
        return std::nullopt;
    }
    return it->get<T>();
}

}  // namespace

nlohmann::ordered_json options_json(const ReportOptions &o) {
    nlohmann::ordered_json j = {{"timeout_ms", o.timeout_ms}, {"memory_limit_mib", o.memory_limit_mib},
                                {"max_mismatches", o.max_mismatches}};
    j["baseline_sha256"] = o.baseline_sha256 ? nlohmann::ordered_json(*o.baseline_sha256) : nlohmann::ordered_json();
    j["case_cache"] = o.case_cache ? nlohmann::ordered_json{{"dir", o.case_cache->dir}, {"key_id", o.case_cache->key_id}}
                                   : nlohmann::ordered_json();
    if (o.batch) j["batch"] = *o.batch;
    if (o.expected) j["expected"] = *o.expected;
    if (o.nan_payload) j["nan_payload"] = *o.nan_payload;
    if (o.nan_sign) j["nan_sign"] = *o.nan_sign;
    if (!o.pins.empty()) {
        j["pins"] = nlohmann::ordered_json::object();
        for (const auto &[rule, choice] : o.pins) j["pins"][rule] = choice;
    }
    if (!o.policies.empty()) {
        j["policies"] = nlohmann::ordered_json::object();
        for (const auto &[rule, point] : o.policies) j["policies"][rule] = point;
    }
    return j;
}

std::optional<ReportOptions> options_from_json(const nlohmann::json &j, std::string &error) {
    error.clear();
    if (!j.is_object()) {
        error = fmt::format("\"options\" is {}, expected an object", j.type_name());
        return std::nullopt;
    }
    ReportOptions o;
    o.timeout_ms = option_field<std::uint64_t>(j, "timeout_ms", "a non-negative integer", error).value_or(0);
    o.memory_limit_mib = option_field<std::uint64_t>(j, "memory_limit_mib", "a non-negative integer", error).value_or(0);
    o.max_mismatches = option_field<std::uint64_t>(j, "max_mismatches", "a non-negative integer", error).value_or(0);
    if (!j.contains("baseline_sha256") || !j["baseline_sha256"].is_null())
        o.baseline_sha256 = option_field<std::string>(j, "baseline_sha256", "a string or null", error);
    if (!j.contains("case_cache") || !j["case_cache"].is_null()) {
        const auto &c = j.contains("case_cache") ? j["case_cache"] : nlohmann::json();
        if (!c.is_object() && error.empty()) error = "options \"case_cache\" is not an object, expected {dir, key_id} or null";
        if (c.is_object())
            o.case_cache = CaseCacheUse{option_field<std::string>(c, "dir", "a string", error).value_or(""),
                                        option_field<std::string>(c, "key_id", "a string", error).value_or("")};
    }
    if (j.contains("batch")) o.batch = option_field<std::uint64_t>(j, "batch", "a non-negative integer", error);
    if (j.contains("expected")) o.expected = option_field<std::string>(j, "expected", "a string", error);
    if (j.contains("nan_payload")) o.nan_payload = option_field<bool>(j, "nan_payload", "a boolean", error);
    if (j.contains("nan_sign")) o.nan_sign = option_field<bool>(j, "nan_sign", "a boolean", error);
    if (j.contains("pins")) {
        if (!j["pins"].is_object() && error.empty()) error = "options \"pins\" is not an object, expected {rule: choice}";
        if (j["pins"].is_object())
            for (const auto &[rule, choice] : j["pins"].items()) {
                if (!choice.is_string() && error.empty()) error = "options \"pins\" \"" + rule + "\" is not a string, expected a choice name";
                if (choice.is_string()) o.pins[rule] = choice.get<std::string>();
            }
    }
    if (j.contains("policies")) {
        if (!j["policies"].is_object() && error.empty()) error = "options \"policies\" is not an object, expected {rule: point}";
        if (j["policies"].is_object())
            for (const auto &[rule, point] : j["policies"].items()) {
                if (!point.is_string() && error.empty())
                    error = "options \"policies\" \"" + rule + "\" is not a string, expected a lattice point";
                if (point.is_string()) o.policies[rule] = point.get<std::string>();
            }
    }
    if (!error.empty()) return std::nullopt;
    return o;
}

nlohmann::ordered_json number_json(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return x;
}

std::optional<double> number_from_json(const nlohmann::json &j) {
    if (j.is_number()) return j.get<double>();
    if (!j.is_string()) return std::nullopt;
    const auto &s = j.get_ref<const std::string &>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

std::string number_text(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return fmt::format("{:.6g}", x);
}

nlohmann::ordered_json to_json(const Report &r) {
    nlohmann::ordered_json j;
    j["schema"] = std::string(kSchemaId);
    j["kind"] = r.kind;
    j["tool_version"] = r.tool_version;
    j["subject"] = {{"kind", r.subject.kind},       {"name", r.subject.name}, {"version", r.subject.version},
                    {"abi_version", r.subject.abi}, {"path", r.subject.path}};
    if (!r.subject.capabilities.empty()) j["subject"]["capabilities"] = r.subject.capabilities;
    if (!r.subject.containment.empty()) j["subject"]["containment"] = r.subject.containment;
    if (!r.subject.breaks.empty()) j["subject"]["breaks"] = r.subject.breaks;
    if (!r.open_error.empty()) j["open_error"] = r.open_error;
    j["vectors"] = {{"dir", r.vectors_dir}, {"manifest_sha256", r.vectors_manifest_sha256}, {"custom", r.vectors_custom}};
    j["level"] = r.level;
    j["seed"] = r.seed;
    j["seed_note"] = "include this in bug reports";
    j["suites"] = r.suites;
    j["host"] = r.host;
    j["baseline"] = r.baseline;
    j["stale_waivers"] = nlohmann::ordered_json::array();
    for (const auto &w : r.stale_waivers)
        j["stale_waivers"].push_back({{"rule", w.rule}, {"case", w.case_pattern}, {"reason", w.reason}});
    if (r.options) j["options"] = options_json(*r.options);
    j["started_at"] = r.started_at;
    j["finished_at"] = r.finished_at;
    j["duration_s"] = r.duration_s;
    j["extra"] = nlohmann::ordered_json::object();
    for (const auto &[k, v] : r.extra) j["extra"][k] = v;
    const auto &t = r.totals;
    j["totals"] = {{"cases", t.cases},     {"pass", t.pass},   {"fail", t.fail},
                   {"unsupported", t.unsupported}, {"error", t.error}, {"crash", t.crash},
                   {"timeout", t.timeout}, {"waived", t.waived}, {"mismatches", t.mismatches}};
    j["passed"] = !run_failed(r);
    j["rules"] = nlohmann::ordered_json::array();
    for (const auto &rs : r.rules) {
        nlohmann::ordered_json e = {{"id", rs.id},
                                    {"sentence", rs.sentence},
                                    {"status", status_name(rs.status)},
                                    {"counts", counts_json(rs.counts)},
                                    {"classes", counts_json(rs.classes)},
                                    {"first_failure", rs.first_failure}};
        if (!rs.reading_kind.empty()) e["reading_kind"] = rs.reading_kind;
        if (!rs.reading.empty()) e["choices"] = {{"reading", rs.reading}, {"taken", counts_json(rs.choices)}};
        j["rules"].push_back(std::move(e));
    }
    j["cases"] = nlohmann::ordered_json::array();
    for (const auto &c : r.cases) j["cases"].push_back(case_json(c));
    // Absent when none, so that reports without fingerprints keep their bytes.
    if (!r.fingerprints.empty()) {
        j["fingerprints"] = nlohmann::ordered_json::array();
        for (const auto &f : r.fingerprints) j["fingerprints"].push_back(fingerprint_json(f));
    }
    return j;
}

// A subject's text is made safe where it enters (untrusted_text); replacing any ill-formed
// UTF-8 left here keeps the rendering from throwing whatever a caller put in the model.
std::string render_json(const Report &r) {
    return to_json(r).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ninfer::reports
