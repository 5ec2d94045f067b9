// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform merge --out FILE SHARD.json...`: the reports of `run --shard I/N` or
// `sweep --shard I/N` combined into the report of the unsharded run, timings aside (docs/cli.md,
// "merge"). A refusal is one line naming the file, exit 2; nothing is written then. Otherwise the
// exit status is the merged verdict, as `run`'s is: 0 passed, 1 failed.
#include <cstdio>
#include <memory>

#include "cmd_common.hpp"
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
    if (!vectors::read_file_capped(path, kMaxReportBytes, bytes, error))
        throw UsageError(fmt::format("{}: {}", echo(path), error));
    reports::ShardReport s;
    s.label = path;
    if (!vectors::parse_json_bounded(bytes, s.doc, error))
        throw UsageError(fmt::format("{}: not a JSON report ({})", echo(path), error));
    return s;
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
        reports::write_atomic(a->out, merged.json);
        std::printf("merged %zu shard report%s into %s: %s (%llu cases)\n", shards.size(), shards.size() == 1 ? "" : "s",
                    a->out.c_str(), merged.passed ? "passed" : "failed", static_cast<unsigned long long>(merged.cases));
        if (!merged.passed) throw CLI::RuntimeError(kExitFail);
    });
}

}  // namespace ninfer::harness::cli
