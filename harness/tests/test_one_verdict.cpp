// SPDX-License-Identifier: Apache-2.0
// run and sweep give one verdict (issue 21, section 3; docs/cli.md "sweep"): every word of every
// golden conversion case gets the same verdict from `run`'s comparison (the oracle's expected
// word under the case's NaN policy) and from a sweep's (the native expected word under the
// conversion's NaN principle, within the rule's domain); a sweep counts the source words outside
// the domain as not judged instead of failing them, and names the class of a failing input.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ninfer/harness/compare.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "ninfer/suites/conversions.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rule_ids.hpp"

using namespace ninfer;
using namespace ninfer::harness;

namespace {

std::uint64_t load(const std::vector<std::uint8_t> &bytes, std::size_t i, int width) {
    std::uint64_t w = 0;
    for (int b = 0; b < width; ++b) w |= static_cast<std::uint64_t>(bytes[i * width + b]) << (8 * b);
    return w;
}

void store(std::vector<std::uint8_t> &bytes, std::size_t i, int width, std::uint64_t w) {
    for (int b = 0; b < width; ++b) bytes[i * width + b] = static_cast<std::uint8_t>(w >> (8 * b));
}

/// The native (sweep) expected word of a conversion.
std::uint64_t native_word(const oracle::Conversion &c, std::uint64_t src) {
    std::uint8_t in[8] = {}, out[8] = {};
    for (int b = 0; b < 8; ++b) in[b] = static_cast<std::uint8_t>(src >> (8 * b));
    REQUIRE(native::convert_batch(c.id, in, out, 1));
    std::uint64_t w = 0;
    for (int b = 0; b < 8; ++b) w |= static_cast<std::uint64_t>(out[b]) << (8 * b);
    return w & oracle::word_format(c.dst).mask();
}

/// Actual words a subject might write instead of the expected one: the expected word, its last
/// bit flipped, its sign flipped, the target's positive canonical NaN (or largest word), zero.
std::vector<std::function<std::uint64_t(std::uint64_t)>> candidates(const oracle::WordFormat &dst) {
    const std::uint64_t mask = dst.mask(), sign = dst.has_sign ? std::uint64_t{1} << (dst.bits - 1) : 0;
    const std::uint64_t nan = word_is_nan(dst, mask >> 1) ? mask >> 1 : mask;
    return {[](std::uint64_t e) { return e; },
            [mask](std::uint64_t e) { return (e ^ 1) & mask; },
            [mask, sign](std::uint64_t e) { return (e ^ sign) & mask; },
            [nan](std::uint64_t) { return nan; },
            [](std::uint64_t) { return std::uint64_t{0}; }};
}

/// A conversion subject in this process: the native word, changed by `behave(src, native)`.
class FakeConverter : public Subject {
public:
    FakeConverter(const oracle::Conversion &c, std::function<std::uint64_t(std::uint64_t, std::uint64_t)> behave)
        : conv_(c), behave_(std::move(behave)) {
        info_.name = "fake";
        info_.version = "0";
        info_.abi_version = 2;
        info_.capabilities.push_back({NINFER_OP_convert, c.dst, c.src, 0, c.id, 0});
    }
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return error_; }
    Reply call(const Call &call) override {
        const auto &src = oracle::word_format(conv_.src), &dst = oracle::word_format(conv_.dst);
        std::vector<std::uint8_t> out(call.count * dst.bytes());
        for (std::uint64_t i = 0; i < call.count; ++i) {
            const std::uint64_t w = call.iota ? call.iota->start + i : load(call.inputs.at(0).bytes, i, src.bytes());
            store(out, i, dst.bytes(), behave_(w, native_word(conv_, w)) & dst.mask());
        }
        Reply r;
        r.outcome = Outcome::returned;
        r.status = NINFER_OK;
        r.outputs.push_back({NINFER_PLANE_WORDS, dst.id, std::move(out)});
        return r;
    }

private:
    const oracle::Conversion &conv_;
    std::function<std::uint64_t(std::uint64_t, std::uint64_t)> behave_;
    SubjectInfo info_;
    std::string error_;
};

SweepOptions sweep_of(const oracle::Conversion &c, std::uint64_t start, std::uint64_t count) {
    SweepOptions o;
    o.op = NINFER_OP_convert;
    o.conversion = c.id;
    o.start = start;
    o.count = count;
    o.batch = 1 << 16;
    o.max_mismatches = 4;
    return o;
}

}  // namespace

