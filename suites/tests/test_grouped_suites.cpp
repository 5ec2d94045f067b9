// SPDX-License-Identifier: Apache-2.0
// The grouped suites (suites/src/grouped/) and rules (rules_grouped.cpp): ids unique,
// every case names a catalog rule, every grouped rule has a case, levels cumulative, golden and
// seeded cases deterministic, and the boundary cases really sit on the boundary they claim.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer::suites;
using namespace ninfer::oracle;

namespace {

const std::vector<Suite> &suites() {
    static const std::vector<Suite> s = grouped_suites();
    return s;
}

std::vector<Case> all_golden(Level level) {
    std::vector<Case> out;
    for (const auto &s : suites())
        for (auto &c : s.golden(level)) out.push_back(std::move(c));
    return out;
}

/// The bytes of a case's first input plane and first expected output plane (empty when absent).
[[maybe_unused]] const std::vector<std::uint8_t> &first_input(const Case &c) {
    return ninfer::suites::plane_bytes(c.inputs, c.inputs.empty() ? 0 : c.inputs[0].name);
}
[[maybe_unused]] const std::vector<std::uint8_t> &first_output(const Case &c) {
    return ninfer::suites::plane_bytes(c.expect.outputs, c.expect.outputs.empty() ? 0 : c.expect.outputs[0].name);
}

bool same_case(const Case &a, const Case &b) {
    return a.id == b.id && a.rule == b.rule && a.level == b.level && a.op == b.op && a.format == b.format &&
           a.format_in == b.format_in && a.layout == b.layout && a.method == b.method && a.flags == b.flags &&
           a.shape == b.shape && a.count == b.count && a.inputs == b.inputs &&
           a.expect.status == b.expect.status && a.expect.detail == b.expect.detail && a.expect.outputs == b.expect.outputs && a.suite_reading == b.suite_reading;
}

const Case *find_case(const std::vector<Case> &cases, const std::string &id) {
    for (const auto &c : cases)
        if (c.id == id) return &c;
    return nullptr;
}

}  // namespace

TEST_CASE("grouped rules: ids unique, family prefix, section and sentence", "[grouped][rules]") {
    std::set<std::string> ids;
    for (const auto &r : grouped_rules()) {
        INFO(r.id);
        CHECK(ids.insert(r.id).second);
        CHECK(r.id.rfind(r.group + ".", 0) == 0);
        CHECK((r.group == "grouped" || r.group == "row_split"));
        CHECK(!r.section.empty());
        CHECK(r.sentence.size() > 30);
        CHECK((r.sentence.find("Suite reading") != std::string::npos) == r.suite_reading);
    }
    for (const auto &f : kGroupedFormats) CHECK(ids.count("grouped.code." + std::string(f.name)));
    CHECK_THAT(find_rule("grouped.absmax.denominator_qmax")->sentence, Catch::Contains("qmax, not abs(qmin), is the scale denominator"));
    CHECK_THAT(find_rule("grouped.code.q8_g32_fp16")->sentence, Catch::Contains("[-127, 127]"));
    CHECK(find_rule("row_split.two_bit_packing")->suite_reading);
    CHECK_FALSE(find_rule("row_split.nibble_order")->suite_reading);
}

TEST_CASE("grouped cases: unique ids, catalog rules, every grouped rule covered", "[grouped][suites]") {
    const auto cases = all_golden(Level::exhaustive);
    std::map<std::string, std::size_t> per_suite;
    for (const auto &s : suites()) per_suite[s.name] = s.golden(Level::exhaustive).size();
    CHECK(per_suite.size() == 4);
    for (const auto &[name, n] : per_suite) {
        INFO(name);
        CHECK(n > 50);
    }
    std::set<std::string> ids, rules;
    for (const auto &c : cases) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(c.id.rfind(c.rule + "/", 0) == 0);
        REQUIRE(find_rule(c.rule) != nullptr);
        rules.insert(c.rule);
        CHECK(c.op >= NINFER_OP_layout_encode);
        CHECK(c.shape.size() == 2);
        if (c.expect.status != NINFER_OK) CHECK(first_output(c).empty());
        if (c.expect.status == NINFER_OK && c.op != NINFER_OP_payload_validate) CHECK(!first_output(c).empty());
    }
    for (const auto &r : grouped_rules()) {
        INFO("rule without a case: " << r.id);
        CHECK(rules.count(r.id) == 1);
    }
    CHECK(rules.count("layout.registry.unregistered_pair") == 1);
}

