// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform sweep`: every source word of a conversion through a subject, against the fast
// native expected words of ninfer::native (cross-checked against the oracle); progress on
// stderr; words/s.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <thread>

#include "cmd_common.hpp"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::harness::cli {

namespace {

struct SweepArgs {
    SubjectArgs subject;
    std::string conversion, start, report, junit, shard, expected = "native";
    unsigned jobs = 0;
    std::uint64_t count = 0, batch = 1ull << 17;
    std::size_t max_mismatches = 8;
    std::uint64_t max_failures = 0;
    bool fail_fast = false;
    bool nan_payload = false;
    std::string policy;  ///< --policy POINT
    bool nan_sign = false;
    ProgressMode progress = ProgressMode::automatic;  ///< --progress, --no-progress
};

/// First mismatches shown on stdout; the report keeps --max-mismatches of them.
constexpr std::size_t kMismatchesShown = 3;

/// The human summary of a sweep on stdout (docs/cli.md, "sweep"): what was swept, the verdict in
/// words, classes and the first mismatches; the JSON report keeps every field (bins included).
std::string sweep_summary(const reports::Report &r) {
    const auto &c = r.cases.front();
    const auto extra = [&r](const char *k) { return r.extra.count(k) ? r.extra.at(k) : std::string(); };
    std::string s = fmt::format("ninfer-conform {} sweep: {} {} {} (abi {}) {}\n", r.tool_version, r.subject.kind,
                                reports::untrusted_text(r.subject.name), reports::untrusted_text(r.subject.version),
                                r.subject.abi, reports::untrusted_text(r.subject.path));
    s += fmt::format("sweep: {}, {} words from {} (expected words: {}){}\n", c.rule, extra("count"), extra("start"),
                     extra("expected"), r.extra.count("shard") ? fmt::format(", shard {}: {} words from {}", extra("shard"),
                                                                          extra("shard_count"), extra("shard_start"))
                                                               : "");
    if (!r.open_error.empty()) s += fmt::format("subject did not start: {}\n", reports::untrusted_text(r.open_error));
    if (r.extra.count("stopped")) s += "stopped: " + extra("stopped") + "\n";
    if (c.status != reports::Status::unsupported)
        s += fmt::format("{} words judged: {} mismatched{}\n", c.elements, c.mismatches,
                         c.message.empty() ? "" : ", " + reports::untrusted_text(c.message));
    std::string classes;
    for (const auto &[k, v] : c.classes) classes += fmt::format("{}{} {}", classes.empty() ? "" : ", ", k, v);
    if (!classes.empty()) s += "mismatch classes: " + classes + "\n";
    if (const auto bins = extra("mismatch_bins"); !bins.empty())
        s += fmt::format("mismatches in {} binades of 2 x {} (sign and {}; each counted in the report's mismatch_bins)\n",
                         std::count(bins.begin(), bins.end(), ' ') + 1, extra("binades"), extra("binade"));
    for (std::size_t i = 0; i < c.first.size() && i < kMismatchesShown; ++i) {
        const auto &m = c.first[i];
        s += fmt::format("  {}: expected {}{} actual {}{} [{}]\n", m.location, m.expected,
                         m.expected_value.size() <= 24 ? " (" + m.expected_value + ")" : "", m.actual,
                         m.actual_value.size() <= 24 ? " (" + m.actual_value + ")" : "", m.cls);
    }
    if (c.mismatches > kMismatchesShown && c.first.size() > kMismatchesShown)
        s += fmt::format("  ... {} more mismatches ({} kept in the report)\n", c.mismatches - kMismatchesShown, c.first.size());
    if (c.nan_accepted) s += fmt::format("NaN words accepted by the NaN policy {}, not bit-equal: {}\n", c.nan_policy, c.nan_accepted);
    if (c.not_judged) s += fmt::format("not judged: {} source words, {}\n", c.not_judged, c.not_judged_why);
    s += reports::run_failed(r) ? "result: FAIL\n"
         : c.status == reports::Status::unsupported ? "result: NOTHING TESTED (the subject does not declare it)\n"
                                                    : "result: PASS\n";
    return s;
}

}  // namespace

