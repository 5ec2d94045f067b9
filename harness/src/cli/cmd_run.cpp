// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform run`: the suites against a plugin or an external command; reports; exit 0
// when every applicable case passed (waived failures excepted) and the CI gates hold (issue 25,
// item 2: something was tested, no declared capability lost, no stale waiver when asked), 1
// otherwise (docs/cli.md).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "cmd_common.hpp"
#include "dirs.hpp"
#include "ninfer/harness/baseline.hpp"
#include "ninfer/harness/fingerprint.hpp"
#include "ninfer/harness/sr_run.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

extern const char *const kOwnManifest;  // generated at build time (vectors/tools/golden_manifest.cpp)

namespace {

struct RunArgs {
    SubjectArgs subject;
    std::string level = "quick", report, junit, baseline, vectors, custom_vectors, case_cache, case_cache_key;
    std::vector<std::string> suites;
    std::vector<std::string> pins;  ///< --pin RULE=CHOICE
    std::vector<std::string> policies;  ///< --policy convert.NAME=POINT
    std::uint64_t seed = suites::kDefaultSeed;
    std::size_t max_mismatches = 8;
    unsigned jobs = 1;
    std::string shard;  ///< "I/N", or "" for the whole run
    std::string fingerprint = "failing";  ///< --fingerprint WHICH: none, failing (the default), all
    ProgressMode progress = ProgressMode::automatic;  ///< --progress, --no-progress
    std::string summary_md, previous, write_baseline;  ///< --summary-md, --previous, --write-baseline
    bool fail_on_stale_waivers = false;
    std::vector<std::string> rules, cases;  ///< --rule, --case globs
    std::string rerun_failed;               ///< --rerun-failed REPORT
    std::size_t max_failures = 0;           ///< --max-failures N (--fail-fast: 1)
    bool fail_fast = false;
};

/// Most shards of a run (docs/cli.md, "run --shard").
constexpr std::uint64_t kMaxShards = 1'000'000;

struct Shard {
    std::uint64_t index = 0, count = 1;
};

/// "I/N" with 0 <= I < N <= kMaxShards, or UsageError naming what is expected.
Shard parse_shard(const std::string &text) {
    const auto slash = text.find('/');
    const auto number = [](std::string_view d) -> std::optional<std::uint64_t> {
        if (d.empty() || d.size() > 7 || d.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
        return std::stoull(std::string(d));
    };
    const auto i = slash == std::string::npos ? std::nullopt : number(std::string_view(text).substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : number(std::string_view(text).substr(slash + 1));
    if (!i || !n || *n == 0 || *n > kMaxShards || *i >= *n)
        throw UsageError(fmt::format("--shard '{}': expected I/N with 0 <= I < N <= {} (shard I of N, counted from 0)",
                                     echo(text), kMaxShards));
    return {*i, *n};
}

/// Keep shard I of N of the ordered case list: [floor(T*I/N), floor(T*(I+1)/N)) (the contiguous
/// slices of docs/cli.md, "run --shard"); returns T.
std::uint64_t keep_shard(CaseSet &set, const Shard &shard) {
    const std::uint64_t total = set.cases.size();
    const std::uint64_t first = total * shard.index / shard.count, last = total * (shard.index + 1) / shard.count;
    set.cases.erase(set.cases.begin() + static_cast<std::ptrdiff_t>(last), set.cases.end());
    set.cases.erase(set.cases.begin(), set.cases.begin() + static_cast<std::ptrdiff_t>(first));
    return total;
}

/// The directory of --case-cache, created when missing, or UsageError naming what is expected.
std::filesystem::path case_cache_dir(const std::string &dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        throw UsageError(fmt::format("--case-cache '{}': {} (expected a directory to keep the seeded cases in)", echo(dir),
                                     ec ? ec.message() : "not a directory"));
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw UsageError(fmt::format("--case-cache '{}': cannot write in it: {} (expected a writable directory)", echo(dir),
                                     std::strerror(errno)));
    return dir;
}

/// Refuse a vector set that is not the one this build generates, unless named as custom.
void require_own_vectors(const CaseSet &set) {
    if (set.manifest == kOwnManifest) return;
    throw vectors::VectorError(fmt::format(
        "{}: not the vector set this build generates (MANIFEST.sha256 {}; differing files: {}); regenerate it with "
        "`ninfer-conform generate --out DIR`, or name it with --custom-vectors DIR to run it as a custom set",
        echo(set.vectors_dir), set.manifest_sha256, vectors::manifest_difference(kOwnManifest, set.manifest)));
}

/// What `run` reads and writes (docs/cli.md, "Input and output files").
CommandFiles run_files(const RunArgs &a, const std::string &vectors_dir) {
    const std::string vectors_name =
        !a.custom_vectors.empty() ? "--custom-vectors" : !a.vectors.empty() ? "--vectors" : "the vectors directory";
    // The key the cache uses, implicit or named, is an input: no output may replace it.
    const std::string key = a.case_cache.empty() ? a.case_cache_key : case_cache_key_file(a.case_cache_key).string();
    return {.inputs = {{"--baseline", a.baseline}, {"--plugin", a.subject.plugin}, {"the case cache key", key},
                       {"--previous", a.previous}, {"--rerun-failed", a.rerun_failed}},
            .input_dirs = {{vectors_name, vectors_dir}},
            .outputs = {{"--report", a.report}, {"--junit", a.junit}, {"--summary-md", a.summary_md},
                        {"--write-baseline", a.write_baseline}},
            .output_dirs = {{"--case-cache", a.case_cache}}};
}

/// The run's options from its arguments: level, suites, seed, vector set, limits and pins.
RunOptions run_options(const RunArgs &a) {
    RunOptions opts;
    opts.level = require_level(a.level);
    opts.suites = a.suites;
    opts.seed = a.seed;
    const bool custom = !a.custom_vectors.empty();
    opts.vectors_dir = custom ? std::filesystem::path(a.custom_vectors)
                              : (a.vectors.empty() ? directories().vectors : std::filesystem::path(a.vectors));
    opts.max_mismatches = a.max_mismatches;
    opts.jobs = a.jobs;
    opts.progress = true;
    opts.live_progress = progress_shown(a.progress);
    for (const auto &text : a.pins) {
        auto [rule, choice] = parse_pin(text);
        if (const auto it = opts.pins.find(rule); it != opts.pins.end() && it->second != choice)
            throw UsageError(fmt::format("--pin {}: pinned twice ({} and {}); expected one choice per rule", rule, it->second, choice));
        opts.pins[rule] = choice;
    }
    check_pins(opts.pins);
    for (const auto &text : a.policies) {
        auto [rule, point] = parse_policy_option(text);
        if (const auto it = opts.policies.find(rule); it != opts.policies.end() && it->second != point)
            throw UsageError(fmt::format("--policy {}: given twice ({} and {}); expected one point per conversion", rule, it->second, point));
        opts.policies[rule] = point;
    }
    check_policies(opts.policies);
    return opts;
}

/// The report's options, shard and waivers: what the run was asked, beyond the cases.
void annotate_report(reports::Report &rep, const RunArgs &a, const std::optional<Baseline> &baseline,
                     const std::optional<Shard> &shard, std::uint64_t cases_total) {
    rep.options->timeout_ms = a.subject.timeout_ms;
    rep.options->memory_limit_mib = a.subject.memory_limit_mib;
    if (baseline) rep.options->baseline_sha256 = baseline->sha256;
    if (shard) {
        rep.extra["shard"] = fmt::format("{}/{}", shard->index, shard->count);
        rep.extra["cases_total"] = std::to_string(cases_total);
    }
    if (baseline) {
        apply_baseline(*baseline, rep);
        reports::finalize(rep);
    }
}

/// The summary on stdout, where the reports went, and a warning when nothing was tested.
/// The statistical rules of stochastic rounding (suites/SR.md) join a whole run at level full or
/// above (every suite, or scalar.convert; no shard): their tests, run at 1e-9 per run, become
/// cases of the report.
void add_sr_statistics(reports::Report &rep, Subject &s, const RunOptions &opts, bool sharded) {
    const bool convert = opts.suites.empty() ||
                         std::find(opts.suites.begin(), opts.suites.end(), "scalar.convert") != opts.suites.end();
    if (opts.level < suites::Level::full || sharded || !convert) return;
    const auto verdicts = run_sr_statistics(s, {1, 1000000000}, suites::sr::kCallLanes, opts.pins);
    if (verdicts.empty()) return;
    for (auto &r : sr_case_results(verdicts)) rep.cases.push_back(std::move(r));
    reports::finalize(rep);
}

/// Largest previous report read by --previous (a merged report of the main job is a few MiB).
constexpr std::size_t kMaxPreviousBytes = std::size_t{256} << 20;

/// A JSON report of `run --report` that an option names, or UsageError naming the option.
nlohmann::json read_run_report(const std::string &path, const char *option) {
    std::string text, error;
    nlohmann::json j;
    if (!vectors::read_file_capped(path, kMaxPreviousBytes, text, error, vectors::Begins::json_object) ||
        !vectors::parse_json_bounded(text, j, error))
        throw UsageError(fmt::format("{} '{}': {} (expected a JSON report of `run --report`)", option, echo(path), error));
    if (!j.is_object() || !reports::is_report_schema(j) || !j.contains("subject") || !j["subject"].is_object())
        throw UsageError(fmt::format("{} '{}': not a {} report (expected a JSON report of `run --report`)", option,
                                     echo(path), reports::kSchemaId));
    return j;
}

/// The capabilities a previous report (--previous) saw its subject declare; none when the report
/// predates the record. UsageError when the file is not a report.
std::vector<std::string> previous_capabilities(const std::string &path) {
    const nlohmann::json j = read_run_report(path, "--previous");
    std::vector<std::string> out;
    const auto &subject = j["subject"];
    if (!subject.contains("capabilities")) return out;
    for (const auto &c : subject["capabilities"]) {
        if (!c.is_string())
            throw UsageError(fmt::format("--previous '{}': subject.capabilities holds a {}, expected lines", echo(path),
                                         c.type_name()));
        out.push_back(c.get<std::string>());
    }
    return out;
}

/// --rerun-failed: the failing cases of a report (fail, crash, timeout, error; waived or not) as
/// the selection's ids; the run takes the report's level and seed unless given, and its failing
/// cases' suites unless --suite is.
CaseSelection rerun_failed(const std::string &path, RunOptions &opts, bool level_given, bool seed_given) {
    const nlohmann::json j = read_run_report(path, "--rerun-failed");
    if (j.value("kind", "run") != "run")
        throw UsageError(fmt::format("--rerun-failed '{}': a {} report (expected a report of `run --report`)", echo(path),
                                     j.value("kind", "")));
    CaseSelection sel;
    sel.ids.emplace();
    sel.ids_from = fmt::format("--rerun-failed '{}'", echo(path));
    std::vector<std::string> suites;
    for (const auto &c : j.value("cases", nlohmann::json::array())) {
        const auto status = c.is_object() ? c.value("status", "") : "";
        if (status != "fail" && status != "crash" && status != "timeout" && status != "error") continue;
        sel.ids->push_back(c.value("id", ""));
        if (const auto suite = c.value("suite", ""); std::find(suites.begin(), suites.end(), suite) == suites.end())
            suites.push_back(suite);
    }
    if (!level_given && j.contains("level") && j["level"].is_string()) opts.level = require_level(j["level"].get<std::string>());
    if (!seed_given && j.contains("seed") && j["seed"].is_number_unsigned()) opts.seed = j["seed"].get<std::uint64_t>();
    if (opts.suites.empty())
        for (const auto &n : suites)
            if (suites::find_suite(n)) opts.suites.push_back(n);  // SR statistics' cases have no suite to collect
    return sel;
}

/// One line for the suites left out because the subject declares nothing in them.
void print_undeclared(const CaseSet &set) {
    if (set.undeclared.empty()) return;
    std::string names;
    for (std::size_t i = 0; i < set.undeclared.size() && i < 3; ++i) names += (i ? ", " : "") + set.undeclared[i];
    if (set.undeclared.size() > 3) names += fmt::format(" and {} more", set.undeclared.size() - 3);
    std::fprintf(stderr, "not run: %zu suite%s in which the subject declares nothing (%s)\n", set.undeclared.size(),
                 set.undeclared.size() == 1 ? "" : "s", names.c_str());
}

/// Lost capabilities named one per line; the rest are counted.
constexpr std::size_t kLostCapabilitiesShown = 10;

/// The CI gates beyond the cases' verdicts (docs/cli.md, "CI gates"), one line each: a capability
/// the baseline or the previous report recorded that the subject no longer declares, and the
/// stale waivers under --fail-on-stale-waivers. Empty when every gate holds.
std::vector<std::string> failed_gates(const reports::Report &rep, const RunArgs &a, const std::optional<Baseline> &baseline,
                                      const std::vector<std::string> &previous) {
    std::vector<std::string> out;
    const auto &declared = rep.subject.capabilities;
    // A plugin that lost a whole op loses hundreds of lines: name the first few, count the rest.
    const auto lost_lines = [&out, &declared](const std::vector<std::string> &recorded, const std::string &by) {
        const auto lost = lost_capabilities(recorded, declared);
        for (std::size_t i = 0; i < lost.size() && i < kLostCapabilitiesShown; ++i)
            out.push_back(fmt::format("capability no longer declared: {} ({})", lost[i], by));
        if (lost.size() > kLostCapabilitiesShown)
            out.push_back(fmt::format("{} more capabilities no longer declared ({})", lost.size() - kLostCapabilitiesShown, by));
    };
    if (baseline && baseline->capabilities) lost_lines(*baseline->capabilities, "recorded by baseline " + baseline->path);
    lost_lines(previous, "declared in previous report " + echo(a.previous));
    if (a.fail_on_stale_waivers && !rep.stale_waivers.empty())
        out.push_back(fmt::format("{} stale waiver(s) in baseline {} (--fail-on-stale-waivers): first {} {}",
                                  rep.stale_waivers.size(), rep.baseline, rep.stale_waivers.front().rule,
                                  rep.stale_waivers.front().case_pattern));
    return out;
}

/// A pass over zero applicable cases says nothing about conformance (issue 25: it fails the run).
/// The source words the run's convert cases offer, per conversion (run_domain's budget and extra).
fingerprint::CaseInputs case_inputs(const CaseSet &set) {
    fingerprint::CaseInputs out;
    for (const auto &sc : set.cases) {
        if (sc.c.op != NINFER_OP_convert || sc.c.expect.status != NINFER_OK) continue;
        const auto *conv = abi::find_id(abi::kConversions, sc.c.method);
        if (!conv) continue;
        const int ib = suites::in_word_bytes(sc.c);
        const auto &bytes = sc.c.input(NINFER_PLANE_WORDS);
        if (ib <= 0 || bytes.size() != sc.c.count * static_cast<std::uint64_t>(ib)) continue;
        auto &words = out[std::string(conv->name)];
        for (std::uint64_t i = 0; i < sc.c.count; ++i) words.push_back(suites::get_word(bytes, i, ib));
    }
    return out;
}

bool nothing_tested(const reports::Report &rep) {
    return rep.open_error.empty() && rep.totals.cases > 0 && rep.totals.unsupported == rep.totals.cases;
}

/// --summary-md and --write-baseline, atomically as the other outputs; UsageError (exit 2) when
/// one cannot be written after all.
void write_ci_outputs(const reports::Report &rep, const RunArgs &a, const std::optional<Baseline> &baseline,
                      const std::vector<std::string> &gates) {
    try {
        if (!a.summary_md.empty()) reports::write_atomic(a.summary_md, reports::render_summary_md(rep, gates));
        if (!a.write_baseline.empty())
            reports::write_atomic(a.write_baseline, render_baseline(baseline_of_run(rep, baseline ? &*baseline : nullptr)));
    } catch (const std::runtime_error &e) {
        throw UsageError(e.what());
    }
}

void print_outcome(const reports::Report &rep, const RunArgs &a, const reports::SubjectIdentity &id,
                   const std::vector<std::string> &gates) {
    std::fputs(reports::render_summary(rep).c_str(), stdout);
    if (!a.report.empty()) std::printf("report: %s\n", a.report.c_str());
    if (!a.junit.empty()) std::printf("junit: %s\n", a.junit.c_str());
    if (!a.summary_md.empty()) std::printf("summary-md: %s\n", a.summary_md.c_str());
    if (!a.write_baseline.empty()) std::printf("baseline written: %s\n", a.write_baseline.c_str());
    if (nothing_tested(rep))
        std::fprintf(stderr, "warning: nothing was tested: subject %s %s declares none of the capabilities these "
                             "suites test\n", id.name.c_str(), id.version.c_str());
    for (const auto &g : gates) std::printf("gate failed: %s\n", g.c_str());
}

}  // namespace

void add_run(CLI::App &app) {
    auto *cmd = app.add_subcommand("run", "Run suites against a plugin (--plugin) or an external command (--exec)");
    auto a = std::make_shared<RunArgs>();
    add_subject_options(*cmd, a->subject, "call");
    cmd->add_option("--suite", a->suites, "suite name (repeatable; default: every suite)");
    cmd->add_option("--level", a->level, "quick | full | exhaustive (default quick)");
    cmd->add_option("--seed", a->seed, fmt::format("seed of the random cases, 0..2^64-1 (default {})", suites::kDefaultSeed))
        ->check(digits());
    cmd->add_option("--report", a->report, "write the JSON report here (atomically)")->check(path_given());
    cmd->add_option("--junit", a->junit, "write JUnit XML here (atomically)")->check(path_given());
    cmd->add_option("--baseline", a->baseline, "waiver file of accepted failures")->check(path_given());
    auto *vectors = cmd->add_option("--vectors", a->vectors,
                                    "this build's golden vectors in another directory (default: the one `--version` "
                                    "names); a set the build did not generate is refused")
                        ->check(path_given("a directory path"));
    auto *custom = cmd->add_option("--custom-vectors", a->custom_vectors,
                                   "run a vector set this build did not generate; the report says vectors.custom")
                       ->check(path_given("a directory path"));
    vectors->excludes(custom);
    cmd->add_option("--shard", a->shard,
                    "run only shard I of N (0 <= I < N): a contiguous slice of the ordered cases; combine the "
                    "shards' reports with `merge`");
    cmd->add_option("--max-mismatches", a->max_mismatches, "mismatches kept per case, 0..1000000 (default 8)")
        ->check(digits())
        ->check(CLI::Range(std::size_t{0}, kMaxMismatches));
    cmd->add_option("--jobs", a->jobs,
                    "subjects calling at once, 1..256 (default 1), each on a contiguous slice of the ordered "
                    "cases; the report is the same for any value")
        ->check(digits_in(1, kMaxJobs));
    cmd->add_option("--pin", a->pins,
                    "RULE=CHOICE (repeatable): require one documented choice of an open reading instead of accepting "
                    "every one (see `rules`), e.g. fp8_row_maxabs.rescue=refuse");
    cmd->add_option("--policy", a->policies,
                    "convert.NAME=POINT (repeatable): judge conversion NAME by this lattice point instead of the "
                    "registry's (rounding/overflow/subnormals/nan[/signless/tiny], the words `fingerprint` names; "
                    "docs/cli.md \"Judging by a policy\"); its NaN profile rules' cases are left out");
    cmd->add_option("--case-cache", a->case_cache,
                    "keep the seeded random cases (full, exhaustive) in this directory, per build, level, seed and "
                    "suite: generated by the first run, read by the next ones")
        ->check(path_given("a directory path"));
    cmd->add_option("--case-cache-key", a->case_cache_key,
                    "the key file that authenticates the --case-cache files, kept outside it (default: "
                    "$NINFER_CASE_CACHE_KEY, else $XDG_STATE_HOME or ~/.local/state: ninfer-conform/case-cache.key, "
                    "created 0600 when absent)")
        ->check(path_given("a file path"));
    cmd->add_option("--fingerprint", a->fingerprint,
                    "which declared conversions' behaviour fingerprints the report gets: none, failing (those whose "
                    "convert rules failed: the default), all (bare --fingerprint); each on a domain bounded by its cases' "
                    "inputs (docs/cli.md \"run --fingerprint\")")
        ->expected(0, 1)
        ->default_str("all")
        ->check(CLI::IsMember({"none", "failing", "all"}));
    cmd->add_flag_callback("--no-fingerprint", [a] { a->fingerprint = "none"; }, "no behaviour fingerprints (--fingerprint none)");
    add_progress_options(*cmd, a->progress);
    cmd->add_option("--rule", a->rules, "run only the cases of rules matching this glob (repeatable), e.g. 'convert.fp32_to_*'");
    cmd->add_option("--case", a->cases, "run only the cases whose id matches this glob (repeatable)");
    cmd->add_option("--rerun-failed", a->rerun_failed,
                    "run only the failing cases of this JSON report, at its level and seed unless given")
        ->check(path_given());
    auto *max_failures = cmd->add_option("--max-failures", a->max_failures,
                                         "stop after the N-th failing case (waived ones excepted); the report says so")
                             ->check(digits())
                             ->check(CLI::Range(std::size_t{1}, ~std::size_t{0}));
    cmd->add_flag("--fail-fast", a->fail_fast, "stop after the first failing case (--max-failures 1)")->excludes(max_failures);
    cmd->add_option("--summary-md", a->summary_md,
                    "write a Markdown summary here (atomically), fit for $GITHUB_STEP_SUMMARY")
        ->check(path_given());
    cmd->add_flag("--fail-on-stale-waivers", a->fail_on_stale_waivers,
                  "exit 1 when a waiver of --baseline excuses nothing in this run");
    cmd->add_option("--previous", a->previous,
                    "a JSON report of an earlier run: exit 1 when the subject no longer declares a capability it saw "
                    "declared (as a baseline's \"capabilities\" do)")
        ->check(path_given());
    cmd->add_option("--write-baseline", a->write_baseline,
                    "write a baseline here (atomically): this run's capabilities, the --baseline waivers that fired and "
                    "one waiver per unwaived failing case")
        ->check(path_given());
    cmd->callback([a, cmd] {
        require_one_subject(a->subject, "run");
        RunOptions opts = run_options(*a);
        CaseSelection selection{a->rules, a->cases, std::nullopt, ""};
        if (!a->rerun_failed.empty()) {
            auto failed = rerun_failed(a->rerun_failed, opts, cmd->count("--level") > 0, cmd->count("--seed") > 0);
            selection.ids = std::move(failed.ids);
            selection.ids_from = std::move(failed.ids_from);
        }
        const bool custom = !a->custom_vectors.empty();
        // Inputs and outputs first: a bad baseline, vector set or report path must not cost a run.
        check_files(run_files(*a, opts.vectors_dir.string()));
        std::optional<Shard> shard;
        if (!a->shard.empty()) shard = parse_shard(a->shard);
        std::optional<Baseline> baseline;
        if (!a->baseline.empty()) baseline = load_baseline(a->baseline);
        if (a->fail_on_stale_waivers && !baseline)
            throw UsageError("--fail-on-stale-waivers: no --baseline whose waivers to check (give --baseline FILE too)");
        const auto previous = a->previous.empty() ? std::vector<std::string>{} : previous_capabilities(a->previous);
        if (!a->case_cache.empty()) {
            opts.case_cache = case_cache_dir(a->case_cache);
            opts.case_cache_key = load_case_cache_key(case_cache_key_file(a->case_cache_key), opts.case_cache);
        } else if (!a->case_cache_key.empty()) {
            throw UsageError("--case-cache-key: no --case-cache to authenticate (give --case-cache DIR too)");
        }
        if (baseline)
            opts.waived = [&b = *baseline](const reports::CaseResult &r) {
                return std::any_of(b.waivers.begin(), b.waivers.end(), [&r](const Waiver &w) { return waiver_matches(w, r.rule, r.id); });
            };
        opts.max_failures = a->fail_fast ? 1 : a->max_failures;
        // The subject first: the suites it declares nothing in are neither generated nor run.
        reports::SubjectIdentity id;
        auto subject = open_subject(a->subject, id);
        if (subject->open_error().empty()) opts.declared_by = &subject->info();
        CaseSet set = collect_cases(opts);
        print_undeclared(set);
        select_cases(set, selection);
        std::uint64_t cases_total = 0;
        if (shard) {
            cases_total = keep_shard(set, *shard);
            std::fprintf(stderr, "shard %llu/%llu: %zu of %llu cases\n", static_cast<unsigned long long>(shard->index),
                         static_cast<unsigned long long>(shard->count), set.cases.size(),
                         static_cast<unsigned long long>(cases_total));
        }
        if (custom)
            std::fprintf(stderr, "warning: custom vector set %s (manifest %s): not the set this build generates; "
                                 "the report says so (vectors.custom)\n",
                         echo(set.vectors_dir).c_str(), set.manifest_sha256.c_str());
        else
            require_own_vectors(set);
        std::fprintf(stderr, "seed %llu (include this in bug reports)\n", static_cast<unsigned long long>(opts.seed));
        id.capabilities = capability_lines(subject->info().capabilities);
        // The other jobs' subjects: the same one, opened again in their threads.
        const auto open_more = [a] {
            reports::SubjectIdentity ignored;
            return open_subject(a->subject, ignored);
        };
        reports::Report rep = run_cases(*subject, set, opts, id, open_more);
        fingerprint::RunFingerprints which = fingerprint::RunFingerprints::failing;
        fingerprint::parse_run_fingerprints(a->fingerprint, which);
        // A stopped or selecting run is after its cases alone: no SR statistics, no fingerprints.
        const bool partial = rep.extra.count("stopped") || !selection.empty();
        if (!partial) add_sr_statistics(rep, *subject, opts, shard.has_value());
        rep.vectors_custom = custom;
        std::vector<std::string> fingerprint_errors;
        if (!partial) fingerprint::add_run_fingerprints(*subject, rep, which, case_inputs(set), a->jobs, fingerprint_errors);
        for (const auto &e : fingerprint_errors) std::fprintf(stderr, "warning: %s\n", reports::untrusted_text(e).c_str());
        annotate_report(rep, *a, baseline, shard, cases_total);
        const auto gates = failed_gates(rep, *a, baseline, previous);
        write_reports(rep, a->report, a->junit);
        write_ci_outputs(rep, *a, baseline, gates);
        print_outcome(rep, *a, id, gates);
        if (reports::run_failed(rep) || nothing_tested(rep) || !gates.empty()) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