TEST_CASE("grouped cases: levels are cumulative and golden cases deterministic", "[grouped][suites]") {
    for (const auto &s : suites()) {
        INFO(s.name);
        const auto quick = s.golden(Level::quick), full = s.golden(Level::full), ex = s.golden(Level::exhaustive);
        CHECK(quick.size() <= full.size());
        CHECK(full.size() <= ex.size());
        for (const auto &c : quick) CHECK(c.level == Level::quick);
        // A second generator instance (fresh cache) yields the same cases, byte for byte.
        const auto again = grouped_suites();
        const Suite *twin = nullptr;
        for (const auto &t : again)
            if (t.name == s.name) twin = &t;
        REQUIRE(twin != nullptr);
        const auto ex2 = twin->golden(Level::exhaustive);
        REQUIRE(ex2.size() == ex.size());
        for (std::size_t i = 0; i < ex.size(); ++i) CHECK(same_case(ex[i], ex2[i]));
    }
}

TEST_CASE("grouped random cases: none at quick, deterministic per seed, seed matters", "[grouped][suites]") {
    for (const auto &s : suites()) {
        INFO(s.name);
        CHECK(s.random(kDefaultSeed, Level::quick).empty());
        const auto a = s.random(kDefaultSeed, Level::full), b = s.random(kDefaultSeed, Level::full);
        const auto c = s.random(kDefaultSeed + 1, Level::full);
        REQUIRE(!a.empty());
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(same_case(a[i], b[i]));
        bool differs = a.size() != c.size();
        for (std::size_t i = 0; !differs && i < a.size(); ++i) differs = !same_case(a[i], c[i]);
        CHECK(differs);
        for (const auto &x : a) CHECK(find_rule(x.rule) != nullptr);
    }
}

