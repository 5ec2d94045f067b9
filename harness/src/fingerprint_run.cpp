// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints in `run`; docs/cli.md "run --fingerprint"): after the
// cases, the fingerprint of each conversion whose convert rules failed, or of every declared one.
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
        const Domain d{t.shape().src->bits <= 16 ? Domain::Kind::all : Domain::Kind::sparse};  // bounded time
        try {
            r.fingerprints.push_back(fingerprint_subject(s, t, d, jobs));
        } catch (const SubjectFailed &e) {
            errors.push_back(fmt::format("fingerprint of {}: {}", c->name, e.what()));
        }
    }
}

}  // namespace ninfer::harness::fingerprint
