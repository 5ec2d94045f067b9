// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: the one suggestion function (suggest.hpp): distances worked by hand, the
// threshold that keeps nonsense without a suggestion, and the wording of the error line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ninfer/harness/suggest.hpp"

using namespace ninfer::harness;
using Names = std::vector<std::string>;

TEST_CASE("suggest: optimal string alignment distance") {
    CHECK(edit_distance("kitten", "sitting") == 3);  // k->s, e->i, +g
    CHECK(edit_distance("ab", "ba") == 1);           // one transposition (Levenshtein: 2)
    CHECK(edit_distance("truncaton", "truncation") == 1);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("abc", "abc") == 0);
    CHECK(edit_distance("ca", "abc") == 3);  // OSA edits no substring twice (unrestricted: 2)
}

TEST_CASE("suggest: a prefix of a name is one edit from it") {
    CHECK(edit_distance("fp32_to_bf16", "fp32_to_bf16_rne") == 4);
    CHECK(name_distance("fp32_to_bf16", "fp32_to_bf16_rne") == 1);
    CHECK(name_distance("fp32_to_bf17", "fp32_to_bf16_rne") == 2);
    CHECK(name_distance("abc", "ab") == 1);  // a shorter name: its plain distance
}

TEST_CASE("suggest: the closest names, at most three, none for nonsense") {
    const Names plugins{"mutant_bf16_canonical_nan", "mutant_bf16_truncation", "mutant_fp16_truncation", "reference"};
    // the nearest only: mutant_fp16_truncation is two edits away
    CHECK(closest_names("mutant_bf16_truncaton", plugins) == Names{"mutant_bf16_truncation"});
    CHECK(closest_names("mutant_bf16_truncaton", {"mutant_fp16_truncation"}) == Names{"mutant_fp16_truncation"});
    CHECK(closest_names("refrence", plugins) == Names{"reference"});
    CHECK(closest_names("zzqqxx", plugins).empty());
    CHECK(closest_names("", plugins).empty());
    const Names options{"--seed", "--suite", "--level", "--shard", "--junit"};
    CHECK(closest_names("--suit", options) == Names{"--suite"});
    CHECK(closest_names("--qqqqq", options).empty());
    const Names conversions{"fp32_to_fp16_rne", "fp32_to_bf16_rne", "fp32_to_bf16_rtz", "fp32_to_bf16_rna",
                            "fp32_to_bf16_rup"};
    // four at one edit: the first three in the table's order
    CHECK(closest_names("fp32_to_bf16", conversions) == Names{"fp32_to_bf16_rne", "fp32_to_bf16_rtz", "fp32_to_bf16_rna"});
    CHECK(closest_names("fp32_to_bf16", conversions, 1) == Names{"fp32_to_bf16_rne"});
    CHECK(closest_names(std::string(65, 'a'), Names{std::string(64, 'a')}).empty());  // no typo that long
}

TEST_CASE("suggest: one error line, with a suggestion or the names") {
    CHECK(or_list({"a"}) == "a");
    CHECK(or_list({"a", "b"}) == "a or b");
    CHECK(or_list({"a", "b", "c"}) == "a, b or c");
    const Names levels{"quick", "full", "exhaustive"};
    CHECK(unknown_name_line("unknown level 'exhastive'", "exhastive", levels) ==
          "unknown level 'exhastive'; did you mean exhaustive?");
    CHECK(unknown_name_line("unknown level 'medium'", "medium", levels) ==
          "unknown level 'medium'; expected one of: quick, full, exhaustive");
    Names many;
    for (char c = 'a'; c <= 'y'; ++c) many.push_back(std::string(5, c));  // 25 names
    CHECK(unknown_name_line("unknown x 'bbbbc'", "bbbbc", many, "tool list") ==
          "unknown x 'bbbbc'; did you mean bbbbb? (`tool list` lists them)");
    CHECK(unknown_name_line("unknown x 'zzzzz'", "zzzzz", many, "tool list") ==
          "unknown x 'zzzzz'; expected one of the 25 that `tool list` names");
}
