// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform`: the command line of the conformance suite (docs/cli.md). Exit status 0 when
// every applicable case passed, 1 when a case failed, 2 for usage or input errors.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "cmd_common.hpp"
#include "dirs.hpp"
#include "help.hpp"
#include "ninfer/harness/baseline.hpp"
#include "ninfer/harness/interrupt.hpp"
#include "ninfer/harness/suggest.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

std::filesystem::path bundled_plugin_dir() { return directories().plugins; }

/// The bundled plugins' names (file stems), sorted.
std::vector<std::string> bundled_plugin_names() {
    std::vector<std::string> names;
    std::error_code ec;
    if (std::filesystem::is_directory(bundled_plugin_dir(), ec))
        for (const auto &e : std::filesystem::directory_iterator(bundled_plugin_dir(), ec))
            if (e.path().extension() == ".so") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string resolve_plugin(const std::string &arg) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(arg, ec)) return std::filesystem::absolute(arg).string();
    // A path names one file: no bundled plugin stands in for it.
    if (arg.find('/') != std::string::npos || arg.ends_with(".so") || std::filesystem::exists(arg, ec))
        throw UsageError(std::filesystem::exists(arg, ec)
                             ? fmt::format("--plugin {}: not a regular file (expected a plugin .so)", echo(arg))
                             : fmt::format("--plugin: no such file: {}", echo(arg)));
    const auto p = bundled_plugin_dir() / (arg + ".so");
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
    throw UsageError(unknown_name_line(fmt::format("no plugin '{}' in {}", echo(arg), bundled_plugin_dir().string()), arg,
                                       bundled_plugin_names(), "ninfer-conform plugins"));
}

/// The words an app takes: its options ("--suite", "-h") and its visible commands.
std::vector<std::string> accepted_words(CLI::App &app) {
    std::vector<std::string> words;
    for (const auto *opt : app.get_options()) {
        for (const auto &n : opt->get_lnames()) words.push_back("--" + n);
        for (const auto &n : opt->get_snames()) words.push_back("-" + n);
    }
    for (const auto *sub : app.get_subcommands([](CLI::App *) { return true; }))
        if (!sub->get_group().empty()) words.push_back(sub->get_name());
    return words;
}

/// The command path of a parsed app: "ninfer-conform run", "ninfer-conform oracle geometry".
std::string command_path(const CLI::App &app) {
    return app.get_parent() ? command_path(*app.get_parent()) + " " + app.get_name() : std::string("ninfer-conform");
}

std::string unexpected_word_line(CLI::App &app) {
    // The deepest command parsed holds the words nobody took.
    CLI::App *cur = &app;
    while (!cur->get_subcommands().empty()) cur = cur->get_subcommands().front();
    for (; cur; cur = cur->get_parent()) {
        const auto left = cur->remaining();
        if (left.empty()) continue;
        const std::string word = left.front().substr(0, left.front().find('='));
        const bool option = word.starts_with("-");
        return unknown_name_line(fmt::format("{}: unknown {} '{}'", command_path(*cur), option ? "option" : "argument", echo(word)),
                                 word, accepted_words(*cur), command_path(*cur) + " --help");
    }
    return {};
}

std::string self_executable() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ninfer-conform") : p.string();
}

}  // namespace ninfer::harness::cli

int main(int argc, char **argv) {
    using namespace ninfer::harness;
    // First, before any thread starts; a worker is killed by its harness, never interrupted.
    if (argc < 2 || std::strcmp(argv[1], "worker") != 0) handle_interrupts();
    // Named, so that `Usage:` says ninfer-conform and not the executable's path.
    CLI::App app{"ninfer-conform: conformance suite and reference oracle for the numeric tensor formats of .ninfer "
                 "artifacts (docs/cli.md)",
                 "ninfer-conform"};
    app.require_subcommand(1);
    app.set_version_flag("--version", [] { return cli::directories_text(); });
    cli::add_list(app);
    cli::add_rules(app);
    cli::add_coverage(app);
    cli::add_generate(app);
    cli::add_oracle(app);
    cli::add_plugins(app);
    cli::add_report(app);
    cli::add_merge(app);
    cli::add_run(app);
    cli::add_sweep(app);
    cli::add_fingerprint(app);
    cli::add_worker(app);
    cli::shape_help(app);
    // A first word that no command and no option takes: name it, with suggestions (CLI11 would
    // only say that a subcommand is required).
    if (argc > 1) {
        const std::string word = std::string(argv[1]).substr(0, std::string_view(argv[1]).find('='));
        bool known = false;
        for (const auto *sub : app.get_subcommands([](CLI::App *) { return true; })) known = known || sub->get_name() == word;
        const bool option = word.starts_with('-');
        std::vector<std::string> names;
        for (auto &w : cli::accepted_words(app))
            if (w.starts_with('-') == option) names.push_back(std::move(w));
        if (!known && std::find(names.begin(), names.end(), word) == names.end()) {
            const std::string line = unknown_name_line(
                fmt::format("unknown {} '{}'", option ? "option" : "command", cli::echo(word)), word, names);
            std::fprintf(stderr, "ninfer-conform: %s\n", line.c_str());
            return cli::kExitUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::RuntimeError &e) {
        return e.get_exit_code();
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ExtrasError &e) {
        // A mistyped option or command: suggest the closest ones, as git and cargo do.
        if (const std::string line = cli::unexpected_word_line(app); !line.empty()) {
            std::fprintf(stderr, "%s\n", line.c_str());
            return cli::kExitUsage;
        }
        std::fprintf(stderr, "ninfer-conform: %s\nRun with --help for more information.\n",
                     ninfer::vectors::echo(e.what(), 400).c_str());
        return cli::kExitUsage;
    } catch (const CLI::ParseError &e) {
        // CLI11 repeats the offending value: show at most a bounded, escaped excerpt of it, after
        // the program's name as every other error line has it.
        std::fprintf(stderr, "ninfer-conform: %s\nRun with --help for more information.\n",
                     ninfer::vectors::echo(e.what(), 400).c_str());
        return cli::kExitUsage;
    } catch (const UsageError &e) {
        std::fprintf(stderr, "ninfer-conform: %s\n", ninfer::vectors::echo(e.what(), 2000).c_str());
        return cli::kExitUsage;
    } catch (const ninfer::vectors::VectorError &e) {
        std::fprintf(stderr, "ninfer-conform: %s\n", ninfer::vectors::echo(e.what(), 2000).c_str());
        return cli::kExitUsage;
    } catch (const BaselineError &e) {
        std::fprintf(stderr, "ninfer-conform: %s\n", ninfer::vectors::echo(e.what(), 2000).c_str());
        return cli::kExitUsage;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ninfer-conform: %s\n", ninfer::vectors::echo(e.what(), 2000).c_str());
        return cli::kExitUsage;
    }
    return 0;
}
