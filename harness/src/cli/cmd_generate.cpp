// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform generate --out DIR`: write the golden vectors of every suite and the
// manifest (vectors/README.md).
#include <cstdio>
#include <memory>

#include "cmd_common.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness::cli {

void add_generate(CLI::App &app) {
    auto *cmd = app.add_subcommand("generate", "Write the golden vectors of every suite and MANIFEST.sha256 to DIR");
    auto out = std::make_shared<std::string>();
    cmd->add_option("--out", *out, "output directory (created when missing)")->required()->check(
        path_given("a directory path"));
    cmd->callback([out] {
        std::filesystem::create_directories(*out);
        const auto unrelated = vectors::write_golden(*out);
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
