// SPDX-License-Identifier: Apache-2.0
// The scalar rule catalog: one rule per registry entry, each with a section and a sentence, and
// suite readings marked as such (suites/src/rules_scalar.cpp).
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rules.hpp"

using namespace ninfer::suites;
using namespace ninfer::oracle;

TEST_CASE("scalar rules: one per format, role, conversion and layout aspect", "[rules]") {
    const auto rules = scalar_rules();
    // + the NaN payload profiles of the conversions that have one (suites/nan_principle.hpp)
    std::size_t profiles = 0;
    for (const auto &c : kConversions) profiles += nan_principle(c).payload_profile ? 1 : 0;
    CHECK(profiles == 4);
    CHECK(rules.size() == 2 * kWordFormats.size() + kRoles.size() + kConversions.size() + profiles + 5);
    std::set<std::string> ids;
    for (const auto &r : rules) CHECK(ids.insert(r.id).second);
    for (const auto &f : kWordFormats) {
        CHECK(ids.count("decode." + std::string(f.name)));
        CHECK(ids.count("classify." + std::string(f.name)));
    }
    for (const auto &r : kRoles) CHECK(ids.count("validity." + std::string(r.name)));
    for (const auto &c : kConversions) CHECK(ids.count("convert." + std::string(c.name)));
    for (const char *id : {"layout.contiguous_le_v1.words", "layout.contiguous_le_v1.size",
                           "layout.contiguous_le_v1.overflow", "layout.contiguous_le_v1.cross_type",
                           "layout.registry.unregistered_pair"})
        CHECK(ids.count(id));
}

TEST_CASE("scalar rules: family, section and sentence of every rule", "[rules]") {
    for (const auto &r : scalar_rules()) {
        INFO(r.id);
        CHECK(r.id.rfind(r.family + ".", 0) == 0);
        CHECK(!r.section.empty());
        CHECK(r.sentence.size() > 40);
        // A suite reading says so in its sentence; a plain rule never claims one.
        CHECK((r.sentence.find("Suite reading") != std::string::npos) == r.suite_reading);
    }
}

TEST_CASE("scalar rules: the sentences quote the spec where it has one", "[rules]") {
    const auto sentence = [](const char *id) { return find_rule(id)->sentence; };
    CHECK_THAT(sentence("convert.fp32_to_bf16_rne"),
               Catch::Contains("1.00390625 is exactly halfway between 1.0 and 1.0078125"));
    CHECK(find_rule("convert.fp32_to_bf16_rne")->section == "lesson Example 5");
    CHECK_THAT(sentence("convert.fp32_to_fp16_rne"), Catch::Contains("such as 65520, rounds to infinity (0x7C00)"));
    CHECK_THAT(sentence("convert.fp32_to_e4m3fn_rne_satfinite"), Catch::Contains("It saturates to 448"));
    CHECK_THAT(sentence("convert.fp32_to_ue4m3_rnu_satfinite"), Catch::Contains("rounds half up rather than to even"));
    CHECK_THAT(sentence("validity.grouped_fp16_scale"),
               Catch::Contains("Negative zero, positive or negative infinity, and every NaN are invalid."));
    CHECK_THAT(sentence("validity.nvfp4_e4m3_scale"), Catch::Contains("Negative values, negative zero, and both NaN words are invalid."));
    CHECK_THAT(sentence("classify.bf16"), Catch::Contains("exponent 255 and nonzero fraction: NaN"));
    CHECK_THAT(sentence("decode.e4m3fn"), Catch::Contains("e == 15, m == 7: NaN"));
    CHECK_THAT(sentence("layout.registry.unregistered_pair"), Catch::Contains("refused, by name, before any byte is"));
    // The readings the suite makes, not the spec.
    for (const char *id : {"convert.fp32_to_ue4m3_rnu_satfinite", "convert.fp32_to_e8m0_rtz_satfinite",
                           "convert.fp32_to_e8m0_rup_satfinite", "decode.ue4m3", "decode.e8m0"})
        CHECK(find_rule(id)->suite_reading);
    CHECK_FALSE(find_rule("convert.fp32_to_bf16_rne")->suite_reading);
}

TEST_CASE("rule catalog holds the scalar rules and finds them by id", "[rules]") {
    const auto &all = rule_catalog();
    for (const auto &r : scalar_rules()) {
        const Rule *found = find_rule(r.id);
        REQUIRE(found != nullptr);
        CHECK(found->sentence == r.sentence);
    }
    CHECK(all.size() >= scalar_rules().size());
    CHECK(find_rule("convert.fp32_to_bf16_rnd") == nullptr);
}
