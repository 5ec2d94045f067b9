// SPDX-License-Identifier: Apache-2.0
// A family plugs in from its own folder (tests/toy_family/) and its registry row (the test-only
// row `toy` of NINFER_FAMILIES): the catalog lists its rule, its suite generates its case, compare
// judges a right and a wrong reply with its locations and blame, the CLI lists its formats and
// reaches its oracle subcommands, and the reference plugin serves its case.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "families.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/suites/suites.hpp"
#include "reference_family.hpp"
#include "reference_plugin.hpp"
#include "toy_family/toy_family.hpp"

using namespace ninfer;

namespace {

suites::Case the_toy_case() {
    const auto *s = suites::find_suite(toy::kSuite);
    REQUIRE(s != nullptr);
    const auto cases = s->golden(suites::Level::quick);
    REQUIRE(cases.size() == 1);
    return cases[0];
}

harness::Reply reply_with(std::vector<std::uint8_t> payload) {
    harness::Reply r;
    r.outcome = harness::Outcome::returned;
    r.status = NINFER_OK;
    r.outputs.push_back({NINFER_PLANE_PAYLOAD, 0, std::move(payload)});
    return r;
}

}  // namespace

TEST_CASE("catalog: a toy family's rule and suite join the catalog from its folder alone", "[catalog]") {
    REQUIRE(toy::toy_registered());
    const auto *r = suites::find_rule(toy::kRule);
    REQUIRE(r != nullptr);
    CHECK(r->group == "toy");
    CHECK(r->sentence == "A toy payload is copied unchanged.");
    CHECK(suites::rule_catalog().back().id == toy::kRule);  // after every built-in family
    CHECK(suites::suite_catalog().back().name == toy::kSuite);
    const auto c = the_toy_case();
    CHECK(c.id == "toy.copy/copy");
    CHECK(c.expect.output(NINFER_PLANE_PAYLOAD) == toy::kPayload);
    // The catalog is built: a family added now is refused rather than silently missing.
    static const suites::CatalogFamily late{.family = abi::Family::linear};
    CHECK_THROWS_AS(suites::add_catalog_family(late), std::logic_error);
}

TEST_CASE("compare: a toy family's descriptor judges its case, locates and blames", "[catalog][compare]") {
    const auto c = the_toy_case();
    const auto planes = harness::case_planes(c);
    REQUIRE(planes.family != nullptr);
    CHECK(planes.family == &toy::kCompare);
    CHECK(abi::family_name(planes.family->family) == "toy");
    REQUIRE(planes.out.size() == 1);
    CHECK(planes.out[0].label == "payload");

    const auto right = harness::compare_reply(c, reply_with(toy::kPayload), true, 4);
    CHECK(right.status == reports::Status::pass);
    CHECK(right.mismatches == 0);

    auto bad = toy::kPayload;
    bad[2] ^= 0xFF;
    const auto wrong = harness::compare_reply(c, reply_with(bad), true, 4);
    CHECK(wrong.status == reports::Status::fail);
    REQUIRE(wrong.first.size() == 1);
    CHECK(wrong.first[0].location == "toy cell 2");
    CHECK(wrong.first[0].where == reports::Where{.plane = "toy", .element = 2});
    CHECK(wrong.first[0].blame == toy::kBlame);
    CHECK(wrong.first[0].cls == "byte_mismatch");
}

TEST_CASE("cli: a toy family's descriptor lists its formats and serves the oracle subcommands", "[cli][families]") {
    namespace cli = harness::cli;
    REQUIRE(toy::toy_registered());
    CHECK(&cli::cli_family(toy::kFamily) == &toy::kCli);
    CHECK_FALSE(cli::add_cli_family(toy::kCli));  // one descriptor per family
    static auto word_again = toy::kCli;
    word_again.family = abi::Family::word;
    CHECK_FALSE(cli::add_cli_family(word_again));
    CHECK(cli::cli_families().back() == &toy::kCli);  // after every built-in family

    const std::array formats = {abi::kAllFormats[0], toy::kFormats[0], toy::kFormats[1]};
    const auto text = cli::formats_text(formats);
    CHECK(text == std::string(cli::kWordCli.heading) + cli::kWordCli.format_line(formats[0]) +
                      "toy formats:\n  toy toy_a\n  toy toy_b\n");
    const auto rows = cli::formats_json(formats);
    REQUIRE(rows.contains("toy"));
    CHECK(rows.at("toy").size() == 2);
    CHECK(rows.at("toy").at(1).at("name") == "toy_b");
    CHECK(rows.at("toy").at(1).at("toy") == true);
    // the oracle subcommands reach the toy family through the same lookup
    const auto &d = cli::cli_family(formats[1].family);
    CHECK(d.geometry(formats[1], {2, 3}, 1).at("shape") == cli::json({2, 3}));
    CHECK(d.pack(formats[1], {2, 3}, {}).layout == "toy_layout");
}

TEST_CASE("reference: the plugin table serves the toy family's case through its descriptor", "[plugin][families]") {
    REQUIRE(toy::toy_registered());
    CHECK(reference::reference_families().back() == &toy::kReference);  // after every built-in family
    const auto &t = reference::reference_table_v2();
    const auto *caps = t.capabilities;
    CHECK(std::any_of(caps, caps + t.capability_count, [](const ninfer_capability_v2 &c) {
        return c.op == NINFER_OP_rows_select && c.format == toy::kFormat;
    }));
    // The table is built: a family added now is refused rather than missing from its capabilities.
    static const reference::ReferenceFamily late{.family = abi::Family::linear};
    CHECK_THROWS_AS(reference::add_reference_family(late), std::logic_error);

    const auto c = the_toy_case();
    std::vector<std::uint8_t> out(c.expect.output(NINFER_PLANE_PAYLOAD).size() + 8, 0xEE);
    const auto &payload = c.input(NINFER_PLANE_PAYLOAD);
    ninfer_input_plane in[] = {{NINFER_PLANE_PAYLOAD, c.format, payload.data(), payload.size()},
                               {NINFER_PLANE_ROWS, 0, nullptr, 0}};
    ninfer_output_plane o[] = {{NINFER_PLANE_PAYLOAD, c.format, out.data(), out.size(), 0}};
    ninfer_call_v2 call{};
    call.struct_size = sizeof call;
    call.op = c.op;
    call.format = c.format;
    call.rank = static_cast<std::uint32_t>(c.shape.size());
    for (std::size_t d = 0; d < c.shape.size(); ++d) call.shape[d] = c.shape[d];
    call.input_count = 2;
    call.inputs = in;
    call.output_count = 1;
    call.outputs = o;
    ninfer_result_v2 result{};
    result.struct_size = sizeof result;
    REQUIRE(t.ops[NINFER_OP_rows_select - 1](t.self, &call, &result) == NINFER_OK);
    REQUIRE(o[0].written == toy::kPayload.size());
    out.resize(o[0].written);
    CHECK(out == toy::kPayload);
}
