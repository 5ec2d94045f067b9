// SPDX-License-Identifier: Apache-2.0
// A raised signal is a crash (issue 36, item 3; harness/README.md, "Isolation"): the worker's
// guard-page handler explains a fault at a guard page and nothing else; a fatal signal the plugin
// raises, sends itself, leaves pending or hides behind an action of its own ends the call as a
// crash, and the next call is served by a fresh worker. Fixture: fixtures/raise_signal.c.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/subject.hpp"

using namespace ninfer::harness;
using namespace std::chrono_literals;

namespace {

SubjectOptions options() {
    SubjectOptions o;
    o.worker_executable = NINFER_TEST_WORKER;
    o.call_timeout = 5000ms;
    return o;
}

Call decode_bf16(std::uint16_t word) {
    Call c;
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_bf16;
    c.shape = {1};
    c.count = 1;
    c.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
    ninfer::abi::append_le(c.inputs[0].bytes, word, 2);
    c.outputs = {{NINFER_PLANE_VALUES, 0, 8}};
    return c;
}

}  // namespace

TEST_CASE("a fatal signal the plugin raises, sends, blocks or hides ends the call as a crash", "[subject][plugin][isolation]") {
    struct Case {
        std::uint16_t word;
        const char *what, *says;
    };
    // The words of fixtures/raise_signal.c, each with the signal the crash message must name.
    const Case cases[] = {
        {0xDE01, "raise(SIGSEGV)", "killed by SIGSEGV"},
        {0xDE02, "raise(SIGBUS)", "killed by SIGBUS"},
        {0xDE03, "raise(SIGFPE)", "killed by SIGFPE"},
        {0xDE04, "raise(SIGILL)", "killed by SIGILL"},
        {0xDE05, "raise(SIGABRT)", "killed by SIGABRT"},
        {0xDE06, "kill(getpid(), SIGSEGV)", "killed by SIGSEGV"},
        {0xDE07, "SIGSEGV blocked, then raised", "left pending (blocked) SIGSEGV"},
        {0xDE08, "SIGSEGV ignored, then raised", "replaced the action of SIGSEGV"},
        {0xDE09, "a handler of its own, then raise(SIGBUS)", "replaced the action of SIGBUS"},
        {0xDE0A, "a write to a read-only page that is no guard page", "killed by SIGSEGV"},
    };
    auto s = open_plugin(std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_raise_signal.so", options());
    REQUIRE(s->open_error().empty());
    for (const auto &k : cases) {
        INFO(k.what);
        Reply r = s->call(decode_bf16(k.word));
        INFO(r.message);
        CHECK(r.outcome == Outcome::crash);
        CHECK_THAT(r.message, Catch::Contains(k.says));
        // A raised signal is never explained as a write past a buffer.
        CHECK_THAT(r.message, !Catch::Contains("past the end"));
        // the next call: a fresh worker, served
        Reply ok = s->call(decode_bf16(0x3F80));
        CHECK(ok.outcome == Outcome::returned);
    }
}
