// SPDX-License-Identifier: Apache-2.0
// The mutants carry copies of the reference's grouped encoders (mutant_grouped_common.hpp:
// AbsmaxSteps, the Section 7.2 steps; SearchSteps, grouped_search as oracle/GROUPED.md R3 reads it)
// so that a mutant can replace one step. Unmutated, each copy must equal the oracle on every
// golden case of its suite; otherwise a mutant's kill would say nothing about its one step.
#include <catch2/catch.hpp>
#include <bit>
#include <cstdio>
#include <map>
#include <string>

#include "mutant_grouped_common.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/suites/suites.hpp"

namespace {

using namespace ninfer;
namespace gn = reference::grouped_codec;

/// The golden quant_encode cases of a suite for `method` that the oracle accepts, with their
/// grouped format and binary32 source (through the reference's source conversion, as the
/// mutants take it).
struct EncodeCase {
    const suites::Case *c;
    const oracle::GroupedFormat *f;
    std::uint64_t n, k;
    std::vector<float> x;
    oracle::EncodeResult want;
};

std::vector<EncodeCase> accepted_cases(const std::vector<suites::Case> &cases, std::uint32_t method) {
    std::vector<EncodeCase> out;
    for (const auto &c : cases) {
        if (c.op != NINFER_OP_quant_encode || c.method != method || c.shape.size() != 2) continue;
        const auto *f = oracle::find_id(oracle::kGroupedFormats, c.format);
        if (!f || !f->canonical_encoders || c.layout != f->layout) continue;
        EncodeCase e{&c, f, c.shape[0], c.shape[1], {}, {}};
        if (method == NINFER_ENCODER_grouped_absmax) {
            e.want = oracle::grouped_absmax(*f, c.format_in, e.n, e.k, c.input(NINFER_PLANE_SOURCE));
        } else {
            std::vector<std::uint32_t> imp;
            for (std::size_t i = 0; i + 4 <= c.input(NINFER_PLANE_IMPORTANCE).size(); i += 4)
                imp.push_back(static_cast<std::uint32_t>(suites::get_word(c.input(NINFER_PLANE_IMPORTANCE), i / 4, 4)));
            e.want = oracle::grouped_search(*f, c.format_in, e.n, e.k, c.input(NINFER_PLANE_SOURCE), imp, (c.flags & NINFER_FLAG_NEGATIVE_SCALES) != 0);
        }
        if (e.want.status != NINFER_OK) continue;
        if (gn::source_to_f32(c.format_in, c.input(NINFER_PLANE_SOURCE), e.n * e.k, e.x).status != NINFER_OK) continue;
        out.push_back(std::move(e));
    }
    return out;
}

const std::vector<suites::Case> &golden(const char *suite) {
    static std::map<std::string, std::vector<suites::Case>> cache;
    auto &cases = cache[suite];
    if (cases.empty()) {
        const auto *s = suites::find_suite(suite);
        REQUIRE(s);
        cases = s->golden(suites::Level::exhaustive);
    }
    return cases;
}

}  // namespace

TEST_CASE("the mutants' grouped_absmax copy, unmutated, equals the oracle on every golden grouped.absmax case",
          "[mutants][grouped]") {
    const auto cases = accepted_cases(golden("grouped.absmax"), NINFER_ENCODER_grouped_absmax);
    for (const auto &e : cases) {
        INFO("case " << e.c->id);
        const auto G = static_cast<std::uint64_t>(e.f->group);
        const std::uint64_t gpr = e.k / G + (e.k % G != 0);
        gn::Matrix m{e.n, e.k, std::vector<std::int8_t>(e.n * e.k), std::vector<std::uint16_t>(e.n * gpr)};
        for (std::uint64_t row = 0; row < e.n; ++row)
            for (std::uint64_t grp = 0; grp < gpr; ++grp) {
                const std::uint64_t c0 = grp * G, len = std::min(e.k, c0 + G) - c0;
                REQUIRE(mutants::grouped::absmax_group<mutants::grouped::AbsmaxSteps>(
                    *e.f, e.x.data() + row * e.k + c0, len, m.scales[row * gpr + grp], m.codes.data() + row * e.k + c0));
            }
        CHECK(m.scales == e.want.m.scales);
        CHECK(m.codes == e.want.m.codes);
    }
    std::printf("AbsmaxSteps against the oracle: %zu golden grouped.absmax cases\n", cases.size());
    CHECK(cases.size() >= 100);
}

TEST_CASE("the mutants' grouped_search copy, unmutated, equals the oracle on every golden grouped.search case",
          "[mutants][grouped]") {
    const auto cases = accepted_cases(golden("grouped.search"), NINFER_ENCODER_grouped_search);
    std::size_t weighted = 0, negative = 0;
    for (const auto &e : cases) {
        INFO("case " << e.c->id);
        std::vector<float> imp;
        for (std::size_t i = 0; i + 4 <= e.c->input(NINFER_PLANE_IMPORTANCE).size(); i += 4)
            imp.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(suites::get_word(e.c->input(NINFER_PLANE_IMPORTANCE), i / 4, 4))));
        const bool neg = (e.c->flags & NINFER_FLAG_NEGATIVE_SCALES) != 0;
        weighted += !imp.empty();
        negative += neg;
        // As search_call takes it: the reference's 7.2 result, then SearchSteps group by group.
        gn::Matrix m;
        REQUIRE(gn::absmax(*e.f, e.n, e.k, e.x, m).status == NINFER_OK);
        const auto G = static_cast<std::uint64_t>(e.f->group);
        const std::uint64_t gpr = e.k / G + (e.k % G != 0);
        for (std::uint64_t row = 0; row < e.n; ++row)
            for (std::uint64_t grp = 0; grp < gpr; ++grp) {
                const std::uint64_t c0 = grp * G, len = std::min(e.k, c0 + G) - c0;
                mutants::grouped::search_group<mutants::grouped::SearchSteps>(
                    *e.f, e.x.data() + row * e.k + c0, imp.empty() ? nullptr : imp.data() + c0, len, neg,
                    m.scales[row * gpr + grp], m.codes.data() + row * e.k + c0);
            }
        CHECK(m.scales == e.want.m.scales);
        CHECK(m.codes == e.want.m.codes);
    }
    std::printf("SearchSteps against the oracle: %zu golden grouped.search cases (%zu with importance, %zu with negative scales)\n",
                cases.size(), weighted, negative);
    CHECK(cases.size() >= 20);
}
