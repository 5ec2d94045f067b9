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
#include "ninfer/abi/bytes.hpp"
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

/// In the process-tree containment: the fixture names its grandchild's pid as this process sees
/// it (in a PID namespace the fixture would name its namespace's pid). The namespace mode's own
/// tests are harness/tests/test_signals.cpp's containment cases.
SubjectOptions tree_options(std::chrono::milliseconds timeout) {
    auto o = options(timeout);
    o.containment = "process-tree";
    return o;
}

std::string plugin(const char *name) { return std::string(NINFER_TEST_PLUGIN_DIR) + "/" + name + ".so"; }

Call decode_bf16(const std::vector<std::uint16_t> &words) {
    Call c;
    c.op = NINFER_OP_decode;
    c.format = NINFER_FORMAT_bf16;
    c.shape = {words.size()};
    c.count = words.size();
    c.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
    for (auto w : words) ninfer::abi::append_le(c.inputs[0].bytes, w, 2);
    c.outputs = {{NINFER_PLANE_VALUES, 0, 8 * words.size()}};
    return c;
}

Call bf16_to_fp32(const std::vector<std::uint16_t> &words) {
    Call c = decode_bf16(words);
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_fp32;
    c.format_in = NINFER_FORMAT_bf16;
    c.method = NINFER_CONVERSION_bf16_to_fp32;
    c.outputs = {{NINFER_PLANE_WORDS, 0, 4 * words.size()}};
    return c;
}

std::uint64_t word_at(const std::vector<std::uint8_t> &bytes, std::size_t i, int width) {
    (void)bytes.at((i + 1) * width - 1);  // throws where the reply is too short for word i
    return ninfer::abi::load_le(&bytes[i * width], width);
}

