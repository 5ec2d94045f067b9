// SPDX-License-Identifier: Apache-2.0
// Plugins in the isolated worker (harness/README.md, "Isolation"): the minimal example plugin
// round trip, iota calls, and every misbehaving fixture turned into an Outcome while the
// subject keeps serving later calls. Expected words are derived by hand from the bf16 and
// binary64 encodings, not taken from a plugin.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <thread>

#include "isolation_support.hpp"
#include "ninfer/harness/subject.hpp"

using namespace ninfer::harness;
using namespace std::chrono_literals;
using ninfer::harness::test::pid_in;
using ninfer::harness::test::process_gone;
using ninfer::harness::test::safe_text;

namespace {

SubjectOptions options(std::chrono::milliseconds timeout = 5000ms) {
    SubjectOptions o;
    o.worker_executable = NINFER_TEST_WORKER;
    o.call_timeout = timeout;
#ifndef NINFER_SANITIZED  // ASan's shadow memory exceeds any RLIMIT_AS: no limit under it
    o.memory_limit_bytes = 2ull << 30;
#endif
    return o;
}

std::string plugin(const char *name) { return std::string(NINFER_TEST_PLUGIN_DIR) + "/" + name + ".so"; }

Call decode_bf16(const std::vector<std::uint16_t> &words) {
    Call c;
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_bf16;
    c.shape = {words.size()};
    c.count = words.size();
    for (auto w : words) {
        c.in.push_back(static_cast<std::uint8_t>(w));
        c.in.push_back(static_cast<std::uint8_t>(w >> 8));
    }
    c.out_capacity[0] = 8 * words.size();
    return c;
}

Call bf16_to_fp32(const std::vector<std::uint16_t> &words) {
    Call c = decode_bf16(words);
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_fp32;
    c.format_in = NINFER_FORMAT_bf16;
    c.method = NINFER_CONVERSION_bf16_to_fp32;
    c.out_capacity[0] = 4 * words.size();
    return c;
}

std::uint64_t word_at(const std::vector<std::uint8_t> &bytes, std::size_t i, int width) {
    std::uint64_t w = 0;
    for (int b = 0; b < width; ++b) w |= static_cast<std::uint64_t>(bytes.at(i * width + b)) << (8 * b);
    return w;
}

/// One good call: 1.0 decodes to the binary64 word of 1.0.
void check_serves(Subject &s) {
    Reply r = s.call(decode_bf16({0x3F80}));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_OK);
    REQUIRE(r.out[0].size() == 8);
    CHECK(word_at(r.out[0], 0, 8) == 0x3FF0000000000000ull);
}

bool no_children_left() {
    int st;
    return ::waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD;
}

}  // namespace

TEST_CASE("the minimal C plugin decodes and converts bf16 in the worker", "[subject][plugin]") {
    auto s = open_plugin(plugin("minimal_plugin"), options());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().name == "minimal");
    CHECK(s->info().version == "1.0");
    CHECK(s->info().abi_version == NINFER_ABI_VERSION);
    REQUIRE(s->info().capabilities.size() == 2);
    CHECK(covers(s->info().capabilities, NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, 0,
                 NINFER_CONVERSION_bf16_to_fp32));

    // 1.0, -2.0, +0, -0, +Inf, a negative NaN with fraction 0x41, the least subnormal 2^-133.
    Reply r = s->call(decode_bf16({0x3F80, 0xC000, 0x0000, 0x8000, 0x7F80, 0xFFC1, 0x0001}));
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.status == NINFER_OK);
    REQUIRE(r.out[0].size() == 56);
    CHECK(word_at(r.out[0], 0, 8) == 0x3FF0000000000000ull);
    CHECK(word_at(r.out[0], 1, 8) == 0xC000000000000000ull);
    CHECK(word_at(r.out[0], 2, 8) == 0x0000000000000000ull);
    CHECK(word_at(r.out[0], 3, 8) == 0x8000000000000000ull);
    CHECK(word_at(r.out[0], 4, 8) == 0x7FF0000000000000ull);
    CHECK(word_at(r.out[0], 5, 8) == 0xFFF8200000000000ull);
    CHECK(word_at(r.out[0], 6, 8) == 0x37A0000000000000ull);  // exponent -133 + 1023 = 890 = 0x37A
    CHECK(r.out[1].empty());
    CHECK(r.seconds > 0);

    r = s->call(bf16_to_fp32({0x3F80, 0xFFC1}));
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.out[0].size() == 8);
    CHECK(word_at(r.out[0], 0, 4) == 0x3F800000u);
    CHECK(word_at(r.out[0], 1, 4) == 0xFFC10000u);

    SECTION("a too small buffer is the plugin's refusal, not an error") {
        Call c = decode_bf16({0x3F80, 0x3F80});
        c.out_capacity[0] = 15;
        r = s->call(c);
        CHECK(r.outcome == Outcome::returned);
        CHECK(r.status == NINFER_E_BUFFER);
        CHECK(r.message == "out is too small");
        CHECK(r.out[0].empty());
    }
    SECTION("an op without a function and without a capability is unsupported") {
        Call c = decode_bf16({0x3F80});
        c.op = NINFER_OP_classify;
        r = s->call(c);
        CHECK(r.outcome == Outcome::returned);
        CHECK(r.status == NINFER_E_UNSUPPORTED);
    }
