// SPDX-License-Identifier: Apache-2.0
// Subjects behind the JSON-lines exec protocol (harness/README.md, "The exec protocol"): the
// pure-Python example, and a fixture script that breaks the protocol in every way the harness
// must name. Expected words are derived by hand from the bf16 and binary32 encodings.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "isolation_support.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer::harness;
using namespace std::chrono_literals;
using ninfer::harness::test::pid_in;
using ninfer::harness::test::process_gone;
using ninfer::harness::test::safe_text;

namespace {

SubjectOptions options(std::chrono::milliseconds timeout = 10000ms) {
    SubjectOptions o;
    o.worker_executable = NINFER_TEST_WORKER;
    o.call_timeout = timeout;
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

const std::string kPython = std::string("python3 ") + NINFER_TEST_PYTHON_PLUGIN;
std::string bad_exec(const char *mode) { return std::string("python3 ") + NINFER_TEST_EXEC_FIXTURE + " " + mode; }

/// fixtures/late_reply.py (beside bad_exec.py) in a framing ("lines", "binary"), with call ids or without.
std::string late_reply(const std::string &framing, bool ids) {
    const std::string beside = NINFER_TEST_EXEC_FIXTURE;
    return "python3 " + beside.substr(0, beside.rfind('/')) + "/late_reply.py " + framing + (ids ? " ids" : " noids");
}

Call word_call(std::uint32_t op, const std::vector<std::uint64_t> &words, int width, int out_width) {
    Call c;
    c.op = op;
    c.shape = {words.size()};
    c.count = words.size();
    c.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
    for (auto w : words) ninfer::abi::append_le(c.inputs[0].bytes, w, width);
    const std::uint32_t out = op == NINFER_OP_decode ? NINFER_PLANE_VALUES : NINFER_PLANE_WORDS;
    c.outputs = {{out, 0, static_cast<std::uint64_t>(out_width) * words.size()}};
    return c;
}

Call fp32_to_bf16(const std::vector<std::uint64_t> &words) {
    Call c = word_call(NINFER_OP_convert, words, 4, 2);
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    return c;
}

Call decode_bf16(const std::vector<std::uint64_t> &words) {
    Call c = word_call(NINFER_OP_decode, words, 2, 8);
    c.format = NINFER_FORMAT_bf16;
    return c;
}

std::uint64_t word_at(const std::vector<std::uint8_t> &bytes, std::size_t i, int width) {
    (void)bytes.at((i + 1) * width - 1);  // throws where the reply is too short for word i
    return ninfer::abi::load_le(&bytes[i * width], width);
}

/// An echo call on the fixture: the first byte picks the misbehaviour (0 echoes).
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

/// An fp32_to_bf16_rne call of the word 0x3F800000 | trigger, which late_reply.py answers with
/// 0x3F80 (the right word) after misbehaving as the trigger says (0: not at all).
Call late_call(std::uint8_t trigger) { return fp32_to_bf16({0x3F800000u | trigger}); }

/// A call of late_reply.py answered once and rightly.
void check_answers(Subject &s) {
    Reply r = s.call(late_call(0));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.message == "ok");
    CHECK(r.outputs.at(0).bytes == std::vector<std::uint8_t>{0x80, 0x3F});
}

void check_echoes(Subject &s) {
    Reply r = s.call(echo(0));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    CHECK(r.message == "echo");
    CHECK(r.outputs.at(0).bytes == std::vector<std::uint8_t>{0x00, 0x80, 0x3F, 0x00});
}

}  // namespace

