// SPDX-License-Identifier: Apache-2.0
// Shard reports into one (merge.hpp; docs/cli.md, "merge"; reports/README.md, "Shards and
// merge"). The cases travel as the JSON objects the shards wrote, so that every field survives;
// the model holds what finalize needs to recompute rules and totals.
#include "ninfer/reports/merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

using json = nlohmann::ordered_json;  // the shards' key order is kept
using nlohmann::ordered_json;

/// Extras that belong to one shard: removed from the merged report.
const std::set<std::string> kShardExtras = {"shard", "shard_start", "shard_count", "cases_total"};
/// Extras that are summed over the shards instead of compared.
const std::set<std::string> kSummedExtras = {"mismatch_bins"};

[[noreturn]] void refuse(const std::string &label, const std::string &why) { throw MergeError(label + ": " + why); }

/// A short, printable view of a value for a message.
std::string shown(const json &v) {
    std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
}

const json &member(const json &obj, const char *key, json::value_t type, const std::string &label, const std::string &where) {
    auto it = obj.find(key);
    const bool ok = it != obj.end() && (it->type() == type || (type == json::value_t::number_unsigned && it->is_number_unsigned()) ||
                                        (type == json::value_t::number_float && it->is_number()));
    if (!ok)
        refuse(label, fmt::format("{}\"{}\" is {}, expected {}", where, key, it == obj.end() ? "missing" : it->type_name(),
                                  json(type).type_name()));
    return *it;
}

std::string text(const json &obj, const char *key, const std::string &label, const std::string &where = "") {
    return member(obj, key, json::value_t::string, label, where).get<std::string>();
}

std::uint64_t unsigned_of(const json &obj, const char *key, const std::string &label, const std::string &where = "") {
    const auto &v = obj.find(key);
    if (v == obj.end() || !v->is_number_integer() || (!v->is_number_unsigned() && v->template get<std::int64_t>() < 0))
        refuse(label, fmt::format("{}\"{}\" is {}, expected a non-negative integer", where, key,
                                  v == obj.end() ? "missing" : v->type_name()));
    return v->get<std::uint64_t>();
}

Status status_of(const std::string &name, const std::string &label, const std::string &where) {
    for (Status s : {Status::pass, Status::fail, Status::unsupported, Status::error, Status::crash, Status::timeout})
        if (name == status_name(s)) return s;
    refuse(label, fmt::format("{}\"status\" is \"{}\", expected pass, fail, unsupported, error, crash or timeout", where,
                              name.substr(0, 40)));
}

std::map<std::string, std::uint64_t> counts_of(const json &obj, const char *key, const std::string &label,
                                               const std::string &where) {
    std::map<std::string, std::uint64_t> out;
    for (const auto &[k, v] : member(obj, key, json::value_t::object, label, where).items()) {
        if (!v.is_number_unsigned()) refuse(label, fmt::format("{}\"{}\" has a count that is {}", where, key, v.type_name()));
        out[k] = v.get<std::uint64_t>();
    }
    return out;
}

/// What finalize needs of a case, read from its JSON object (the object itself is kept).
CaseResult case_model(const json &c, const std::string &label, const std::string &where) {
    if (!c.is_object()) refuse(label, where + "is " + c.type_name() + ", expected an object");
    CaseResult r;
    r.id = text(c, "id", label, where);
    r.rule = text(c, "rule", label, where);
    r.sentence = text(c, "sentence", label, where);
    r.suite = text(c, "suite", label, where);
    r.source = text(c, "source", label, where);
    r.suite_reading = member(c, "suite_reading", json::value_t::boolean, label, where).get<bool>();
    r.status = status_of(text(c, "status", label, where), label, where);
    r.elements = unsigned_of(c, "elements", label, where);
    r.mismatches = unsigned_of(c, "mismatches", label, where);
    r.classes = counts_of(c, "classes", label, where);
    r.message = text(c, "message", label, where);
    r.waived = member(c, "waived", json::value_t::boolean, label, where).get<bool>();
    // Optional since the readings (reports/README.md): the rule's reading kind, the open reading
    // and the choice taken; finalize counts the choices per rule.
    for (auto [key, to] : {std::pair{"reading_kind", &r.reading_kind}, std::pair{"reading", &r.reading}, std::pair{"choice", &r.choice}})
        if (c.contains(key)) *to = text(c, key, label, where);
    for (const auto &m : member(c, "first_mismatches", json::value_t::array, label, where)) {
        if (!m.is_object()) refuse(label, where + "a first mismatch is " + m.type_name() + ", expected an object");
        Mismatch mm;
        mm.index = unsigned_of(m, "index", label, where + "a first mismatch's ");
        if (auto b = m.find("blame"); b != m.end() && b->is_string()) mm.blame = b->get<std::string>();
        r.first.push_back(std::move(mm));
    }
    return r;
}

