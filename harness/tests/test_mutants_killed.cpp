// SPDX-License-Identifier: Apache-2.0
// Every bundled mutant (plugins/mutant_*.so) is caught by the rule it declares it breaks
// (ninfer_mutant_breaks), through the runner and the isolated worker at level full; the rules
// it fails stay inside its bound, and the summary's most specific failing rules name the
// declared one (issue 7: one bug must not be blamed on dozens of rules unseen); the reference
// plugin passes everything it declares.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "ninfer/harness/runner.hpp"
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

std::string breaks_of(const fs::path &p) {
    void *h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return "";
    std::string rule;
    if (auto *f = reinterpret_cast<const char *(*)()>(::dlsym(h, "ninfer_mutant_breaks")))
        if (const char *r = f()) rule = r;
    ::dlclose(h);
    return rule;
}

/// The bound of each mutant: the rules it may fail besides the one it breaks (a trailing '*'
/// matches any rest of the id), and how far down the summary's specificity order the broken
/// rule may stand. A mutant without an entry may fail only its own rule, listed first.
struct Bound {
    std::vector<std::string> may_also_fail;
    std::size_t within_top = 1;
};
const std::map<std::string, Bound> &bounds() {
    static const std::vector<std::string> kLayoutWide = {"grouped.absmax.*", "grouped.search.*", "grouped.reconstruct*",
                                                         "grouped.scale.*",  "grouped.group.*",  "row_split.*"};
    auto plus = [](std::vector<std::string> a, std::initializer_list<std::string> b) {
        a.insert(a.end(), b);
        return a;
    };
    // The nvfp4 layout's placement bugs show in every rule whose cases carry an nvfp4 payload.
    static const std::vector<std::string> kBlockScaleWide = {"nvfp4.*", "block_scale.*", "lesson.nvfp4_two_level"};
    static const std::map<std::string, Bound> b = {
        // Issue 21: the spec waives the NaN payload in the main rule; the sign stays (lesson Example 5).
        {"mutant_bf16_canonical_nan", {{"convert.fp32_to_bf16_rne.nan_payload"}, 1}},
        // Eigen / ml_dtypes: 0x7FC0 | sign passes the main rule, fails only the payload profile.
        {"mutant_bf16_signed_canonical_nan", {{}, 1}},
        {"mutant_fp16_keeps_snan", {{"convert.fp32_to_fp16_rne.nan_payload"}, 1}},
        // IEEE 754 requires the quieting: convert.fp16_to_fp32 itself must pass.
        {"mutant_fp16_widen_quiets_snan", {{}, 1}},
        // IEEE 754 6.3 leaves a NaN's sign open: only the sign profile (issue 21, section 4) fails.
        {"mutant_e4m3fn_positive_nan", {{}, 1}},
        {"mutant_grouped_abs_scale", {{"grouped.code.q8_g32_fp16", "grouped.reconstruct*", "grouped.scale.*"}, 1}},
        {"mutant_grouped_bf16_decode_scale", {{"grouped.code.*", "grouped.reconstruct*", "grouped.scale.*"}, 1}},
        {"mutant_grouped_bf16_scale", {{"grouped.absmax.*", "grouped.group.*", "row_split.padding"}, 1}},
        {"mutant_grouped_clamp_before_round", {{"grouped.absmax.*", "grouped.code.q8_never_emitted", "grouped.group.*"}, 2}},
        {"mutant_grouped_decode_unchecked",
         {{"grouped.code.q8_0x80_illegal", "grouped.code.t2_0b10_illegal", "grouped.scale.*", "row_split.padding"}, 1}},
        // One refusal per format's code interval: each case is its format's own rule.
        {"mutant_grouped_encode_masks_codes", {{"grouped.code.*"}, 8}},
        {"mutant_grouped_high_bits_msb_first", {plus(kLayoutWide, {"grouped.code.q5_g64_fp16", "grouped.code.q6_g64_fp16"}), 1}},
        {"mutant_grouped_no_rescue", {{"grouped.absmax.bit_exact", "grouped.group.partial"}, 1}},
        {"mutant_grouped_nonzero_padding", {{"grouped.absmax.*", "grouped.group.partial", "grouped.search.*", "row_split.*"}, 1}},
        {"mutant_grouped_overflow_clips", {{"grouped.absmax.scale_rounding"}, 1}},
        {"mutant_grouped_q8_minus128", {{"grouped.absmax.*", "grouped.group.*"}, 1}},
        {"mutant_grouped_qmin_denominator", {{"grouped.absmax.*", "grouped.group.*", "row_split.padding"}, 2}},
        {"mutant_grouped_search_ties_replace", {{"grouped.search.*"}, 3}},
        {"mutant_grouped_select_empty", {{"row_split.slice"}, 2}},
        {"mutant_grouped_swapped_nibbles",
         {plus(kLayoutWide, {"grouped.code.q4_g64_fp16", "grouped.code.q5_g64_fp16", "grouped.code.q6_g64_fp16"}), 1}},
        {"mutant_grouped_truncation", {{"grouped.absmax.*", "grouped.group.*", "row_split.padding"}, 2}},
        {"mutant_grouped_validate_ignores_high", {{"grouped.scale.zero_group_codes"}, 2}},
        {"mutant_grouped_zero_point", {{"grouped.code.*", "grouped.group.*", "grouped.reconstruct*", "grouped.scale.*"}, 1}},
        // The scaled family (issue 9). fp8_row_maxabs: a wrong step also changes the rows that
        // other steps' cases reach (rescued and clamped rows, bit-exact and chunked rows).
        // Division by a rescued BF16 multiplier below 2^-128 gives a finite quotient, neither R2
        // outcome (issue 21's tiny-scale rows): rescue's rows may then carry the most mismatches.
        {"mutant_scaled_division", {{"fp8_row_maxabs.rescue", "fp8_row_maxabs.clamp", "fp8_row_maxabs.bit_exact"}, 2}},
        {"mutant_scaled_e4m3_ties_away", {{"fp8_row_maxabs.bit_exact", "fp8_row_maxabs.chunking"}, 2}},
        // FP32 inputs also lose the refusal of a source infinite in BF16 (oracle/SCALED.md R2).
        {"mutant_scaled_fp32_inputs", {{"fp8_row_maxabs.nonfinite", "fp8_row_maxabs.bit_exact"}, 2}},
        {"mutant_scaled_no_clamp", {{"fp8_row_maxabs.rescue", "fp8_row_maxabs.chunking"}, 1}},
        {"mutant_scaled_no_rescue", {{"fp8_row_maxabs.clamp", "fp8_row_maxabs.bit_exact"}, 1}},
        // A truncated multiplier changes nearly every encoded row: the bit-exact rows outnumber its own cases.
        {"mutant_scaled_scale_truncation", {{"fp8_row_maxabs.*"}, 5}},
        {"mutant_scaled_negative_zero_scale", {{"block_scale.decode_boundary"}, 1}},
        // A wrong weight shows on every decoded nvfp4 value, zero-scale blocks and owned rows included
        // (the row-ownership cases decode the most values).
        {"mutant_scaled_divisor_ignored", {{"nvfp4.scale.zero", "nvfp4.divisor.row_owner"}, 2}},
        {"mutant_scaled_divisor_multiplied", {{"nvfp4.scale.zero", "nvfp4.divisor.row_owner"}, 2}},
        {"mutant_scaled_divisor_interleaved", {{"nvfp4.reconstruct", "block_scale.slice", "block_scale.gather"}, 1}},
        // No mismatch attribution for nvfp4 payloads yet (compare.cpp blames row_split only): the
        // nibble bug's own cases rank behind the rules with more payload bytes.
        {"mutant_scaled_swapped_nibbles", {kBlockScaleWide, 6}},
        // A decoder's tile order shows on the 2 x 2-tile payloads of layout_decode (its rule) and
        // quant_decode (nvfp4.reconstruct, ranked first: more values per case).
        {"mutant_scaled_decode_tile_order", {{"nvfp4.reconstruct"}, 2}},
        {"mutant_scaled_swizzle_tile64", {kBlockScaleWide, 1}},
        {"mutant_scaled_swizzle_transposed", {kBlockScaleWide, 1}},
        // The linear mutants (issue 13) break one profile each. linear.payload holds computed
        // cases too (a valid negative grouped scale): a bug in that profile's arithmetic shows
        // there. Where the bug changes a weight's value or sign (another row's scale), the
        // infinities of the non-finite cases under that profile may change sign or meet a zero.
        {"mutant_linear_bf16_accumulation", {{"linear.payload"}, 1}},
        {"mutant_linear_dropped_partial_group", {{"linear.payload"}, 1}},
        {"mutant_linear_scale_twice", {{"linear.payload", "linear.nonfinite"}, 1}},
        {"mutant_linear_skips_last_warp", {{"linear.payload"}, 1}},
        {"mutant_linear_swizzle_transposed", {{"linear.nonfinite"}, 2}},
        // Row 0 repeated: the non-finite cases with two activation rows (NaN in row 1) fail too.
        {"mutant_linear_ignores_m", {{"linear.nonfinite"}, 1}},
    };
    return b;
}

bool matches(const std::string &pattern, const std::string &id) {
    if (!pattern.empty() && pattern.back() == '*') return id.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return pattern == id;
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

        // The bound: no rule outside it fails, and the broken rule is among the most specific.
        const auto it = bounds().find(m.stem().string());
        const Bound bound = it == bounds().end() ? Bound{} : it->second;
        std::set<std::string> outside;
        for (const auto &c : rep.cases) {
            if (!reports::failed_unwaived(c) || c.rule == rule) continue;
            if (std::none_of(bound.may_also_fail.begin(), bound.may_also_fail.end(),
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
        CHECK(at < bound.within_top);
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