#ifndef NINFER_SANITIZED  // under ASan subjects run without a memory limit (options() above)
    SECTION("an output capacity beyond the memory limit is an error; the worker lives on") {
        Call c = decode_bf16({0x3F80});
        c.out_capacity[0] = 1ull << 40;
        r = s->call(c);
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains("cannot allocate"));
        check_serves(*s);
    }
#endif
    SECTION("a rank above NINFER_MAX_RANK is refused before the worker sees it") {
        Call c = decode_bf16({0x3F80});
        c.shape.assign(17, 1);
        r = s->call(c);
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains("rank 17"));
        check_serves(*s);
    }
}

TEST_CASE("iota calls make the input in the worker", "[subject][plugin][iota]") {
    auto s = open_plugin(plugin("minimal_plugin"), options());
    REQUIRE(s->open_error().empty());
    Call c = bf16_to_fp32({});
    c.iota = Iota{0, 2};
    c.count = 65536;
    c.shape = {65536};
    c.out_capacity[0] = 4 * 65536;
    Reply r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.out[0].size() == 4 * 65536);
    // bf16 is the upper half of binary32: every word w widens to w << 16.
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < 65536; ++i) wrong += word_at(r.out[0], i, 4) != (i << 16);
    CHECK(wrong == 0);

    c.iota = Iota{0xFFF0, 2};
    c.count = 16;
    c.out_capacity[0] = 64;
    r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(word_at(r.out[0], 15, 4) == 0xFFFF0000u);

    c.count = 17;
    r = s->call(c);
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("pass 2^16"));
    c.iota = Iota{0, 3};
    r = s->call(c);
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("iota width 3"));
}

TEST_CASE("a crashing plugin is a crash result and the worker restarts", "[subject][plugin][isolation]") {
    auto s = open_plugin(plugin("fixture_crash"), options());
    REQUIRE(s->open_error().empty());
    check_serves(*s);  // its stdout noise does not disturb the framing
    Reply r = s->call(decode_bf16({0xDEAD}));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("killed by SIGSEGV"));
    CHECK_THAT(r.message, Catch::Contains("about to dereference NULL"));
    check_serves(*s);
    CHECK(s->call(decode_bf16({0xDEAD})).outcome == Outcome::crash);
    check_serves(*s);
}

TEST_CASE("an aborting plugin is a crash result", "[subject][plugin][isolation]") {
    auto s = open_plugin(plugin("fixture_abort"), options());
    REQUIRE(s->open_error().empty());
    Reply r = s->call(decode_bf16({0xDEAD}));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("killed by SIGABRT"));
    check_serves(*s);
}

TEST_CASE("a hanging plugin is a timeout result and the worker restarts", "[subject][plugin][isolation]") {
    auto s = open_plugin(plugin("fixture_hang"), options(400ms));
    REQUIRE(s->open_error().empty());
    check_serves(*s);
    Reply r = s->call(decode_bf16({0xDEAD}));
    CHECK(r.outcome == Outcome::timeout);
    CHECK_THAT(r.message, Catch::Contains("no reply within 400 ms"));
    CHECK(r.seconds >= 0.39);
    CHECK(r.seconds < 5);
    check_serves(*s);
}

