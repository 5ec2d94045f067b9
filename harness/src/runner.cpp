// SPDX-License-Identifier: Apache-2.0
// The runner (docs/ARCHITECTURE.md, "The path of a case", steps 3 and 4): collect cases, call
// the subject, compare, report.
#include "ninfer/harness/runner.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <cstdio>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/methods.hpp"
#include "ninfer/harness/case_cache.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/harness/progress.hpp"
#include "ninfer/harness/suggest.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/sr_conventions.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness {

const char *suite_version() { return NINFER_PROJECT_VERSION; }

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> suite_names() {
    std::vector<std::string> names;
    for (const auto &x : suites::suite_catalog()) names.push_back(x.name);
    return names;
}

std::vector<std::string> choice_names(const suites::Rule &r) {
    std::vector<std::string> names;
    for (const auto &c : r.choices) names.push_back(c.name);
    return names;
}

/// The rules whose reading is open: those --pin takes.
std::vector<std::string> open_rule_ids() {
    std::vector<std::string> ids;
    for (const auto &x : suites::rule_catalog())
        if (x.reading_kind == suites::ReadingKind::open) ids.push_back(x.id);
    return ids;
}

}  // namespace

namespace {

/// The sr conversion whose exact rule `rule` is ("convert.fp32_to_e4m3fn_sr_satfinite"), else none:
/// `--pin` of that rule names the SR convention its exact cases are judged by (issue 34;
/// suites/SR.md, "Conventions").
const oracle::Conversion *sr_pinned_conversion(const std::string &rule) {
    for (const auto &c : oracle::kConversions)
        if (abi::is_stochastic(c) && rule == "convert." + std::string(c.name)) return &c;
    return nullptr;
}

/// "NAME" or "NAME:K" (K random bits, for gfloat's conventions: k a parameter, srnumbits).
std::optional<std::pair<oracle::SrConvention, int>> sr_choice(const std::string &choice) {
    const auto colon = choice.find(':');
    const auto v = oracle::find_sr_convention(std::string_view(choice).substr(0, colon));
    if (!v) return std::nullopt;
    if (colon == std::string::npos) return std::pair{*v, 0};
    const std::string k = choice.substr(colon + 1);
    if (v->k != 0 || v->place != oracle::SrPlace::result_quantum || v->name == "ninfer" || k.empty() || k.size() > 2 ||
        k.find_first_not_of("0123456789") != std::string::npos || std::stoi(k) < 1 || std::stoi(k) > 32)
        return std::nullopt;
    return std::pair{*v, std::stoi(k)};
}

std::vector<std::string> sr_convention_names() {
    std::vector<std::string> names;
    for (const auto &v : oracle::kSrConventions) names.emplace_back(v.name);
    return names;
}

/// The expected words of an sr case recomputed under the pinned convention (the random plane's values).
void pin_sr_case(suites::Case &c, const oracle::Conversion &cv, const oracle::SrConvention &v, int k) {
    const auto &words = c.input(NINFER_PLANE_WORDS);
    const auto &random = c.input(NINFER_PLANE_RANDOM);
    auto &out = c.expect.output(NINFER_PLANE_WORDS);
    const int ob = oracle::word_format(cv.dst).bytes();
    if (random.size() != 4 * c.count || words.size() != 4 * c.count || out.size() != ob * c.count) return;
    for (std::uint64_t i = 0; i < c.count; ++i) {
        const auto w = abi::load_le(words.data() + 4 * i, 4);
        const auto r = static_cast<std::uint32_t>(abi::load_le(random.data() + 4 * i, 4));
        abi::store_le(out.data() + ob * i, oracle::convert_word_sr_as(cv, w, r, v, k), ob);
    }
}

}  // namespace

void apply_pins(std::vector<SuiteCase> &cases, const std::map<std::string, std::string> &pins) {
    if (pins.empty()) return;
    for (const auto &[rule, choice] : pins)
        if (const auto *cv = sr_pinned_conversion(rule)) {
            const auto [v, k] = *sr_choice(choice);  // check_pins accepted it
            for (auto &sc : cases)
                if (sc.c.op == NINFER_OP_convert && sc.c.method == cv->id) pin_sr_case(sc.c, *cv, v, k);
        }
    for (auto &sc : cases)
        if (const auto it = pins.find(sc.c.expect.reading); it != pins.end() && !sc.c.expect.alternatives.empty())
            if (!suites::pin_choice(sc.c, it->second))
                throw UsageError(fmt::format("case {} has no outcome '{}' of {}", sc.c.id, it->second, it->first));
}