TEST_CASE("grouped cases: the boundaries they claim", "[grouped][suites]") {
    const auto cases = all_golden(Level::quick);
    // storage-layouts.md Section 3 worked example: q5 [2,130] is 528 bytes.
    const Case *q5 = find_case(cases, "row_split.geometry/q5_g64_fp16.2x130");
    REQUIRE(q5 != nullptr);
    CHECK(first_output(*q5).size() == 528);
    // Q8: the illegal word is refused, with the detail that names it.
    const Case *illegal = find_case(cases, "grouped.code.q8_0x80_illegal/word_80.lane3");
    REQUIRE(illegal != nullptr);
    CHECK(illegal->expect.status == NINFER_E_INVALID_PAYLOAD);
    CHECK(illegal->expect.detail == NINFER_DETAIL_ILLEGAL_CODE);
    // T2 0b10 likewise; Q2 -0 scale valid, grouped -0 refused.
    const Case *t2 = find_case(cases, "grouped.code.t2_0b10_illegal/word_2.lane3");
    REQUIRE(t2 != nullptr);
    CHECK(t2->expect.detail == NINFER_DETAIL_ILLEGAL_CODE);
    const Case *q2neg0 = find_case(cases, "grouped.scale.q2/q2_g64_fp16.scale_8000.validate");
    REQUIRE(q2neg0 != nullptr);
    CHECK(q2neg0->expect.status == NINFER_OK);
    const Case *q4neg0 = find_case(cases, "grouped.scale.validity/q4_g64_fp16.scale_8000.validate");
    REQUIRE(q4neg0 != nullptr);
    CHECK(q4neg0->expect.detail == NINFER_DETAIL_INVALID_SCALE);
    // Every reciprocal-multiply case exists for each canonical format.
    for (const auto &f : kGroupedFormats) {
        if (!f.canonical_encoders) continue;
        bool found = false;
        for (const auto &c : cases) found = found || (c.rule == "grouped.absmax.reciprocal_multiply" && c.format == f.id);
        CHECK(found);
    }
    // The Q8 clamp case: -127.5 * 2^-24 under scale 2^-24 stores -127 (0x81), never 0x80.
    const Case *q8 = find_case(cases, "grouped.code.q8_never_emitted/half_past_qmin");
    REQUIRE(q8 != nullptr);
    REQUIRE(q8->expect.status == NINFER_OK);
    CHECK(first_output(*q8)[2] == 0x81);
    CHECK(first_output(*q8)[0] == 0x7F);
    // The scale overflow boundary: raw 65520 fails, one binary32 step below stores 0x7BFF.
    const Case *over = find_case(cases, "grouped.absmax.scale_overflow/q4_g64_fp16.raw_65520");
    const Case *below = find_case(cases, "grouped.absmax.scale_overflow/q4_g64_fp16.raw_65520_below");
    REQUIRE(over != nullptr);
    REQUIRE(below != nullptr);
    CHECK(over->expect.status == NINFER_E_SCALE_OVERFLOW);
    CHECK(below->expect.status == NINFER_OK);
    // The refusal of q2 and t2 by both encoders.
    CHECK(find_case(cases, "grouped.absmax.refuses_q2_t2/q2_g64_fp16.grouped_search")->expect.status == NINFER_E_METHOD);
    CHECK(find_case(cases, "grouped.absmax.refuses_q2_t2/t2_g128_fp16.grouped_absmax")->expect.status == NINFER_E_METHOD);
    // Accepted search cases, 2-bit row_split cases and cases of reading rules are flagged as readings;
    // a grouped_absmax result of q4 never is.
    for (const auto &c : cases) {
        INFO(c.id);
        if (c.method == NINFER_ENCODER_grouped_search && c.expect.status == NINFER_OK) CHECK(c.suite_reading);
        if (find_rule(c.rule)->suite_reading) CHECK(c.suite_reading);
        if (c.format == NINFER_FORMAT_t2_g128_fp16 && c.expect.status != NINFER_E_LAYOUT) CHECK(c.suite_reading);
        if (c.format == NINFER_FORMAT_q4_g64_fp16 && c.method == NINFER_ENCODER_grouped_absmax) CHECK_FALSE(c.suite_reading);
    }
}

// ---- Blind spots of issue 7: inputs the suite never offered ------------------------------------

TEST_CASE("grouped suites: refusals offered at every decode boundary (issue 7)", "[grouped][cases]") {
    const auto cases = all_golden(Level::full);
    std::set<std::string> seen;
    for (const auto &c : cases) {
        const auto *f = find_id(kGroupedFormats, c.format);
        if (!f) continue;
        // quant_decode of an invalid payload (illegal word, invalid scale, padding) is refused.
        if (c.op == NINFER_OP_quant_decode && c.expect.status == NINFER_E_INVALID_PAYLOAD) seen.insert("quant_decode_refused." + std::string(f->name));
        // layout_encode of a code outside [qmin, qmax] is refused.
        if (c.op == NINFER_OP_layout_encode && c.expect.status == NINFER_E_INVALID_ARGUMENT) {
            bool outside = false;
            for (const auto b : first_input(c)) outside = outside || static_cast<std::int8_t>(b) < f->qmin || static_cast<std::int8_t>(b) > f->qmax;
            if (outside) seen.insert("encode_out_of_range." + std::string(f->name));
        }
        // Empty selections are refused.
        if (c.op == NINFER_OP_rows_select && c.expect.status == NINFER_E_INVALID_ARGUMENT) {
            if ((c.flags & NINFER_FLAG_GATHER) && c.input(NINFER_PLANE_ROWS).empty()) seen.insert("empty_gather");
            if (!(c.flags & NINFER_FLAG_GATHER) && c.input(NINFER_PLANE_ROWS).size() == 16 && get_word(c.input(NINFER_PLANE_ROWS), 1, 8) == 0) seen.insert("zero_row_slice");
        }
    }
    for (const auto &f : kGroupedFormats) {
        CHECK(seen.count("quant_decode_refused." + std::string(f.name)));
        CHECK(seen.count("encode_out_of_range." + std::string(f.name)));
    }
    CHECK(seen.count("empty_gather"));
    CHECK(seen.count("zero_row_slice"));
    // The illegal words themselves reach layout_encode as codes: q8 -128 and t2 -2.
    CHECK(find_case(cases, "grouped.code.q8_0x80_illegal/code_m128.layout_encode"));
    CHECK(find_case(cases, "grouped.code.t2_0b10_illegal/code_m2.layout_encode"));
}