void add_sweep(CLI::App &app) {
    auto *cmd = app.add_subcommand("sweep", "Exhaustive sweep of a conversion's whole source domain (2^32 for fp32)");
    auto a = std::make_shared<SweepArgs>();
    a->subject.timeout_ms = 60000;  // a batch of up to 2^24 words
    add_subject_options(*cmd, a->subject, "batch call");
    cmd->add_option("--conversion", a->conversion, "conversion name (see `list`)")->required();
    const CLI::Validator hex_word(
        [](std::string &v) -> std::string {
            std::string t = v;
            if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
            if (t.empty() || t.size() > 16 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
                return "'" + echo(v) + "' is not a hex word (expected 1 to 16 hex digits, optional 0x)";
            return {};
        },
        "");
    cmd->add_option("--start", a->start, "first source word, 1 to 16 hex digits (default 0)")->check(hex_word);
    cmd->add_option("--count", a->count, "number of source words, at least 1 (default: to the end of the domain)")
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{1}, ~std::uint64_t{0}));
    cmd->add_option("--batch", a->batch, "words per call, 1..16777216 (default 131072)")
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{1}, kMaxBatchWords));
    cmd->add_option("--report", a->report, "write the JSON report here (atomically)")->check(path_given());
    cmd->add_option("--junit", a->junit, "write JUnit XML here (atomically)")->check(path_given());
    cmd->add_option("--max-mismatches", a->max_mismatches, "mismatches kept, 0..1000000 (default 8)")
        ->check(digits())
        ->check(CLI::Range(std::size_t{0}, kMaxMismatches));
    cmd->add_option("--jobs", a->jobs, "workers on disjoint ranges, 1..256 (default: the number of cores)")
        ->check(digits_in(1, kMaxJobs));
    cmd->add_option("--shard", a->shard, "sweep only shard I of N (I/N, 0 <= I < N <= 65536) of the range; "
                                         "`merge` combines the shard reports");
    cmd->add_option("--expected", a->expected, "expected words from native (default) or oracle (MPFR, every word)")
        ->check(CLI::IsMember({"native", "oracle"}));
    cmd->add_option("--policy", a->policy,
                    "judge --conversion by this lattice point instead (rounding/overflow/subnormals/nan[/signless/tiny]; "
                    "docs/cli.md \"Judging by a policy\"): expected words from the oracle's lattice, NaNs bit for bit");
    cmd->add_flag("--nan-payload", a->nan_payload,
                  "judge NaN words bit for bit under the profile rule convert.<name>.nan_payload");
    cmd->add_flag("--nan-sign", a->nan_sign,
                  "judge NaN words under the profile rule convert.<name>.nan_sign (a NaN of the input's sign)");
    add_progress_options(*cmd, a->progress);
    auto *max_failures = cmd->add_option("--max-failures", a->max_failures,
                                         "stop after the batch holding the N-th mismatching word; the report says so")
                             ->check(digits())
                             ->check(CLI::Range(std::uint64_t{1}, ~std::uint64_t{0}));
    cmd->add_flag("--fail-fast", a->fail_fast, "stop after the batch holding the first mismatch (--max-failures 1)")
        ->excludes(max_failures);
    cmd->callback([a] {
        require_one_subject(a->subject, "sweep");
        const auto &conv = require_name(oracle::kConversions, a->conversion, "conversion");
        SweepOptions o;
        o.op = NINFER_OP_convert;
        o.conversion = conv.id;
        if (!a->start.empty()) {
            std::string t = a->start;
            if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
            o.start = std::stoull(t, nullptr, 16);
        }
        if (a->count) o.count = a->count;
        o.batch = a->batch;
        o.max_mismatches = a->max_mismatches;
        o.max_failures = a->fail_fast ? 1 : a->max_failures;
        o.progress = true;
        o.live_progress = progress_shown(a->progress);
        o.nan_payload = a->nan_payload;
        o.nan_sign = a->nan_sign;
        o.expected = a->expected == "oracle" ? SweepExpected::oracle : SweepExpected::native;
        if (!a->policy.empty()) {
            if (a->conversion.empty()) throw UsageError("--policy POINT: judges a --conversion (give --conversion NAME too)");
            o.policy = judged_policy(a->conversion, a->policy);
        }
        o.jobs = a->jobs ? a->jobs : std::max(1u, std::thread::hardware_concurrency());
        if (!a->shard.empty()) {
            const auto slash = a->shard.find('/');
            const auto number = [](const std::string &t) {
                return !t.empty() && t.size() <= 5 && t.find_first_not_of("0123456789") == std::string::npos;
            };
            const std::string i = a->shard.substr(0, slash), n = slash == std::string::npos ? "" : a->shard.substr(slash + 1);
            if (slash == std::string::npos || !number(i) || !number(n) || std::stoul(n) == 0 || std::stoul(n) > 65536 ||
                std::stoul(i) >= std::stoul(n))
                throw UsageError("--shard '" + echo(a->shard) + "': expected I/N with 0 <= I < N <= 65536 (e.g. 0/4)");
            o.shard_index = std::stoul(i);
            o.shard_count = std::stoul(n);
        }
        source_domain(o);
        CommandFiles files;
        files.inputs = {{"--plugin", a->subject.plugin}};
        files.outputs = {{"--report", a->report}, {"--junit", a->junit}};
        check_files(files);
        reports::SubjectIdentity id;
        auto subject = open_subject(a->subject, id);
        // The other jobs' workers: the same subject, opened again in their threads.
        const auto open_more = [a] {
            reports::SubjectIdentity ignored;
            return open_subject(a->subject, ignored);
        };
        SweepResult res = run_sweep(*subject, o, id, open_more);
        res.report.options = reports::ReportOptions{.timeout_ms = a->subject.timeout_ms,
                                                    .memory_limit_mib = a->subject.memory_limit_mib,
                                                    .max_mismatches = o.max_mismatches,
                                                    .batch = o.batch,
                                                    .expected = a->expected,
                                                    .nan_payload = o.nan_payload,
                                                    .nan_sign = o.nan_sign};
        if (o.policy) res.report.options->policies["convert." + a->conversion] = o.policy->spelling;
        write_reports(res.report, a->report, a->junit);
        std::fputs(sweep_summary(res.report).c_str(), stdout);
        // An undeclared conversion is not swept: no words and no speed to report (as `run` says).
        if (res.report.totals.cases > 0 && res.report.totals.unsupported == res.report.totals.cases)
            std::fprintf(stderr, "warning: nothing was tested: subject %s %s does not declare %s\n", id.name.c_str(),
                         id.version.c_str(), conv.name.data());
        else if (!res.report.open_error.empty())
            std::fprintf(stderr, "warning: nothing was swept: the subject did not start\n");
        else
            std::printf("swept %llu words in %.3f s: %.4g words per second (%u job%s, each a worker and a checker)\n",
                        static_cast<unsigned long long>(res.words), res.seconds, res.words_per_second, o.jobs,
                        o.jobs == 1 ? "" : "s");
        if (!a->report.empty()) std::printf("report: %s\n", a->report.c_str());
        if (!a->junit.empty()) std::printf("junit: %s\n", a->junit.c_str());
        if (reports::run_failed(res.report)) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