TEST_CASE("the Python example speaks the exec protocol", "[subject][exec]") {
    auto s = open_exec(kPython, options());
    REQUIRE(s->open_error().empty());
    CHECK(s->info().name == "python-example");
    CHECK(s->info().version == "2.0");
    CHECK(s->info().abi_version == 2);  // it answered the hello's "abi_max": 2
    REQUIRE(s->info().capabilities.size() == 2);
    const auto &cap = s->info().capabilities[1];
    CHECK(cap.op == NINFER_OP_convert);
    CHECK(cap.format == NINFER_FORMAT_bf16);
    CHECK(cap.format_in == NINFER_FORMAT_fp32);
    CHECK(cap.layout == 0);
    CHECK(cap.method == NINFER_CONVERSION_fp32_to_bf16_rne);

    // 1.0; 1 + 2^-8 (a tie, stays even); 1 + 3*2^-8 (a tie, rounds up to even 0x3F82);
    // FLT_MAX (rounds to +Inf); a quiet NaN with payload; a negative signalling NaN (quieted).
    Reply r = s->call(fp32_to_bf16({0x3F800000, 0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x7FC00001, 0xFF800001}));
    INFO(r.message);
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.status == NINFER_OK);
    REQUIRE(r.outputs.at(0).bytes.size() == 12);
    CHECK(word_at(r.outputs.at(0).bytes, 0, 2) == 0x3F80);
    CHECK(word_at(r.outputs.at(0).bytes, 1, 2) == 0x3F80);
    CHECK(word_at(r.outputs.at(0).bytes, 2, 2) == 0x3F82);
    CHECK(word_at(r.outputs.at(0).bytes, 3, 2) == 0x7F80);
    CHECK(word_at(r.outputs.at(0).bytes, 4, 2) == 0x7FC0);
    CHECK(word_at(r.outputs.at(0).bytes, 5, 2) == 0xFFC0);

    r = s->call(decode_bf16({0x3F80, 0xC000, 0x8000, 0x0001}));
    REQUIRE(r.outcome == Outcome::returned);
    REQUIRE(r.outputs.at(0).bytes.size() == 32);
    CHECK(word_at(r.outputs.at(0).bytes, 0, 8) == 0x3FF0000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 1, 8) == 0xC000000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 2, 8) == 0x8000000000000000ull);
    CHECK(word_at(r.outputs.at(0).bytes, 3, 8) == 0x37A0000000000000ull);

    SECTION("iota calls are expanded by the harness") {
        Call c = decode_bf16({});
        c.iota = Iota{0x3F80, 2};
        c.count = 3;
        c.shape = {3};
        c.outputs[0].capacity = 24;
        r = s->call(c);
        REQUIRE(r.outcome == Outcome::returned);
        REQUIRE(r.outputs.at(0).bytes.size() == 24);
        CHECK(word_at(r.outputs.at(0).bytes, 0, 8) == 0x3FF0000000000000ull);
        CHECK(word_at(r.outputs.at(0).bytes, 1, 8) == 0x3FF0200000000000ull);  // 1 + 2^-7
        CHECK(word_at(r.outputs.at(0).bytes, 2, 8) == 0x3FF0400000000000ull);  // 1 + 2^-6
    }
    SECTION("an iota too large to expand into one line is refused before sending") {
        Call c = decode_bf16({});
        c.iota = Iota{0, 8};
        c.count = 1ull << 40;
        r = s->call(c);
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains("too large for an exec subject"));
    }
    SECTION("an operation it does not implement is its refusal") {
        Call c = decode_bf16({0x3F80});
        c.format = NINFER_FORMAT_fp16;
        r = s->call(c);
        CHECK(r.outcome == Outcome::returned);
        CHECK(r.status == NINFER_E_UNSUPPORTED);
    }
}

