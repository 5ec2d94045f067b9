// SPDX-License-Identifier: Apache-2.0
// The rule catalog and the suite catalog, assembled from the families' catalog descriptors.
#include <set>
#include <stdexcept>

#include "ninfer/abi/family_registry.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

std::string rule_sentence(std::string_view quote, std::string_view reading) {
    std::string s(quote);
    if (!reading.empty()) {
        // A quote that stops inside the spec's sentence gets an ellipsis before the reading.
        if (!s.empty()) s += s.back() == '.' ? " " : " ... ";
        s += "Suite reading: ";
        s += reading;
    }
    return s;
}

Rule make_rule(std::string id, std::string group, std::string section, std::string quote, std::string reading) {
    Rule r{std::move(id), std::move(group), std::move(section), std::move(quote), std::move(reading), {}, false};
    r.sentence = rule_sentence(r.quote, r.reading);
    r.suite_reading = !r.reading.empty();
    return r;
}

namespace {

/// The rule's reading classified from the readings table; a rule without a reading stays none.
void classify_reading(Rule &r) {
    if (r.reading.empty()) return;
    auto c = reading_class(r.id);
    r.reading_kind = c.kind;
    r.reading_why = std::move(c.why);
    r.choices = std::move(c.choices);
}

}  // namespace

const char *reading_kind_name(ReadingKind k) {
    switch (k) {
    case ReadingKind::forced: return "forced";
    case ReadingKind::open: return "open";
    case ReadingKind::none: break;
    }
    return "none";
}

const Choice *Rule::find_choice(std::string_view name) const {
    for (const auto &c : choices)
        if (c.name == name) return &c;
    return nullptr;
}

namespace {

/// The families: one line per built-in family, then the added ones; sealed once rule_catalog()
/// or suite_catalog() is built.
abi::FamilyRegistry<CatalogFamily> &families() {
    static abi::FamilyRegistry<CatalogFamily> all("catalog", {
                                                                 &kWordCatalog,
                                                                 &kGroupedCatalog,
                                                                 &kScaledCatalog,
                                                                 &kGgufCatalog,
                                                                 &kLinearCatalog,
                                                             });
    return all;
}

}  // namespace

std::span<const CatalogFamily *const> catalog_families() { return families().all(); }

bool add_catalog_family(const CatalogFamily &family) { return families().add(family); }

const std::vector<Rule> &rule_catalog() {
    static const std::vector<Rule> all = [] {
        families().seal();
        std::vector<Rule> r;
        for (const auto *f : catalog_families())
            for (auto &x : f->rules()) r.push_back(std::move(x));
        for (auto &x : r) classify_reading(x);
        std::set<std::string> seen;
        for (const auto &x : r)
            if (!seen.insert(x.id).second) throw std::logic_error("duplicate rule id " + x.id);
        return r;
    }();
    return all;
}

const Rule *find_rule(std::string_view id) {
    for (const auto &r : rule_catalog())
        if (r.id == id) return &r;
    return nullptr;
}

const std::vector<Suite> &suite_catalog() {
    static const std::vector<Suite> all = [] {
        families().seal();
        std::vector<Suite> s;
        for (const auto *f : catalog_families())
            for (auto &x : f->suites()) s.push_back(std::move(x));
        std::set<std::string> seen;
        for (const auto &x : s)
            if (!seen.insert(x.name).second) throw std::logic_error("duplicate suite name " + x.name);
        return s;
    }();
    return all;
}

const Suite *find_suite(const std::string &name) {
    for (const auto &s : suite_catalog())
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace ninfer::suites
