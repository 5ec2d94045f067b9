// SPDX-License-Identifier: Apache-2.0
// The binary framing of the exec protocol (harness/README.md, "Binary framing"): a fixture that
// speaks it and breaks it in every way the harness must survive and name (lying lengths,
// truncated frames, garbage, huge lengths), and iota calls sent as {start, width}.
#include <catch2/catch.hpp>
#include <string>

#include "ninfer/harness/subject.hpp"

using namespace ninfer::harness;
using namespace std::chrono_literals;

namespace {

SubjectOptions options(std::chrono::milliseconds timeout = 10000ms) {
    SubjectOptions o;
    o.call_timeout = timeout;
    return o;
}

std::string bad_binary(const char *mode) { return std::string("python3 ") + NINFER_TEST_BINARY_FIXTURE + " " + mode; }

/// A bf16 decode call on the fixture: the first byte picks the misbehaviour (0 echoes).
Call echo(std::uint8_t trigger) {
    Call c;
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_bf16;
    c.count = 2;
    c.shape = {2};
    c.inputs = {{NINFER_PLANE_WORDS, 0, {trigger, 0x80, 0x3F, 0x00}}};
    c.outputs = {{NINFER_PLANE_VALUES, 0, 4}};
    return c;
}

void check_echoes(Subject &s) {
    Reply r = s.call(echo(0));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_OK);
    CHECK(r.message == "echo");
    CHECK(r.outputs.at(0).bytes == std::vector<std::uint8_t>{0x00, 0x80, 0x3F, 0x00});
}

}  // namespace

TEST_CASE("a subject that chooses binary frames gets raw planes", "[subject][exec][binary]") {
    auto s = open_exec(bad_binary("ok"), options());
    INFO(s->open_error());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().name == "bad-binary");
    CHECK(s->info().abi_version == 2);
    check_echoes(*s);
    // A plane of 2^20 bytes, every byte value, comes back unchanged.
    Call c = echo(0);
    c.count = 1 << 19;
    c.shape = {c.count};
    c.inputs[0].bytes.resize(1 << 20);
    for (std::size_t i = 0; i < c.inputs[0].bytes.size(); ++i) c.inputs[0].bytes[i] = static_cast<std::uint8_t>(i * 7);  // byte 0 is 0: echo
    c.outputs[0].capacity = 1 << 20;
    Reply r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.outputs.at(0).bytes == c.inputs[0].bytes);
}

TEST_CASE("hostile binary frames are reported outcomes and the subject restarts", "[subject][exec][binary][isolation][hostile]") {
    auto s = open_exec(bad_binary("ok"), options(1500ms));
    REQUIRE(s->open_error().empty());
    check_echoes(*s);
    struct Case {
        std::uint8_t trigger;
        Outcome outcome;
        const char *why;
    };
    for (auto k : {Case{1, Outcome::error, "reply frame does not start with \"NFB1\" (its first bytes are 67 61 72 62)"},
                   Case{2, Outcome::error, "reply frame header of 4294967295 bytes, more than 1048576"},
                   Case{3, Outcome::error, "reply frame carries 9223372036854775808 bytes of planes; the call's output capacities total 4"},
                   Case{4, Outcome::error, "more than one reply frame for this call"},
                   Case{5, Outcome::crash, "exited with status 3 during the call (in a reply frame's planes); stderr: bad_binary: exiting inside a frame"},
                   Case{6, Outcome::timeout, "no reply within 1500 ms"},
                   Case{7, Outcome::error, "reply frame does not start with \"NFB1\" (its first bytes are 7b 22 73 74)"},
                   Case{8, Outcome::error, "reply frame header is not JSON"},
                   Case{9, Outcome::error, "reply \"outputs\" names plane \"scales\", not an output plane of the call"},
                   Case{10, Outcome::error, "reply \"outputs\" lists plane \"values\" twice"},
                   Case{11, Outcome::error, "reply \"outputs\" is object, expected an array of [plane, bytes]"},
                   Case{12, Outcome::error, "reply \"status\" 12345 is not a NINFER_* code"},
                   Case{13, Outcome::error, "reply \"outputs.values\" has 5 bytes, capacity 4"},
                   Case{14, Outcome::timeout, "no reply within 1500 ms"},
                   Case{15, Outcome::error, "reply frame carries 4 bytes of planes but its header lists 2"}}) {
        INFO(int(k.trigger));
        Reply r = s->call(echo(k.trigger));
        CHECK(r.outcome == k.outcome);
        CHECK_THAT(r.message, Catch::Contains(k.why));
        CHECK(r.message.find('\n') == std::string::npos);
        check_echoes(*s);
    }
}

TEST_CASE("a hello that chooses a framing it cannot have is a one-line open error", "[subject][exec][binary][load]") {
    struct Case {
        const char *mode, *why;
    };
    for (auto k : {Case{"badframing", "hello reply \"framing\" is \"xml\", expected \"lines\" or \"binary\""},
                   Case{"v1binary", "hello reply chooses \"framing\": \"binary\", which needs \"abi\": 2"},
                   Case{"iotalines", "hello reply asks for \"iota\": true, which needs \"framing\": \"binary\""}}) {
        INFO(k.mode);
        auto s = open_exec(bad_binary(k.mode), options());
        CHECK_THAT(s->open_error(), Catch::StartsWith("exec `" + bad_binary(k.mode) + "`: ") && Catch::Contains(k.why));
        CHECK(s->call(echo(0)).outcome == Outcome::error);
    }
}

TEST_CASE("iota calls travel as {start, width} to a binary subject that asks for them", "[subject][exec][binary][iota]") {
    Call c = echo(0);
    c.inputs[0].bytes.clear();
    c.iota = Iota{0x3F80, 2};
    c.count = 3;
    c.shape = {3};
    c.outputs[0].capacity = 24;
    auto s = open_exec(bad_binary("iota"), options());
    REQUIRE(s->open_error().empty());
    Reply r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.message == "iota 16256 2 3 words=0");  // nothing sent for the words plane
    r = s->call(echo(0));
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.message == "words words=4");  // an ordinary call still sends its words
    // A binary subject that did not ask for iota gets the words, raw.
    auto plain = open_exec(bad_binary("ok"), options());
    REQUIRE(plain->open_error().empty());
    r = plain->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.outputs.at(0).bytes == std::vector<std::uint8_t>{0x80, 0x3F, 0x81, 0x3F, 0x82, 0x3F});
}

TEST_CASE("a reply frame's malformed byte count is named with what was expected", "[subject][exec][binary][hostile]") {
    auto s = open_exec(bad_binary("ok"), options());
    REQUIRE(s->open_error().empty());
    struct Case {
        std::uint8_t trigger;
        const char *why;
    };
    for (auto k : {Case{16, "reply \"outputs\": the byte count of plane \"values\" is -1, expected a non-negative integer"},
                   Case{17, "reply \"outputs\": the byte count of plane \"values\" is 4.0, expected a non-negative integer"},
                   Case{18, "reply \"outputs\": the byte count of plane \"values\" is string, expected a non-negative integer"},
                   Case{19, "reply \"outputs\" entry 0 is an array of 1, expected a [plane name, byte count] pair"}}) {
        INFO(int(k.trigger));
        Reply r = s->call(echo(k.trigger));
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains(k.why));
        CHECK(r.message.find("holds") == std::string::npos);
        check_echoes(*s);
    }
}
