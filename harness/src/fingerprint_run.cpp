// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints in `run`; docs/cli.md "run --fingerprint"): after the
// cases, the fingerprint of each conversion whose convert rules failed, or of every declared one,
// on a domain that holds every tie and boundary class and every failed input (issue 34, item 3).
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

/// The domain of `run` (docs/cli.md "run --fingerprint"): every word of a small source; for fp32
/// the stratified sample (every tie and boundary class) plus the input words of the report's
/// failed cases of the conversion that the sample lacks, so that no failure escapes it.
Domain run_domain(const oracle::Conversion &c, const reports::Report &r) {
    const auto &src = oracle::word_format(c.src);
    Domain d{src.bits <= 16 ? Domain::Kind::all : Domain::Kind::stratified};
    if (d.kind == Domain::Kind::all) return d;
    for (const auto &cr : r.cases) {
        if (cr.status != reports::Status::fail || !convert_rule_of(cr.rule, c.name)) continue;
        for (const auto &m : cr.first) {
            if (m.inputs.empty()) continue;
            std::uint64_t w = 0;
            const auto &h = m.inputs[0];
            const auto [stop, ec] = std::from_chars(h.data(), h.data() + h.size(), w, 16);
            if (ec == std::errc() && stop == h.data() + h.size() && (w & ~src.mask()) == 0 && !d.holds(src, w)) d.extra.push_back(w);
        }
    }
    std::sort(d.extra.begin(), d.extra.end());
    d.extra.erase(std::unique(d.extra.begin(), d.extra.end()), d.extra.end());
    return d;
}

/// A fingerprint that matches every input of a conversion the report fails (a failure the lattice
/// does not see: a status, a plane, a profile's verdict) says so instead of "matches".
void own_up(reports::Fingerprint &f, const reports::Report &r) {
    if (f.matched != f.inputs || !failed(r, f.conversion)) return;
    const auto at = f.sentence.find("): matches ");
    if (at != std::string::npos) f.sentence.replace(at, 11, "): agrees with ");
    f.sentence += fmt::format("; yet this report fails convert.{} on cases the lattice does not see", f.conversion);
}

}  // namespace

std::vector<const oracle::Conversion *> run_targets(Subject &s, const reports::Report &r, bool every) {
    std::vector<const oracle::Conversion *> out;
    if (!s.open_error().empty()) return out;
    for (const auto &c : oracle::kConversions) {
        const bool declared = covers(s.info().capabilities, NINFER_OP_convert, c.dst, c.src, NINFER_LAYOUT_NONE, c.id);
        if (declared && fingerprintable(c) && (every || failed(r, c.name))) out.push_back(&c);
    }
    return out;
}

void add_run_fingerprints(Subject &s, reports::Report &r, bool every, unsigned jobs, std::vector<std::string> &errors) {
    for (const auto *c : run_targets(s, r, every)) {
        const Target t{NINFER_OP_convert, c, nullptr};
        try {
            r.fingerprints.push_back(fingerprint_subject(s, t, run_domain(*c, r), jobs));
            own_up(r.fingerprints.back(), r);
        } catch (const SubjectFailed &e) {
            errors.push_back(fmt::format("fingerprint of {}: {}", c->name, e.what()));
        }
    }
}

}  // namespace ninfer::harness::fingerprint