struct Shard {
    std::string label;
    const json *doc = nullptr;
    std::uint64_t index = 0, count = 0;
    Report model;  ///< top-level fields and case models
    std::vector<const json *> cases;  ///< the case objects, in order
};

/// The shard's "options" (reports/README.md, "options"): required, for shards that do not
/// record how they ran cannot prove that they ran alike.
void read_options(Shard &s) {
    const auto it = s.doc->find("options");
    if (it == s.doc->end())
        refuse(s.label, "records no \"options\" (a report of an older build): the shards cannot prove they ran alike; "
                        "run them again with this build");
    std::string error;
    s.model.options = options_from_json(nlohmann::json::parse(it->dump()), error);
    if (!s.model.options) refuse(s.label, error);
}

/// Refuse a shard whose totals or "passed" are not what its cases add up to (merge never takes
/// a shard's totals: they are recomputed, so a shard that disagrees with them was altered).
void require_own_totals(const Shard &s) {
    Report r = s.model;
    finalize(r);
    const json own = to_json(r);
    for (const char *key : {"totals", "passed"}) {
        const auto it = s.doc->find(key);
        if (it == s.doc->end() || *it != own[key])
            refuse(s.label, fmt::format("\"{}\" is {} but its cases add up to {} (an altered report?)", key,
                                        it == s.doc->end() ? "missing" : shown(*it), shown(own[key])));
    }
}

/// Refuse a case whose status its own fields contradict, and a waiver no recorded baseline grants.
void require_case_claims(const Shard &s) {
    const bool has_baseline = s.model.options && s.model.options->baseline_sha256.has_value();
    for (std::size_t i = 0; i < s.model.cases.size(); ++i) {
        const CaseResult &c = s.model.cases[i];
        const std::string where = fmt::format("case {} \"{}\"", i, c.id.substr(0, 80));
        if ((c.status == Status::pass || c.status == Status::unsupported) && (c.mismatches > 0 || !c.first.empty()))
            refuse(s.label, fmt::format("{} says {} beside {} mismatches (an altered report?)", where, status_name(c.status),
                                        std::max<std::uint64_t>(c.mismatches, c.first.size())));
        if (!c.waived) continue;
        if (!is_failure(c.status))
            refuse(s.label, fmt::format("{} is waived but its status is {}: only a failure is waived", where, status_name(c.status)));
        if (!has_baseline)
            refuse(s.label, fmt::format("{} is waived, but the shard records no baseline (options.baseline_sha256 is null): "
                                        "no waiver was granted",
                                        where));
    }
}

