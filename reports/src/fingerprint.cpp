// SPDX-License-Identifier: Apache-2.0
// Behaviour fingerprints in reports (issue 24, item 1; reports/README.md, "fingerprints"): the
// JSON object of a Fingerprint, its strict reverse (merge and `report` read what shards wrote),
// the rule it names and the summary's residue line.
#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "ninfer/reports/report.hpp"

namespace ninfer::reports {

namespace {

using json = nlohmann::json;

// The lattice names docs/cli.md lists ("fingerprint"); the schema's enums are the same lists.
constexpr std::array<std::string_view, 10> kRoundings = {"rne", "rna", "rnu", "rtz", "rup", "rdn", "raz", "exact", "sr", "rnz"};
constexpr std::array<std::string_view, 5> kOverflows = {"satfinite", "satfinite_finite_only", "inf", "nan", "none"};
constexpr std::array<std::string_view, 4> kSubnormals = {"kept", "ftz", "daz", "ftz_daz"};
constexpr std::array<std::string_view, 3> kOps = {"convert", "decode", "quant_encode"};
constexpr std::array<std::string_view, 3> kSignless = {"zero", "nan", "magnitude"};
constexpr std::array<std::string_view, 2> kTiny = {"smallest", "nan"};
constexpr std::array<std::string_view, 7> kDomains = {"all", "stratified", "sparse", "budget", "sr_probes", "sr_draws", "recipe_probes"};
constexpr std::array<std::string_view, 2> kSrBits = {"given", "self_drawn"};

bool is_hex(const std::string &s) { return s.find_first_not_of("0123456789abcdef") == std::string::npos; }

/// The fields of one JSON object, read with the first problem kept in `error` ("fingerprints[1]
/// \"matched\" is missing, expected a non-negative integer"); later reads return defaults.
struct FieldReader {
    const json &obj;
    std::string where;
    std::string &error;

