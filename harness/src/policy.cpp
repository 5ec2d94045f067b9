// SPDX-License-Identifier: Apache-2.0
// Judging a conversion by a lattice point (docs/cli.md "Judging by a policy"): a library that
// implements a documented policy the registry has no conversion for (E8M0 with zero, negatives and
// overflow to the NaN 0xff; a NaN of the input's sign) is judged exactly against that policy's
// words, which the oracle's fingerprint lattice computes by exact integer logic (policy_word,
// proven against round_dyadic by the fingerprint tests), never by the code under test.
#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/suggest.hpp"
#include "ninfer/suites/case.hpp"
#include "ninfer/vectors/bounded_input.hpp"

namespace ninfer::harness {

namespace lattice = oracle::lattice;

namespace {

std::vector<std::string> covered_conversion_names() {
    std::vector<std::string> out;
    for (const auto &c : oracle::kConversions)
        if (!abi::is_stochastic(c)) out.emplace_back(c.name);
    return out;
}

}  // namespace

JudgedPolicy judged_policy(const std::string &name, const std::string &text) {
    const oracle::Conversion *c = nullptr;
    for (const auto &x : oracle::kConversions)
        if (x.name == name) c = &x;
    if (!c || abi::is_stochastic(*c))
        throw UsageError(unknown_name_line(fmt::format("--policy: '{}' is not a conversion the lattice covers (an sr conversion "
                                                       "is judged by --pin CONVENTION)", vectors::echo(name)),
                                           name, covered_conversion_names()));
    const auto shape = lattice::conversion_shape(*c);
    JudgedPolicy p{c, {}, {}};
    if (const auto why = lattice::parse_policy(shape, text, p.policy); !why.empty())
        throw UsageError(fmt::format("--policy convert.{}: {} (e.g. {}, the conversion's own)", name, vectors::echo(why),
                                     lattice::policy_spelling(shape, lattice::conversion_policy(*c))));
    p.spelling = lattice::policy_spelling(shape, p.policy);
    return p;
}

std::pair<std::string, std::string> parse_policy_option(const std::string &text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size() || text.rfind("convert.", 0) != 0)
        throw UsageError(fmt::format("--policy '{}': expected convert.NAME=POINT, e.g. "
                                     "convert.fp32_to_e8m0_rup_satfinite=rup/nan/kept/signed_canonical/nan/nan",
                                     vectors::echo(text)));
    return {text.substr(0, eq), text.substr(eq + 1)};
}

void check_policies(const std::map<std::string, std::string> &policies) {
    for (const auto &[rule, point] : policies) {
        if (!rule.starts_with("convert."))
            throw UsageError(fmt::format("--policy '{}': expected a conversion's rule, convert.NAME", vectors::echo(rule)));
        (void)judged_policy(rule.substr(8), point);
    }
}

void policy_words(const JudgedPolicy &p, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    const auto shape = lattice::conversion_shape(*p.conversion);
    const int ib = (shape.src->bits + 7) / 8, ob = (shape.dst->bits + 7) / 8;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t x = abi::load_le(in + i * ib, ib);
        abi::store_le(out + i * ob, lattice::policy_word(shape, lattice::decompose(shape, x), p.policy), ob);
    }
}

void apply_policies(std::vector<SuiteCase> &cases, const std::map<std::string, std::string> &policies) {
    if (policies.empty()) return;
    check_policies(policies);
    std::map<std::uint32_t, JudgedPolicy> by_id;
    for (const auto &[rule, point] : policies) {
        auto p = judged_policy(rule.substr(8), point);
        by_id[p.conversion->id] = std::move(p);
    }
    std::vector<SuiteCase> kept;
    kept.reserve(cases.size());
    for (auto &sc : cases) {
        const auto it = sc.c.op == NINFER_OP_convert ? by_id.find(sc.c.method) : by_id.end();
        if (it == by_id.end()) {
            kept.push_back(std::move(sc));
            continue;
        }
        const std::string main_rule = "convert." + std::string(it->second.conversion->name);
        if (sc.c.rule != main_rule) continue;  // a profile rule: the policy decides its NaNs
        auto &c = sc.c;
        if (c.expect.status == NINFER_OK) {
            const auto &in = c.input(NINFER_PLANE_WORDS);
            std::vector<std::uint8_t> out(c.count * static_cast<std::uint64_t>(suites::out_word_bytes(c)));
            policy_words(it->second, in.data(), out.data(), c.count);
            c.expect.outputs = {{NINFER_PLANE_WORDS, 0, std::move(out)}};
            c.nan = suites::NanPolicy::exact;
        }
        c.expect.reading.clear();
        c.expect.choice.clear();
        c.expect.alternatives.clear();
        c.expect.mask.clear();
        kept.push_back(std::move(sc));
    }
    cases = std::move(kept);
}

}  // namespace ninfer::harness
