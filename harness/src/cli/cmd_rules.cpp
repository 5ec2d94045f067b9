// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform rules [--json]`: the rule catalog (suites/rules.hpp): id, section, quote, reading.
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::harness::cli {

namespace {

/// The rule's reading classification as JSON: kind, why, and the choices of an open one.
nlohmann::ordered_json reading_json(const suites::Rule &r) {
    nlohmann::ordered_json j = {{"kind", suites::reading_kind_name(r.reading_kind)}, {"why", r.reading_why}};
    j["choices"] = nlohmann::ordered_json::array();
    for (const auto &c : r.choices) j["choices"].push_back({{"name", c.name}, {"outcome", c.outcome}});
    return j;
}

/// " (suite reading, forced)" or " (suite reading, open)"; "" for a rule without one.
std::string reading_mark(const suites::Rule &r) {
    return r.suite_reading ? std::string(" (suite reading, ") + suites::reading_kind_name(r.reading_kind) + ")" : "";
}

/// The classification lines under a rule's sentence: why, and each choice of an open reading.
void print_reading(const suites::Rule &r) {
    if (r.reading_kind == suites::ReadingKind::none) return;
    std::printf("    %s: %s\n", suites::reading_kind_name(r.reading_kind), r.reading_why.c_str());
    for (const auto &c : r.choices) std::printf("      choice %s: %s\n", c.name.c_str(), c.outcome.c_str());
}

}  // namespace

void add_rules(CLI::App &app) {
    auto *cmd = app.add_subcommand("rules", "List the rule catalog: id, spec section, quoted spec text, suite reading");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->callback([json] {
        const auto &rules = suites::rule_catalog();
        if (*json) {
            nlohmann::ordered_json j = nlohmann::ordered_json::array();
            for (const auto &r : rules)
                j.push_back({{"id", r.id}, {"family", r.group}, {"section", r.section}, {"quote", r.quote},
                             {"reading", r.reading}, {"sentence", r.sentence}, {"suite_reading", r.suite_reading},
                             {"classification", reading_json(r)}});
            std::printf("%s\n", j.dump(2).c_str());
            return;
        }
        for (const auto &r : rules) {
            std::printf("%s  [%s]%s\n    %s\n", r.id.c_str(), r.section.c_str(), reading_mark(r).c_str(), r.sentence.c_str());
            print_reading(r);
        }
        std::printf("%zu rules\n", rules.size());
    });
}

}  // namespace ninfer::harness::cli
