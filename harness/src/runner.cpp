// SPDX-License-Identifier: Apache-2.0
// The runner (docs/ARCHITECTURE.md, "The path of a case", steps 3 and 4): collect cases, call
// the subject, compare, report.
#include "ninfer/harness/runner.hpp"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "ninfer/harness/case_cache.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness {

const char *suite_version() { return NINFER_PROJECT_VERSION; }

namespace {

std::string suite_names() {
    std::string s;
    for (const auto &x : suites::suite_catalog()) s += (s.empty() ? "" : ", ") + x.name;
    return s;
}

}  // namespace

CaseSet collect_cases(const RunOptions &opts) {
    CaseSet set;
    for (const auto &name : opts.suites)
        if (!suites::find_suite(name))
            throw UsageError(fmt::format("unknown suite '{}'; expected one of: {}", vectors::echo(name), suite_names()));
    for (const auto &s : suites::suite_catalog()) {
        bool wanted = opts.suites.empty();
        for (const auto &n : opts.suites) wanted = wanted || n == s.name;
        if (wanted) set.suites.push_back(s.name);
    }
    const auto dir = opts.vectors_dir.empty() ? vectors::default_vectors_dir() : opts.vectors_dir;
    set.vectors_dir = dir.string();
    auto loaded = vectors::load(dir, set.suites, opts.level);
    set.manifest_sha256 = loaded.manifest_sha256;
    set.manifest = std::move(loaded.manifest);
    std::size_t next = 0;
    for (const auto &name : set.suites) {
        for (; next < loaded.cases.size() && loaded.suite_of[next] == name; ++next)
            set.cases.push_back({name, std::move(loaded.cases[next])});
        const auto *s = suites::find_suite(name);
        if (opts.level != suites::Level::quick && s->random)
            for (auto &c : seeded_cases(*s, opts.seed, opts.level, opts.case_cache, opts.case_cache_key)) set.cases.push_back({name, std::move(c)});
    }
    return set;
}

Call call_of(const suites::Case &c) {
    Call call;
    call.op = c.op;
    call.format = c.format;
    call.format_in = c.format_in;
    call.layout = c.layout;
    call.method = c.method;
    call.flags = c.flags;
    call.profile = c.profile;
    call.shape = c.shape;
    call.count = c.count;
    call.inputs = c.inputs;
    // The op's output planes, in its order: the expected sizes, or room for any plausible
    // output when a refusal is expected, so that a refusal cannot be a mere E_BUFFER.
    std::uint64_t room = 0;
    if (c.expect.status != NINFER_OK) {
        std::uint64_t in_bytes = 0;
        for (const auto &p : c.inputs) in_bytes = p.bytes.size() > ~0ull - in_bytes ? ~0ull : in_bytes + p.bytes.size();
        const std::uint64_t cap = std::uint64_t{1} << 40;  // 1 TiB: a larger room is refused by the worker anyway
        const std::uint64_t words = suites::is_word_op(c.op) ? (c.count > cap / 8 ? cap : c.count * 8) : 0;
        room = std::max<std::uint64_t>({std::uint64_t{1} << 16, in_bytes > cap / 4 ? cap : 4 * in_bytes, words});
    }
    // An output plane's format (an operator's OUTPUT) is the expected plane's, refusals included.
    // A refusal case whose expected plane is not empty offers exactly that plane's size (the
    // refusal of a short output, e.g. linear.shape's OUTPUT below M*N words); its bytes are
    // never compared.
    for (const auto name : suites::op_planes(c.op, c.format, c.layout).outputs) {
        const auto *want = suites::find_plane(c.expect.outputs, name);
        const bool sized = c.expect.status == NINFER_OK || (want && !want->bytes.empty());
        call.outputs.push_back({name, want ? want->format : 0u, sized ? c.expect.output(name).size() : room});
    }
    return call;
}

bool case_declared(const SubjectInfo &info, const suites::Case &c) {
    // An ABI 1 plugin has two input and three output buffers: a call with more planes (nvfp4's
    // codes, scales, divisors, values) is outside what it can have declared.
    if (info.abi_version == 1) {
        // An operator's compute profile does not exist in ABI 1: `linear` is an ABI 2 op.
        if (c.op == NINFER_OP_linear) return false;
        const auto planes = suites::op_planes(c.op, c.format, c.layout);
        if (planes.inputs.size() > 2 || planes.outputs.size() > 3) return false;
    }
    return covers(info.capabilities, c.op, c.format, c.format_in, c.layout, c.method, c.profile);
}

