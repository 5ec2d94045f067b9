// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform rules [--json]`: the rule catalog (suites/rules.hpp): id, section, quote, reading.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::harness::cli {

void add_rules(CLI::App &app) {
    auto *cmd = app.add_subcommand("rules", "List the rule catalog: id, spec section, quoted spec text, suite reading");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->callback([json] {
        const auto &rules = suites::rule_catalog();
        if (*json) {
            nlohmann::ordered_json j = nlohmann::ordered_json::array();
            for (const auto &r : rules)
                j.push_back({{"id", r.id}, {"family", r.family}, {"section", r.section}, {"quote", r.quote},
                             {"reading", r.reading}, {"sentence", r.sentence}, {"suite_reading", r.suite_reading}});
            std::printf("%s\n", j.dump(2).c_str());
            return;
        }
        for (const auto &r : rules)
            std::printf("%s  [%s]%s\n    %s\n", r.id.c_str(), r.section.c_str(), r.suite_reading ? " (suite reading)" : "",
                        r.sentence.c_str());
        std::printf("%zu rules\n", rules.size());
    });
}

}  // namespace ninfer::harness::cli