/// One good call: 1.0 decodes to the binary64 word of 1.0.
void check_serves(Subject &s) {
    Reply r = s.call(decode_bf16({0x3F80}));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_OK);
    REQUIRE(r.outputs.at(0).bytes.size() == 8);
    CHECK(word_at(r.outputs.at(0).bytes, 0, 8) == 0x3FF0000000000000ull);
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
    CHECK(s->info().abi_version == 2);  // an ABI v2 source: planes found by name
    REQUIRE(s->info().capabilities.size() == 2);
    CHECK(covers(s->info().capabilities, NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, 0,
                 NINFER_CONVERSION_bf16_to_fp32));

    // 1.0, -2.0, +0, -0, +Inf, a negative NaN with fraction 0x41, the least subnormal 2^-133.
    Reply r = s->call(decode_bf16({0x3F80, 0xC000, 0x0000, 0x8000, 0x7F80, 0xFFC1, 0x0001}));
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.status == NINFER_OK);
    REQUIRE(r.outputs.at(0).bytes.size() == 56);
    CHECK(word_at(r.outputs.at(0).bytes, 0, 8) == 0x3FF0000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 1, 8) == 0xC000000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 2, 8) == 0x0000000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 3, 8) == 0x8000000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 4, 8) == 0x7FF0000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 5, 8) == 0xFFF8200000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 6, 8) == 0x37A0000000000000ull);  // exponent -133 + 1023 = 890 = 0x37A
    CHECK(r.outputs.size() == 1);  // the call's one output plane, by name
    CHECK(r.outputs[0].name == NINFER_PLANE_VALUES);
    CHECK(r.seconds > 0);

    r = s->call(bf16_to_fp32({0x3F80, 0xFFC1}));
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.outputs.at(0).bytes.size() == 8);
    CHECK(word_at(r.outputs.at(0).bytes, 0, 4) == 0x3F800000u);
    CHECK(word_at(r.outputs.at(0).bytes, 1, 4) == 0xFFC10000u);

    SECTION("a too small buffer is the plugin's refusal, not an error") {
        Call c = decode_bf16({0x3F80, 0x3F80});
        c.outputs[0].capacity = 15;
        r = s->call(c);
        CHECK(r.outcome == Outcome::returned);
        CHECK(r.status == NINFER_E_BUFFER);
        CHECK(r.message == "the output plane is too small");
        CHECK(r.output(NINFER_PLANE_VALUES).empty());
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
        c.outputs[0].capacity = 1ull << 40;
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
    c.outputs[0].capacity = 4 * 65536;
    Reply r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.outputs.at(0).bytes.size() == 4 * 65536);
    // bf16 is the upper half of binary32: every word w widens to w << 16.
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < 65536; ++i) wrong += word_at(r.outputs.at(0).bytes, i, 4) != (i << 16);
    CHECK(wrong == 0);

    c.iota = Iota{0xFFF0, 2};
    c.count = 16;
    c.outputs[0].capacity = 64;
    r = s->call(c);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(word_at(r.outputs.at(0).bytes, 15, 4) == 0xFFFF0000u);

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
    for (auto k : {Case{0xDEAD, "past the end of output plane 1 (values, capacity 16 bytes)"},
                   Case{0xFEED, "past the end of output plane 1 (values, capacity 16 bytes)"},
                   Case{0xF00D, "before the start of output plane 1 (values, capacity 16 bytes)"}}) {
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
        c.inputs[0].bytes[0] = 0x0D;
        c.inputs[0].bytes[1] = 0xF0;
        r = s->call(c);
        CHECK(r.outcome == Outcome::crash);
        CHECK_THAT(r.message, Catch::Contains("before the start of output plane 1 (values, capacity 4096 bytes)"));
        c.inputs[0].bytes[0] = 0xAD;
        c.inputs[0].bytes[1] = 0xDE;
        r = s->call(c);
        CHECK(r.outcome == Outcome::crash);
        CHECK_THAT(r.message, Catch::Contains("past the end of output plane 1 (values, capacity 4096 bytes)"));
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
        {plugin("fixture_wrong_abi"), "plugin " + plugin("fixture_wrong_abi") + ": plugin ABI 7; this harness loads ABI 1..2", true},
        {plugin("fixture_no_entry"), "no symbol ninfer_plugin_entry", false},
        {plugin("fixture_null_entry"), "ninfer_plugin_entry returned NULL for every ABI this harness loads (1..2)", false},
        {plugin("fixture_bad_capability"), "capability 1: format 999 is not a registered format", false},
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
        auto s = open_plugin(plugin("fixture_fork"), tree_options(1000ms));
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
        auto s = open_plugin(plugin("fixture_fork"), tree_options(1000ms));
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

// ---- ABI v2 and the v1 adapter (harness/README.md, "The plugin C ABI") ----------------------

namespace {

/// quant_decode of a q8 payload, asking for codes, scales and values of `n` bytes each.
Call echo_call(const std::vector<std::uint8_t> &payload, std::uint64_t n) {
    Call c;
    c.op = NINFER_OP_quant_decode;
    c.format = NINFER_FORMAT_q8_g32_fp16;
    c.layout = NINFER_LAYOUT_row_split_k128_v1;
    c.shape = {1, 1};
    c.inputs = {{NINFER_PLANE_PAYLOAD, 0, payload}};
    c.outputs = {{NINFER_PLANE_CODES, 0, n}, {NINFER_PLANE_SCALES, 0, n}, {NINFER_PLANE_VALUES, 0, n}};
    return c;
}

}  // namespace

TEST_CASE("a v2 plugin gets named planes and its three outputs come back by name", "[subject][plugin][abi2]") {
    auto s = open_plugin(plugin("fixture_v2_planes"), options());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().abi_version == 2);
    REQUIRE(s->info().capabilities.size() == 1);
    CHECK(covers(s->info().capabilities, NINFER_OP_quant_decode, NINFER_FORMAT_q8_g32_fp16, 0,
                 NINFER_LAYOUT_row_split_k128_v1, 0));

    Reply r = s->call(echo_call({0x01, 0x02, 0x03}, 3));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.status == NINFER_OK);  // E_INTERNAL: the call or result lacked its struct_size
    CHECK(r.message == "in payload; out codes scales values");
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.output(NINFER_PLANE_CODES) == std::vector<std::uint8_t>{0x01, 0x02, 0x03});
    CHECK(r.output(NINFER_PLANE_SCALES) == std::vector<std::uint8_t>{0xFE, 0xFD, 0xFC});
    CHECK(r.output(NINFER_PLANE_VALUES) == std::vector<std::uint8_t>{0x03, 0x02, 0x01});

    // The planes in another order: the plugin finds them by name, the reply keeps the call's order.
    Call c = echo_call({0x10, 0x20}, 2);
    std::swap(c.outputs[0], c.outputs[2]);
    r = s->call(c);
    REQUIRE(r.status == NINFER_OK);
    CHECK(r.message == "in payload; out values scales codes");
    CHECK(r.outputs[0].name == NINFER_PLANE_VALUES);
    CHECK(r.output(NINFER_PLANE_CODES) == std::vector<std::uint8_t>{0x10, 0x20});
    CHECK(r.output(NINFER_PLANE_VALUES) == std::vector<std::uint8_t>{0x20, 0x10});

    // A missing plane is the plugin's refusal.
    c = echo_call({0x10}, 1);
    c.outputs.pop_back();
    r = s->call(c);
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_INVALID_ARGUMENT);

    // Each output plane has its own guard pages; an overstated size names its plane.
    r = s->call(echo_call({0xEE, 0x00}, 2));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("past the end of output plane 2 (scales, capacity 2 bytes)"));
    r = s->call(echo_call({0xEF, 0x00}, 2));
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("reported written of output plane 3 (values) 3 > capacity 2"));
    r = s->call(echo_call({0x05}, 1));
    CHECK(r.status == NINFER_OK);
}