TEST_CASE("run and sweep judge every word of every golden conversion case alike", "[sweep][verdict]") {
    RunOptions opts;
    opts.suites = {"scalar.convert"};
    opts.level = suites::Level::full;
    const CaseSet set = collect_cases(opts);
    std::size_t words = 0, judged = 0;
    std::vector<std::string> disagreements;
    for (const auto &sc : set.cases) {
        const auto &c = sc.c;
        if (c.op != NINFER_OP_convert) continue;
        const auto *conv = oracle::find_id(oracle::kConversions, c.method);
        REQUIRE(conv != nullptr);
        if (ninfer::abi::is_stochastic(*conv)) continue;  // a sweep has no random plane; run judges sr alone
        const auto &src = oracle::word_format(conv->src), &dst = oracle::word_format(conv->dst);
        // The payload profile is swept with --nan-payload: bit for bit; the sign profile asks a NaN
        // of the input's sign (the sweep's word verdict under policy same_sign).
        const bool payload = c.rule == suites::nan_payload_rule(*conv), sign = c.rule == suites::nan_sign_rule(*conv);
        const auto policy = payload ? suites::NanPolicy::exact
                            : sign  ? suites::NanPolicy::same_sign
                                    : suites::nan_principle(*conv).policy;
        const auto &in = suites::plane_bytes(c.inputs, NINFER_PLANE_WORDS);
        const auto &expected = c.expect.output(NINFER_PLANE_WORDS);
        for (const auto &candidate : candidates(dst)) {
            std::vector<std::uint8_t> actual(expected.size());
            for (std::uint64_t i = 0; i < c.count; ++i) store(actual, i, dst.bytes(), candidate(load(expected, i, dst.bytes())));
            Reply r;
            r.outcome = Outcome::returned;
            r.status = NINFER_OK;
            r.outputs.push_back({NINFER_PLANE_WORDS, dst.id, actual});
            const auto cmp = compare_reply(c, r, true, c.count + 1);
            std::vector<bool> run_fails(c.count, false);
            for (const auto &m : cmp.first)
                if (m.plane == "words" && m.index < c.count) run_fails[m.index] = true;
            for (std::uint64_t i = 0; i < c.count; ++i) {
                const std::uint64_t w = load(in, i, src.bytes()), a = load(actual, i, dst.bytes());
                const auto v = sweep_word_verdict(*conv, policy, w, native_word(*conv, w), a);
                ++words;
                judged += v != WordVerdict::not_judged;
                if (v == WordVerdict::not_judged || (v == WordVerdict::fail) != run_fails[i])
                    disagreements.push_back(fmt::format("{} word {:x} actual {:x}: run {}, sweep {}", c.id, w, a,
                                                        run_fails[i] ? "fail" : "pass",
                                                        v == WordVerdict::fail ? "fail" : v == WordVerdict::pass ? "pass" : "not judged"));
            }
        }
    }
    INFO(disagreements.size() << " disagreements; first: " << (disagreements.empty() ? "" : disagreements.front()));
    CHECK(disagreements.empty());
    CHECK(words > 100000);
    CHECK(judged == words);  // run offers no word outside a rule's domain
}

TEST_CASE("a sweep counts NaN inputs outside fp32_to_e2m1's domain as not judged, and passes what run passes",
          "[sweep][verdict]") {
    const auto &conv = *oracle::find_id(oracle::kConversions, NINFER_CONVERSION_fp32_to_e2m1_rne_satfinite);
    REQUIRE(suites::conversion_domain_is_partial(conv));
    // ml_dtypes' behaviour: the MX specification leaves a NaN input implementation-defined; it
    // writes -0 (0x8). Every finite and infinite input converts correctly.
    const auto is_nan = [](std::uint64_t w) { return (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu) != 0; };
    FakeConverter mx(conv, [&](std::uint64_t w, std::uint64_t native) { return is_nan(w) ? 0x8 : native; });
    const auto id = identity_of(mx, "exec", "fake");
    // Largest finite floats, +infinity and the first 2^20 positive NaNs.
    const std::uint64_t start = 0x7F7FFF00, count = 0x100200;
    const auto res = run_sweep(mx, sweep_of(conv, start, count), id);
    const auto &cr = res.report.cases.at(0);
    CHECK(cr.status == reports::Status::pass);
    CHECK(cr.mismatches == 0);
    std::uint64_t nans = 0;
    for (std::uint64_t w = start; w < start + count; ++w) nans += is_nan(w);
    CHECK(nans == 0x1000FF);
    CHECK(cr.not_judged == nans);
    CHECK(cr.not_judged_why.find("outside the conversion's domain") != std::string::npos);
    CHECK(reports::render_summary(res.report).find("not judged: 1048831 source words of convert.fp32_to_e2m1_rne_satfinite") !=
          std::string::npos);
    const auto json = reports::to_json(res.report);
    CHECK(json["cases"][0]["not_judged"]["count"] == nans);

    // The same subject, wrong on +infinity: that input is judged and named.
    FakeConverter wrong_inf(conv, [&](std::uint64_t w, std::uint64_t native) {
        return w == 0x7F800000 ? 0x0 : is_nan(w) ? 0x8 : native;
    });
    const auto bad = run_sweep(wrong_inf, sweep_of(conv, start, count), id).report.cases.at(0);
    CHECK(bad.status == reports::Status::fail);
    CHECK(bad.mismatches == 1);
    REQUIRE(bad.first.size() == 1);
    CHECK(bad.first[0].location == "source word 7f800000 (infinity)");
    CHECK(bad.not_judged == nans);
}

TEST_CASE("a conversion without undefined inputs judges every swept word", "[sweep][verdict]") {
    const auto &conv = *oracle::find_id(oracle::kConversions, NINFER_CONVERSION_fp32_to_bf16_rne);
    CHECK_FALSE(suites::conversion_domain_is_partial(conv));
    // A NaN input whose result has lost its sign (7f812345 -> ffc1): judged, failed, named.
    FakeConverter canonical(conv, [](std::uint64_t w, std::uint64_t native) { return w == 0x7F812345 ? 0xFFC1 : native; });
    const auto r = run_sweep(canonical, sweep_of(conv, 0x7F812340, 0x20), identity_of(canonical, "exec", "fake")).report;
    const auto &cr = r.cases.at(0);
    CHECK(cr.not_judged == 0);
    CHECK(cr.mismatches == 1);
    REQUIRE(cr.first.size() == 1);
    CHECK(cr.first[0].location == "source word 7f812345 (NaN input)");
}