/// "I/N" of the extra "shard".
void read_shard_field(Shard &s) {
    const auto &extra = member(*s.doc, "extra", json::value_t::object, s.label, "");
    auto it = extra.find("shard");
    if (it == extra.end() || !it->is_string())
        refuse(s.label, "not a shard report (no extra \"shard\"; write one with --shard I/N)");
    const std::string v = it->get<std::string>();
    const auto slash = v.find('/');
    const auto digits = [](const std::string &d) {
        return !d.empty() && d.size() <= 9 && d.find_first_not_of("0123456789") == std::string::npos;
    };
    if (slash == std::string::npos || !digits(v.substr(0, slash)) || !digits(v.substr(slash + 1)))
        refuse(s.label, fmt::format("extra \"shard\" is \"{}\", expected \"I/N\"", v.substr(0, 40)));
    s.index = std::stoull(v.substr(0, slash));
    s.count = std::stoull(v.substr(slash + 1));
    if (s.count == 0 || s.index >= s.count) refuse(s.label, fmt::format("extra \"shard\" is \"{}\", expected 0 <= I < N", v));
}

void read_model(Shard &s) {
    const json &d = *s.doc;
    const std::string &L = s.label;
    Report &r = s.model;
    read_options(s);
    r.kind = text(d, "kind", L);
    if (r.kind != "run" && r.kind != "sweep") refuse(L, fmt::format("\"kind\" is \"{}\", expected run or sweep", r.kind.substr(0, 40)));
    r.tool_version = text(d, "tool_version", L);
    const auto &subj = member(d, "subject", json::value_t::object, L, "");
    r.subject.kind = text(subj, "kind", L, "subject ");
    r.subject.name = text(subj, "name", L, "subject ");
    r.subject.version = text(subj, "version", L, "subject ");
    r.subject.abi = static_cast<std::uint32_t>(unsigned_of(subj, "abi_version", L, "subject "));
    r.subject.path = text(subj, "path", L, "subject ");
    if (auto c = subj.find("capabilities"); c != subj.end()) {
        for (const auto &x : member(subj, "capabilities", json::value_t::array, L, "subject ")) {
            if (!x.is_string()) refuse(L, "\"subject capabilities\" holds a " + std::string(x.type_name()) + ", expected lines");
            r.subject.capabilities.push_back(x.get<std::string>());
        }
    }
    if (subj.contains("containment")) r.subject.containment = text(subj, "containment", L, "subject ");
    if (subj.contains("breaks")) r.subject.breaks = text(subj, "breaks", L, "subject ");
    if (auto e = d.find("open_error"); e != d.end()) r.open_error = text(d, "open_error", L);
    const auto &vec = member(d, "vectors", json::value_t::object, L, "");
    r.vectors_dir = text(vec, "dir", L, "vectors ");
    r.vectors_manifest_sha256 = text(vec, "manifest_sha256", L, "vectors ");
    r.vectors_custom = member(vec, "custom", json::value_t::boolean, L, "vectors ").get<bool>();
    r.level = text(d, "level", L);
    r.seed = unsigned_of(d, "seed", L);
    for (const auto &x : member(d, "suites", json::value_t::array, L, "")) {
        if (!x.is_string()) refuse(L, "\"suites\" holds a " + std::string(x.type_name()) + ", expected names");
        r.suites.push_back(x.get<std::string>());
    }
    r.host = text(d, "host", L);
    r.baseline = text(d, "baseline", L);
    for (const auto &w : member(d, "stale_waivers", json::value_t::array, L, "")) {
        if (!w.is_object()) refuse(L, "a stale waiver is " + std::string(w.type_name()) + ", expected an object");
        r.stale_waivers.push_back({text(w, "rule", L, "stale waiver "), text(w, "case", L, "stale waiver "),
                                   text(w, "reason", L, "stale waiver ")});
    }
    r.started_at = text(d, "started_at", L);
    r.finished_at = text(d, "finished_at", L);
    r.duration_s = member(d, "duration_s", json::value_t::number_float, L, "").get<double>();
    for (const auto &[k, v] : member(d, "extra", json::value_t::object, L, "").items()) {
        if (!v.is_string()) refuse(L, fmt::format("extra \"{}\" is {}, expected a string", k.substr(0, 40), v.type_name()));
        r.extra[k] = v.get<std::string>();
    }
    if (const auto it = d.find("fingerprints"); it != d.end()) {
        std::string error;
        auto fingerprints = fingerprints_from_json(nlohmann::json::parse(it->dump()), error);
        if (!fingerprints) refuse(L, error);
        r.fingerprints = std::move(*fingerprints);
    }
    const auto &cases = member(d, "cases", json::value_t::array, L, "");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        r.cases.push_back(case_model(cases[i], L, fmt::format("case {} ", i)));
        s.cases.push_back(&cases[i]);
    }
}

