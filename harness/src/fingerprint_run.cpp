// SPDX-License-Identifier: Apache-2.0
// Behaviour fingerprints in `run` (docs/cli.md "run --fingerprint"): after the cases, the
// fingerprint of each conversion whose convert rules failed (or of every declared one, or none),
// on a domain bounded by what the run's cases offered that holds every input the cases offered.
#include <algorithm>
#include <charconv>
#include <fmt/format.h>

#include "ninfer/harness/fingerprint.hpp"

namespace ninfer::harness::fingerprint {

namespace {

/// Whether a case's rule is one of the conversion's convert rules.
bool convert_rule_of(const std::string &rule, std::string_view conversion) {
    const std::string base = "convert." + std::string(conversion);
    return rule == base || rule.starts_with(base + ".");
}

bool failed(const reports::Report &r, std::string_view conversion) {
    for (const auto &c : r.cases)
        if (c.status == reports::Status::fail && convert_rule_of(c.rule, conversion)) return true;
    return false;
}

/// Whether a failed case of the conversion failed on something no source word shows (a status, a
/// mismatch without an input word): what a fingerprint cannot see.
bool failed_unseen(const reports::Report &r, std::string_view conversion) {
    for (const auto &c : r.cases) {
        if (c.status != reports::Status::fail || !convert_rule_of(c.rule, conversion)) continue;
        if (c.first.empty()) return true;
        for (const auto &m : c.first)
            if (m.inputs.empty()) return true;
    }
    return false;
}

/// The input words of the report's failed cases of the conversion (its first mismatches).
std::vector<std::uint64_t> failed_inputs(const oracle::Conversion &c, const reports::Report &r) {
    const auto &src = oracle::word_format(c.src);
    std::vector<std::uint64_t> out;
    for (const auto &cr : r.cases) {
        if (cr.status != reports::Status::fail || !convert_rule_of(cr.rule, c.name)) continue;
        for (const auto &m : cr.first) {
            if (m.inputs.empty()) continue;
            std::uint64_t w = 0;
            const auto &h = m.inputs[0];
            const auto [stop, ec] = std::from_chars(h.data(), h.data() + h.size(), w, 16);
            if (ec == std::errc() && stop == h.data() + h.size() && (w & ~src.mask()) == 0) out.push_back(w);
        }
    }
    return out;
}

/// The coordinates of the conversion's own policy that the fingerprint's policy does not share, in
/// words ("nearest-even"): empty when the subject implements the conversion's policy itself.
std::vector<std::string> own_policy_missed(const reports::Fingerprint &f, const oracle::Conversion &c) {
    const auto shape = lattice::conversion_shape(c);
    const auto own = lattice::conversion_policy(c);
    std::vector<std::string> out;
    if (f.rounding != lattice::rounding_name(own.rounding)) out.push_back(lattice::rounding_text(own.rounding));
    if (f.overflow != lattice::overflow_name(own.overflow)) out.push_back(lattice::overflow_text(own.overflow));
    if (f.subnormals != lattice::subnormal_name(own.subnormals)) out.push_back(lattice::subnormal_text(own.subnormals));
    if (f.nan != lattice::nan_name(shape, own)) out.push_back(lattice::nan_text(shape, own));
    if (!f.signless.empty() && f.signless != lattice::signless_name(own.signless)) out.push_back(lattice::signless_text(shape, own.signless));
    if (!f.tiny.empty() && f.tiny != lattice::tiny_name(own.tiny)) out.push_back(lattice::tiny_text(shape, own.tiny));
    return out;
}

/// A fingerprint that matches every input of a conversion the report fails says what that means:
/// "implements fp32_to_bf16_rtz: ..., not convert.fp32_to_bf16_rne's nearest-even" when its policy
/// is another than the conversion's; when it is the conversion's own, "agrees with ...; yet ... on
/// cases the lattice does not see" where a failure shows no source word (a status), else that
/// the subject answered the same inputs otherwise in its cases (it is not deterministic).
void own_up(reports::Fingerprint &f, const oracle::Conversion &c, const reports::Report &r) {
    if (f.matched != f.inputs || !failed(r, f.conversion)) return;
    const auto missed = own_policy_missed(f, c);
    const auto at = f.sentence.find("): matches ");
    if (!missed.empty()) {
        if (at != std::string::npos) f.sentence.replace(at, 11, "): implements ");
        std::string list;
        for (const auto &m : missed) list += (list.empty() ? "" : ", ") + m;
        f.sentence += fmt::format(", not convert.{}'s {}", f.conversion, list);
        if (failed_unseen(r, f.conversion))
            f.sentence += fmt::format("; this report also fails convert.{} on cases the lattice does not see", f.conversion);
        return;
    }
    if (at != std::string::npos) f.sentence.replace(at, 11, "): agrees with ");
    if (failed_unseen(r, f.conversion))
        f.sentence += fmt::format("; yet this report fails convert.{} on cases the lattice does not see", f.conversion);
    else  // every failed word's input is in the domain, where the subject now answered the policy's word
        f.sentence += fmt::format("; yet its cases of convert.{} got other words for inputs it answers here with the "
                                  "policy's: the subject is not deterministic",
                                  f.conversion);
}

}  // namespace

const char *run_fingerprints_name(RunFingerprints w) {
    switch (w) {
    case RunFingerprints::none: return "none";
    case RunFingerprints::failing: return "failing";
    case RunFingerprints::all: return "all";
    }
    return "?";
}

bool parse_run_fingerprints(std::string_view text, RunFingerprints &out) {
    for (const auto w : {RunFingerprints::none, RunFingerprints::failing, RunFingerprints::all})
        if (text == run_fingerprints_name(w)) {
            out = w;
            return true;
        }
    return false;
}

Domain run_domain(const oracle::Conversion &c, const reports::Report &r, const CaseInputs &inputs) {
    const auto &src = oracle::word_format(c.src);
    if (src.bits <= 16) return Domain{Domain::Kind::all};
    // 1. The words the cases offered (W of them), the failed ones among them, deduplicated.
    std::vector<std::uint64_t> offered;
    if (const auto it = inputs.find(c.name); it != inputs.end()) offered = it->second;
    const std::uint64_t w = offered.size();
    const auto failures = failed_inputs(c, r);
    offered.insert(offered.end(), failures.begin(), failures.end());
    std::sort(offered.begin(), offered.end());
    offered.erase(std::unique(offered.begin(), offered.end()), offered.end());
    // 2. The budget: max(floor, factor x W) inputs, filled with whole fraction tops (512 x 6 words each).
    const std::uint64_t budget = std::max(kRunBudgetFloor, kRunBudgetFactor * w);
    constexpr std::uint64_t per_top = 512 * std::size(kStratifiedLow);
    Domain d{budget >= 2048 * per_top ? Domain::Kind::stratified : Domain::Kind::budget};
    if (d.kind == Domain::Kind::budget)
        d.tops = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(budget / per_top, 1, 2047));
    // 3. Every offered word the sample lacks, after it.
    d.extra_are_case_inputs = !inputs.empty();
    for (const auto x : offered)
        if (!d.holds(src, x)) d.extra.push_back(x);
    return d;
}

std::vector<const oracle::Conversion *> run_targets(Subject &s, const reports::Report &r, RunFingerprints which) {
    std::vector<const oracle::Conversion *> out;
    if (!s.open_error().empty() || which == RunFingerprints::none) return out;
    for (const auto &c : oracle::kConversions) {
        const bool declared = covers(s.info().capabilities, NINFER_OP_convert, c.dst, c.src, NINFER_LAYOUT_NONE, c.id);
        if (declared && fingerprintable(c) && (which == RunFingerprints::all || failed(r, c.name))) out.push_back(&c);
    }
    return out;
}

void add_run_fingerprints(Subject &s, reports::Report &r, RunFingerprints which, const CaseInputs &inputs, unsigned jobs,
                          std::vector<std::string> &errors) {
    for (const auto *c : run_targets(s, r, which)) {
        const Target t{NINFER_OP_convert, c, nullptr};
        try {
            r.fingerprints.push_back(fingerprint_subject(s, t, run_domain(*c, r, inputs), jobs));
            own_up(r.fingerprints.back(), *c, r);
        } catch (const SubjectFailed &e) {
            errors.push_back(fmt::format("fingerprint of {}: {}", c->name, e.what()));
        }
    }
}

}  // namespace ninfer::harness::fingerprint