std::vector<suites::sr::Test> apply_sr_pins(std::vector<suites::sr::Test> tests, const std::map<std::string, std::string> &pins) {
    for (const auto &[rule, choice] : pins)
        if (const auto *cv = sr_pinned_conversion(rule)) {
            const auto [v, k] = *sr_choice(choice);  // check_pins accepted it
            for (auto &t : tests)
                if (t.conversion == cv->id) t = suites::sr::pinned(t, v, k);
        }
    return tests;
}

std::pair<std::string, std::string> parse_pin(const std::string &text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError(fmt::format("--pin '{}': expected RULE=CHOICE, e.g. fp8_row_maxabs.rescue=refuse", vectors::echo(text)));
    return {text.substr(0, eq), text.substr(eq + 1)};
}

void check_pins(const std::map<std::string, std::string> &pins) {
    for (const auto &[rule, choice] : pins) {
        if (sr_pinned_conversion(rule)) {  // an sr conversion's exact rule: its convention (issue 34)
            if (!sr_choice(choice))
                throw UsageError(unknown_name_line(fmt::format("--pin {}: unknown SR convention '{}' (NAME, or NAME:K for a k "
                                                               "of gfloat_*)", rule, vectors::echo(choice)),
                                                   choice, sr_convention_names()));
            continue;
        }
        const auto *r = suites::find_rule(rule);
        if (!r || r->reading_kind != suites::ReadingKind::open)
            throw UsageError(unknown_name_line(fmt::format("--pin: '{}' is not a rule with an open reading", vectors::echo(rule)),
                                               rule, open_rule_ids()));
        if (!r->find_choice(choice))
            throw UsageError(unknown_name_line(fmt::format("--pin {}: unknown choice '{}'", rule, vectors::echo(choice)), choice,
                                               choice_names(*r)));
    }
}

CaseSet collect_cases(const RunOptions &opts) {
    check_pins(opts.pins);
    check_policies(opts.policies);
    CaseSet set;
    for (const auto &name : opts.suites)
        if (!suites::find_suite(name))
            throw UsageError(unknown_name_line(fmt::format("unknown suite '{}'", vectors::echo(name)), name, suite_names()));
    for (const auto &s : suites::suite_catalog()) {
        bool wanted = opts.suites.empty();
        for (const auto &n : opts.suites) wanted = wanted || n == s.name;
        if (wanted) set.suites.push_back(s.name);
    }
    const auto dir = opts.vectors_dir.empty() ? vectors::default_vectors_dir() : opts.vectors_dir;
    set.vectors_dir = dir.string();
    // The line polls the suite and the count, so that its elapsed time moves within a long suite.
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::size_t> at{0}, so_far{0};
    std::atomic<bool> vectors_read{false};
    ProgressLine progress(opts.live_progress, [&set, &at, &so_far, &vectors_read, t0] {
        const std::size_t k = at.load(), n = set.suites.size();
        if (!vectors_read.load()) return fmt::format("reading the golden vectors ({})", duration_text(seconds_since(t0)));
        if (k < n)
            return fmt::format("generating cases: suite {}/{} {}, {} cases so far ({})", k + 1, n, set.suites[k],
                               so_far.load(), duration_text(seconds_since(t0)));
        return fmt::format("generating cases: {} suites, {} cases ({})", n, so_far.load(), duration_text(seconds_since(t0)));
    });
    auto loaded = vectors::load(dir, set.suites, opts.level);
    set.manifest_sha256 = loaded.manifest_sha256;
    set.manifest = std::move(loaded.manifest);
    vectors_read = true;
    // The suites with a declared golden case; when there are none, every suite's golden cases
    // stay (all unsupported: the run says nothing was tested) and no random case is generated.
    std::set<std::string> declared;
    for (std::size_t i = 0; i < loaded.cases.size(); ++i)
        if (!opts.declared_by || case_declared(*opts.declared_by, loaded.cases[i])) declared.insert(loaded.suite_of[i]);
    const bool none_declared = declared.empty() && opts.declared_by;
    std::size_t next = 0;
    for (const auto &name : set.suites) {
        const bool wanted = declared.count(name) || none_declared;
        for (; next < loaded.cases.size() && loaded.suite_of[next] == name; ++next)
            if (wanted) set.cases.push_back({name, std::move(loaded.cases[next])});
        if (!declared.count(name)) {  // nothing to call in it: no random case generated
            if (!none_declared) set.undeclared.push_back(name);
            ++at;
            continue;
        }
        const auto *s = suites::find_suite(name);
        if (opts.level != suites::Level::quick && s->random)
            for (auto &c : seeded_cases(*s, opts.seed, opts.level, opts.case_cache, opts.case_cache_key)) set.cases.push_back({name, std::move(c)});
        so_far = set.cases.size();
        ++at;
    }
    progress.finish();
    apply_pins(set.cases, opts.pins);
    apply_policies(set.cases, opts.policies);
    return set;
}

