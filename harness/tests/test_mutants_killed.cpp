// SPDX-License-Identifier: Apache-2.0
// Every bundled mutant (plugins/mutant_*.so) is caught by the rule it declares it breaks
// (ninfer_mutant_breaks), through the runner and the isolated worker at level full; the
// reference plugin passes everything it declares.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>

#include "ninfer/harness/runner.hpp"
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

std::string breaks_of(const fs::path &p) {
    void *h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return "";
    std::string rule;
    if (auto *f = reinterpret_cast<const char *(*)()>(::dlsym(h, "ninfer_mutant_breaks")))
        if (const char *r = f()) rule = r;
    ::dlclose(h);
    return rule;
}

reports::Report run_plugin(const fs::path &p) {
    RunOptions opts;
    opts.level = suites::Level::full;
    auto s = open_plugin(p.string(), worker_options());
    REQUIRE(s->open_error().empty());
    return run_cases(*s, full_cases(), opts, identity_of(*s, "plugin", p.string()));
}

}  // namespace

TEST_CASE("mutants: every bundled mutant is killed by the rule it breaks") {
    const auto mutants = mutant_files();
    INFO("plugin dir " << NINFER_PLUGIN_DIR);
    REQUIRE_FALSE(mutants.empty());  // a kill test that checks nothing is worthless
    for (const auto &m : mutants) {
        const std::string rule = breaks_of(m);
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
    }
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
