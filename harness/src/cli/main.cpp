// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform`: the command line of the conformance suite (docs/cli.md). Exit status 0 when
// every applicable case passed, 1 when a case failed, 2 for usage or input errors.
#include <cstdio>
#include <cstring>

#include "cmd_common.hpp"
#include "dirs.hpp"
#include "ninfer/harness/baseline.hpp"
#include "ninfer/harness/interrupt.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

std::filesystem::path bundled_plugin_dir() { return directories().plugins; }

std::string resolve_plugin(const std::string &arg) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(arg, ec)) return std::filesystem::absolute(arg).string();
    if (arg.find('/') == std::string::npos) {
        const auto p = bundled_plugin_dir() / (arg + ".so");
        if (std::filesystem::is_regular_file(p, ec)) return p.string();
    }
    std::string names;
    if (std::filesystem::is_directory(bundled_plugin_dir(), ec))
        for (const auto &e : std::filesystem::directory_iterator(bundled_plugin_dir(), ec))
            if (e.path().extension() == ".so") names += (names.empty() ? "" : ", ") + e.path().stem().string();
    throw UsageError(fmt::format("plugin '{}' not found: no such file and no bundled plugin of that name (bundled: {})",
                                 echo(arg), names.empty() ? "none" : names));
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
    CLI::App app{"ninfer-conform: conformance suite and reference oracle for the numeric tensor formats of .ninfer "
                 "artifacts (docs/cli.md)"};
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
    // A first word that is no option and no command: name it (CLI11 would only say that a
    // subcommand is required).
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        std::string names;
        for (const auto *sub : app.get_subcommands([](CLI::App *) { return true; })) {
            known = known || sub->get_name() == argv[1];
            if (!sub->get_group().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            std::fprintf(stderr, "ninfer-conform: unknown command '%s'; expected one of: %s\n", cli::echo(argv[1]).c_str(),
                         names.c_str());
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
    } catch (const CLI::ParseError &e) {
        // CLI11 repeats the offending value: show at most a bounded, escaped excerpt of it.
        std::fprintf(stderr, "%s\nRun with --help for more information.\n", ninfer::vectors::echo(e.what(), 400).c_str());
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