namespace {

bool glob_matches(const std::vector<std::string> &globs, const std::string &name) {
    for (const auto &g : globs)
        if (::fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;  // `*` crosses '/', as waivers
    return false;
}

/// UsageError unless each glob matches one of `names`: the first that matches none, with the
/// nearest names.
void require_matches(const std::vector<std::string> &globs, const std::vector<std::string> &names, const char *option) {
    for (const auto &g : globs)
        if (std::none_of(names.begin(), names.end(), [&g](const std::string &n) { return ::fnmatch(g.c_str(), n.c_str(), 0) == 0; }))
            throw UsageError(unknown_name_line(fmt::format("{} '{}' selects no case of this run ({} {}s in it)", option,
                                                           vectors::echo(g), names.size(), option + 2),
                                               g, names, "rules"));
}

}  // namespace

void select_cases(CaseSet &set, const CaseSelection &sel) {
    if (sel.empty()) return;
    std::vector<std::string> rules, ids;
    for (const auto &sc : set.cases) {
        if (rules.empty() || rules.back() != sc.c.rule) rules.push_back(sc.c.rule);
        ids.push_back(sc.c.id);
    }
    std::sort(rules.begin(), rules.end());
    rules.erase(std::unique(rules.begin(), rules.end()), rules.end());
    require_matches(sel.rules, rules, "--rule");
    require_matches(sel.cases, ids, "--case");
    std::set<std::string> wanted;
    if (sel.ids) wanted.insert(sel.ids->begin(), sel.ids->end());
    std::erase_if(set.cases, [&](const SuiteCase &sc) {
        return (!sel.rules.empty() && !glob_matches(sel.rules, sc.c.rule)) ||
               (!sel.cases.empty() && !glob_matches(sel.cases, sc.c.id)) || (sel.ids && !wanted.count(sc.c.id));
    });
    if (set.cases.empty() && sel.ids)
        throw UsageError(sel.ids->empty()
                             ? fmt::format("{}: the report has no failing case to run again", sel.ids_from)
                             : fmt::format("{}: none of its {} failing cases is a case of this run (first {}); run "
                                           "with the report's level, seed and vector set",
                                           sel.ids_from, sel.ids->size(), vectors::echo(sel.ids->front())));
    if (set.cases.empty()) throw UsageError("--rule and --case together select no case of this run (each alone selects some)");
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
    // A case with alternatives is sized by its first outcome that succeeds (suites::outcomes).
    const suites::Expect *sized_by = &c.expect;
    suites::Expect ok_outcome;
    for (const auto &o : suites::outcomes(c.expect))
        if (c.expect.status != NINFER_OK && o.status == NINFER_OK) {
            ok_outcome.status = o.status;
            ok_outcome.outputs = o.outputs;
            sized_by = &ok_outcome;
            break;
        }
    const suites::Expect &e = *sized_by;
    std::uint64_t room = 0;
    if (e.status != NINFER_OK) {
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
        const auto *want = suites::find_plane(e.outputs, name);
        const bool sized = e.status == NINFER_OK || (want && !want->bytes.empty());
        call.outputs.push_back({name, want ? want->format : 0u, sized ? e.output(name).size() : room});
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
        const auto m = abi::method_name(c.op, c.method);
        s += m.empty() ? fmt::format(" method {}", c.method) : fmt::format(" method {}", m);
    }
    return s;
}

}  // namespace