TEST_CASE("grouped suites: high-plane-only codes in padding and zero-scale groups are refused (issue 7)", "[grouped][cases]") {
    const auto cases = all_golden(Level::quick);
    for (const auto &f : kGroupedFormats) {
        if (!f.high_bytes) continue;
        std::vector<int> want = f.code_bits == 5 ? std::vector<int>{-16} : std::vector<int>{-32, -16, 16};
        for (const int q : want) {
            const std::uint32_t w = grouped_code_word(f, q);
            INFO(f.name << " code " << q);
            CHECK((w & 0xFu) == 0);  // the base nibble is zero: only the high plane carries the code
            std::size_t padding = 0, zero_group = 0;
            for (const auto &c : cases) {
                if (c.format != f.id || c.op != NINFER_OP_payload_validate || c.expect.status != NINFER_E_INVALID_PAYLOAD) continue;
                if (c.id.find("high_only_" + ninfer::abi::hex_word(w, 2)) == std::string::npos) continue;
                if (c.rule == "row_split.padding" && c.expect.detail == NINFER_DETAIL_NONZERO_PADDING) ++padding;
                if (c.rule == "grouped.scale.zero_group_codes" && c.expect.detail == NINFER_DETAIL_ZERO_SCALE_CODES) ++zero_group;
            }
            CHECK(padding >= 1);
            CHECK(zero_group >= 1);
        }
    }
}

TEST_CASE("grouped suites: grouped_search ties of amax sign and of equal error (issue 7)", "[grouped][cases]") {
    const auto cases = all_golden(Level::quick);
    std::size_t amax_ties = 0, equal_error = 0;
    for (const auto &c : cases) {
        if (c.op != NINFER_OP_quant_encode || c.method != NINFER_ENCODER_grouped_search) continue;
        const auto *f = find_id(kGroupedFormats, c.format);
        const std::uint64_t k = c.shape[1], G = static_cast<std::uint64_t>(f->group);
        for (std::uint64_t r = 0; r < c.shape[0]; ++r)
            for (std::uint64_t g0 = 0; g0 < k; g0 += G) {
                std::uint32_t amax = 0;
                bool plus = false, minus = false;
                for (std::uint64_t i = g0; i < std::min(k, g0 + G); ++i) amax = std::max(amax, static_cast<std::uint32_t>(get_word(first_input(c), r * k + i, 4)) & 0x7FFFFFFFu);
                for (std::uint64_t i = g0; i < std::min(k, g0 + G); ++i) {
                    const auto w = static_cast<std::uint32_t>(get_word(first_input(c), r * k + i, 4));
                    if ((w & 0x7FFFFFFFu) == amax && amax) (w >> 31 ? minus : plus) = true;
                }
                if (plus && minus) ++amax_ties;
            }
        if (c.rule == "grouped.search.strict_improvement" && c.id.find("equal_error") != std::string::npos) {
            // amax / qmax is the binary16 midpoint 1 + 2^-11: 0x3C00 (kept) and 0x3C01 leave equal errors.
            const auto x0 = static_cast<std::uint32_t>(get_word(first_input(c), 0, 4));
            const auto t = grouped_absmax_group(*f, std::vector<std::uint32_t>{x0});
            CHECK(t.raw_scale32 == 0x3F801000u);  // 1 + 2^-11
            CHECK(t.scale16 == 0x3C00);
            CHECK(get_word(first_output(c), row_split_geometry(*f, 1, k)->scale_offset / 2, 2) == 0x3C00);
            ++equal_error;
        }
    }
    CHECK(amax_ties >= 4 * 4);
    CHECK(equal_error >= 8);
}