namespace {

std::string call_text(const suites::Case &c) {
    std::string s(oracle::op_name(c.op));
    if (c.format) s += fmt::format(" format {}", oracle::format_name(c.format));
    if (c.format_in) s += fmt::format(" from {}", oracle::format_name(c.format_in));
    if (c.layout) s += fmt::format(" layout {}", oracle::layout_name(c.layout));
    if (c.method) {
        std::string_view m;
        if (c.op == NINFER_OP_convert) {
            if (const auto *x = oracle::find_id(oracle::kConversions, c.method)) m = x->name;
        } else if (c.op == NINFER_OP_validate) {
            if (const auto *x = oracle::find_id(oracle::kRoles, c.method)) m = x->name;
        } else if (c.op == NINFER_OP_quant_encode) {
            if (const auto *x = oracle::find_id(oracle::kEncoders, c.method)) m = x->name;
        }
        s += m.empty() ? fmt::format(" method {}", c.method) : fmt::format(" method {}", m);
    }
    return s;
}

}  // namespace

reports::CaseResult run_case(Subject &s, const suites::Case &c, const std::string &suite, std::size_t max_mismatches) {
    reports::CaseResult r;
    r.id = c.id;
    r.rule = c.rule;
    const auto *rule = suites::find_rule(c.rule);
    r.sentence = rule ? rule->sentence : "(rule not in the catalog)";
    r.suite = suite;
    r.source = c.source;
    r.suite_reading = c.suite_reading || (rule && rule->suite_reading);
    if (!case_declared(s.info(), c)) {
        r.status = reports::Status::unsupported;
        r.message = "not declared: " + call_text(c);
        return r;
    }
    const Reply reply = s.call(call_of(c));
    auto cmp = compare_reply(c, reply, true, max_mismatches);
    r.status = cmp.status;
    r.elements = cmp.elements;
    r.mismatches = cmp.mismatches;
    r.first = std::move(cmp.first);
    r.classes = std::move(cmp.classes);
    r.message = std::move(cmp.message);
    r.trace = std::move(cmp.trace);
    if (cmp.nan_accepted) {
        r.nan_policy = suites::nan_policy_name(c.nan);
        r.nan_accepted = cmp.nan_accepted;
        r.nan_accepted_first = std::move(cmp.nan_accepted_first);
    }
    return r;
}

reports::SubjectIdentity identity_of(const Subject &s, const std::string &kind, const std::string &path) {
    return {kind, s.info().name, s.info().version, s.info().abi_version, path};
}

reports::Report run_cases(Subject &s, const CaseSet &set, const RunOptions &opts, const reports::SubjectIdentity &id) {
    using clock = std::chrono::steady_clock;
    reports::Report rep;
    rep.kind = "run";
    rep.tool_version = suite_version();
    rep.subject = id;
    rep.open_error = s.open_error();
    rep.vectors_dir = set.vectors_dir;
    rep.vectors_manifest_sha256 = set.manifest_sha256;
    rep.level = suites::level_name(opts.level);
    rep.seed = opts.seed;
    rep.suites = opts.suites;
    rep.options.emplace();
    rep.options->max_mismatches = opts.max_mismatches;
    if (!opts.case_cache.empty()) rep.options->case_cache = reports::CaseCacheUse{opts.case_cache.string(), opts.case_cache_key.id};
    rep.host = reports::host_description();
    rep.started_at = reports::utc_now();
    const auto t0 = clock::now();
    if (rep.open_error.empty()) {
        std::string current;
        std::size_t in_suite = 0, failed = 0;
        auto t_suite = clock::now();
        auto flush = [&] {
            if (opts.progress && !current.empty())
                std::fprintf(stderr, "suite %s: %zu cases, %zu failed (%.1f s)\n", current.c_str(), in_suite, failed,
                             std::chrono::duration<double>(clock::now() - t_suite).count());
        };
        for (const auto &sc : set.cases) {
            if (sc.suite != current) {
                flush();
                current = sc.suite;
                in_suite = failed = 0;
                t_suite = clock::now();
            }
            rep.cases.push_back(run_case(s, sc.c, sc.suite, opts.max_mismatches));
            ++in_suite;
            if (reports::is_failure(rep.cases.back().status)) ++failed;
        }
        flush();
    }
    rep.duration_s = std::chrono::duration<double>(clock::now() - t0).count();
    rep.finished_at = reports::utc_now();
    reports::finalize(rep);
    return rep;
}

}  // namespace ninfer::harness