namespace {

/// A case's result before its call: what it is, which rule and sentence it enforces.
reports::CaseResult result_of(const suites::Case &c, const std::string &suite) {
    reports::CaseResult r;
    r.id = c.id;
    r.rule = c.rule;
    const auto *rule = suites::find_rule(c.rule);
    r.sentence = rule ? rule->sentence : "(rule not in the catalog)";
    r.suite = suite;
    r.source = c.source;
    r.suite_reading = c.suite_reading || (rule && rule->suite_reading);
    if (rule && rule->reading_kind != suites::ReadingKind::none) r.reading_kind = suites::reading_kind_name(rule->reading_kind);
    r.reading = c.expect.alternatives.empty() ? "" : c.expect.reading;
    return r;
}

}  // namespace

reports::CaseResult run_case(Subject &s, const suites::Case &c, const std::string &suite, std::size_t max_mismatches) {
    reports::CaseResult r = result_of(c, suite);
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
    r.choice = std::move(cmp.choice);
    if (cmp.nan_accepted) {
        r.nan_policy = suites::nan_policy_name(c.nan);
        r.nan_accepted = cmp.nan_accepted;
        r.nan_accepted_first = std::move(cmp.nan_accepted_first);
    }
    return r;
}

reports::SubjectIdentity identity_of(const Subject &s, const std::string &kind, const std::string &path) {
    reports::SubjectIdentity id{kind, s.info().name, s.info().version, s.info().abi_version, path};
    id.breaks = s.info().breaks;
    return id;
}

namespace {

/// A case whose call was found at fault after it was judged (Subject::take_late_blames): an
/// error with the subject's fault as its message, whatever it scored.
void blame_case(const SuiteCase &sc, reports::CaseResult &r, std::string message) {
    r = result_of(sc.c, sc.suite);
    r.status = reports::Status::error;
    r.message = std::move(message);
}

/// The live per-suite progress lines of one job running every case in order.
class SuiteProgress {
public:
    explicit SuiteProgress(bool on) : on_(on) {}
    ~SuiteProgress() { flush(); }
    void count(const reports::CaseResult &r) {
        if (r.suite != current_) {
            flush();
            current_ = r.suite;
            in_suite_ = failed_ = 0;
            t_suite_ = std::chrono::steady_clock::now();
        }
        ++in_suite_;
        failed_ += reports::is_failure(r.status);
    }

private:
    void flush() {
        if (on_ && !current_.empty())
            std::fprintf(stderr, "suite %s: %zu cases, %zu failed (%.1f s)\n", current_.c_str(), in_suite_, failed_,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t_suite_).count());
    }
    bool on_;
    std::string current_;
    std::size_t in_suite_ = 0, failed_ = 0;
    std::chrono::steady_clock::time_point t_suite_{};
};

/// Whether a case's result counts toward --max-failures: a failure no waiver excuses.
bool counts_against(const RunOptions &opts, const reports::CaseResult &r) {
    return reports::is_failure(r.status) && !(opts.waived && opts.waived(r));
}

/// Runs cases [begin, end) of the set on one subject into results[begin, end), blaming late
/// surplus replies on the cases they answer; progress lines as it goes when `live_progress`.
void run_slice(Subject &s, const CaseSet &set, const RunOptions &opts, std::size_t begin, std::size_t end,
               std::vector<reports::CaseResult> &results, bool live_progress = false) {
    SuiteProgress progress(live_progress);
    std::vector<std::size_t> called;  // the case of each call of the subject, in order
    std::size_t failures = 0;         // --max-failures: this slice's own, enough to stop it
    for (std::size_t i = begin; i < end; ++i) {
        const auto &sc = set.cases[i];
        if (case_declared(s.info(), sc.c)) called.push_back(i);  // run_case calls it
        results[i] = run_case(s, sc.c, sc.suite, opts.max_mismatches);
        for (auto &b : s.take_late_blames())
            if (b.calls_back < called.size()) {
                const std::size_t k = called[called.size() - 1 - b.calls_back];
                failures -= counts_against(opts, results[k]);
                blame_case(set.cases[k], results[k], std::move(b.message));
                failures += counts_against(opts, results[k]);
            }
        progress.count(results[i]);
        failures += counts_against(opts, results[i]);
        if (opts.max_failures && failures >= opts.max_failures) break;
    }
}

