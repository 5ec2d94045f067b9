// SPDX-License-Identifier: Apache-2.0
// Directory discovery of the CLI (docs/cli.md, "Directories"). The build tree is recognised by
// the executable's own location, never by whether the build tree exists: an installed binary
// on a machine that still has the build tree uses its prefix only.
#include "dirs.hpp"

#include <fmt/format.h>

#include "ninfer/harness/runner.hpp"

namespace ninfer::harness::cli {

namespace fs = std::filesystem;

namespace {

/// Canonical when it exists, else lexically normal: a comparison key for directories.
fs::path normal_dir(const fs::path &p) {
    std::error_code ec;
    auto c = fs::weakly_canonical(p, ec);
    return (ec ? p : c).lexically_normal();
}

fs::path self_exe_path() {
    std::error_code ec;
    const auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : p;
}

}  // namespace

Directories directories_for(const fs::path &exe) {
    Directories d;
    d.exe = exe;
    const fs::path dir = normal_dir(exe.parent_path());
    if (!exe.empty() && dir == normal_dir(NINFER_CLI_BUILD_DIR)) {
        d.mode = "build tree";
        d.plugins = NINFER_PLUGIN_BUILD_DIR;
        d.vectors = NINFER_VECTORS_BUILD_DIR;
        return d;
    }
    d.mode = "installed";
    d.plugins = (dir / NINFER_PLUGIN_DIR_FROM_BIN).lexically_normal();
    d.vectors = (dir / NINFER_VECTORS_DIR_FROM_BIN).lexically_normal();
    return d;
}

const Directories &directories() {
    static const Directories d = directories_for(self_exe_path());
    return d;
}

std::string directories_text() {
    const auto &d = directories();
    return fmt::format("ninfer-conform {}\nexecutable: {} ({})\nplugins:    {}\nvectors:    {}", suite_version(),
                       d.exe.string(), d.mode, d.plugins.string(), d.vectors.string());
}

}  // namespace ninfer::harness::cli
