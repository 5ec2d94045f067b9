// SPDX-License-Identifier: Apache-2.0
// Operator cases in the vector file format, version 3 (vectors/README.md): a case's compute
// profile, planes with their own element format, and the per-element acceptance Expect::accept.
#include <catch2/catch.hpp>

#include <string>

#include "ninfer/vectors/vectors.hpp"

using namespace ninfer;
using vectors::case_from_line;
using vectors::case_to_line;
using vectors::VectorError;

namespace {

/// A linear case: fp32 weight [2,1], one bf16 activation row, fp32 output, profile f32_accumulate.
/// Its rule is one of the catalog's since issue 6 (the reader checks that a rule exists, not
/// which op it judges): the file format is the same for every rule, and the test does not
/// depend on the linear suites' rules.
suites::Case linear_case() {
    suites::Case c = suites::base_case("layout.registry.unregistered_pair", "linear_pinned", suites::Level::quick, "boundary");
    c.op = NINFER_OP_linear;
    c.format = NINFER_FORMAT_fp32;
    c.layout = NINFER_LAYOUT_contiguous_le_v1;
    c.profile = NINFER_PROFILE_f32_accumulate;
    c.shape = {2, 1};
    c.count = 1;
    suites::put_word(c.input(NINFER_PLANE_PAYLOAD), 0x3F800000, 4);
    suites::put_word(c.input(NINFER_PLANE_PAYLOAD), 0xC0000000, 4);
    c.inputs.push_back({NINFER_PLANE_ACTIVATION, NINFER_FORMAT_bf16, {}});
    suites::put_word(c.input(NINFER_PLANE_ACTIVATION), 0x3F80, 2);
    c.expect.outputs.push_back({NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, {}});
    suites::put_word(c.expect.output(NINFER_PLANE_OUTPUT), 0x3F800000, 4);
    suites::put_word(c.expect.output(NINFER_PLANE_OUTPUT), 0xC0000000, 4);
    // Element 0: [1 - ulp, 1 + ulp]; element 1: exactly -2 bit for bit, or any NaN.
    for (std::uint64_t w : {0x3F7FFFFFull, 0x3F800001ull}) suites::put_word(c.expect.accept, w, 4);
    c.expect.accept.push_back(0);
    for (std::uint64_t w : {0xC0000000ull, 0xC0000000ull}) suites::put_word(c.expect.accept, w, 4);
    c.expect.accept.push_back(suites::kAcceptBits | suites::kAcceptNan);
    return c;
}

std::string replace_once(std::string s, const std::string &from, const std::string &to) {
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

std::string parse_error(const std::string &line) {
    try {
        case_from_line(line, "f.jsonl:2");
    } catch (const VectorError &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("an operator case's line is pinned: profile, plane formats, accept", "[vectors][format][linear]") {
    const auto line = case_to_line(linear_case());
    CHECK(line ==
          R"({"id":"layout.registry.unregistered_pair/linear_pinned","rule":"layout.registry.unregistered_pair",)"
          R"("level":"quick",)"
          R"("source":"boundary","suite_reading":false,"op":"linear","format":"fp32","format_in":null,)"
          R"("layout":"contiguous_le_v1","method":null,"flags":0,"shape":[2,1],"count":1,"profile":"f32_accumulate",)"
          R"("inputs":{"payload":"0000803f000000c0","activation":{"format":"bf16","bytes":"803f"}},)"
          R"("expect":{"status":"ok","detail":0,"outputs":{"output":{"format":"fp32","bytes":"0000803f000000c0"}},)"
          R"("accept":[["3f7fffff","3f800001",0],["c0000000","c0000000",3]]},"nan":"exact"})");
}

TEST_CASE("an operator case round-trips: profile, plane formats and accept", "[vectors][roundtrip][linear]") {
    const auto c = linear_case();
    const auto back = case_from_line(case_to_line(c), "f.jsonl:2");
    CHECK(back.profile == NINFER_PROFILE_f32_accumulate);
    CHECK(back.inputs == c.inputs);
    REQUIRE(suites::find_plane(back.inputs, NINFER_PLANE_ACTIVATION));
    CHECK(suites::find_plane(back.inputs, NINFER_PLANE_ACTIVATION)->format == NINFER_FORMAT_bf16);
    CHECK(back.expect.outputs == c.expect.outputs);
    CHECK(suites::find_plane(back.expect.outputs, NINFER_PLANE_OUTPUT)->format == NINFER_FORMAT_fp32);
    CHECK(back.expect.accept == c.expect.accept);
    CHECK(case_to_line(back) == case_to_line(c));

    // A refusal: an empty OUTPUT plane that still carries the output format, no accept.
    auto refused = c;
    refused.expect.status = NINFER_E_UNSUPPORTED;
    refused.expect.output(NINFER_PLANE_OUTPUT).clear();
    refused.expect.accept.clear();
    const auto line = case_to_line(refused);
    CHECK(line.find(R"("outputs":{"output":{"format":"fp32","bytes":""}},"accept":[])") != std::string::npos);
    const auto rb = case_from_line(line, "f.jsonl:2");
    CHECK(rb.expect.outputs == refused.expect.outputs);
    CHECK(rb.expect.accept.empty());
}

TEST_CASE("the reader refuses a malformed profile, plane format or accept in one line", "[vectors][linear]") {
    const auto good = case_to_line(linear_case());
    const auto check = [](const std::string &msg, const std::string &what) {
        INFO(msg);
        CHECK(msg.find('\n') == std::string::npos);
        CHECK(msg.rfind("f.jsonl:2: ", 0) == 0);
        CHECK(msg.find(what) != std::string::npos);
    };
    check(parse_error(replace_once(good, "\"profile\":\"f32_accumulate\",", "")), "missing key \"profile\"");
    check(parse_error(replace_once(good, "\"f32_accumulate\"", "\"f64_magic\"")),
          "unknown profile \"f64_magic\" (expected a compute profile of the registry or null)");
    check(parse_error(replace_once(good, "{\"format\":\"bf16\"", "{\"format\":\"bf17\"")),
          "key \"inputs.activation.format\": unknown format \"bf17\"");
    check(parse_error(replace_once(good, "\"bytes\":\"803f\"", "\"bytes\":\"803f\",\"x\":1")),
          "unknown key \"inputs.activation.x\"");
    check(parse_error(replace_once(good, ",\"accept\":[[\"3f7fffff\",\"3f800001\",0],[\"c0000000\",\"c0000000\",3]]", "")),
          "missing key \"expect.accept\"");
    check(parse_error(replace_once(good, "[\"c0000000\",\"c0000000\",3]", "[\"c0000000\",\"c0000000\",4]")),
          "key \"expect.accept[1]\": flags");
    check(parse_error(replace_once(good, ",[\"c0000000\",\"c0000000\",3]", "")),
          "key \"expect.accept\": 1 entries where the expected output holds 2 words");
    check(parse_error(replace_once(good, "\"3f7fffff\"", "\"3f7fff\"")), "key \"expect.accept[0].lo\"[0]: bad hex");
    check(parse_error(replace_once(good, "{\"output\":{\"format\":\"fp32\",\"bytes\":\"0000803f000000c0\"}}",
                                   "{\"output\":\"0000803f000000c0\"}")),
          "key \"expect.accept\": needs an expected output plane with a word format");
}