TEST_CASE("the Python example and the C example agree on every bf16 word", "[subject][exec][iota]") {
    auto py = open_exec(kPython, options());
    SubjectOptions popts = options();
    auto c_plugin = open_plugin(std::string(NINFER_TEST_PLUGIN_DIR) + "/minimal_plugin.so", popts);
    REQUIRE(py->open_error().empty());
    REQUIRE(c_plugin->open_error().empty());
    Call c = decode_bf16({});
    c.iota = Iota{0, 2};
    c.count = 65536;
    c.shape = {65536};
    c.outputs[0].capacity = 8 * 65536;
    Reply a = py->call(c), b = c_plugin->call(c);
    REQUIRE(a.outcome == Outcome::returned);
    REQUIRE(b.outcome == Outcome::returned);
    CHECK(a.outputs.at(0).bytes.size() == 8 * 65536);
    CHECK(a.outputs.at(0).bytes == b.outputs.at(0).bytes);
}

TEST_CASE("a broken hello is a one-line open error", "[subject][exec][load]") {
    struct Case {
        const char *mode, *why;
    };
    for (auto k : {Case{"badabi", "ABI version 7; this harness speaks ABI 1..2"},
                   Case{"badcap", "capability 0: unknown format \"bf17\""},
                   Case{"notjson", "hello reply is not JSON"},
                   Case{"exit", "exited with status 4 before answering the hello; stderr: bad_exec: giving up"}}) {
        INFO(k.mode);
        auto s = open_exec(bad_exec(k.mode), options());
        CHECK_THAT(s->open_error(), Catch::StartsWith("exec `" + bad_exec(k.mode) + "`: ") && Catch::Contains(k.why));
        CHECK(s->open_error().find('\n') == std::string::npos);
        CHECK(s->info().name.empty());
        CHECK(s->call(echo(0)).outcome == Outcome::error);
    }
    auto s = open_exec("/nonexistent/subject", options());
    CHECK_THAT(s->open_error(), Catch::Contains("exited with status 127"));
}

TEST_CASE("malformed replies are errors that name what was wrong and the subject restarts", "[subject][exec][isolation]") {
    auto s = open_exec(bad_exec("ok"), options(1500ms));
    REQUIRE(s->open_error().empty());
    CHECK(s->info().capabilities.size() == 1);
    check_echoes(*s);
    struct Case {
        std::uint8_t trigger;
        Outcome outcome;
        const char *why;
    };
    for (auto k : {Case{1, Outcome::error, "reply is not JSON"},
                   Case{2, Outcome::error, "reply \"status\" is string, expected an integer"},
                   Case{3, Outcome::error, "reply \"out\" has 5 bytes, capacity 4"},
                   Case{4, Outcome::error, "reply \"out\" has a non-hex character"},
                   Case{5, Outcome::crash, "exited with status 3 during the call; stderr: bad_exec: exiting mid-call"},
                   Case{6, Outcome::timeout, "no reply within 1500 ms"},
                   Case{7, Outcome::error, "reply \"status\" 12345 is not a NINFER_* code"},
                   Case{8, Outcome::error, "reply line longer than"}}) {
        INFO(int(k.trigger));
        Reply r = s->call(echo(k.trigger));
        CHECK(r.outcome == k.outcome);
        CHECK_THAT(r.message, Catch::Contains(k.why));
        check_echoes(*s);
    }
}

TEST_CASE("a reply nested 100000 levels deep is an error, not a dead harness", "[subject][exec][isolation][hostile]") {
    auto s = open_exec(bad_exec("ok"), options());
    REQUIRE(s->open_error().empty());
    Call c = echo(9);
    c.outputs[0].capacity = 1 << 18;  // room for a line of 200000 brackets, as a large case has
    Reply r = s->call(c);
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("nested deeper than"));
    CHECK(r.message.size() < 1024);
    check_echoes(*s);
}