TEST_CASE("a runaway allocation is stopped by the memory limit", "[subject][plugin][isolation]") {
#ifdef NINFER_SANITIZED
    WARN("skipped under ASan (preset asan): its shadow memory exceeds any RLIMIT_AS, so no limit can be set");
    return;
#endif
    auto opts = options();
    opts.memory_limit_bytes = 512ull << 20;
    auto s = open_plugin(plugin("fixture_huge_alloc"), opts);
    REQUIRE(s->open_error().empty());
    Reply r = s->call(decode_bf16({0xDEAD}));
    INFO(r.message);
    CHECK((r.outcome == Outcome::crash || r.outcome == Outcome::error));
    CHECK_THAT(r.message, !Catch::Contains("without hitting a limit"));
    check_serves(*s);
}

TEST_CASE("writing past or before an output buffer is caught on the guilty call", "[subject][plugin][isolation]") {
    auto s = open_plugin(plugin("fixture_overrun"), options());
    REQUIRE(s->open_error().empty());
    struct Case {
        std::uint16_t trigger;
        const char *why;
    };
    // 8 bytes past the end; 4 KiB past the end beyond where canaries would sit; 16 bytes before.
    for (auto k : {Case{0xDEAD, "past the end of output buffer 1 (out, capacity 16 bytes)"},
                   Case{0xFEED, "past the end of output buffer 1 (out, capacity 16 bytes)"},
                   Case{0xF00D, "before the start of output buffer 1 (out, capacity 16 bytes)"}}) {
        INFO(k.trigger);
        Reply r = s->call(decode_bf16({k.trigger, 0x3F80}));
        INFO(r.message);
        CHECK((r.outcome == Outcome::crash || r.outcome == Outcome::error));
        CHECK_THAT(r.message, Catch::Contains(k.why));
        check_serves(*s);
    }
    Reply r = s->call(decode_bf16({0xBEEF, 0x3F80}));
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("out_written 17 > capacity 16"));
    check_serves(*s);
    SECTION("with a capacity of whole pages the guard pages sit right at both ends") {
        Call c = decode_bf16(std::vector<std::uint16_t>(512, 0x3F80));
        c.in[0] = 0x0D;
        c.in[1] = 0xF0;
        r = s->call(c);
        CHECK(r.outcome == Outcome::crash);
        CHECK_THAT(r.message, Catch::Contains("before the start of output buffer 1 (out, capacity 4096 bytes)"));
        c.in[0] = 0xAD;
        c.in[1] = 0xDE;
        r = s->call(c);
        CHECK(r.outcome == Outcome::crash);
        CHECK_THAT(r.message, Catch::Contains("past the end of output buffer 1 (out, capacity 4096 bytes)"));
        check_serves(*s);
    }
}

TEST_CASE("a lying plugin: refusals are returned, garbage statuses and NULL functions are errors",
          "[subject][plugin][isolation]") {
    auto s = open_plugin(plugin("fixture_liar"), options());
    REQUIRE(s->open_error().empty());
    CHECK(covers(s->info().capabilities, NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0));
    Reply r = s->call(decode_bf16({0xDEAD}));
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    CHECK(r.message == "not today");

    Call c = decode_bf16({0x3F80});
    c.op = NINFER_OP_classify;
    r = s->call(c);
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("returned status 12345"));

    r = s->call(bf16_to_fp32({0x3F80}));
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("declares op convert") && Catch::Contains("NULL"));

    c.op = NINFER_OP_validate;
    r = s->call(c);
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    check_serves(*s);

    // A message without a NUL, with escape sequences and bytes that are not UTF-8.
    r = s->call(decode_bf16({0xBEEF}));
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    INFO(r.message);
    CHECK(safe_text(r.message));
    CHECK_THAT(r.message, Catch::StartsWith("\\xff\\xfe\\x1b[2J  \\x9b\\x9b"));
    CHECK(r.message.size() < 2048);
}

