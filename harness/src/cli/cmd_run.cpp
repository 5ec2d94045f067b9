// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform run`: the suites against a plugin or an external command; reports; exit 0
// when every applicable case passed (waived failures excepted), 1 otherwise (docs/cli.md).
#include <cstdio>
#include <memory>

#include "cmd_common.hpp"
#include "dirs.hpp"
#include "ninfer/harness/baseline.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

extern const char *const kOwnManifest;  // generated at build time (vectors/tools/golden_manifest.cpp)

namespace {

struct RunArgs {
    SubjectArgs subject;
    std::string level = "quick", report, junit, baseline, vectors, custom_vectors;
    std::vector<std::string> suites;
    std::uint64_t seed = suites::kDefaultSeed;
    std::size_t max_mismatches = 8;
};

/// Refuse a vector set that is not the one this build generates, unless named as custom.
void require_own_vectors(const CaseSet &set) {
    if (set.manifest == kOwnManifest) return;
    throw vectors::VectorError(fmt::format(
        "{}: not the vector set this build generates (MANIFEST.sha256 {}; differing files: {}); regenerate it with "
        "`ninfer-conform generate --out DIR`, or name it with --custom-vectors DIR to run it as a custom set",
        echo(set.vectors_dir), set.manifest_sha256, vectors::manifest_difference(kOwnManifest, set.manifest)));
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
    cmd->add_option("--report", a->report, "write the JSON report here (atomically)");
    cmd->add_option("--junit", a->junit, "write JUnit XML here (atomically)");
    cmd->add_option("--baseline", a->baseline, "waiver file of accepted failures");
    auto *vectors = cmd->add_option("--vectors", a->vectors,
                                    "this build's golden vectors in another directory (default: the one `--version` "
                                    "names); a set the build did not generate is refused");
    auto *custom = cmd->add_option("--custom-vectors", a->custom_vectors,
                                   "run a vector set this build did not generate; the report says vectors.custom");
    vectors->excludes(custom);
    cmd->add_option("--max-mismatches", a->max_mismatches, "mismatches kept per case, 0..1000000 (default 8)")
        ->check(digits())
        ->check(CLI::Range(std::size_t{0}, kMaxMismatches));
    cmd->callback([a] {
        require_one_subject(a->subject, "run");
        RunOptions opts;
        if (!suites::parse_level(a->level, opts.level))
            throw UsageError(fmt::format("unknown level '{}'; expected one of: quick, full, exhaustive", echo(a->level)));
        opts.suites = a->suites;
        opts.seed = a->seed;
        const bool custom = !a->custom_vectors.empty();
        opts.vectors_dir = custom ? std::filesystem::path(a->custom_vectors)
                                  : (a->vectors.empty() ? directories().vectors : std::filesystem::path(a->vectors));
        opts.max_mismatches = a->max_mismatches;
        opts.progress = true;
        // Inputs and outputs first: a bad baseline, vector set or report path must not cost a run.
        check_destination(a->report, "--report");
        check_destination(a->junit, "--junit");
        std::optional<Baseline> baseline;
        if (!a->baseline.empty()) baseline = load_baseline(a->baseline);
        const CaseSet set = collect_cases(opts);
        if (custom)
            std::fprintf(stderr, "warning: custom vector set %s (manifest %s): not the set this build generates; "
                                 "the report says so (vectors.custom)\n",
                         echo(set.vectors_dir).c_str(), set.manifest_sha256.c_str());
        else
            require_own_vectors(set);
        std::fprintf(stderr, "seed %llu (include this in bug reports)\n", static_cast<unsigned long long>(opts.seed));
        reports::SubjectIdentity id;
        auto subject = open_subject(a->subject, id);
        reports::Report rep = run_cases(*subject, set, opts, id);
        rep.vectors_custom = custom;
        if (baseline) {
            apply_baseline(*baseline, rep);
            reports::finalize(rep);
        }
        write_reports(rep, a->report, a->junit);
        std::fputs(reports::render_summary(rep).c_str(), stdout);
        if (!a->report.empty()) std::printf("report: %s\n", a->report.c_str());
        if (!a->junit.empty()) std::printf("junit: %s\n", a->junit.c_str());
        // a pass over zero applicable cases says nothing about conformance: say so
        if (rep.totals.cases > 0 && rep.totals.unsupported == rep.totals.cases)
            std::fprintf(stderr, "warning: nothing was tested: subject %s %s declares none of the capabilities these "
                                 "suites test\n", id.name.c_str(), id.version.c_str());
        if (reports::run_failed(rep)) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
