// SPDX-License-Identifier: Apache-2.0
// The statistical rules of stochastic rounding on a subject (issue 24 item 3; suites/SR.md).
#include "ninfer/harness/sr_run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::harness {

std::string convert_lanes(Subject &s, const oracle::Conversion &c, const std::vector<std::uint32_t> &xs,
                          const std::vector<std::uint32_t> *random, std::vector<std::uint64_t> &words) {
    const auto &dst = oracle::word_format(c.dst);
    const std::uint64_t n = xs.size();
    Call call;
    call.op = NINFER_OP_convert;
    call.format = c.dst;
    call.format_in = c.src;
    call.method = c.id;
    call.count = n;
    // the source words, and the random plane when given (without it the subject draws its own)
    const auto plane = [&](std::uint32_t id, const std::vector<std::uint32_t> &values) {
        Plane p{id, 0, std::vector<std::uint8_t>(4 * n)};
        for (std::uint64_t i = 0; i < n; ++i) abi::store_le(p.bytes.data() + 4 * i, values[i], 4);
        call.inputs.push_back(std::move(p));
    };
    plane(NINFER_PLANE_WORDS, xs);
    if (random) plane(NINFER_PLANE_RANDOM, *random);
    call.outputs.push_back({NINFER_PLANE_WORDS, 0, n * static_cast<std::uint64_t>(dst.bytes())});
    const Reply r = s.call(call);
    if (r.outcome != Outcome::returned) return fmt::format("{}: {}", outcome_name(r.outcome), r.message);
    if (r.status != NINFER_OK) return fmt::format("status {}: {}", r.status, r.message);
    const auto &out = r.output(NINFER_PLANE_WORDS);
    if (out.size() != n * static_cast<std::uint64_t>(dst.bytes()))
        return fmt::format("{} bytes written, {} expected", out.size(), n * dst.bytes());
    for (std::uint64_t i = 0; i < n; ++i) words.push_back(abi::load_le(out.data() + dst.bytes() * i, dst.bytes()));
    return "";
}

std::string draw_self(Subject &s, const oracle::Conversion &c, std::uint32_t x, std::uint64_t n,
                      std::vector<std::uint64_t> &words) {
    return convert_lanes(s, c, std::vector<std::uint32_t>(n, x), nullptr, words);
}

bool declares_sr(const SubjectInfo &info, const oracle::Conversion &c) {
    return covers(info.capabilities, NINFER_OP_convert, c.dst, c.src, 0, c.id, 0) ||
           covers(info.capabilities, NINFER_OP_convert, c.dst, c.src, 0, c.id, NINFER_SR_SELF_DRAWN);
}

std::vector<SrVerdict> run_sr_statistics(Subject &s, suites::sr::Level run, std::uint64_t lanes,
                                         const std::map<std::string, std::string> &pins) {
    std::vector<suites::sr::Test> chosen;
    for (const auto &t : suites::sr::tests())
        if (declares_sr(s.info(), oracle::conversion(t.conversion))) chosen.push_back(t);
    chosen = apply_sr_pins(std::move(chosen), pins);
    return run_sr_tests(s, chosen, suites::sr::per_test(run, chosen.size()), lanes);
}

std::vector<SrVerdict> run_sr_tests(Subject &s, const std::vector<suites::sr::Test> &tests, suites::sr::Level level,
                                    std::uint64_t lanes) {
    std::vector<SrVerdict> out;
    for (const auto &t : tests) {
        SrVerdict v;
        v.test = t;
        const auto &c = oracle::conversion(t.conversion);
        std::vector<std::uint64_t> words;
        // a test pairing lanes of two calls makes its calls no longer than its lag
        const std::uint64_t per_call = t.lag >= suites::sr::kCallLanes ? std::min(lanes, t.lag) : lanes;
        for (std::uint64_t done = 0; done < t.draws && v.error.empty(); done += per_call)
            v.error = draw_self(s, c, t.x, std::min(per_call, t.draws - done), words);
        const std::uint64_t trials = t.kind == suites::sr::Kind::unbiased ? t.draws : t.draws / 2;
        v.region = suites::sr::acceptance(trials, t.p, level);
        if (v.error.empty()) {
            v.tally = suites::sr::tally(t, words);
            v.passed = v.tally.strays == 0 && v.region.accepts(v.tally.count);
        }
        out.push_back(std::move(v));
    }
    return out;
}

std::vector<reports::CaseResult> sr_case_results(const std::vector<SrVerdict> &verdicts) {
    std::vector<reports::CaseResult> out;
    for (const auto &v : verdicts) {
        reports::CaseResult r;
        r.rule = v.test.rule;
        r.id = v.test.rule + "/" + v.test.input;
        const suites::Rule *rule = suites::find_rule(r.rule);
        r.sentence = rule ? rule->sentence : "";
        r.suite_reading = rule && rule->suite_reading;
        r.suite = "scalar.convert_sr_statistics";
        r.source = "statistical";
        r.elements = v.tally.trials;
        if (!v.error.empty()) {
            r.status = reports::Status::error;
            r.message = v.error;
        } else {
            r.status = v.passed ? reports::Status::pass : reports::Status::fail;
            r.mismatches = v.passed ? 0 : 1;
            const auto p = suites::sr::reduced(v.test.p);
            r.message = fmt::format("{} {} of {} (p = {}/2^{}, accepted {}..{}){}{}",
                                    v.test.kind == suites::sr::Kind::unbiased ? "ups" : "(up, up) pairs", v.tally.count,
                                    v.tally.trials, p.num, p.bits, v.region.lo, v.region.hi,
                                    v.tally.strays ? fmt::format("; {} words neither neighbour", v.tally.strays) : "",
                                    v.test.convention.empty() ? "" : "; pinned convention " + v.test.convention);
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace ninfer::harness
