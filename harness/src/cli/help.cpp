// SPDX-License-Identifier: Apache-2.0
// Issue 32, item 8: the layout of `--help` (help.hpp): groups and examples are data here, one
// table, so that a command's file keeps only its options and their descriptions.
#include "help.hpp"

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ninfer::harness::cli {

namespace {

/// Options by group, per command path ("run", "oracle encode"); an option the table does not
/// name stays in CLI11's "Options" group. Names a build lacks are skipped.
const std::map<std::string, std::vector<std::pair<const char *, std::vector<const char *>>>> &option_groups() {
    static const std::map<std::string, std::vector<std::pair<const char *, std::vector<const char *>>>> groups = {
        {"run",
         {{"Subject", {"--plugin", "--exec", "--timeout-ms", "--memory-limit-mib"}},
          {"Choosing cases", {"--suite", "--level", "--seed", "--shard", "--rule", "--case", "--rerun-failed", "--pin",
                              "--policy", "--vectors", "--custom-vectors"}},
          {"Running", {"--jobs", "--max-mismatches", "--case-cache", "--case-cache-key", "--fail-fast", "--max-failures"}},
          {"Outputs", {"--report", "--junit", "--summary-md", "--fingerprint", "--no-fingerprint", "--write-baseline"}},
          {"CI gates", {"--baseline", "--fail-on-stale-waivers", "--previous"}}}},
        {"sweep",
         {{"Subject", {"--plugin", "--exec", "--timeout-ms", "--memory-limit-mib"}},
          {"Words swept", {"--conversion", "--start", "--count", "--shard"}},
          {"Running", {"--batch", "--jobs", "--expected", "--policy", "--max-mismatches", "--fail-fast", "--max-failures"}},
          {"Judging NaNs", {"--nan-payload", "--nan-sign"}},
          {"Outputs", {"--report", "--junit"}}}},
        {"fingerprint",
         {{"Subject", {"--plugin", "--exec", "--timeout-ms", "--memory-limit-mib"}},
          {"What to fingerprint", {"--conversion", "--format", "--all", "--op", "--domain"}},
          {"Running and output", {"--jobs", "--json"}}}},
        {"plugins",
         {{"Listing", {"--dir", "--capabilities", "--json"}}, {"Asking each plugin", {"--timeout-ms", "--memory-limit-mib"}}}},
    };
    return groups;
}

/// One example per command path, each line within kHelpWidth.
const std::map<std::string, const char *> &examples() {
    static const std::map<std::string, const char *> table = {
        {"list", "ninfer-conform list --json"},
        {"rules", "ninfer-conform rules --json"},
        {"coverage", "ninfer-conform coverage --level full"},
        {"generate", "ninfer-conform generate --out vectors"},
        {"oracle", "ninfer-conform oracle < requests.jsonl   # one JSON request a line, one JSON answer a line"},
        {"oracle convert", "ninfer-conform oracle convert --conversion fp32_to_bf16_rne --word 3f808000"},
        {"oracle classify", "ninfer-conform oracle classify --format bf16 --word 7fc1"},
        {"oracle validate", "ninfer-conform oracle validate --role grouped_fp16_scale --word 8000"},
        {"oracle geometry", "ninfer-conform oracle geometry --format nvfp4 --shape 256,128"},
        {"oracle pack", "ninfer-conform oracle pack --format fp8_e4m3fn_row_fp16 --shape 2,3 --codes 010203040506 "
                        "--scales 003c0040"},
        {"oracle unpack", "ninfer-conform oracle unpack --format fp8_e4m3fn_row_fp16 --shape 2,3 --payload "
                          "010203003c0405060040"},
        {"oracle encode", "ninfer-conform oracle encode --format gguf_q8_0 --method ggml_quantize_ref --source-type fp32 "
                          "\\\n      --shape 4,4096 --input w.f32 --output w.q8_0"},
        {"oracle decode", "ninfer-conform oracle decode --format nvfp4 --shape 256,128 --input w.nvfp4 --values w.f32"},
        {"plugins", "ninfer-conform plugins --capabilities"},
        {"run", "ninfer-conform run --plugin ./libmine.so --level full --report r.json --junit r.xml"},
        {"sweep", "ninfer-conform sweep --plugin ./libmine.so --conversion fp32_to_bf16_rne --report sweep.json"},
        {"fingerprint", "ninfer-conform fingerprint --plugin mutant_e4m3_decode_subnormal --op decode --format e4m3fn"},
        {"report", "ninfer-conform report --html page.html ref.json mutant.json"},
        {"merge", "ninfer-conform merge --out run.json shard-0.json shard-1.json shard-2.json"},
    };
    return table;
}

/// `text` in lines of at most `width` columns (words longer than that on a line of their own),
/// every line after the first indented by `indent` spaces.
std::string wrapped(const std::string &text, std::size_t width, std::size_t indent, std::size_t first_used) {
    std::string out, line;
    std::size_t used = first_used;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        if (!line.empty() && used + 1 + w.size() > width) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
            used = indent;
        }
        used += (line.empty() ? 0 : 1) + w.size();
        line += (line.empty() ? "" : " ") + w;
    }
    return out + line;
}

/// CLI11's formatter with every description wrapped to kHelpWidth.
class WrappingFormatter : public CLI::Formatter {
public:
    std::string make_option(const CLI::Option *opt, bool is_positional) const override {
        const std::string name = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
        const std::string desc = make_option_desc(opt);
        const std::size_t col = get_column_width();
        if (desc.empty()) return name + "\n";
        if (name.size() + 1 > col) return name + "\n" + std::string(col, ' ') + wrapped(desc, kHelpWidth, col, col) + "\n";
        return name + std::string(col - name.size(), ' ') + wrapped(desc, kHelpWidth, col, col) + "\n";
    }
    std::string make_subcommand(const CLI::App *sub) const override {
        const std::string name = "  " + sub->get_display_name(true);
        const std::size_t col = get_column_width();
        const std::string pad = name.size() + 1 > col ? "\n" + std::string(col, ' ') : std::string(col - name.size(), ' ');
        return name + pad + wrapped(sub->get_description(), kHelpWidth, col, col) + "\n";
    }
    std::string make_description(const CLI::App *app) const override {
        std::string out;
        std::istringstream lines(CLI::Formatter::make_description(app));
        for (std::string line; std::getline(lines, line);) out += wrapped(line, kHelpWidth, 0, 0) + "\n";
        return out;
    }
};

std::string path_of(const CLI::App &app) {
    return app.get_parent() && app.get_parent()->get_parent() ? path_of(*app.get_parent()) + " " + app.get_name()
                                                               : app.get_name();
}

void shape(CLI::App &app, const std::shared_ptr<CLI::FormatterBase> &formatter) {
    app.formatter(formatter);
    if (app.get_parent()) {
        const std::string path = path_of(app);
        if (const auto g = option_groups().find(path); g != option_groups().end())
            for (const auto &[group, names] : g->second)
                for (const char *name : names)
                    if (CLI::Option *opt = app.get_option_no_throw(name)) opt->group(group);
        if (const auto ex = examples().find(path); ex != examples().end()) app.footer(std::string("Example:\n  ") + ex->second);
    }
    for (CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; })) shape(*sub, formatter);
}

}  // namespace

void shape_help(CLI::App &app) {
    auto formatter = std::make_shared<WrappingFormatter>();
    formatter->column_width(32);
    shape(app, formatter);
}

}  // namespace ninfer::harness::cli