TEST_CASE("whatever an exec subject says reaches the harness as bounded, printable UTF-8", "[subject][exec][isolation][hostile]") {
    auto s = open_exec(bad_exec("ok"), options());
    REQUIRE(s->open_error().empty());
    for (std::uint8_t trigger : {10, 11, 12}) {
        INFO(int(trigger));
        Reply r = s->call(echo(trigger));
        INFO(r.message);
        CHECK(safe_text(r.message));
        CHECK(r.message.size() <= 4096);
        CHECK_NOTHROW(nlohmann::json(r.message).dump());
        check_echoes(*s);
    }
    Reply r = s->call(echo(11));
    CHECK(r.outcome == Outcome::returned);
    CHECK_THAT(r.message, Catch::StartsWith("bell\\x07 esc\\x1b[2J nul\\x00 c1\\u009b lf next xxx"));
    CHECK_THAT(r.message, Catch::EndsWith("bytes cut)"));
    r = s->call(echo(12));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("exited with status 5") && Catch::Contains("bad_exec: \\xff\\xfe\\x1b[31m dying"));

    auto h = open_exec(bad_exec("hostile"), options());
    INFO(h->open_error());
    REQUIRE(h->open_error().empty());
    CHECK(safe_text(h->info().name));
    CHECK(h->info().name == "bad\\x1b]0;pwned\\x07\\x1b[2J");
    CHECK(safe_text(h->info().version));
    CHECK(h->info().version.size() <= 256);
}

TEST_CASE("a second reply line for one call is a protocol error, never the next call's reply", "[subject][exec][isolation][hostile]") {
    auto s = open_exec(bad_exec("ok"), options());
    REQUIRE(s->open_error().empty());
    Reply r = s->call(echo(13));  // both lines in one write
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("more than one reply line"));
    check_echoes(*s);

    r = s->call(echo(14));  // the surplus comes 300 ms after the reply
    CHECK(r.outcome == Outcome::returned);
    std::this_thread::sleep_for(600ms);
    // Found before the next call is sent: blamed on the call before it; the next call runs on
    // a restarted subject and gets its own reply.
    r = s->call(echo(0));
    CHECK(r.message == "echo");
    CHECK(r.outcome == Outcome::returned);
    const auto blames = s->take_late_blames();
    REQUIRE(blames.size() == 1);
    CHECK(blames[0].calls_back == 1);
    CHECK_THAT(blames[0].message, Catch::Contains("wrote output after its reply to this call"));
    check_echoes(*s);
}

TEST_CASE("a subject that exits while its child holds the reply pipe is a prompt crash", "[subject][exec][isolation][hostile]") {
    auto s = open_exec(bad_exec("ok"), options(5000ms));
    REQUIRE(s->open_error().empty());
    Reply r = s->call(echo(15));
    CHECK(r.outcome == Outcome::crash);
    CHECK_THAT(r.message, Catch::Contains("exited with status 3 during the call"));
    CHECK(r.seconds < 2.5);
    check_echoes(*s);
}

TEST_CASE("a grandchild that calls setsid does not outlive its subject", "[subject][exec][isolation][hostile]") {
    pid_t after_run = -1, after_timeout = -1;
    {
        auto s = open_exec(bad_exec("ok"), tree_options(1000ms));
        REQUIRE(s->open_error().empty());
        Reply r = s->call(echo(16));
        REQUIRE(r.outcome == Outcome::returned);
        after_run = pid_in(r.message);
        REQUIRE(after_run > 0);
        CHECK(::kill(after_run, 0) == 0);
        r = s->call(echo(17));
        CHECK(r.outcome == Outcome::timeout);
        after_timeout = pid_in(r.message);
        REQUIRE(after_timeout > 0);
        CHECK(process_gone(after_timeout));  // killed with the timed-out call
        check_echoes(*s);
    }
    CHECK(process_gone(after_run));  // killed at the end of the run
    int st;
    CHECK((::waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD));
}

