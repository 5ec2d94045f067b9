// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform list [--json]`: the closed registry, straight from the constexpr tables of
// abi/include/ninfer/abi/registry.hpp (registry.h is the one list). Formats come from the one
// view kAllFormats, a section per family in its order; each family adds its table's columns.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::harness::cli {

namespace {

const char *special_name(oracle::Special s) {
    switch (s) {
    case oracle::Special::IEEE: return "ieee";
    case oracle::Special::FN: return "fn";
    case oracle::Special::NONE: return "none";
    case oracle::Special::E8M0: return "e8m0";
    case oracle::Special::INT: return "int";
    }
    return "?";
}

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

const char *packing_name(oracle::Packing p) {
    switch (p) {
    case oracle::Packing::BYTE: return "byte";
    case oracle::Packing::NIBBLE_HIGH: return "nibble_high";
    case oracle::Packing::TWO_BIT_LSB: return "two_bit_lsb";
    }
    return "?";
}

template <class Table>
std::string_view name_of(const Table &t, std::uint32_t id) {
    const auto *e = oracle::find_id(t, id);
    return e ? e->name : std::string_view("?");
}

/// The row of one registered format: the view's columns, then its family table's.
nlohmann::ordered_json format_json(const oracle::FormatView &v) {
    using namespace oracle;
    switch (v.family) {
    case Family::word: {
        const auto &f = *find_id(kWordFormats, v.id);
        return {{"id", f.id}, {"name", f.name}, {"bits", f.bits}, {"exp_bits", f.exp_bits}, {"man_bits", f.man_bits},
                {"bias", f.bias}, {"signed", f.has_sign}, {"special", special_name(f.special)}, {"direct", f.direct}};
    }
    case Family::grouped: {
        const auto &f = *find_id(kGroupedFormats, v.id);
        return {{"id", f.id}, {"name", f.name}, {"code_bits", f.code_bits}, {"group", f.group}, {"qmin", f.qmin},
                {"qmax", f.qmax}, {"encoding", f.encoding == CodeEncoding::TWOS ? "twos" : "offset"},
                {"illegal_word", f.illegal_word}, {"scale_format", format_name(f.scale_format)},
                {"canonical_encoders", f.canonical_encoders}, {"layout", layout_name(f.layout)},
                {"base_bytes_per_group", f.base_bytes}, {"high_bytes_per_group", f.high_bytes},
                {"packing", packing_name(f.packing)}, {"scale_role", name_of(kRoles, f.scale_role)}};
    }
    case Family::scaled: {
        const auto &f = *find_id(kScaledFormats, v.id);
        return {{"id", f.id}, {"name", f.name}, {"code_format", format_name(f.code_format)},
                {"scale_format", format_name(f.scale_format)}, {"group", f.group}, {"divisors", f.divisors},
                {"layout", layout_name(f.layout)}, {"code_role", f.code_role ? name_of(kRoles, f.code_role) : std::string_view{}},
                {"scale_role", name_of(kRoles, f.scale_role)},
                {"encoder", f.encoder ? name_of(kEncoders, f.encoder) : std::string_view{}}};
    }
    case Family::gguf: {
        const auto &t = *find_id(abi::kGgufTypes, v.id);
        return {{"id", t.id}, {"name", t.name}, {"ggml_type", t.ggml_type}, {"block_values", t.block_values},
                {"block_bytes", t.block_bytes}, {"layout", layout_name(v.layout)},
                {"in_ninfer_registry", t.in_ninfer_registry}, {"ref_quantizer", t.ref_quantizer}};
    }
    }
    return {{"id", v.id}, {"name", v.name}, {"layout", layout_name(v.layout)}};
}

/// One text line of a registered format (the family's heading comes from family_heading).
std::string format_line(const oracle::FormatView &v) {
    using namespace oracle;
    switch (v.family) {
    case Family::word: {
        const auto &f = *find_id(kWordFormats, v.id);
        return fmt::format("  {:>2} {:<8} {:>2} bits  e{} m{} bias {:<3} {}{}{}\n", f.id, f.name, f.bits, f.exp_bits,
                           f.man_bits, f.bias, special_name(f.special), f.has_sign ? "" : " unsigned",
                           f.direct ? " direct" : "");
    }
    case Family::grouped: {
        const auto &f = *find_id(kGroupedFormats, v.id);
        return fmt::format("  {:>2} {:<13} {} bits, G={:<3} [{},{}] {}{}\n", f.id, f.name, f.code_bits, f.group, f.qmin,
                           f.qmax, layout_name(f.layout), f.canonical_encoders ? "" : " (no canonical encoder)");
    }
    case Family::scaled: {
        const auto &f = *find_id(kScaledFormats, v.id);
        return fmt::format("  {:>2} {:<20} {} codes, {} scales per {}{}, {}\n", f.id, f.name, format_name(f.code_format),
                           format_name(f.scale_format), f.group ? fmt::format("{} values", f.group) : std::string("row"),
                           f.divisors ? ", fp32 divisors" : "", layout_name(f.layout));
    }
    case Family::gguf: {
        const auto &t = *find_id(abi::kGgufTypes, v.id);
        return fmt::format("  {:>3} {:<13} ggml type {:>2}, {:>3} values in {:>3} bytes{}{}\n", t.id, t.name, t.ggml_type,
                           t.block_values, t.block_bytes, t.in_ninfer_registry ? "" : " (outside the .ninfer registry)",
                           t.ref_quantizer ? ", ggml reference quantizer" : "");
    }
    }
    return fmt::format("  {:>2} {:<20} {}\n", v.id, v.name, layout_name(v.layout));
}

const char *family_heading(oracle::Family f) {
    switch (f) {
    case oracle::Family::word: return "word formats (id name bits exp man bias special):\n";
    case oracle::Family::grouped: return "grouped formats (id name code bits, group, [qmin,qmax], layout):\n";
    case oracle::Family::scaled: return "scaled formats (id name codes, scales, reach, layout):\n";
    case oracle::Family::gguf: return "GGUF block types in ggml_blocks_v1 (id name ggml type, block):\n";
    }
    return "formats:\n";
}

nlohmann::ordered_json registry_json() {
    using namespace oracle;
    nlohmann::ordered_json j;
    auto &formats = j["formats"];
    for (const auto &v : kAllFormats) {
        auto &family = formats[std::string(abi::family_name(v.family))];
        if (family.is_null()) family = nlohmann::ordered_json::array();
        family.push_back(format_json(v));
    }
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
    std::string s;
    for (std::size_t i = 0; i < kAllFormats.size(); ++i) {
        if (i == 0 || kAllFormats[i].family != kAllFormats[i - 1].family) s += family_heading(kAllFormats[i].family);
        s += format_line(kAllFormats[i]);
    }
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
