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

/// A subject that declares fp8_row_maxabs (or `caps`) and answers every call with `fn`.
class ScriptedEncoder : public Subject {
public:
    explicit ScriptedEncoder(std::function<Reply(const Call &)> fn,
                             std::vector<ninfer_capability_v2> caps = {{NINFER_OP_quant_encode, 0, 0, 0, NINFER_ENCODER_fp8_row_maxabs, 0}})
        : fn_(std::move(fn)) {
        info_.name = "scripted";
        info_.version = "1";
        info_.abi_version = NINFER_ABI_VERSION;
        info_.capabilities = std::move(caps);
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

namespace {

/// A subject that declares ggml's iq4_nl quantizer and answers every call with `reply`.
reports::CaseResult run_iq4(const suites::Case &c, const Reply &reply) {
    ScriptedEncoder s([&](const Call &) { return reply; },
                      {{NINFER_OP_quant_encode, NINFER_FORMAT_gguf_iq4_nl, 0, 0, NINFER_ENCODER_ggml_quantize_ref, 0}});
    return run_case(s, c, "gguf.quantize", 8);
}

/// The iq4_nl case of the gguf.quantize suite whose id ends in `slug`.
const suites::Case &iq4_case(const std::string &slug) {
    static const auto cases = suites::find_suite("gguf.quantize")->golden(suites::Level::quick);
    for (const auto &x : cases)
        if (x.rule == "gguf.quantize.gguf_iq4_nl" && x.id.ends_with("." + slug)) return x;
    FAIL("no iq4_nl case " << slug);
    return cases.front();
}

/// ggml's own reply to a block below GROUP_MAX_EPS: the oracle's partial outcome with the given
/// d (little-endian at bytes 0-1 of the block at `block`) and arbitrary codes (L[] unwritten).
Reply ggml_like(const suites::Case &c, std::uint16_t d, std::size_t block, std::uint8_t codes) {
    REQUIRE(c.expect.alternatives.size() == 1);
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    r.outputs = c.expect.alternatives[0].outputs;
    auto &bytes = r.outputs.at(0).bytes;
    bytes.at(18 * block) = static_cast<std::uint8_t>(d & 0xFF);
    bytes.at(18 * block + 1) = static_cast<std::uint8_t>(d >> 8);
    for (std::size_t j = 2; j < 18; ++j) bytes.at(18 * block + j) = static_cast<std::uint8_t>(codes + 17 * j);
    return r;
}

}  // namespace

TEST_CASE("readings: iq4_nl below GROUP_MAX_EPS conforms refused or as ggml writes it, d a zero and any codes", "[readings][gguf]") {
    const auto &below = iq4_case("below_group_max_eps");
    CHECK(below.expect.status == NINFER_E_METHOD);
    CHECK(below.expect.reading == "gguf.quantize.gguf_iq4_nl");
    REQUIRE(below.expect.alternatives.size() == 1);
    const auto &alt = below.expect.alternatives[0];
    CHECK(alt.name == "zero_scale");
    // The mask worked by hand: d's 15 magnitude bits are defined (0xFF, 0x7F), its sign and the 16 code bytes are free.
    std::vector<std::uint8_t> mask(18, 0);
    mask[0] = 0xFF;
    mask[1] = 0x7F;
    CHECK(alt.mask.at(0).bytes == mask);
    CHECK(alt.outputs.at(0).bytes == std::vector<std::uint8_t>(18, 0));

    CHECK(run_iq4(below, refusal(NINFER_E_METHOD)).choice == "refuse");
    for (const std::uint8_t codes : {0x00, 0x88, 0x5A}) {
        const auto plus = run_iq4(below, ggml_like(below, 0x0000, 0, codes));
        CHECK(plus.status == reports::Status::pass);
        CHECK(plus.choice == "zero_scale");
        CHECK(run_iq4(below, ggml_like(below, 0x8000, 0, codes)).status == reports::Status::pass);
    }
    // A nonzero scale decodes to nonzero values: neither outcome allows it.
    for (const std::uint16_t d : {0x0001, 0x8001, 0x0100, 0x3C00}) {
        const auto r = run_iq4(below, ggml_like(below, d, 0, 0x88));
        CHECK(r.status == reports::Status::fail);
        CHECK(r.message.find("none of the outcomes gguf.quantize.gguf_iq4_nl allows: refuse (NINFER_E_METHOD) or zero_scale (ok)") == 0);
    }
    CHECK(run_iq4(below, refusal(NINFER_E_NONFINITE)).status == reports::Status::fail);
}

TEST_CASE("readings: an iq4_nl row with one block below GROUP_MAX_EPS holds every other block bit for bit", "[readings][gguf]") {
    const auto &row = iq4_case("row_second_below_eps");
    CHECK(row.expect.status == NINFER_E_METHOD);
    REQUIRE(row.expect.alternatives.size() == 1);
    REQUIRE(row.expect.alternatives[0].outputs.at(0).bytes.size() == 36);
    CHECK(run_iq4(row, ggml_like(row, 0x0000, 1, 0x31)).status == reports::Status::pass);
    auto wrong_first = ggml_like(row, 0x0000, 1, 0x31);
    wrong_first.outputs.at(0).bytes.at(5) ^= 0x10;  // a code of the encoded first block
    CHECK(run_iq4(row, wrong_first).status == reports::Status::fail);
    auto wrong_first_d = ggml_like(row, 0x0000, 1, 0x31);
    wrong_first_d.outputs.at(0).bytes.at(1) ^= 0x80;  // the encoded first block's d's sign: defined there
    CHECK(run_iq4(row, wrong_first_d).status == reports::Status::fail);

    // Pinned to ggml's outcome, the refusal fails and any codes still pass.
    std::vector<SuiteCase> pinned{{"gguf.quantize", row}};
    apply_pins(pinned, {{"gguf.quantize.gguf_iq4_nl", "zero_scale"}});
    CHECK(pinned[0].c.expect.alternatives.empty());
    CHECK(run_iq4(pinned[0].c, ggml_like(row, 0x8000, 1, 0x77)).status == reports::Status::pass);
    CHECK(run_iq4(pinned[0].c, refusal(NINFER_E_METHOD)).status == reports::Status::fail);
}