TEST_CASE("the exec protocol negotiates its version in the hello", "[subject][exec][abi2]") {
    // A v1 subject (bad_exec speaks ABI 1: "in", "aux", "out_capacity", "out") still works.
    auto v1 = open_exec(bad_exec("ok"), options());
    REQUIRE(v1->open_error().empty());
    CHECK(v1->info().abi_version == 1);
    check_echoes(*v1);
    // More planes than ABI 1 has slots: unsupported, without a request.
    Call c = echo(0);
    for (std::uint32_t p : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}) c.outputs.push_back({p, 0, 4});
    Reply r = v1->call(c);
    CHECK(r.outcome == Outcome::returned);
    CHECK(r.status == NINFER_E_UNSUPPORTED);
    CHECK_THAT(r.message, Catch::Contains("an ABI 1 subject takes at most 2 and 3"));
    check_echoes(*v1);

    // A v2 subject: planes by name in the request and in the reply.
    auto v2 = open_exec(bad_exec("v2"), options());
    INFO(v2->open_error());
    REQUIRE(v2->open_error().empty());
    CHECK(v2->info().abi_version == 2);
    check_echoes(*v2);
    r = v2->call(echo(18));
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("reply \"outputs\" names plane \"scales\", not an output plane of the call"));
    check_echoes(*v2);
    r = v2->call(echo(19));
    CHECK(r.outcome == Outcome::error);
    CHECK_THAT(r.message, Catch::Contains("reply \"outputs.values\" has 5 bytes, capacity 4"));
    check_echoes(*v2);
}

TEST_CASE("with call ids a late surplus reply is blamed on the call it answers, not read as the next reply",
          "[subject][exec][isolation][hostile][ids]") {
    for (const char *framing : {"lines", "binary"}) {
        INFO(framing);
        auto s = open_exec(late_reply(framing, true), options());
        INFO(s->open_error());
        REQUIRE(s->open_error().empty());
        check_answers(*s);
        Reply r = s->call(late_call(20));  // answered again 200 ms after its reply
        CHECK(r.outcome == Outcome::returned);
        CHECK(r.message == "ok");
        CHECK(s->take_late_blames().empty());
        // The next call gets its own reply (the surplus is skipped, read before it or found
        // before this call was sent), and the call before it is blamed.
        check_answers(*s);
        const auto blames = s->take_late_blames();
        REQUIRE(blames.size() == 1);
        CHECK(blames[0].calls_back == 1);
        CHECK_THAT(blames[0].message, Catch::Contains("surplus"));
        check_answers(*s);
        CHECK(s->take_late_blames().empty());
    }
}

TEST_CASE("with call ids a reply with another call's id, or none, is an error naming the ids",
          "[subject][exec][isolation][hostile][ids]") {
    for (const char *framing : {"lines", "binary"}) {
        INFO(framing);
        auto s = open_exec(late_reply(framing, true), options());
        REQUIRE(s->open_error().empty());
        check_answers(*s);  // call 1
        Reply r = s->call(late_call(21));
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains("reply \"id\" is 1002, neither this call's id (2) nor an earlier call's"));
        check_answers(*s);  // call 3, on the restarted subject
        r = s->call(late_call(22));
        CHECK(r.outcome == Outcome::error);
        CHECK_THAT(r.message, Catch::Contains("reply has no \"id\"; the subject's hello chose call ids and this call's id is 4"));
        check_answers(*s);
        CHECK(s->take_late_blames().empty());
    }
}

TEST_CASE("a hello whose ids key is not a boolean is a one-line open error", "[subject][exec][load][ids]") {
    const std::string beside = NINFER_TEST_EXEC_FIXTURE;
    const std::string cmd = "python3 " + beside.substr(0, beside.rfind('/')) + "/late_reply.py lines badids";
    auto s = open_exec(cmd, options());
    CHECK_THAT(s->open_error(), Catch::StartsWith("exec `" + cmd + "`: ") &&
                                    Catch::Contains("hello reply \"ids\" is string, expected a boolean"));
    CHECK(s->open_error().find('\n') == std::string::npos);
}

