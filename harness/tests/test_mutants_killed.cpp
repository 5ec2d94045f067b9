// SPDX-License-Identifier: Apache-2.0
// Every bundled mutant (plugins/mutant_*.so) is caught by the rule it declares it breaks
// (ninfer_mutant_breaks), through the runner and the isolated worker at level full; the rules
// it fails stay inside the bound it exports (mutant_bound.hpp), and the summary's most specific
// failing rules name the declared one (issue 7: one bug must not be blamed on dozens of rules
// unseen); the reference plugin passes everything it declares. An SR mutant's run also holds the
// statistical rules of its conversion (suites/SR.md), as `run` adds them at level full.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/sr_run.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/sr_statistics.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"

using namespace ninfer;
using namespace ninfer::harness;
namespace fs = std::filesystem;

namespace {

SubjectOptions worker_options() {
    SubjectOptions o;
    o.worker_executable = NINFER_CONFORM_EXE;
    return o;
}

const CaseSet &full_cases() {
    static const CaseSet set = [] {
        RunOptions opts;
        opts.level = suites::Level::full;
        return collect_cases(opts);
    }();
    return set;
}

std::vector<fs::path> mutant_files() {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(NINFER_PLUGIN_DIR, ec)) {
        const auto name = e.path().filename().string();
        if (name.rfind("mutant_", 0) == 0 && e.path().extension() == ".so") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// What a mutant exports beside its table (mutant_common.hpp, mutant_bound.hpp): the rule it
/// breaks, and its bound: the rules it may fail besides that one (a trailing '*' matches any rest
/// of the id), and how far down the summary's specificity order the broken rule may stand. A
/// mutant without a bound may fail only its own rule, listed first.
struct Declared {
    std::string breaks;
    std::vector<std::string> may_also_fail;
    std::size_t within_top = 1;
};

std::vector<std::string> words_of(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

Declared declared_by(const fs::path &p) {
    Declared d;
    void *h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return d;
    if (auto *f = reinterpret_cast<const char *(*)()>(::dlsym(h, "ninfer_mutant_breaks")))
        if (const char *r = f()) d.breaks = r;
    if (auto *f = reinterpret_cast<const char *(*)()>(::dlsym(h, "ninfer_mutant_also_fails")))
        if (const char *r = f()) d.may_also_fail = words_of(r);
    if (auto *f = reinterpret_cast<int (*)()>(::dlsym(h, "ninfer_mutant_within_top")))
        d.within_top = static_cast<std::size_t>(std::max(f(), 0));
    ::dlclose(h);
    return d;
}

bool matches(const std::string &pattern, const std::string &id) {
    if (!pattern.empty() && pattern.back() == '*') return id.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return pattern == id;
}

/// Whether a bound's pattern names a rule of the catalog (a pattern with '*': at least one).
bool names_catalog_rules(const std::string &pattern) {
    if (pattern.empty() || pattern.back() != '*') return suites::find_rule(pattern) != nullptr;
    const auto &catalog = suites::rule_catalog();
    return std::any_of(catalog.begin(), catalog.end(), [&](const suites::Rule &r) { return matches(pattern, r.id); });
}

/// The statistical rules of the conversion an SR mutant breaks (suites/SR.md), at the run's
/// Bonferroni share of 1e-9, joined to its report as `run` joins them: a bug in a self-drawing
/// subject's own bits (mutant_sr_same_stream) is caught by them alone.
void add_sr_statistics_of(reports::Report &rep, Subject &s, const std::string &breaks) {
    std::vector<suites::sr::Test> tests;
    const auto all = suites::sr::tests();
    for (const auto &t : all)
        if (breaks.rfind(suites::rule::convert(oracle::conversion(t.conversion)), 0) == 0) tests.push_back(t);
    const auto verdicts = run_sr_tests(s, tests, suites::sr::per_test({1, 1000000000}, all.size()));
    for (auto &r : sr_case_results(verdicts)) rep.cases.push_back(std::move(r));
    reports::finalize(rep);
}

reports::Report run_plugin(const fs::path &p) {
    RunOptions opts;
    opts.level = suites::Level::full;
    auto s = open_plugin(p.string(), worker_options());
    REQUIRE(s->open_error().empty());
    auto rep = run_cases(*s, full_cases(), opts, identity_of(*s, "plugin", p.string()));
    if (p.stem().string().rfind("mutant_sr_", 0) == 0) add_sr_statistics_of(rep, *s, declared_by(p).breaks);
    return rep;
}

}  // namespace

// Hidden from discovery: harness/cli.cmake registers it alone with a high COST, so CTest starts it first
// (the longest test; in parallel with the rest it ends before them).
TEST_CASE("mutants: every bundled mutant is killed by the rule it breaks", "[.][kill]") {
    const auto mutants = mutant_files();
    INFO("plugin dir " << NINFER_PLUGIN_DIR);
    REQUIRE_FALSE(mutants.empty());  // a kill test that checks nothing is worthless
    for (const auto &m : mutants) {
        const Declared declared = declared_by(m);
        const std::string &rule = declared.breaks;
        INFO("mutant " << m.filename().string() << " breaks " << rule);
        REQUIRE_FALSE(rule.empty());
        CHECK(suites::find_rule(rule) != nullptr);
        const auto rep = run_plugin(m);
        CHECK(reports::run_failed(rep));
        std::size_t failing = 0;
        std::string first;
        for (const auto &c : rep.cases)
            if (c.rule == rule && reports::failed_unwaived(c)) {
                ++failing;
                if (first.empty()) first = c.id + ": " + (c.first.empty() ? c.message : c.first.front().cls);
            }
        INFO("first failing case of the rule: " << first);
        CHECK(failing > 0);

        // The bound: no rule outside it fails, and the broken rule is among the most specific.
        std::set<std::string> outside;
        for (const auto &c : rep.cases) {
            if (!reports::failed_unwaived(c) || c.rule == rule) continue;
            if (std::none_of(declared.may_also_fail.begin(), declared.may_also_fail.end(),
                             [&](const std::string &p) { return matches(p, c.rule); }))
                outside.insert(c.rule);
        }
        std::string outside_text;
        for (const auto &o : outside) outside_text += o + " ";
        INFO("rules failed outside the bound: " << outside_text);
        CHECK(outside.empty());
        auto finalized = rep;
        reports::finalize(finalized);
        const auto order = reports::failing_rules_by_specificity(finalized);
        std::string order_text;
        std::size_t at = order.size();
        for (std::size_t i = 0; i < order.size(); ++i) {
            if (i < 5) order_text += order[i]->id + " ";
            if (order[i]->id == rule && at == order.size()) at = i;
        }
        INFO("most specific failing rules: " << order_text);
        CHECK(at < declared.within_top);
    }
}

TEST_CASE("mutants: the bound of every bundled mutant names rules of the catalog") {
    const auto mutants = mutant_files();
    REQUIRE_FALSE(mutants.empty());
    std::size_t bounded = 0;
    for (const auto &m : mutants) {
        const Declared declared = declared_by(m);
        INFO("mutant " << m.filename().string());
        CHECK(declared.within_top >= 1);
        if (!declared.may_also_fail.empty()) ++bounded;
        for (const auto &pattern : declared.may_also_fail) {
            INFO("bound pattern " << pattern);
            CHECK(names_catalog_rules(pattern));
        }
    }
    CHECK(bounded > 0);  // the bounds are exported, not lost on the way
}

TEST_CASE("mutants: the reference plugin passes every case it declares") {
    const auto rep = run_plugin(fs::path(NINFER_PLUGIN_DIR) / "reference.so");
    std::string failures;
    for (const auto &c : rep.cases)
        if (reports::is_failure(c.status) && failures.size() < 2000)
            failures += c.id + " [" + reports::status_name(c.status) + "] " +
                        (c.first.empty() ? c.message : c.first.front().cls + " at " + c.first.front().location) + "\n";
    INFO(failures);
    CHECK_FALSE(reports::run_failed(rep));
    CHECK(rep.totals.pass > 0);
}