TEST_CASE("a plugin that cannot be loaded says why in one line", "[subject][plugin][load]") {
    struct Case {
        std::string path, why;
        bool exact;
    };
    std::vector<Case> cases = {
        {plugin("fixture_wrong_abi"), "plugin " + plugin("fixture_wrong_abi") + ": ABI version 7, expected 1", true},
        {plugin("fixture_no_entry"), "no symbol ninfer_plugin_entry", false},
        {plugin("fixture_null_entry"), "ninfer_plugin_entry(1) returned NULL", false},
        {plugin("fixture_bad_capability"), "capability 1: format 99 is not a registered format", false},
        {plugin("does_not_exist"), "cannot load: cannot open shared object file", false},
    };
    for (const auto &k : cases) {
        INFO(k.path);
        auto s = open_plugin(k.path, options());
        const std::string &e = s->open_error();
        if (k.exact) CHECK(e == k.why);
        else CHECK_THAT(e, Catch::StartsWith("plugin " + k.path + ": ") && Catch::Contains(k.why));
        CHECK(e.find('\n') == std::string::npos);
        CHECK(s->info().name.empty());
        Reply r = s->call(decode_bf16({0x3F80}));
        CHECK(r.outcome == Outcome::error);
        CHECK(r.message == e);
    }
}

TEST_CASE("a missing worker executable is an open error, not an exception", "[subject][plugin][load]") {
    auto opts = options();
    opts.worker_executable = "/nonexistent/ninfer-conform";
    auto s = open_plugin(plugin("minimal_plugin"), opts);
    CHECK_THAT(s->open_error(), Catch::Contains("cannot run /nonexistent/ninfer-conform: No such file or directory"));
    CHECK(s->call(decode_bf16({0x3F80})).outcome == Outcome::error);
}

TEST_CASE("subjects leave no child processes behind", "[subject][plugin][isolation]") {
    {
        auto a = open_plugin(plugin("fixture_crash"), options());
        auto b = open_plugin(plugin("fixture_hang"), options(200ms));
        auto c = open_plugin(plugin("fixture_wrong_abi"), options());
        CHECK(a->call(decode_bf16({0xDEAD})).outcome == Outcome::crash);
        CHECK(b->call(decode_bf16({0xDEAD})).outcome == Outcome::timeout);
        check_serves(*b);
    }
    CHECK(no_children_left());
}

TEST_CASE("a worker that exits while its child holds the reply pipe is a prompt crash", "[subject][plugin][isolation][hostile]") {
    auto s = open_plugin(plugin("fixture_fork"), options(5000ms));
    REQUIRE(s->open_error().empty());
    Reply r = s->call(decode_bf16({0xDEAD}));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("exited with status 3 during the call"));
    CHECK(r.seconds < 2.5);
    check_serves(*s);
}

TEST_CASE("a grandchild that calls setsid and empties its environment does not outlive the subject", "[subject][plugin][isolation][hostile]") {
    // Its parent exits, so the harness (the subreaper) adopts it; it carries no token: found as
    // an adopted child that is no live subject.
    pid_t orphan = -1;
    {
        auto s = open_plugin(plugin("fixture_fork"), options(1000ms));
        REQUIRE(s->open_error().empty());
        Reply r = s->call(decode_bf16({0xF00E}));
        REQUIRE(r.outcome == Outcome::returned);
        orphan = pid_in(r.message);
        REQUIRE(orphan > 0);
        CHECK(::kill(orphan, 0) == 0);
        check_serves(*s);
    }
    CHECK(process_gone(orphan));
    CHECK(no_children_left());
}

TEST_CASE("a plugin's grandchild that calls setsid does not outlive the call or the subject", "[subject][plugin][isolation][hostile]") {
    pid_t after_run = -1, after_timeout = -1;
    {
        auto s = open_plugin(plugin("fixture_fork"), options(1000ms));
        REQUIRE(s->open_error().empty());
        Reply r = s->call(decode_bf16({0xF00D}));
        REQUIRE(r.outcome == Outcome::returned);
        after_run = pid_in(r.message);
        REQUIRE(after_run > 0);
        CHECK(::kill(after_run, 0) == 0);
        r = s->call(decode_bf16({0xBEEF}));
        CHECK(r.outcome == Outcome::timeout);
        after_timeout = pid_in(r.message);
        REQUIRE(after_timeout > 0);
        CHECK(process_gone(after_timeout));
        check_serves(*s);
    }
    CHECK(process_gone(after_run));
    CHECK(no_children_left());
}