/// --max-failures: keep the cases up to the N-th counted failure in case order (each slice ran
/// at least that far: it stops on its own count) and say so in the report.
void stop_at_max_failures(reports::Report &rep, const RunOptions &opts) {
    if (!opts.max_failures) return;
    std::size_t failures = 0, i = 0;
    for (; i < rep.cases.size() && failures < opts.max_failures; ++i) failures += counts_against(opts, rep.cases[i]);
    if (failures < opts.max_failures || i == rep.cases.size()) return;
    const std::size_t total = rep.cases.size();
    rep.cases.resize(i);
    rep.extra["stopped"] = fmt::format("--max-failures {}: stopped at failing case {}; {} of {} cases not run",
                                       opts.max_failures, rep.cases.back().id, total - i, total);
}

/// Every case of [begin, end) not run yet as an error: the job's subject could not start, or the
/// harness failed.
void fail_slice(const CaseSet &set, std::size_t begin, std::size_t end, const std::string &why,
                std::vector<reports::CaseResult> &results) {
    for (std::size_t i = begin; i < end; ++i) {
        if (!results[i].id.empty()) continue;
        results[i] = result_of(set.cases[i].c, set.cases[i].suite);
        results[i].status = reports::Status::error;
        results[i].message = why;
    }
}

/// One line per suite on stderr, in catalog order, once all its cases have run.
void suite_progress(const std::vector<reports::CaseResult> &results, double seconds) {
    std::string current;
    std::size_t in_suite = 0, failed = 0;
    const auto flush = [&] {
        if (!current.empty())
            std::fprintf(stderr, "suite %s: %zu cases, %zu failed\n", current.c_str(), in_suite, failed);
    };
    for (const auto &r : results) {
        if (r.suite != current) {
            flush();
            current = r.suite;
            in_suite = failed = 0;
        }
        ++in_suite;
        failed += reports::is_failure(r.status);
    }
    flush();
    std::fprintf(stderr, "%zu cases in %.1f s\n", results.size(), seconds);
}

}  // namespace

reports::Report run_cases(Subject &s, const CaseSet &set, const RunOptions &opts, const reports::SubjectIdentity &id,
                          const std::function<std::unique_ptr<Subject>()> &open_more) {
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
    rep.options->pins = opts.pins;
    rep.options->policies = opts.policies;
    if (!opts.case_cache.empty()) rep.options->case_cache = reports::CaseCacheUse{opts.case_cache.string(), opts.case_cache_key.id};
    rep.host = reports::host_description();
    rep.started_at = reports::utc_now();
    const auto t0 = clock::now();
    if (rep.open_error.empty() && (opts.jobs <= 1 || !open_more)) {
        rep.cases.resize(set.cases.size());
        run_slice(s, set, opts, 0, set.cases.size(), rep.cases, opts.progress);
    } else if (rep.open_error.empty()) {
        // Contiguous slices of the ordered cases, one per job, each with its own subject (its own
        // worker or command); results land at their case's index: the report of --jobs 1.
        const std::size_t n = set.cases.size();
        const std::size_t jobs = std::clamp<std::size_t>(opts.jobs, 1, std::max<std::size_t>(n, 1));
        const auto slice = [&](std::size_t j) { return static_cast<std::size_t>(static_cast<unsigned __int128>(n) * j / jobs); };
        std::vector<reports::CaseResult> results(n);
        const auto run_job = [&](std::size_t j) {
            const std::size_t b = slice(j), e = slice(j + 1);
            try {
                if (j == 0) return run_slice(s, set, opts, b, e, results);
                auto more = open_more();
                if (!more->open_error().empty()) return fail_slice(set, b, e, more->open_error(), results);
                run_slice(*more, set, opts, b, e, results);
            } catch (const std::exception &ex) {
                fail_slice(set, b, e, std::string("harness: ") + ex.what(), results);
            }
        };
        std::vector<std::thread> threads;
        for (std::size_t j = 1; j < jobs; ++j) threads.emplace_back(run_job, j);
        run_job(0);
        for (auto &t : threads) t.join();
        rep.cases = std::move(results);
        stop_at_max_failures(rep, opts);
        if (opts.progress) suite_progress(rep.cases, std::chrono::duration<double>(clock::now() - t0).count());
    }
    stop_at_max_failures(rep, opts);
    rep.duration_s = std::chrono::duration<double>(clock::now() - t0).count();
    rep.finished_at = reports::utc_now();
    reports::finalize(rep);
    return rep;
}

}  // namespace ninfer::harness
