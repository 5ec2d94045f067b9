// SPDX-License-Identifier: Apache-2.0
// Open readings end to end (suites/README.md, "Forced and open readings"): a case that carries
// every documented outcome passes a subject that takes any of them, records which one it took,
// fails a third outcome; the report and its summary say per rule which choices were taken; a
// pin (`run --pin`) requires one choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "ninfer/harness/runner.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

/// A subject that declares fp8_row_maxabs and answers every call with `fn`.
class ScriptedEncoder : public Subject {
public:
    explicit ScriptedEncoder(std::function<Reply(const Call &)> fn) : fn_(std::move(fn)) {
        info_.name = "scripted";
        info_.version = "1";
        info_.abi_version = NINFER_ABI_VERSION;
        info_.capabilities = {{NINFER_OP_quant_encode, 0, 0, 0, NINFER_ENCODER_fp8_row_maxabs, 0}};
    }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return error_; }
    Reply call(const Call &c) override { return fn_(c); }

private:
    SubjectInfo info_;
    std::string error_;
    std::function<Reply(const Call &)> fn_;
};

/// The tiny-scale row of issue 21 as the suite generates it.
const suites::Case &tiny_scale_case() {
    static const suites::Case c = [] {
        for (auto &x : suites::find_suite("scaled.fp8_row_maxabs")->golden(suites::Level::quick))
            if (x.id == "fp8_row_maxabs.rescue/fp8_e4m3fn_row_bf16.bf16_amax_2^-125") return x;
        FAIL("the tiny-scale case is missing");
        return suites::Case{};
    }();
    return c;
}

Reply refusal(std::int32_t status) {
    Reply r;
    r.outcome = Outcome::returned;
    r.status = status;
    return r;
}

Reply encoded(const suites::Case &c, bool flip_first_byte = false) {
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    r.outputs = c.expect.outputs;
    if (flip_first_byte) r.outputs.at(0).bytes.at(0) ^= 1;
    return r;
}

reports::CaseResult run_with(const suites::Case &c, const Reply &reply) {
    ScriptedEncoder s([&](const Call &) { return reply; });
    return run_case(s, c, "scaled.fp8_row_maxabs", 8);
}

}  // namespace

TEST_CASE("readings: a refusing subject passes the tiny-scale row and took refuse", "[readings]") {
    const auto r = run_with(tiny_scale_case(), refusal(NINFER_E_NONFINITE));
    CHECK(r.status == reports::Status::pass);
    CHECK(r.choice == "refuse");
    CHECK(r.reading == "fp8_row_maxabs.rescue");
    CHECK(r.reading_kind == "open");
}

TEST_CASE("readings: an encoding subject passes the tiny-scale row and took encode", "[readings]") {
    const auto r = run_with(tiny_scale_case(), encoded(tiny_scale_case()));
    CHECK(r.status == reports::Status::pass);
    CHECK(r.choice == "encode");
}

TEST_CASE("readings: a third outcome fails and names every documented one", "[readings]") {
    for (const auto &reply : {refusal(NINFER_E_SCALE_OVERFLOW), encoded(tiny_scale_case(), true)}) {
        const auto r = run_with(tiny_scale_case(), reply);
        CHECK(r.status == reports::Status::fail);
        CHECK(r.choice.empty());
        CHECK(r.message.find("none of the outcomes fp8_row_maxabs.rescue allows: encode (ok) or refuse (NINFER_E_NONFINITE)") == 0);
    }
}

TEST_CASE("readings: the report and its summary say which choice each rule's subject took", "[readings]") {
    reports::Report rep;
    rep.cases.push_back(run_with(tiny_scale_case(), refusal(NINFER_E_NONFINITE)));
    rep.cases.push_back(run_with(tiny_scale_case(), encoded(tiny_scale_case())));
    rep.cases.back().id += ".again";
    rep.options.emplace();
    reports::finalize(rep);
    const auto it = std::find_if(rep.rules.begin(), rep.rules.end(), [](const auto &x) { return x.id == "fp8_row_maxabs.rescue"; });
    REQUIRE(it != rep.rules.end());
    CHECK(it->reading_kind == "open");
    CHECK(it->choices == std::map<std::string, std::uint64_t>{{"encode", 1}, {"refuse", 1}});
    const auto j = reports::to_json(rep);
    CHECK(j["cases"][0]["choice"] == "refuse");
    CHECK(j["cases"][0]["reading"] == "fp8_row_maxabs.rescue");
    CHECK(j["rules"][0]["reading_kind"] == "open");
    CHECK(j["rules"][0]["choices"]["taken"]["refuse"] == 1);
    CHECK(reports::render_summary(rep).find("fp8_row_maxabs.rescue: took encode 1, refuse 1 (fp8_row_maxabs.rescue open)\n") !=
          std::string::npos);
}

TEST_CASE("readings: a pin keeps one choice; the other then fails", "[readings]") {
    std::vector<SuiteCase> cases{{"scaled.fp8_row_maxabs", tiny_scale_case()}};
    apply_pins(cases, {{"fp8_row_maxabs.rescue", "refuse"}});
    const auto &pinned = cases[0].c;
    CHECK(pinned.expect.alternatives.empty());
    CHECK(pinned.expect.status == NINFER_E_NONFINITE);
    CHECK(run_with(pinned, refusal(NINFER_E_NONFINITE)).status == reports::Status::pass);
    CHECK(run_with(pinned, encoded(tiny_scale_case())).status == reports::Status::fail);

    std::vector<SuiteCase> again{{"scaled.fp8_row_maxabs", tiny_scale_case()}};
    apply_pins(again, {{"fp8_row_maxabs.rescue", "encode"}});
    CHECK(run_with(again[0].c, encoded(tiny_scale_case())).status == reports::Status::pass);
    CHECK(run_with(again[0].c, refusal(NINFER_E_NONFINITE)).status == reports::Status::fail);
    // The call offers the encoded payload's size whichever outcome is expected.
    CHECK(call_of(again[0].c).outputs.at(0).capacity == tiny_scale_case().expect.output(NINFER_PLANE_PAYLOAD).size());
}

TEST_CASE("readings: a pin must name an open reading and one of its choices", "[readings]") {
    CHECK_NOTHROW(check_pins({{"fp8_row_maxabs.rescue", "encode"}}));
    CHECK_THROWS_WITH(check_pins({{"fp8_row_maxabs.rescue", "clip"}}),
                      "--pin fp8_row_maxabs.rescue: unknown choice 'clip'; expected one of: encode, refuse");
    CHECK_THROWS_WITH(check_pins({{"decode.e8m0", "nan"}}),
                      Catch::Matchers::StartsWith("--pin: 'decode.e8m0' is not a rule with an open reading; expected one of: "));
    CHECK_THROWS_WITH(parse_pin("fp8_row_maxabs.rescue"), Catch::Matchers::StartsWith("--pin 'fp8_row_maxabs.rescue': expected RULE=CHOICE"));
    CHECK(parse_pin("a.b=c") == std::pair<std::string, std::string>{"a.b", "c"});
}