    void fail(std::string_view key, const std::string &why) {
        if (error.empty()) error = fmt::format("{}\"{}\" {}", where, key, why);
    }
    const json *find(const char *key, bool (json::*is)() const noexcept, const char *expected) {
        const auto it = obj.find(key);
        if (it != obj.end() && ((*it).*is)()) return &*it;
        fail(key, fmt::format("is {}, expected {}", it == obj.end() ? "missing" : it->type_name(), expected));
        return nullptr;
    }
    std::string text(const char *key) {
        const json *v = find(key, &json::is_string, "a string");
        return v ? v->get<std::string>() : std::string();
    }
    template <std::size_t N>
    std::string name(const char *key, const std::array<std::string_view, N> &names) {
        std::string s = text(key);
        if (std::find(names.begin(), names.end(), s) == names.end()) {
            std::string list;
            for (const auto n : names) list += fmt::format("{}{}", list.empty() ? "" : ", ", n);
            fail(key, fmt::format("is \"{}\", expected one of {}", s.substr(0, 40), list));
        }
        return s;
    }
    std::string hex(const char *key) {
        std::string s = text(key);
        if (!is_hex(s)) fail(key, fmt::format("is \"{}\", expected lowercase hex digits", s.substr(0, 40)));
        return s;
    }
    std::uint64_t count(const char *key) {
        const json *v = find(key, &json::is_number_integer, "a non-negative integer");
        if (v && !v->is_number_unsigned() && v->get<std::int64_t>() < 0) {
            fail(key, fmt::format("is {}, expected a non-negative integer", v->get<std::int64_t>()));
            return 0;
        }
        return v ? v->get<std::uint64_t>() : 0;
    }
    double number(const char *key) {
        const json *v = find(key, &json::is_number, "a number");
        return v ? v->get<double>() : 0.0;
    }
    std::vector<std::string> texts(const char *key) {
        std::vector<std::string> out;
        if (const json *v = find(key, &json::is_array, "an array of strings"))
            for (const auto &x : *v) {
                if (!x.is_string()) fail(key, fmt::format("holds {}, expected strings", x.type_name()));
                else out.push_back(x.get<std::string>());
            }
        return out;
    }
    /// A member object (an empty one, with `error` set, when it is not one).
    const json &object(const char *key) {
        static const json empty = json::object();
        const json *v = find(key, &json::is_object, "an object");
        return v ? *v : empty;
    }
};

FingerprintResidue residue_from_json(const json &j, const std::string &where, std::string &error) {
    FingerprintResidue r;
    if (!j.is_object()) {
        if (error.empty()) error = fmt::format("{}is {}, expected an object", where, j.type_name());
        return r;
    }
    FieldReader in{j, where, error};
    r.cls = in.text("class");
    r.inputs = in.count("inputs");
    r.mismatches = in.count("mismatches");
    if (r.mismatches > r.inputs) in.fail("mismatches", fmt::format("is {}, more than the class's {} inputs", r.mismatches, r.inputs));
    if (j.contains("first")) {
        FieldReader first{in.object("first"), where + "\"first\" ", error};
        r.input = first.hex("input");
        r.expected = first.hex("expected");
        r.actual = first.hex("actual");
    }
    return r;
}

/// The "sr" object of an sr conversion's fingerprint (issue 34).
SrFingerprint sr_from_json(FieldReader &in, const std::string &where, std::string &error) {
    FieldReader sr{in.object("sr"), where + "\"sr\" ", error};
    SrFingerprint out;
    out.bits = sr.name("bits", kSrBits);
    out.r = static_cast<int>(sr.count("r"));
    out.k_min = static_cast<int>(sr.count("k_min"));
    out.k_max = static_cast<int>(sr.count("k_max"));
    out.quarter_bias = sr.number("quarter_bias");
    out.quarter_error = sr.number("quarter_error");
    out.conventions = sr.texts("conventions");
    return out;
}

/// The "recipe" object of a quant_encode's fingerprint (issue 34 item 6).
RecipeFingerprint recipe_from_json(FieldReader &in, const std::string &where, std::string &error) {
    FieldReader rc{in.object("recipe"), where + "\"recipe\" ", error};
    RecipeFingerprint out;
    out.family = rc.text("family");
    if (const json *coords = rc.find("coordinates", &json::is_array, "an array of objects"))
        for (std::size_t i = 0; i < coords->size(); ++i) {
            const json &c = (*coords)[i];
            if (!c.is_object()) {
                rc.fail("coordinates", fmt::format("holds {}, expected objects", c.type_name()));
                break;
            }
            FieldReader one{c, fmt::format("{}\"recipe\" \"coordinates\"[{}] ", where, i), error};
            std::string axis = one.text("axis"), value = one.text("value");
            out.coordinates.emplace_back(std::move(axis), std::move(value));
        }
    out.recipes = rc.texts("recipes");
    if (const json *c = rc.find("canonical", &json::is_boolean, "a boolean")) out.canonical = c->get<bool>();
    return out;
}

Fingerprint fingerprint_from_json(const json &j, const std::string &where, std::string &error) {
    Fingerprint f;
    if (!j.is_object()) {
        if (error.empty()) error = fmt::format("{}is {}, expected an object", where, j.type_name());
        return f;
    }
    FieldReader in{j, where, error};
    f.op = in.name("op", kOps);
    f.conversion = in.text("conversion");
    f.source = in.text("source");
    f.target = in.text("target");
    f.domain = in.name("domain", kDomains);
    f.inputs = in.count("inputs");
    f.matched = in.count("matched");
    if (f.matched > f.inputs) in.fail("matched", fmt::format("is {}, more than the {} inputs", f.matched, f.inputs));
    FieldReader policy{in.object("policy"), where + "\"policy\" ", error};
    f.rounding = policy.name("rounding", kRoundings);
    f.overflow = policy.name("overflow", kOverflows);
    f.subnormals = policy.name("subnormals", kSubnormals);
    f.nan = policy.text("nan");
    if (policy.obj.contains("signless")) f.signless = policy.name("signless", kSignless);
    if (policy.obj.contains("tiny")) f.tiny = policy.name("tiny", kTiny);
    f.policy_text = in.text("policy_text");
    if (j.contains("point")) f.point = in.text("point");
    if (const auto it = j.find("named"); it == j.end() || !it->is_null()) f.named = in.text("named");
    f.equivalent = in.texts("equivalent");
    if (const json *residue = in.find("residue", &json::is_array, "an array of objects"))
        for (std::size_t i = 0; i < residue->size(); ++i)
            f.residue.push_back(residue_from_json((*residue)[i], fmt::format("{}residue[{}] ", where, i), error));
    f.sentence = in.text("sentence");
    if (j.contains("sr")) f.sr = sr_from_json(in, where, error);
    if (j.contains("recipe")) f.recipe = recipe_from_json(in, where, error);
    return f;
}

/// A hex word as the summary shows it ("0x7e00").
std::string word_text(const std::string &hex) { return "0x" + hex; }

}  // namespace

nlohmann::ordered_json fingerprint_json(const Fingerprint &f) {
    nlohmann::ordered_json j = {{"op", f.op},         {"conversion", f.conversion}, {"source", f.source},
                                {"target", f.target}, {"domain", f.domain},         {"inputs", f.inputs},
                                {"matched", f.matched}};
    j["policy"] = {{"rounding", f.rounding}, {"overflow", f.overflow}, {"subnormals", f.subnormals}, {"nan", f.nan}};
    if (!f.signless.empty()) j["policy"]["signless"] = f.signless;  // unsigned targets only (issue 34)
    if (!f.tiny.empty()) j["policy"]["tiny"] = f.tiny;
    j["policy_text"] = f.policy_text;
    if (!f.point.empty()) j["point"] = f.point;
    j["named"] = f.named.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.named);
    j["equivalent"] = f.equivalent;
    j["residue"] = nlohmann::ordered_json::array();
    for (const auto &r : f.residue) {
        nlohmann::ordered_json e = {{"class", r.cls}, {"inputs", r.inputs}, {"mismatches", r.mismatches}};
        // A class without a mismatch has no first one: "first" is absent rather than empty words.
        if (!r.input.empty() || !r.expected.empty() || !r.actual.empty())
            e["first"] = {{"input", r.input}, {"expected", r.expected}, {"actual", r.actual}};
        j["residue"].push_back(std::move(e));
    }
    j["sentence"] = f.sentence;
    if (f.sr)
        j["sr"] = {{"bits", f.sr->bits},
                   {"r", f.sr->r},
                   {"k_min", f.sr->k_min},
                   {"k_max", f.sr->k_max},
                   {"quarter_bias", f.sr->quarter_bias},
                   {"quarter_error", f.sr->quarter_error},
                   {"conventions", f.sr->conventions}};
    if (f.recipe) {
        nlohmann::ordered_json coords = nlohmann::ordered_json::array();
        for (const auto &[axis, value] : f.recipe->coordinates) coords.push_back({{"axis", axis}, {"value", value}});
        j["recipe"] = {{"family", f.recipe->family},
                       {"coordinates", coords},
                       {"recipes", f.recipe->recipes},
                       {"canonical", f.recipe->canonical}};
    }
    return j;
}

std::optional<std::vector<Fingerprint>> fingerprints_from_json(const nlohmann::json &j, std::string &error) {
    error.clear();
    if (!j.is_array()) {
        error = fmt::format("\"fingerprints\" is {}, expected an array", j.type_name());
        return std::nullopt;
    }
    std::vector<Fingerprint> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(fingerprint_from_json(j[i], fmt::format("fingerprints[{}] ", i), error));
    if (!error.empty()) return std::nullopt;
    return out;
}

std::string fingerprint_rule(const Fingerprint &f) { return f.op + "." + f.conversion; }

bool fingerprint_covers(const Fingerprint &f, std::string_view rule) {
    const std::string own = fingerprint_rule(f);
    return rule == own || (rule.size() > own.size() && rule.substr(0, own.size()) == own && rule[own.size()] == '.');
}

std::string residue_text(const FingerprintResidue &r) {
    std::string s = fmt::format("residue {}: {} of {}", untrusted_text(r.cls), r.mismatches, r.inputs);
    if (!r.input.empty())
        s += fmt::format("; first {} -> {}, policy {}", word_text(r.input), word_text(r.actual), word_text(r.expected));
    return s;
}

}  // namespace ninfer::reports
