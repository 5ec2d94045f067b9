// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform report --html OUT.html REPORT.json...`: one self-contained HTML page of JSON
// reports (reports/README.md, "HTML"), the matrix rows grouped by the rule catalog's family and
// spec section.
#include <cstdio>
#include <memory>

#include "cmd_common.hpp"
#include "ninfer/reports/html.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::harness::cli {

namespace {

struct ReportArgs {
    std::string html;
    std::vector<std::string> inputs;
};

/// A JSON report read within kMaxReportBytes (a regular file only), or UsageError naming it.
nlohmann::json read_report(const std::string &path) {
    std::string bytes, error;
    if (!vectors::read_file_capped(path, kMaxReportBytes, bytes, error, vectors::Begins::json_object))
        throw UsageError(fmt::format("cannot read report {}: {}", echo(path), error));
    nlohmann::json j;
    if (!vectors::parse_json_bounded(bytes, j, error))
        throw UsageError(fmt::format("{}: not JSON ({})", echo(path), error));
    return j;
}

}  // namespace

void add_report(CLI::App &app) {
    auto a = std::make_shared<ReportArgs>();
    auto *cmd = app.add_subcommand("report", "Render JSON reports (of run or sweep) as one self-contained HTML page");
    cmd->add_option("--html", a->html, "write the HTML page here (atomically)")->required()->check(path_given());
    cmd->add_option("reports", a->inputs, "JSON reports (`run --report`, `sweep --report`), one matrix column each")
        ->required()
        ->check(path_given());
    cmd->callback([a] {
        CommandFiles files;
        files.outputs = {{"--html", a->html}};
        for (const auto &p : a->inputs) files.inputs.push_back({"report", p});
        check_files(files);
        std::vector<reports::HtmlSource> sources;
        for (const auto &p : a->inputs) {
            auto j = read_report(p);
            std::string label = std::filesystem::path(p).stem().string();
            // v2 reports of older builds still render (issue 35); their locations are text only.
            if (!reports::is_report_schema(j))
                throw UsageError(fmt::format("{}: not a report of schema {}", echo(p), reports::kSchemaId));
            // Issue 25, item 3: a page only of documents the shipped schema accepts.
            if (const auto why = reports::report_schema_violation(j); !why.empty())
                throw UsageError(fmt::format("{}: not a valid report ({}): {}", echo(p), reports::report_schema_file(j), why));
            sources.push_back({std::move(label), std::move(j)});
        }
        std::map<std::string, reports::HtmlRuleInfo> catalog;
        for (const auto &r : suites::rule_catalog()) catalog[r.id] = {r.group, r.section};
        reports::write_atomic(a->html, reports::render_html(sources, catalog));
        std::printf("wrote %s (%zu report%s)\n", a->html.c_str(), sources.size(), sources.size() == 1 ? "" : "s");
    });
}

}  // namespace ninfer::harness::cli