/// Refuse a shard whose run-defining fields differ from the first shard's.
void require_same(const Shard &first, const Shard &s) {
    const Report &a = first.model, &b = s.model;
    const auto differ = [&](const std::string &what, const std::string &x, const std::string &y) {
        refuse(s.label, fmt::format("{} is {} but {} in {} (shards of one run must agree)", what, shown(json(y)), shown(json(x)),
                                    first.label));
    };
    if (a.kind != b.kind) differ("kind", a.kind, b.kind);
    if (a.tool_version != b.tool_version) differ("tool_version", a.tool_version, b.tool_version);
    const auto subject = [](const Report &r) {
        return fmt::format("{} {} {} (abi {})", r.subject.kind, r.subject.name, r.subject.version, r.subject.abi);
    };
    if (subject(a) != subject(b)) differ("the subject", subject(a), subject(b));
    if (a.level != b.level) differ("level", a.level, b.level);
    if (a.seed != b.seed) differ("seed", std::to_string(a.seed), std::to_string(b.seed));
    if (a.suites != b.suites) differ("suites", json(a.suites).dump(), json(b.suites).dump());
    if (a.vectors_manifest_sha256 != b.vectors_manifest_sha256)
        differ("vectors.manifest_sha256", a.vectors_manifest_sha256, b.vectors_manifest_sha256);
    if (a.vectors_custom != b.vectors_custom) differ("vectors.custom", a.vectors_custom ? "true" : "false", b.vectors_custom ? "true" : "false");
    if (a.baseline != b.baseline) differ("baseline", a.baseline, b.baseline);
    const json ao = options_json(*a.options), bo = options_json(*b.options);
    for (const auto &[k, v] : ao.items())
        if (bo.value(k, json()) != v) differ("options." + k, v.dump(), bo.value(k, json()).dump());
    for (const auto &[k, v] : bo.items())
        if (!ao.contains(k)) differ("options." + k, "(absent)", v.dump());
    if (s.count != first.count)
        refuse(s.label, fmt::format("is shard {}/{}, but {} is one of {} shards", s.index, s.count, first.label, first.count));
    std::set<std::string> keys;
    for (const auto *r : {&a, &b})
        for (const auto &[k, v] : r->extra) keys.insert(k);
    for (const auto &k : keys) {
        if (kShardExtras.count(k) || kSummedExtras.count(k)) continue;
        const auto x = a.extra.find(k), y = b.extra.find(k);
        if (x == a.extra.end() || y == b.extra.end() || x->second != y->second)
            differ("extra \"" + k + "\"", x == a.extra.end() ? "(absent)" : x->second, y == b.extra.end() ? "(absent)" : y->second);
    }
}

/// "+3:5 -7:2" (sweep.cpp's extra "mismatch_bins"): (negative, binade) -> count.
void add_bins(const std::string &text, MismatchBins &bins, const std::string &label) {
    std::string bad;
    const auto read = mismatch_bins_of(text, &bad);
    if (!read) refuse(label, fmt::format("extra \"mismatch_bins\" holds \"{}\", expected sign, binade, ':', count", bad.substr(0, 40)));
    for (const auto &[key, count] : *read) bins[key] += count;
}

