// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform merge --out FILE SHARD.json...`: the reports of `run --shard I/N` or
// `sweep --shard I/N` combined into the report of the unsharded run, timings aside (docs/cli.md,
// "merge"). A refusal is one line naming the file, exit 2; nothing is written then. Otherwise the
// exit status is the merged verdict, as `run`'s is: 0 passed, 1 failed.
#include <cstdio>
#include <memory>

#include "cmd_common.hpp"
#include "dirs.hpp"
#include "ninfer/reports/merge.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness::cli {

namespace {

struct MergeArgs {
    std::string out;
    std::vector<std::string> inputs;
};

reports::ShardReport read_shard(const std::string &path) {
    std::string bytes, error;
    if (!vectors::read_file_capped(path, kMaxReportBytes, bytes, error, vectors::Begins::json_object))
        throw UsageError(fmt::format("{}: {}", echo(path), error));
    reports::ShardReport s;
    s.label = path;
    if (!vectors::parse_json_bounded(bytes, s.doc, error))
        throw UsageError(fmt::format("{}: not a JSON report ({})", echo(path), error));
    // Issue 25, item 3: only documents the shipped schema accepts are merged.
    const nlohmann::json doc(s.doc);
    if (const auto why = reports::report_schema_violation(doc); !why.empty())
        throw UsageError(fmt::format("{}: not a valid report ({}): {}", echo(path), reports::report_schema_file(doc), why));
    return s;
}

/// A run's merged cases must be the run's cases, one for one and in order: the cases this build
/// collects for the shards' vector set, level, seed and suites (a shard that left out a case and
/// reported another in its place has the right count, not the right ids). UsageError naming the
/// first case that differs and its shard (of n).
void check_run_cases(const nlohmann::ordered_json &merged, std::uint64_t n) {
    RunOptions opts;
    const auto level = merged.value("level", std::string());
    if (!suites::parse_level(level, opts.level)) throw UsageError(fmt::format("merged report: unknown level '{}'", echo(level)));
    opts.seed = merged.value("seed", std::uint64_t{0});
    opts.suites = merged.value("suites", std::vector<std::string>{});
    const auto &v = merged.at("vectors");
    const bool custom = v.value("custom", false);
    // This build's own vectors wherever merge runs; a custom set where the shards found it.
    opts.vectors_dir = custom ? std::filesystem::path(v.value("dir", std::string())) : directories().vectors;
    CaseSet set;
    try {
        set = collect_cases(opts);
    } catch (const std::exception &e) {
        throw UsageError(fmt::format("cannot collect the run's cases to check the shards against ({})", e.what()));
    }
    if (set.manifest_sha256 != v.value("manifest_sha256", std::string()))
        throw UsageError(fmt::format("the shards ran vectors with manifest {}, but {} holds manifest {}",
                                     echo(v.value("manifest_sha256", std::string())), echo(set.vectors_dir), set.manifest_sha256));
    const auto &cases = merged.at("cases");
    const std::uint64_t total = set.cases.size();
    const auto shard_of = [&](std::uint64_t k, std::uint64_t n) {
        // The shard whose slice [floor(T*I/N), floor(T*(I+1)/N)) holds position k.
        for (std::uint64_t i = 0; i < n; ++i)
            if (k < total * (i + 1) / n) return i;
        return n;
    };
    for (std::uint64_t k = 0; k < std::max<std::uint64_t>(total, cases.size()); ++k) {
        const std::string got = k < cases.size() ? cases[k].value("id", std::string()) : "(none)";
        const std::string want = k < total ? set.cases[k].c.id : "(none)";
        if (got != want)
            throw UsageError(fmt::format("case {} of the run is {} in this build but {} in the shards (shard {} of {}): a "
                                         "shard's range holds cases it does not report",
                                         k, echo(want), echo(got), shard_of(k, n), n));
    }
}

}  // namespace

void add_merge(CLI::App &app) {
    auto a = std::make_shared<MergeArgs>();
    auto *cmd = app.add_subcommand("merge", "Combine the shard reports of `run --shard` or `sweep --shard` into one report");
    cmd->add_option("--out", a->out, "write the merged JSON report here (atomically)")->required()->check(path_given());
    cmd->add_option("shards", a->inputs, "the shard reports (`--report` of each shard I/N), in any order")
        ->required()
        ->check(path_given());
    cmd->callback([a] {
        CommandFiles files;
        files.outputs = {{"--out", a->out}};
        for (const auto &p : a->inputs) files.inputs.push_back({"shard report", p});
        check_files(files);
        std::vector<reports::ShardReport> shards;
        for (const auto &p : a->inputs) shards.push_back(read_shard(p));
        reports::MergedReport merged;
        try {
            merged = reports::merge_shards(shards);
        } catch (const reports::MergeError &e) {
            throw UsageError(e.what());
        }
        const auto doc = nlohmann::ordered_json::parse(merged.json);
        if (doc.value("kind", std::string()) == "run") check_run_cases(doc, shards.size());
        reports::write_atomic(a->out, merged.json);
        std::printf("merged %zu shard report%s into %s: %s (%llu cases)\n", shards.size(), shards.size() == 1 ? "" : "s",
                    a->out.c_str(), merged.passed ? "passed" : "failed", static_cast<unsigned long long>(merged.cases));
        if (!merged.passed) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
