// SPDX-License-Identifier: Apache-2.0
// The rule catalog: every normative rule of the spec that the suite enforces, with its id, the
// spec text it enforces (verbatim), where that text stands, and the suite's own reading where it
// adds one. The rows are data, one table per family (rules_scalar.cpp, rules_grouped.cpp); the
// ids are typed (rule_ids.hpp). Cases name the rule they test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ninfer::suites {

/// Whether a suite reading is the only answer or one of several (suites/README.md, "Forced and
/// open readings"): forced when the spec, or the authority it defers to (IEEE 754, OCP, ggml,
/// the lesson, the plugin ABI), fixes the answer; open when the spec leaves a choice, each
/// documented outcome a named Choice that conforms. A rule without a reading has none.
enum class ReadingKind : std::uint8_t { none = 0, forced = 1, open = 2 };

/// "none", "forced", "open".
const char *reading_kind_name(ReadingKind k);

/// One documented outcome of an open reading: its name ("encode", "refuse") and what it is.
struct Choice {
    std::string name, outcome;
    bool operator==(const Choice &) const = default;
};

struct Rule {
    std::string id;        ///< "<group>.<subject>[.<aspect>]", e.g. "convert.fp32_to_bf16_rne"
    /// The rule group, the id's first part ("decode", "classify", "validity", "convert", "layout",
    /// "grouped", ...): not a family of NINFER_FAMILIES. `rules --json` keeps its key "family".
    std::string group;
    std::string section;   ///< "tensor-formats.txt 3.1", "storage-layouts.md 2", "lesson Example 5"
    /// The spec's text, copied verbatim from the files its section names (NINFER_SPEC_DIR; the
    /// test compares after normalising whitespace only). " ... " joins verbatim pieces that occur
    /// in this order. Empty only where the section names no spec file (an IEEE 754 profile).
    std::string quote;
    /// The suite's reading or gloss of the quote ("" when the quote says it all): what the spec
    /// leaves open or what another document (OCP, IEEE 754, ggml) fixes, as the suite takes it.
    std::string reading;
    /// What reports show: the quote, then "Suite reading: " and the reading when there is one.
    std::string sentence;
    /// The rule rests on a documented suite reading: `!reading.empty()`.
    bool suite_reading = false;
    /// forced or open when the rule has a reading, none otherwise (suites/src/readings.cpp).
    ReadingKind reading_kind = ReadingKind::none;
    /// forced: why the spec or its authority forces the answer; open: what the spec leaves open.
    std::string reading_why{};
    /// open: every documented acceptable outcome, by name (at least two); empty otherwise.
    std::vector<Choice> choices{};
    /// The choice of this name, or nullptr.
    const Choice *find_choice(std::string_view name) const;
};

/// A rule from its table row; `sentence` and `suite_reading` follow from `quote` and `reading`.
Rule make_rule(std::string id, std::string group, std::string section, std::string quote, std::string reading);

/// The sentence reports show: the quote, then "Suite reading: " and the reading (after " ... "
/// when the quote stops inside a sentence of the spec).
std::string rule_sentence(std::string_view quote, std::string_view reading);

/// The classification of a rule's reading (suites/src/readings.cpp): kind, why and choices.
struct ReadingClass {
    ReadingKind kind = ReadingKind::none;
    std::string why;
    std::vector<Choice> choices;
};
/// The classification the readings table gives a rule id (an exact id first, else the longest
/// prefix entry ending in '.'); kind none when the table has no entry for it.
ReadingClass reading_class(std::string_view id);
/// The table's entries (exact ids and prefixes ending in '.'), for the test that none is stale.
std::vector<std::string> reading_table_keys();

/// Every rule, scalar and grouped, in catalog order; ids unique.
const std::vector<Rule> &rule_catalog();
/// The rule with this id, or nullptr.
const Rule *find_rule(std::string_view id);

/// The rules of each family's table (rules_scalar.cpp, rules_grouped.cpp).
std::vector<Rule> scalar_rules();
std::vector<Rule> grouped_rules();
std::vector<Rule> scaled_rules();  ///< rules_scaled.cpp: nvfp4, the FP8 row formats, fp8_row_maxabs
std::vector<Rule> gguf_rules();    ///< rules_gguf.cpp: the GGUF block types in ggml_blocks_v1

}  // namespace ninfer::suites
