// SPDX-License-Identifier: Apache-2.0
// The runner (harness/runner.hpp): capability gating, lies, outcomes, capacities, case
// collection, reports; on scripted in-process subjects and on the bundled reference plugin.
#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <tuple>

#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

/// A scripted subject: declared capabilities and a reply function.
class FakeSubject : public Subject {
public:
    FakeSubject(std::vector<ninfer_capability_v2> caps, std::function<Reply(const Call &)> fn) : fn_(std::move(fn)) {
        info_.name = "fake";
        info_.version = "1";
        info_.abi_version = NINFER_ABI_VERSION;
        info_.capabilities = std::move(caps);
    }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return error_; }
    Reply call(const Call &c) override {
        ++calls;
        last = c;
        return fn_(c);
    }
    int calls = 0;
    Call last;

private:
    SubjectInfo info_;
    std::string error_;
    std::function<Reply(const Call &)> fn_;
};

suites::Case bf16_case(std::string slug, std::uint64_t in, std::uint64_t out) {
    suites::Case k;
    k.id = "convert.fp32_to_bf16_rne/" + slug;
    k.rule = "convert.fp32_to_bf16_rne";
    k.op = NINFER_OP_convert;
    k.format = NINFER_FORMAT_bf16;
    k.format_in = NINFER_FORMAT_fp32;
    k.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    k.count = 1;
    suites::put_word(k.input(NINFER_PLANE_WORDS), in, 4);
    suites::put_word(k.expect.output(NINFER_PLANE_WORDS), out, 2);
    return k;
}

Reply words(std::vector<std::uint8_t> out, std::int32_t status = NINFER_OK) {
    Reply r;
    r.outcome = Outcome::returned;
    r.status = status;
    r.outputs = {{NINFER_PLANE_WORDS, 0, std::move(out)}};
    return r;
}

const ninfer_capability_v2 kConvertAny{NINFER_OP_convert, 0, 0, 0, 0, 0};

}  // namespace

TEST_CASE("runner: an undeclared case is unsupported and never called") {
    FakeSubject s({{NINFER_OP_decode, 0, 0, 0, 0, 0}}, [](const Call &) { return words({}); });
    const auto r = run_case(s, bf16_case("one", 0x3f800000, 0x3f80), "scalar.convert", 8);
    CHECK(r.status == reports::Status::unsupported);
    CHECK(s.calls == 0);
    CHECK(r.message.find("not declared: convert format bf16 from fp32") == 0);
}

TEST_CASE("runner: a declared capability answered with E_UNSUPPORTED is a lie") {
    FakeSubject s({kConvertAny}, [](const Call &) { return words({}, NINFER_E_UNSUPPORTED); });
    const auto r = run_case(s, bf16_case("one", 0x3f800000, 0x3f80), "scalar.convert", 8);
    CHECK(r.status == reports::Status::error);
    CHECK(r.message.find("declared capability but returned unsupported") == 0);
}

TEST_CASE("runner: call capacities are the expected sizes, error cases get room") {
    FakeSubject s({kConvertAny}, [](const Call &c) { return words(std::vector<std::uint8_t>(c.outputs.at(0).capacity, 0)); });
    auto k = bf16_case("one", 0x3f800000, 0x3f80);
    run_case(s, k, "x", 8);
    REQUIRE(s.last.outputs.size() == 1);
    CHECK(s.last.outputs[0].name == NINFER_PLANE_WORDS);
    CHECK(s.last.outputs[0].capacity == 2);
    CHECK(s.last.inputs == k.inputs);
    CHECK(s.last.method == NINFER_CONVERSION_fp32_to_bf16_rne);
    k.expect.status = NINFER_E_INVALID_ARGUMENT;
    k.expect.outputs.clear();
    CHECK(call_of(k).outputs.at(0).capacity >= 65536);
    // A count whose 8 bytes per word overflow uint64: the room saturates instead of wrapping
    // to a few bytes (which would turn the expected refusal into a mere E_BUFFER).
    k.count = (std::uint64_t{1} << 61) + 1;
    CHECK(call_of(k).outputs.at(0).capacity >= std::uint64_t{1} << 40);
    // A refusal case with a non-empty expected plane offers exactly its size (a short output:
    // linear.shape's OUTPUT below M*N words), with the plane's format.
    suites::Case l;
    l.op = NINFER_OP_linear;
    l.format = NINFER_FORMAT_fp32;
    l.layout = NINFER_LAYOUT_contiguous_le_v1;
    l.profile = NINFER_PROFILE_f32_accumulate;
    l.shape = {2, 4};
    l.count = 3;
    l.expect.status = NINFER_E_SIZE;
    l.expect.outputs = {suites::Plane{NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, std::vector<std::uint8_t>(20, 0)}};
    REQUIRE(call_of(l).outputs.size() == 1);
    CHECK(call_of(l).outputs[0].capacity == 20);
    CHECK(call_of(l).outputs[0].format == NINFER_FORMAT_fp32);
    l.expect.outputs[0].bytes.clear();  // empty: room, as any refusal
    CHECK(call_of(l).outputs[0].capacity >= 65536);
    // Every output plane of the op is offered, by name, in the op's order.
    suites::Case q;
    q.op = NINFER_OP_quant_decode;
    q.format = NINFER_FORMAT_q8_g32_fp16;
    q.layout = NINFER_LAYOUT_row_split_k128_v1;
    q.expect.output(NINFER_PLANE_CODES) = {1, 2};
    q.expect.output(NINFER_PLANE_SCALES) = {0, 0x3c};
    q.expect.output(NINFER_PLANE_VALUES) = std::vector<std::uint8_t>(8, 0);
    const auto qc = call_of(q);
    REQUIRE(qc.outputs.size() == 3);
    CHECK(qc.outputs[0].name == NINFER_PLANE_CODES);
    CHECK(qc.outputs[1].capacity == 2);
    CHECK(qc.outputs[2].name == NINFER_PLANE_VALUES);
    CHECK(qc.outputs[2].capacity == 8);
}

