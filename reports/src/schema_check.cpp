// SPDX-License-Identifier: Apache-2.0
// Validation of a JSON report against the shipped schema of its version
// (reports/schema/report-v3.schema.json, report-v2.schema.json for a v2 report; issue 25, item
// 3): an interpreter of the JSON Schema 2020-12 keywords that schema uses, so that the schema
// stays the one statement of what a report is. A keyword it does not know throws, so
// that the schema cannot grow a constraint this check would silently skip.
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace detail {
extern const char kReportSchemaText[];
extern const char kReportSchemaV2Text[];
}

namespace {

using json = nlohmann::json;

/// Keywords the interpreter applies, and those that only annotate.
bool known_keyword(const std::string &k) {
    static const std::set<std::string> known = {
        "type", "$ref", "enum", "const", "properties", "required", "additionalProperties", "propertyNames",
        "dependentRequired", "items", "minItems", "minLength", "pattern", "minimum", "oneOf", "$defs",
        "$schema", "$id", "title", "description"};
    return known.count(k) > 0;
}

/// Every keyword of every subschema is one known_keyword lists (std::logic_error otherwise).
void require_known_keywords(const json &s, const std::string &at) {
    if (!s.is_object()) return;
    for (const auto &[k, v] : s.items()) {
        if (!known_keyword(k)) throw std::logic_error(fmt::format("report schema: keyword {} at {} is not interpreted", k, at));
        if (k == "properties" || k == "$defs")
            for (const auto &[name, sub] : v.items()) require_known_keywords(sub, at + "/" + k + "/" + name);
        else if (k == "oneOf")
            for (std::size_t i = 0; i < v.size(); ++i) require_known_keywords(v[i], fmt::format("{}/oneOf/{}", at, i));
        else if (k == "items" || k == "additionalProperties" || k == "propertyNames")
            require_known_keywords(v, at + "/" + k);
    }
}

/// The embedded schema `text`, its keywords checked once.
json schema_of(const char *text) {
    json d = json::parse(text);
    require_known_keywords(d, "#");
    return d;
}

/// The schema a document names: report-v2's for a v2 report (an older build's), else the current one.
const json &schema_doc(const json &doc) {
    static const json current = schema_of(detail::kReportSchemaText), v2 = schema_of(detail::kReportSchemaV2Text);
    return is_report_v2(doc) ? v2 : current;
}

/// The schema the check in progress resolves its `$ref`s in.
thread_local const json *g_root = nullptr;

/// A value's JSON Schema type name; an integral float is also an "integer".
bool has_type(const json &v, const std::string &t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    if (t == "number") return v.is_number();
    if (t == "integer")
        return v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                         v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
    return false;
}

std::size_t code_points(const std::string &s) {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

/// The schema's patterns, compiled once each (a report checks thousands of hex words).
const std::regex &compiled(const std::string &pattern) {
    thread_local std::map<std::string, std::regex> cache;
    auto it = cache.find(pattern);
    if (it == cache.end()) it = cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    return it->second;
}

/// The JSON pointer of a place in the report (its keys are the report's, untrusted).
std::string pointer_text(const std::string &at) { return at.empty() ? "/" : untrusted_text(at, 200); }

/// The first violation of `s` by `v` at JSON pointer `at`, "" when none.
std::string violation(const json &v, const json &s, const std::string &at);

std::string check_type(const json &v, const json &t, const std::string &at) {
    if (t.is_string() ? has_type(v, t.get<std::string>())
                      : std::any_of(t.begin(), t.end(), [&](const json &x) { return has_type(v, x.get<std::string>()); }))
        return "";
    return fmt::format("{}: is {}, the schema requires type {}", pointer_text(at), v.type_name(), t.dump());
}

std::string check_object(const json &v, const json &s, const std::string &at) {
    if (const auto r = s.find("required"); r != s.end())
        for (const auto &k : *r)
            if (!v.contains(k.get<std::string>()))
                return fmt::format("{}: required property \"{}\" is missing", pointer_text(at), k.get<std::string>());
    if (const auto d = s.find("dependentRequired"); d != s.end())
        for (const auto &[k, needs] : d->items())
            for (const auto &n : needs)
                if (v.contains(k) && !v.contains(n.get<std::string>()))
                    return fmt::format("{}: property \"{}\" requires property \"{}\"", pointer_text(at), k, n.get<std::string>());
    const auto props = s.find("properties");
    const auto extra = s.find("additionalProperties");
    const auto names = s.find("propertyNames");
    for (const auto &[k, x] : v.items()) {
        const std::string here = at + "/" + k;
        if (names != s.end())
            if (auto e = violation(json(k), *names, here); !e.empty())
                return fmt::format("{}: the property name is not allowed ({})", pointer_text(here), e);
        if (props != s.end() && props->contains(k)) {
            if (auto e = violation(x, (*props)[k], here); !e.empty()) return e;
        } else if (extra != s.end()) {
            if (extra->is_boolean() && !extra->get<bool>())
                return fmt::format("{}: property \"{}\" is not in the schema (additionalProperties: false)", pointer_text(at),
                                   untrusted_text(k, 80));
            if (auto e = violation(x, *extra, here); !e.empty()) return e;
        }
    }
    return "";
}

std::string check_array(const json &v, const json &s, const std::string &at) {
    if (const auto m = s.find("minItems"); m != s.end() && v.size() < m->get<std::size_t>())
        return fmt::format("{}: has {} items, the schema requires at least {}", pointer_text(at), v.size(), m->get<std::size_t>());
    if (const auto items = s.find("items"); items != s.end())
        for (std::size_t i = 0; i < v.size(); ++i)
            if (auto e = violation(v[i], *items, fmt::format("{}/{}", at, i)); !e.empty()) return e;
    return "";
}

std::string check_string(const json &v, const json &s, const std::string &at) {
    const auto &text = v.get_ref<const std::string &>();
    if (const auto m = s.find("minLength"); m != s.end() && code_points(text) < m->get<std::size_t>())
        return fmt::format("{}: is shorter than minLength {}", pointer_text(at), m->get<std::size_t>());
    if (const auto p = s.find("pattern"); p != s.end())
        if (!std::regex_search(text, compiled(p->get<std::string>())))
            return fmt::format("{}: \"{}\" does not match pattern {}", pointer_text(at), untrusted_text(text, 80), p->get<std::string>());
    return "";
}

std::string check_one_of(const json &v, const json &alternatives, const std::string &at) {
    std::size_t matched = 0;
    for (const auto &alt : alternatives) matched += violation(v, alt, at).empty();
    if (matched == 1) return "";
    return fmt::format("{}: matches {} of the {} oneOf alternatives, the schema requires exactly one", pointer_text(at), matched,
                       alternatives.size());
}

std::string violation(const json &v, const json &s, const std::string &at) {
    if (s.is_boolean()) return s.get<bool>() ? "" : pointer_text(at) + ": the schema allows nothing here";
    if (const auto r = s.find("$ref"); r != s.end()) {
        const std::string ref = r->get<std::string>();
        if (ref.rfind("#", 0) != 0) throw std::logic_error("report schema: $ref " + ref + " is not local");
        if (auto e = violation(v, g_root->at(json::json_pointer(ref.substr(1))), at); !e.empty()) return e;
    }
    if (const auto t = s.find("type"); t != s.end())
        if (auto e = check_type(v, *t, at); !e.empty()) return e;
    if (const auto c = s.find("const"); c != s.end() && v != *c)
        return fmt::format("{}: is {}, the schema requires {}", pointer_text(at), untrusted_text(v.dump(), 80), c->dump());
    if (const auto en = s.find("enum"); en != s.end() && std::find(en->begin(), en->end(), v) == en->end())
        return fmt::format("{}: {} is not one of {}", pointer_text(at), untrusted_text(v.dump(), 80), en->dump());
    if (const auto m = s.find("minimum"); m != s.end() && v.is_number() && v.get<double>() < m->get<double>())
        return fmt::format("{}: {} is below the minimum {}", pointer_text(at), v.dump(), m->dump());
    if (const auto o = s.find("oneOf"); o != s.end())
        if (auto e = check_one_of(v, *o, at); !e.empty()) return e;
    if (v.is_object()) return check_object(v, s, at);
    if (v.is_array()) return check_array(v, s, at);
    if (v.is_string()) return check_string(v, s, at);
    return "";
}

}  // namespace

bool is_report_v2(const nlohmann::json &doc) {
    return doc.is_object() && doc.contains("schema") && doc["schema"] == kSchemaIdV2;
}

bool is_report_schema(const nlohmann::json &doc) {
    return doc.is_object() && doc.contains("schema") && (doc["schema"] == kSchemaId || doc["schema"] == kSchemaIdV2);
}

std::string report_schema_file(const nlohmann::json &doc) {
    return is_report_v2(doc) ? "report-v2.schema.json" : "report-v3.schema.json";
}

std::string report_schema_violation(const nlohmann::json &doc) {
    const json &schema = schema_doc(doc);
    const json *saved = std::exchange(g_root, &schema);
    std::string e = violation(doc, schema, "");
    g_root = saved;
    return e;
}

}  // namespace ninfer::reports