TEST_CASE("a v1 plugin is adapted: planes by order, more planes than v1 has are unsupported", "[subject][plugin][abi2]") {
    // The 0.1.0 minimal plugin (verbatim, an ABI v1 source) returns NULL unless asked for ABI 1:
    // it loads only because the harness falls back from entry(2) to entry(1).
    auto s = open_plugin(plugin("fixture_v1_minimal_0_1_0"), options());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().abi_version == 1);
    check_serves(*s);
    Call c = decode_bf16({0x3F80});
    c.inputs.push_back({NINFER_PLANE_SCALES, 0, {1}});
    c.inputs.push_back({NINFER_PLANE_DIVISORS, 0, {2}});
    Reply r = s->call(c);
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    CHECK_THAT(r.message, Catch::Contains("3 input and 1 output planes; an ABI 1 plugin takes at most 2 and 3"));
    c = decode_bf16({0x3F80});
    for (std::uint32_t p : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}) c.outputs.push_back({p, 0, 8});
    r = s->call(c);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    check_serves(*s);
}

TEST_CASE("a v2 table from a smaller header: ops and capabilities read within its sizes", "[subject][plugin][abi2]") {
    auto s = open_plugin(plugin("fixture_v2_small"), options());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().abi_version == 2);
    // 20-byte capability records: the second is read at offset 20, with profile 0.
    REQUIRE(s->info().capabilities.size() == 2);
    CHECK(s->info().capabilities[1].op == NINFER_OP_convert);
    CHECK(s->info().capabilities[1].method == NINFER_CONVERSION_bf16_to_fp32);
    CHECK(s->info().capabilities[1].profile == 0);
    check_serves(*s);
    // classify lies past struct_size: never called (it would return status 12345).
    Call c = decode_bf16({0x3F80});
    c.op = NINFER_OP_classify;
    c.outputs[0].name = NINFER_PLANE_CLASSES;
    Reply r = s->call(c);
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    CHECK_THAT(r.message, Catch::Contains("no function for op 2"));
}

TEST_CASE("tables the harness cannot read are refused in one line", "[subject][plugin][abi2][load]") {
    const std::pair<std::string, std::string> cases[] = {
        {"fixture_abi3", "plugin ABI 3; this harness loads ABI 1..2"},
        {"fixture_v2_capsize", "capability_size 16, expected at least 20"},
    };
    for (const auto &[name, why] : cases) {
        auto s = open_plugin(plugin(name.c_str()), options());
        INFO(s->open_error());
        CHECK(s->open_error() == "plugin " + plugin(name.c_str()) + ": " + why);
        CHECK(s->call(decode_bf16({0x3F80})).outcome == Outcome::error);
    }
}

TEST_CASE("a worker of another wire protocol version is refused by name", "[subject][plugin][abi2][load]") {
    auto opts = options();
    opts.worker_executable = NINFER_TEST_STALE_WORKER;
    auto s = open_plugin(plugin("minimal_plugin"), opts);
    INFO(s->open_error());
    CHECK_THAT(s->open_error(), Catch::Contains("worker speaks wire protocol 1, this harness 3"));
    CHECK(s->open_error().find('\n') == std::string::npos);
    CHECK(s->call(decode_bf16({0x3F80})).outcome == Outcome::error);
}
