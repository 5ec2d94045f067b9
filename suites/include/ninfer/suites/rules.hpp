// SPDX-License-Identifier: Apache-2.0
// The rule catalog: every normative rule of the spec that the suite enforces, with its id, the
// spec text it enforces (verbatim), where that text stands, and the suite's own reading where it
// adds one. The rows are data, one table per family (rules_scalar.cpp, rules_grouped.cpp); the
// ids are typed (rule_ids.hpp). Cases name the rule they test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ninfer::suites {

struct Rule {
    std::string id;        ///< "<family>.<subject>[.<aspect>]", e.g. "convert.fp32_to_bf16_rne"
    std::string family;    ///< "decode", "classify", "validity", "convert", "layout", "grouped", ...
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
};

/// A rule from its table row; `sentence` and `suite_reading` follow from `quote` and `reading`.
Rule make_rule(std::string id, std::string family, std::string section, std::string quote, std::string reading);

/// The sentence reports show: the quote, then "Suite reading: " and the reading (after " ... "
/// when the quote stops inside a sentence of the spec).
std::string rule_sentence(std::string_view quote, std::string_view reading);

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
