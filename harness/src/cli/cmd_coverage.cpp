// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform coverage [--json]`: rules of the catalog without any case, over every suite's
// golden and seeded random cases at level exhaustive. Exit 1 when a rule lacks a case or a
// case names a rule outside the catalog.
#include <cstdio>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::harness::cli {

void add_coverage(CLI::App &app) {
    auto *cmd = app.add_subcommand("coverage", "List rules without a case (golden + random, level exhaustive); "
                                               "exit 1 when a rule lacks one");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->callback([json] {
        std::map<std::string, std::uint64_t> per_rule;
        for (const auto &r : suites::rule_catalog()) per_rule[r.id] = 0;
        std::map<std::string, std::uint64_t> orphans;  // cases naming no catalog rule
        for (const auto &s : suites::suite_catalog()) {
            auto count = [&](const std::vector<suites::Case> &cases) {
                for (const auto &c : cases) {
                    auto it = per_rule.find(c.rule);
                    if (it == per_rule.end()) ++orphans[c.rule];
                    else ++it->second;
                }
            };
            if (s.golden) count(s.golden(suites::Level::exhaustive));
            if (s.random) count(s.random(suites::kDefaultSeed, suites::Level::exhaustive));
        }
        std::vector<std::string> uncovered;
        for (const auto &r : suites::rule_catalog())
            if (per_rule[r.id] == 0) uncovered.push_back(r.id);
        if (*json) {
            nlohmann::ordered_json j;
            j["rules"] = per_rule.size();
            j["covered"] = per_rule.size() - uncovered.size();
            j["uncovered"] = uncovered;
            j["unknown_rules"] = nlohmann::ordered_json::object();
            for (const auto &[k, v] : orphans) j["unknown_rules"][k] = v;
            j["cases_per_rule"] = nlohmann::ordered_json::object();
            for (const auto &r : suites::rule_catalog()) j["cases_per_rule"][r.id] = per_rule[r.id];
            std::printf("%s\n", j.dump(2).c_str());
        } else {
            for (const auto &id : uncovered) std::printf("no case: %s\n", id.c_str());
            for (const auto &[k, v] : orphans) std::printf("%llu cases name a rule outside the catalog: %s\n",
                                                           static_cast<unsigned long long>(v), k.c_str());
            std::printf("%zu of %zu rules have cases\n", per_rule.size() - uncovered.size(), per_rule.size());
        }
        if (!uncovered.empty() || !orphans.empty()) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