TEST_CASE("without call ids a surplus waiting before the next call is blamed on the call before it",
          "[subject][exec][isolation][hostile][ids]") {
    for (const char *framing : {"lines", "binary"}) {
        INFO(framing);
        auto s = open_exec(late_reply(framing, false), options());
        REQUIRE(s->open_error().empty());
        check_answers(*s);
        Reply r = s->call(late_call(20));
        CHECK(r.outcome == Outcome::returned);
        std::this_thread::sleep_for(1000ms);  // the surplus (200 ms late) is waiting
        check_answers(*s);                    // on a restarted subject
        const auto blames = s->take_late_blames();
        REQUIRE(blames.size() == 1);
        CHECK(blames[0].calls_back == 1);
        CHECK_THAT(blames[0].message, Catch::Contains("subject wrote output after its reply to this call"));
    }
}

TEST_CASE("a run blames a late surplus reply on the case it answers, and the next case passes",
          "[subject][exec][runner][ids]") {
    using ninfer::reports::Status;
    const auto bf16_case = [](std::string slug, std::uint32_t word) {
        ninfer::suites::Case k;
        k.id = "convert.fp32_to_bf16_rne/" + slug;
        k.rule = "convert.fp32_to_bf16_rne";
        k.op = NINFER_OP_convert;
        k.format = NINFER_FORMAT_bf16;
        k.format_in = NINFER_FORMAT_fp32;
        k.method = NINFER_CONVERSION_fp32_to_bf16_rne;
        k.count = 1;
        k.shape = {1};
        ninfer::suites::put_word(k.input(NINFER_PLANE_WORDS), word, 4);
        ninfer::suites::put_word(k.expect.output(NINFER_PLANE_WORDS), 0x3F80, 2);
        return k;
    };
    CaseSet set;
    set.suites = {"scalar.convert"};
    for (std::uint32_t trigger : {0, 20, 0, 0}) {
        auto k = bf16_case("c" + std::to_string(set.cases.size()), 0x3F800000u | trigger);
        set.cases.push_back({"scalar.convert", std::move(k)});
    }
    for (const char *framing : {"lines", "binary"}) {
        INFO(framing);
        auto s = open_exec(late_reply(framing, true), options());
        REQUIRE(s->open_error().empty());
        const auto rep = run_cases(*s, set, RunOptions{}, {"exec", "late-reply", "0", 2, "late_reply.py"});
        REQUIRE(rep.cases.size() == 4);
        CHECK(rep.cases[0].status == Status::pass);
        CHECK(rep.cases[1].status == Status::error);  // the guilty case
        CHECK_THAT(rep.cases[1].message, Catch::Contains("surplus"));
        CHECK(rep.cases[1].id == "convert.fp32_to_bf16_rne/c1");
        CHECK(rep.cases[2].status == Status::pass);  // the innocent next case
        CHECK(rep.cases[3].status == Status::pass);
        CHECK(rep.totals.error == 1);
        CHECK(rep.totals.pass == 3);
    }
}

TEST_CASE("a sweep blames a late surplus reply on the batch it answers", "[subject][exec][sweep][ids]") {
    SweepOptions o;
    o.op = NINFER_OP_convert;
    o.conversion = NINFER_CONVERSION_fp32_to_bf16_rne;
    o.start = 0x3F800014;  // the first batch starts with byte 0x14 = 20: answered twice (late_reply.py)
    o.count = 12;
    o.batch = 4;           // the next batches start with bytes 0x18 and 0x1c: answered once
    auto s = open_exec(late_reply("lines", true), options());
    REQUIRE(s->open_error().empty());
    const auto res = run_sweep(*s, o, {"exec", "late-reply", "0", 2, "late_reply.py"});
    REQUIRE(res.report.cases.size() == 1);
    const auto &c = res.report.cases[0];
    INFO(c.message);
    CHECK(c.status == ninfer::reports::Status::error);
    CHECK_THAT(c.message, Catch::StartsWith("batch at 3f800014: ") && Catch::Contains("surplus"));
    CHECK(c.mismatches == 0);  // every batch got its own, right, reply
}