TEST_CASE("runner: outcomes become statuses and the run goes on") {
    int n = 0;
    FakeSubject s({kConvertAny}, [&](const Call &) {
        Reply r;
        switch (n++) {
        case 0: r.outcome = Outcome::crash; r.message = "worker killed by signal 11"; return r;
        case 1: r.outcome = Outcome::timeout; return r;
        case 2: r.outcome = Outcome::error; r.message = "garbage frame"; return r;
        case 3: return words({0x81, 0x3f});  // 3f81: one ulp off
        default: return words(std::vector<std::uint8_t>{0x80, 0x3f});
        }
    });
    CaseSet set;
    set.suites = {"scalar.convert"};
    for (int i = 0; i < 5; ++i) set.cases.push_back({"scalar.convert", bf16_case("c" + std::to_string(i), 0x3f800000, 0x3f80)});
    RunOptions opts;
    const auto rep = run_cases(s, set, opts, {"fake", "fake", "1", 1, "in-process"});
    REQUIRE(rep.cases.size() == 5);
    CHECK(rep.cases[0].status == reports::Status::crash);
    CHECK(rep.cases[0].message == "worker killed by signal 11");
    CHECK(rep.cases[1].status == reports::Status::timeout);
    CHECK(rep.cases[2].status == reports::Status::error);
    CHECK(rep.cases[3].status == reports::Status::fail);
    CHECK(rep.cases[3].first.at(0).cls == "off_by_one_ulp");
    CHECK(rep.cases[4].status == reports::Status::pass);
    CHECK(rep.totals.cases == 5);
    CHECK(rep.totals.pass == 1);
    CHECK(rep.rules.size() == 1);
    CHECK(rep.rules[0].status == reports::Status::crash);
    CHECK(reports::run_failed(rep));
    CHECK(rep.seed == 20261129);
    CHECK(rep.kind == "run");
}

TEST_CASE("runner: an unknown suite is a usage error naming the accepted ones") {
    RunOptions opts;
    opts.suites = {"no.such.suite"};
    try {
        collect_cases(opts);
        FAIL("no UsageError");
    } catch (const UsageError &e) {
        const std::string what = e.what();
        CHECK(what.find("unknown suite 'no.such.suite'; expected one of: ") == 0);
        for (const auto &s : suites::suite_catalog()) CHECK(what.find(s.name) != std::string::npos);
    }
}

TEST_CASE("runner: level full adds the seeded random cases, reproducibly") {
    RunOptions quick, full;
    full.level = suites::Level::full;
    const auto a = collect_cases(quick), b = collect_cases(full), c = collect_cases(full);
    CHECK_FALSE(a.cases.empty());
    CHECK(b.cases.size() > a.cases.size());
    REQUIRE(b.cases.size() == c.cases.size());
    for (std::size_t i = 0; i < b.cases.size(); ++i) CHECK(b.cases[i].c.inputs == c.cases[i].c.inputs);
    CHECK(b.manifest_sha256.size() == 64);
}

TEST_CASE("the golden cases of every suite cover the calls of its random ones at full, so that `run` may leave out a "
          "suite none of whose golden cases its subject declares (issue 32, item 4)", "[.golden-covers-random]") {
    // Label long (harness/cli.cmake): it generates every suite's random cases, what `run` saves.
    using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;
    const auto key = [](const suites::Case &c) { return Key{c.op, c.format, c.format_in, c.layout, c.method, c.profile}; };
    for (const auto &s : suites::suite_catalog()) {
        if (!s.random) continue;
        std::set<Key> golden;
        for (const auto &c : s.golden(suites::Level::full)) golden.insert(key(c));
        for (const auto &c : s.random(suites::kDefaultSeed, suites::Level::full)) {
            INFO(s.name << " " << c.id);
            CHECK(golden.count(key(c)) == 1);
        }
    }
}