std::uint64_t index_of(const json &m) {
    auto it = m.find("index");
    return it != m.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

/// Entries of arrays `key` of the objects, in shard order, stably sorted by "index" and cut to `cap`.
json merged_by_index(const std::vector<const json *> &objects, const char *key, std::uint64_t cap) {
    std::vector<json> all;
    for (const auto *o : objects)
        if (auto it = o->find(key); it != o->end() && it->is_array())
            for (const auto &e : *it) all.push_back(e);
    std::stable_sort(all.begin(), all.end(), [](const json &x, const json &y) { return index_of(x) < index_of(y); });
    if (all.size() > cap) all.resize(static_cast<std::size_t>(cap));
    return json(all);
}

/// The one case of a sweep from its shards' cases (merge.hpp).
json merge_sweep_case(const std::vector<Shard> &shards, std::uint64_t max_mismatches, CaseResult &model) {
    const auto &first = shards.front();
    if (first.cases.size() != 1) refuse(first.label, fmt::format("a sweep report holds {} cases, expected 1", first.cases.size()));
    json out = *first.cases.front();
    model = first.model.cases.front();
    std::vector<const json *> objects;
    std::vector<const json *> accepted;
    std::uint64_t elements = 0, mismatches = 0, nan_count = 0, not_judged = 0;
    json not_judged_of;
    std::map<std::string, std::uint64_t> classes;
    for (const auto &s : shards) {
        if (s.cases.size() != 1) refuse(s.label, fmt::format("a sweep report holds {} cases, expected 1", s.cases.size()));
        const auto &c = *s.cases.front();
        const auto &m = s.model.cases.front();
        for (const char *key : {"id", "rule", "sentence", "suite", "source", "suite_reading", "waived"})
            if (c.value(key, json()) != out.value(key, json()))
                refuse(s.label, fmt::format("case \"{}\" is {} but {} in {}", key, shown(c.value(key, json())),
                                            shown(out.value(key, json())), first.label));
        objects.push_back(&c);
        elements += m.elements;
        mismatches += m.mismatches;
        for (const auto &[k, v] : m.classes) classes[k] += v;
        if (severity(m.status) > severity(model.status)) model.status = m.status;
        if (model.message.empty()) model.message = m.message;
        if (auto t = c.find("trace"); t != c.end() && !out.contains("trace")) out["trace"] = *t;
        if (auto n = c.find("nan_accepted"); n != c.end() && n->is_object()) {
            accepted.push_back(&*n);
            nan_count += n->value("count", std::uint64_t{0});
        }
        if (auto n = c.find("not_judged"); n != c.end() && n->is_object()) {
            not_judged += n->value("count", std::uint64_t{0});
            not_judged_of = *n;
        }
    }
    model.elements = elements;
    model.mismatches = mismatches;
    model.classes = classes;
    out["status"] = status_name(model.status);
    out["elements"] = elements;
    out["mismatches"] = mismatches;
    out["classes"] = json(classes);
    out["message"] = model.message;
    out["first_mismatches"] = merged_by_index(objects, "first_mismatches", max_mismatches);
    model.first.clear();
    for (const auto &m : out["first_mismatches"]) {
        Mismatch mm;
        mm.index = index_of(m);
        if (auto b = m.find("blame"); b != m.end() && b->is_string()) mm.blame = b->get<std::string>();
        model.first.push_back(std::move(mm));
    }
    if (!accepted.empty()) {
        json n = *accepted.front();
        n["count"] = nan_count;
        n["first"] = merged_by_index(accepted, "first", max_mismatches);
        out["nan_accepted"] = std::move(n);
    }
    if (not_judged) {
        not_judged_of["count"] = not_judged;
        out["not_judged"] = std::move(not_judged_of);
    }
    return out;
}

/// One input as a shard: a report-v3 object whose model, "shard" field, totals and case claims
/// hold (merge.hpp).
void read_shard(const ShardReport &input, Shard &s) {
    s.label = input.label;
    s.doc = &input.doc;
    if (!s.doc->is_object()) refuse(s.label, std::string("is a JSON ") + s.doc->type_name() + ", expected a report object");
    auto schema = s.doc->find("schema");
    if (schema == s.doc->end() || *schema != kSchemaId)
        refuse(s.label, fmt::format("not a report of schema {} (\"schema\" is {})", kSchemaId,
                                    schema == s.doc->end() ? "missing" : shown(*schema)));
    read_model(s);
    read_shard_field(s);
    require_own_totals(s);
    require_case_claims(s);
}

/// Every I of one N exactly once, the shards of one run; then sorted in shard order.
void require_every_shard_once(std::vector<Shard> &shards) {
    std::map<std::uint64_t, const Shard *> by_index;
    for (const auto &s : shards) {
        require_same(shards.front(), s);
        auto [it, fresh] = by_index.emplace(s.index, &s);
        if (!fresh) refuse(s.label, fmt::format("is shard {}/{} again (also {})", s.index, s.count, it->second->label));
    }
    const std::uint64_t n = shards.front().count;
    for (std::uint64_t i = 0; i < n; ++i)
        if (!by_index.count(i))
            throw MergeError(fmt::format("shard {}/{} is missing ({} of {} shards given; the first given is {})", i, n,
                                         shards.size(), n, shards.front().label));
    std::sort(shards.begin(), shards.end(), [](const Shard &a, const Shard &b) { return a.index < b.index; });
}

/// A decimal extra of a shard (at most 19 digits), or nullopt.
std::optional<std::uint64_t> decimal_extra(const Shard &s, const char *key) {
    const auto t = s.model.extra.find(key);
    if (t == s.model.extra.end() || t->second.empty() || t->second.size() > 19 ||
        t->second.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoull(t->second);
}

/// run: each shard holds its contiguous slice of cases_total, concatenated in shard order; no
/// case id twice.
void merge_run_cases(const std::vector<Shard> &shards, Report &merged, ordered_json &cases) {
    const Shard &first = shards.front();
    const std::uint64_t n = first.count;
    std::uint64_t total = 0;
    std::map<std::string, const std::string *> seen;
    for (const auto &s : shards) {
        const auto this_total = decimal_extra(s, "cases_total");
        if (!this_total) refuse(s.label, "a run shard without a decimal extra \"cases_total\"");
        if (&s == &first) total = *this_total;
        else if (*this_total != total)
            refuse(s.label, fmt::format("extra \"cases_total\" is {} but {} in {}", *this_total, total, first.label));
        if (total == 0) refuse(s.label, "extra \"cases_total\" is 0: a run of no cases proves nothing");
        // A shard whose subject did not open ran none of its cases.
        const std::uint64_t want = s.model.open_error.empty() ? total * (s.index + 1) / n - total * s.index / n : 0;
        if (s.cases.size() != want)
            refuse(s.label, fmt::format("shard {}/{} holds {} cases, expected {} of cases_total {}{}", s.index, n,
                                        s.cases.size(), want, total,
                                        s.model.open_error.empty() ? "" : " (its subject did not open)"));
        for (std::size_t i = 0; i < s.cases.size(); ++i) {
            const auto [it, fresh] = seen.emplace(s.model.cases[i].id, &s.label);
            if (!fresh)
                refuse(s.label, fmt::format("case id \"{}\" occurs twice (also in {}): a shard relabelled or repeated?",
                                            s.model.cases[i].id.substr(0, 80), *it->second));
            cases.push_back(*s.cases[i]);
            merged.cases.push_back(s.model.cases[i]);
        }
    }
}

/// A hex extra of a shard (1 to 16 lowercase hex digits, as sweep writes words), or nullopt.
std::optional<std::uint64_t> hex_extra(const Shard &s, const char *key) {
    const auto t = s.model.extra.find(key);
    if (t == s.model.extra.end() || t->second.empty() || t->second.size() > 16 ||
        t->second.find_first_not_of("0123456789abcdef") != std::string::npos)
        return std::nullopt;
    return std::stoull(t->second, nullptr, 16);
}

/// sweep: shard I of N holds exactly its slice of the unsharded range [start, start + count):
/// words start + count*I/N up to start + count*(I+1)/N (sweep.cpp's cut), as its extras
/// "shard_start" and "shard_count" and its case's "elements" must say. With every I of N present
/// once (require_every_shard_once), the slices tile the range: no gap, no overlap.
void require_sweep_slices(const std::vector<Shard> &shards) {
    for (const auto &s : shards) {
        const auto start = hex_extra(s, "start"), count = decimal_extra(s, "count");
        if (!start || !count || *count == 0 || *count - 1 > ~0ull - *start)
            refuse(s.label, "a sweep shard without a hex extra \"start\" and a decimal extra \"count\" (at least 1, "
                            "the range within 2^64) of the unsharded range");
        const auto cut = [&](std::uint64_t i) {
            return static_cast<std::uint64_t>(static_cast<unsigned __int128>(*count) * i / s.count);
        };
        const std::uint64_t want_start = *start + cut(s.index), want_count = cut(s.index + 1) - cut(s.index);
        const auto shard_start = hex_extra(s, "shard_start"), shard_count = decimal_extra(s, "shard_count");
        if (!shard_start || *shard_start != want_start || !shard_count || *shard_count != want_count)
            refuse(s.label, fmt::format("shard {}/{} covers {} words from {} (extras \"shard_start\", \"shard_count\"), "
                                        "expected {} words from {:x}: its slice of [{:x}, +{})",
                                        s.index, s.count, shown(json(s.model.extra.count("shard_count") ? s.model.extra.at("shard_count") : "(absent)")),
                                        shown(json(s.model.extra.count("shard_start") ? s.model.extra.at("shard_start") : "(absent)")),
                                        want_count, want_start, *start, *count));
        if (s.cases.size() == 1 && s.model.cases.front().elements != want_count)
            refuse(s.label, fmt::format("shard {}/{} judged {} elements, expected {}: its whole slice of [{:x}, +{})",
                                        s.index, s.count, s.model.cases.front().elements, want_count, *start, *count));
    }
}

/// sweep: the one case merged (merge_sweep_case) and the shards' extra "mismatch_bins" summed.
void merge_sweep(const std::vector<Shard> &shards, Report &merged, ordered_json &cases) {
    const Shard &first = shards.front();
    require_sweep_slices(shards);
    const auto cap = decimal_extra(first, "max_mismatches");
    if (!cap) refuse(first.label, "a sweep shard without a decimal extra \"max_mismatches\"");
    CaseResult model;
    cases.push_back(merge_sweep_case(shards, *cap, model));
    merged.cases.push_back(std::move(model));
    MismatchBins bins;
    bool any_bins = false;
    for (const auto &s : shards)
        if (auto b = s.model.extra.find("mismatch_bins"); b != s.model.extra.end()) {
            any_bins = true;
            add_bins(b->second, bins, s.label);
        }
    if (any_bins) merged.extra["mismatch_bins"] = mismatch_bins_text(bins);
}

/// A waiver is stale for the whole run when no shard used it (stale in every shard).
std::vector<StaleWaiver> stale_in_every_shard(const std::vector<Shard> &shards) {
    std::vector<StaleWaiver> out;
    for (const auto &w : shards.front().model.stale_waivers) {
        bool everywhere = true;
        for (const auto &s : shards)
            everywhere = everywhere && std::any_of(s.model.stale_waivers.begin(), s.model.stale_waivers.end(), [&](const StaleWaiver &x) {
                             return x.rule == w.rule && x.case_pattern == w.case_pattern && x.reason == w.reason;
                         });
        if (everywhere) out.push_back(w);
    }
    return out;
}

/// The first open error, the hosts (each once, "; " between), the earliest start, the latest
/// finish and the summed duration.
void merge_run_facts(const std::vector<Shard> &shards, Report &merged) {
    std::vector<std::string> hosts;
    merged.duration_s = 0;
    for (const auto &s : shards) {
        if (merged.open_error.empty()) merged.open_error = s.model.open_error;
        if (std::find(hosts.begin(), hosts.end(), s.model.host) == hosts.end()) hosts.push_back(s.model.host);
        merged.started_at = std::min(merged.started_at, s.model.started_at);
        merged.finished_at = std::max(merged.finished_at, s.model.finished_at);
        merged.duration_s += s.model.duration_s;
    }
    merged.host.clear();
    for (const auto &h : hosts) merged.host += (merged.host.empty() ? "" : "; ") + h;
}

/// The shards' fingerprints in shard order, one per conversion: shards that fingerprinted the
/// same conversion (op and conversion) must have found the same record.
std::vector<Fingerprint> merged_fingerprints(const std::vector<Shard> &shards) {
    std::vector<Fingerprint> out;
    std::map<std::string, std::pair<std::size_t, const std::string *>> seen;  // rule -> index in out, shard label
    for (const auto &s : shards)
        for (const auto &f : s.model.fingerprints) {
            const auto [it, fresh] = seen.emplace(fingerprint_rule(f), std::pair{out.size(), &s.label});
            if (fresh) {
                out.push_back(f);
                continue;
            }
            const Fingerprint &kept = out[it->second.first];
            if (kept == f) continue;
            const json a = fingerprint_json(kept), b = fingerprint_json(f);
            std::string key;
            for (const auto &[k, v] : a.items())
                if (key.empty() && b.value(k, json()) != v) key = k;
            refuse(s.label, fmt::format("the fingerprint of {} has \"{}\" {} but {} in {} (shards must agree)", it->first.substr(0, 80),
                                        key, shown(b.value(key, json())), shown(a.value(key, json())), *it->second.second));
        }
    return out;
}

}  // namespace

std::string mismatch_bins_text(const MismatchBins &bins) {
    std::string text;
    for (const auto &[key, count] : bins) text += fmt::format("{}{}{}:{}", text.empty() ? "" : " ", key.first ? '-' : '+', key.second, count);
    return text;
}

std::optional<MismatchBins> mismatch_bins_of(std::string_view text, std::string *bad) {
    MismatchBins bins;
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find(' ', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view token = text.substr(at, end - at);
        const auto colon = token.find(':');
        const bool ok = token.size() >= 4 && (token[0] == '+' || token[0] == '-') && colon != std::string_view::npos &&
                        colon > 1 && colon + 1 < token.size() && token.find_first_not_of("0123456789", 1) == colon &&
                        token.find_first_not_of("0123456789", colon + 1) == std::string_view::npos && colon <= 6 &&
                        token.size() - colon <= 20;
        if (!ok) {
            if (bad) *bad = token;
            return std::nullopt;
        }
        bins[{token[0] == '-', std::stoi(std::string(token.substr(1, colon - 1)))}] += std::stoull(std::string(token.substr(colon + 1)));
        at = end + 1;
    }
    return bins;
}

MergedReport merge_shards(const std::vector<ShardReport> &inputs) {
    if (inputs.empty()) throw MergeError("no shard reports to merge");
    std::vector<Shard> shards(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) read_shard(inputs[i], shards[i]);
    require_every_shard_once(shards);

    const Shard &first = shards.front();
    Report merged = first.model;
    merged.cases.clear();
    ordered_json cases = ordered_json::array();
    if (merged.kind == "run") merge_run_cases(shards, merged, cases);
    else merge_sweep(shards, merged, cases);
    for (const auto &k : kShardExtras) merged.extra.erase(k);
    merged.stale_waivers = stale_in_every_shard(shards);
    merge_run_facts(shards, merged);
    merged.fingerprints = merged_fingerprints(shards);

    finalize(merged);
    ordered_json out = to_json(merged);
    out["cases"] = std::move(cases);
    // Fields this build does not write (a newer tool's additions) stay as the first shard has them.
    for (const auto &[k, v] : first.doc->items())
        if (!out.contains(k)) out[k] = v;
    return {out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n", !run_failed(merged), merged.cases.size()};
}

}  // namespace ninfer::reports
