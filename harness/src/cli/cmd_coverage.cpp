// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform coverage [--json] [--level L] [--min-cases-per-path N]`: rules of the catalog
// without any case, and the paths of each rule and op (ninfer/suites/paths.hpp), over every
// suite's golden and seeded random cases at the level (default full); a statistical SR rule's
// cases are its tests of draws (suites/SR.md). Exit 1 when a rule lacks a
// case, a case names a rule outside the catalog, or a required path has fewer than N cases.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/suites/paths.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/sr_statistics.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::harness::cli {

namespace {

struct CoverageArgs {
    bool json = false;
    std::string level = "full";
    std::uint64_t min_cases_per_path = suites::paths::kDefaultMinCasesPerPath;
    ProgressMode progress = ProgressMode::automatic;  ///< --progress, --no-progress
};

const suites::paths::Dimension &dimension_of(const std::string &name) {
    for (const auto &d : suites::paths::dimensions())
        if (d.name == name) return d;
    throw std::logic_error("coverage: no dimension " + name);
}

nlohmann::ordered_json paths_json(const suites::paths::Table &table, const std::vector<suites::paths::Gap> &gaps) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto &[key, cell] : table) {
        const auto &[dim, rule, op] = key;
        nlohmann::ordered_json row;
        row["dimension"] = dim;
        row["rule"] = rule;
        row["op"] = std::string(abi::op_name(op));
        row["cases"] = cell.cases;
        row["required"] = cell.required;
        row["paths"] = nlohmann::ordered_json::object();
        const auto &d = dimension_of(dim);
        for (std::size_t i = 0; i < d.paths.size(); ++i) row["paths"][d.paths[i]] = cell.counts[i];
        j.push_back(std::move(row));
    }
    nlohmann::ordered_json out;
    out["table"] = std::move(j);
    out["gaps"] = nlohmann::ordered_json::array();
    for (const auto &g : gaps)
        out["gaps"].push_back({{"dimension", g.dimension}, {"rule", g.rule}, {"op", std::string(abi::op_name(g.op))},
                               {"path", g.path}, {"cases", g.count}, {"minimum", g.minimum}});
    return out;
}

void print_paths(const suites::paths::Table &table) {
    for (const auto &[key, cell] : table) {
        const auto &[dim, rule, op] = key;
        const auto &d = dimension_of(dim);
        std::string counts;
        for (std::size_t i = 0; i < d.paths.size(); ++i)
            counts += fmt::format(" {}={}{}", d.paths[i], cell.counts[i], cell.required && (d.required >> i & 1u) ? "*" : "");
        std::printf("paths %s %s %s: %llu cases;%s\n", dim.c_str(), rule.c_str(), std::string(abi::op_name(op)).c_str(),
                    static_cast<unsigned long long>(cell.cases), counts.c_str());
    }
}

}  // namespace

void add_coverage(CLI::App &app) {
    auto *cmd = app.add_subcommand("coverage", "List rules without a case and the cases per path of each rule and op "
                                               "(golden + random, level full); exit 1 on a rule without a case or a "
                                               "required path below the minimum");
    auto a = std::make_shared<CoverageArgs>();
    cmd->add_flag("--json", a->json, "JSON instead of text");
    cmd->add_option("--level", a->level, "quick | full | exhaustive (default full)");
    cmd->add_option("--min-cases-per-path", a->min_cases_per_path,
                    "cases each required path of a rule and op must have (default 1)")
        ->check(digits());
    add_progress_options(*cmd, a->progress);
    cmd->callback([a] {
        const suites::Level level = require_level(a->level);
        std::map<std::string, std::uint64_t> per_rule;
        for (const auto &r : suites::rule_catalog()) per_rule[r.id] = 0;
        std::map<std::string, std::uint64_t> orphans;  // cases naming no catalog rule
        suites::paths::Table table;
        const auto &catalog = suites::suite_catalog();
        const auto t0 = std::chrono::steady_clock::now();
        std::atomic<std::size_t> at{0};
        // Polled, so that the elapsed time moves within a long suite.
        ProgressLine progress(progress_shown(a->progress), [&catalog, &at, t0] {
            const std::size_t k = at.load();
            const std::string elapsed = duration_text(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            if (k >= catalog.size()) return fmt::format("coverage: {} suites counted ({})", catalog.size(), elapsed);
            return fmt::format("coverage: suite {}/{} {} ({})", k + 1, catalog.size(), catalog[k].name, elapsed);
        });
        for (const auto &s : catalog) {
            auto count = [&](const std::vector<suites::Case> &cases) {
                for (const auto &c : cases) {
                    auto it = per_rule.find(c.rule);
                    if (it == per_rule.end()) ++orphans[c.rule];
                    else ++it->second;
                }
                suites::paths::add_to(table, cases);
            };
            if (s.golden) count(s.golden(level));
            if (s.random) count(s.random(suites::kDefaultSeed, level));
            ++at;
        }
        progress.finish();
        // the statistical SR rules are judged by draws, not golden cases: each test counts as a case
        for (const auto &t : suites::sr::tests()) ++per_rule[t.rule];
        std::vector<std::string> uncovered;
        for (const auto &r : suites::rule_catalog())
            if (per_rule[r.id] == 0) uncovered.push_back(r.id);
        const auto gaps = suites::paths::gaps(table, a->min_cases_per_path);
        if (a->json) {
            nlohmann::ordered_json j;
            j["level"] = suites::level_name(level);
            j["rules"] = per_rule.size();
            j["covered"] = per_rule.size() - uncovered.size();
            j["uncovered"] = uncovered;
            j["unknown_rules"] = nlohmann::ordered_json::object();
            for (const auto &[k, v] : orphans) j["unknown_rules"][k] = v;
            j["cases_per_rule"] = nlohmann::ordered_json::object();
            for (const auto &r : suites::rule_catalog()) j["cases_per_rule"][r.id] = per_rule[r.id];
            j["min_cases_per_path"] = a->min_cases_per_path;
            j["paths"] = paths_json(table, gaps);
            std::printf("%s\n", j.dump(2).c_str());
        } else {
            for (const auto &id : uncovered) std::printf("no case: %s\n", id.c_str());
            for (const auto &[k, v] : orphans) std::printf("%llu cases name a rule outside the catalog: %s\n",
                                                           static_cast<unsigned long long>(v), k.c_str());
            print_paths(table);
            for (const auto &g : gaps) std::printf("%s\n", suites::paths::gap_line(g).c_str());
            std::printf("%zu of %zu rules have cases; %zu path gaps (minimum %llu cases per required path, level %s)\n",
                        per_rule.size() - uncovered.size(), per_rule.size(), gaps.size(),
                        static_cast<unsigned long long>(a->min_cases_per_path), suites::level_name(level));
        }
        if (!uncovered.empty() || !orphans.empty() || !gaps.empty()) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
