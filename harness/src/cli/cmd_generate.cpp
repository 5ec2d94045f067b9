// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform generate --out DIR`: write the golden vectors of every suite and the
// manifest (vectors/README.md).
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "cmd_common.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

void add_generate(CLI::App &app) {
    auto *cmd = app.add_subcommand("generate", "Write the golden vectors of every suite and MANIFEST.sha256 to DIR");
    auto out = std::make_shared<std::string>();
    cmd->add_option("--out", *out, "output directory (created when missing)")->required()->check(
        path_given("a directory path"));
    cmd->callback([out] {
        namespace fs = std::filesystem;
        // The directories this call creates, innermost first: removed again, when empty, if the
        // writing fails (a full disk), so that a failed generate leaves nothing behind.
        std::vector<fs::path> created;
        for (auto p = fs::absolute(*out).lexically_normal(); !p.empty() && !fs::exists(p) && p != p.parent_path(); p = p.parent_path())
            created.push_back(p);
        fs::create_directories(*out);
        std::vector<std::string> unrelated;
        try {
            unrelated = vectors::write_golden(*out);
        } catch (...) {
            for (const auto &d : created) {
                std::error_code ec;
                fs::remove(d, ec);  // only an empty directory goes
            }
            throw;
        }
        std::printf("wrote golden vectors to %s (manifest sha256 %s)\n", out->c_str(),
                    vectors::sha256_file(std::filesystem::path(*out) / "MANIFEST.sha256").c_str());
        if (!unrelated.empty()) {
            std::string names;
            for (const auto &n : unrelated) names += (names.empty() ? "" : ", ") + echo(n);
            std::fprintf(stderr, "warning: %s also holds files that are not this build's vectors, kept: %s "
                                 "(a reader refuses a vectors directory with unlisted files)\n",
                         echo(*out).c_str(), echo(names).c_str());
        }
    });
}

}  // namespace ninfer::harness::cli
