// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform list [--json]`: the closed registry, straight from the constexpr tables of
// abi/include/ninfer/abi/registry.hpp (registry.h is the one list). Formats come from the one
// view kAllFormats, a section per family in its order; each family's descriptor (families.hpp)
// gives its heading and its table's columns.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "families.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::harness::cli {

namespace {

const char *nan_rule_name(oracle::NanRule r) {
    switch (r) {
    case oracle::NanRule::QUIET_TRUNC: return "quiet_trunc";
    case oracle::NanRule::ANY_SIGNED: return "any_signed";
    case oracle::NanRule::ANY: return "any";
    case oracle::NanRule::ZERO: return "zero";
    case oracle::NanRule::UNDEFINED: return "undefined";
    case oracle::NanRule::EXACT: return "exact";
    }
    return "?";
}

nlohmann::ordered_json registry_json() {
    using namespace oracle;
    nlohmann::ordered_json j;
    j["formats"] = formats_json(kAllFormats);
    for (const auto &l : kLayouts)
        j["layouts"].push_back({{"id", l.id}, {"name", l.name}, {"min_rank", l.min_rank}, {"max_rank", l.max_rank},
                                {"alignment", l.alignment}});
    for (const auto &o : kOps) j["ops"].push_back({{"id", o.id}, {"name", o.name}, {"summary", o.summary}});
    for (const auto &c : kConversions)
        j["conversions"].push_back({{"id", c.id}, {"name", c.name}, {"source", format_name(c.src)},
                                    {"target", format_name(c.dst)}, {"rounding", name_of(kRoundings, c.rounding)},
                                    {"overflow", name_of(kOverflows, c.overflow)}, {"nan_rule", nan_rule_name(c.nan_rule)}});
    for (const auto &r : kRoles)
        j["roles"].push_back({{"id", r.id}, {"name", r.name}, {"format", format_name(r.format)},
                              {"accepts_negative_zero", r.accepts_negative_zero},
                              {"accepts_positive_zero", r.accepts_positive_zero}, {"accepts_negative", r.accepts_negative},
                              {"summary", r.summary}});
    for (const auto &e : kEncoders) j["encoders"].push_back({{"id", e.id}, {"name", e.name}});
    for (const auto &r : kRoundings) j["roundings"].push_back({{"id", r.id}, {"name", r.name}, {"summary", r.summary}});
    for (const auto &o : kOverflows) j["overflows"].push_back({{"id", o.id}, {"name", o.name}, {"summary", o.summary}});
    for (const auto &p : abi::kProfiles)
        j["profiles"].push_back({{"id", p.id}, {"name", p.name}, {"criterion", name_of(abi::kCriteria, p.criterion)},
                                 {"summary", p.summary}});
    for (const auto &c : abi::kCriteria)
        j["criteria"].push_back({{"id", c.id}, {"name", c.name}, {"rule", suites::rule::linear_criterion(c)},
                                 {"summary", c.summary}});
    return j;
}

void print_text() {
    using namespace oracle;
    std::string s = formats_text(kAllFormats);
    s += "layouts:\n";
    for (const auto &l : kLayouts)
        s += fmt::format("  {:>2} {:<26} rank {}..{}, alignment {}\n", l.id, l.name, l.min_rank, l.max_rank, l.alignment);
    s += "ops:\n";
    for (const auto &o : kOps) s += fmt::format("  {:>2} {:<17} {}\n", o.id, o.name, o.summary);
    s += "conversions (source -> target, rounding, overflow, NaN rule):\n";
    for (const auto &c : kConversions)
        s += fmt::format("  {:>2} {:<29} {} -> {}, {}, {}, {}\n", c.id, c.name, format_name(c.src), format_name(c.dst),
                         name_of(kRoundings, c.rounding), name_of(kOverflows, c.overflow), nan_rule_name(c.nan_rule));
    s += "roles (validate):\n";
    for (const auto &r : kRoles) s += fmt::format("  {:>2} {:<21} {:<6} {}\n", r.id, r.name, format_name(r.format), r.summary);
    s += "encoders:\n";
    for (const auto &e : kEncoders) s += fmt::format("  {:>2} {}\n", e.id, e.name);
    s += "roundings:\n";
    for (const auto &r : kRoundings) s += fmt::format("  {:>2} {:<5} {}\n", r.id, r.name, r.summary);
    s += "overflows:\n";
    for (const auto &o : kOverflows) s += fmt::format("  {:>2} {:<9} {}\n", o.id, o.name, o.summary);
    s += "profiles (linear: id name -> criterion, summary):\n";
    for (const auto &p : abi::kProfiles)
        s += fmt::format("  {:>2} {:<17} -> {:<19} {}\n", p.id, p.name, name_of(abi::kCriteria, p.criterion), p.summary);
    s += "criteria (id name, rule, summary):\n";
    for (const auto &c : abi::kCriteria)
        s += fmt::format("  {:>2} {:<19} {:<26} {}\n", c.id, c.name, suites::rule::linear_criterion(c), c.summary);
    std::fputs(s.c_str(), stdout);
}

}  // namespace

void add_list(CLI::App &app) {
    auto *cmd = app.add_subcommand("list", "List the registry: formats, layouts, ops, conversions, roles, encoders, "
                                           "roundings, overflows, compute profiles, criteria");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->callback([json] {
        if (*json) std::printf("%s\n", registry_json().dump(2).c_str());
        else print_text();
    });
}

}  // namespace ninfer::harness::cli
